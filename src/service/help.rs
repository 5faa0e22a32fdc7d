//! The help text, in the asker's language.

use super::Reply;
use crate::{i18n::Lang, t};

pub(super) fn help(lang: Lang) -> Reply {
    Reply::private(t!(lang, "help"))
}
