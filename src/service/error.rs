//! Errors of the service: a [`UserError`] is the person's to fix and is
//! shown to them as it is; anything else is the bot's fault, logged once at
//! the edge and shown as a short apology.

use crate::{i18n::Msg, store::StoreError};

/// A message for the person who sent the command, put into words in their
/// language when it is shown. Nothing was changed.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{0}")]
pub struct UserError(pub Msg);

impl UserError {
    /// Text already made (shown as it is in every language).
    pub fn new(message: impl Into<String>) -> UserError {
        UserError(Msg::verbatim(message))
    }

    /// A catalogue message (see [`msg!`](crate::msg)).
    pub fn msg(message: Msg) -> UserError {
        UserError(message)
    }
}

/// Why a command failed.
#[derive(Debug, thiserror::Error)]
pub enum ServiceError {
    #[error(transparent)]
    User(#[from] UserError),
    #[error("store: {0}")]
    Store(#[from] StoreError),
    #[error("internal: {0}")]
    Internal(String),
    /// A move judged on a kept view of its game (`session.rs`) could not be
    /// committed because a row of that view had changed: nothing was
    /// written, and the move path judges it again on a fresh read. Never
    /// leaves [`Service::play_move_at`](super::Service).
    #[error("internal: the kept view of a game was stale")]
    KeptViewStale,
}

/// Shorthand for a user error result.
pub fn refuse<T>(message: impl Into<String>) -> Result<T, ServiceError> {
    Err(ServiceError::User(UserError::new(message)))
}

/// Refuses with a catalogue message, shown in the asker's language:
/// `refuse_msg(msg!("id", name = value))`.
pub fn refuse_msg<T>(message: Msg) -> Result<T, ServiceError> {
    Err(ServiceError::User(UserError::msg(message)))
}

/// The most characters any text option may have; more is refused before
/// any work is done.
pub const MAX_OPTION_CHARS: usize = 200;

/// Refuses oversized text, naming the option.
pub fn check_length(option: &str, text: &str, limit: usize) -> Result<(), ServiceError> {
    let n = text.chars().count();
    if n > limit {
        return refuse_msg(crate::msg!(
            "error-option-too-long",
            option = option,
            count = n,
            limit = limit
        ));
    }
    Ok(())
}

/// Text safe to echo back: no markdown or mentions, at most `limit` chars.
pub fn echo(text: &str, limit: usize) -> String {
    let cleaned: String = text
        .chars()
        .filter(|c| !c.is_control())
        .map(|c| match c {
            '`' | '*' | '_' | '~' | '|' | '@' | '<' | '>' | '#' => ' ',
            c => c,
        })
        .collect();
    let trimmed = cleaned.trim();
    if trimmed.chars().count() > limit {
        let cut: String = trimmed.chars().take(limit).collect();
        format!("{cut}…")
    } else {
        trimmed.to_owned()
    }
}
