//! The help text, in the asker's language: a title and one section per
//! topic, as a card. Each section is an embed field on Discord (at most
//! 1,024 characters, 6,000 in all: the whole help fits, where one message's
//! 2,000 characters cut it mid-sentence); the console prints them in turn.

use super::{Card, Reply};
use crate::{i18n::Lang, t};

pub(super) fn help(lang: Lang) -> Reply {
    let fields = vec![
        (t!(lang, "help-play-name"), t!(lang, "help-play")),
        (t!(lang, "help-casual-name"), t!(lang, "help-casual")),
        (t!(lang, "help-time-name"), t!(lang, "help-time")),
        (t!(lang, "help-adjourn-name"), t!(lang, "help-adjourn")),
        (t!(lang, "help-computer-name"), t!(lang, "help-computer")),
        (t!(lang, "help-draws-name"), t!(lang, "help-draws")),
        (t!(lang, "help-ladder-name"), t!(lang, "help-ladder")),
        (
            t!(lang, "help-tournaments-name"),
            t!(lang, "help-tournaments"),
        ),
        (t!(lang, "help-server-name"), t!(lang, "help-server")),
    ];
    Reply {
        card: Some(Card {
            title: t!(lang, "help-title"),
            fields,
            ..Card::default()
        }),
        ..Reply::private(String::new())
    }
}
