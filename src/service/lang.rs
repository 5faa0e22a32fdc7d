//! Which language and move notation a message is written in. The service
//! decides, not the adapters:
//! - a private reply (ephemeral, a refusal, a DM answer to a command) speaks
//!   the asker's client locale ([`Actor::lang`]);
//! - a public message (a board, an announcement, a scheduler notice in a
//!   channel) speaks the server's language: `/settings language` if a
//!   moderator chose one, else the server's Discord locale (`guild_locale`,
//!   recorded when commands arrive), else English;
//! - a direct message sent with no command to answer (the daily summary)
//!   speaks the player's last known client locale;
//! - moves in public messages follow `/settings notation`, else Chinese
//!   piece names on a Chinese server and letters elsewhere.

use std::{collections::HashMap, sync::Mutex};

use super::{error::ServiceError, session::Session, Actor, Service};
use crate::{chess::Notation, i18n::Lang, store::ServerSettings};

/// The language of a server's public messages, from its settings.
pub fn settings_lang(settings: &ServerSettings) -> Lang {
    match settings.language.as_deref().and_then(Lang::parse) {
        Some(lang) => lang,
        None => Lang::from_locale(settings.discord_locale.as_deref()),
    }
}

/// How a server's public messages write moves, from its settings.
pub fn settings_notation(settings: &ServerSettings) -> Notation {
    match settings.notation.as_deref().and_then(Notation::from_id) {
        Some(notation) => notation,
        None => default_notation(settings_lang(settings)),
    }
}

/// The notation a language reads best: the seeds' piece names in Chinese.
pub const fn default_notation(lang: Lang) -> Notation {
    match lang {
        Lang::En => Notation::Letters,
        Lang::ZhCn => Notation::Chinese,
    }
}

/// Server → the Discord locale this process last recorded for it, so a
/// command does not rewrite an unchanged locale.
#[derive(Default)]
pub(super) struct KnownServerLocales(Mutex<HashMap<String, Option<String>>>);

/// Upper bound on remembered servers; past it the map starts over.
const LIMIT: usize = 100_000;

impl Service {
    /// The language of public messages in `server` (boards, announcements,
    /// notices). English when the server cannot be read.
    pub async fn server_lang(&self, server: &str) -> Lang {
        match self.store().server(server).await {
            Ok(settings) => settings_lang(&settings),
            Err(e) => {
                tracing::warn!(server, error = %e, "server language unread; English");
                Lang::En
            }
        }
    }

    /// The language and notation of a game's public messages.
    pub(super) async fn session_words(
        &self,
        session: &Session,
    ) -> Result<(Lang, Notation), ServiceError> {
        let settings = self.settings_of(session).await?;
        Ok((settings_lang(settings), settings_notation(settings)))
    }

    /// Records the server's Discord locale when it is new to this process.
    pub(super) async fn note_server_locale(&self, actor: &Actor) -> Result<(), ServiceError> {
        let Some(locale) = actor.server_locale.as_deref() else {
            return Ok(());
        };
        {
            let known = self
                .inner
                .server_locales
                .0
                .lock()
                .unwrap_or_else(|e| e.into_inner());
            if known
                .get(&actor.server)
                .is_some_and(|l| l.as_deref() == Some(locale))
            {
                return Ok(());
            }
        }
        self.store()
            .set_discord_locale(&actor.server, Some(locale))
            .await?;
        let mut known = self
            .inner
            .server_locales
            .0
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        if known.len() >= LIMIT {
            known.clear();
        }
        known.insert(actor.server.clone(), Some(locale.to_owned()));
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_setting_wins_then_discord_then_english() {
        let mut s = ServerSettings::defaults("s");
        assert_eq!(settings_lang(&s), Lang::En);
        assert_eq!(settings_notation(&s), Notation::Letters);
        s.discord_locale = Some("zh-CN".to_owned());
        assert_eq!(settings_lang(&s), Lang::ZhCn);
        assert_eq!(settings_notation(&s), Notation::Chinese);
        s.language = Some("en".to_owned());
        assert_eq!(settings_lang(&s), Lang::En);
        s.notation = Some("chinese".to_owned());
        assert_eq!(settings_notation(&s), Notation::Chinese);
        s.discord_locale = Some("fr".to_owned());
        s.language = None;
        assert_eq!(settings_lang(&s), Lang::En);
    }
}
