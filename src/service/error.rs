//! Errors of the service: a [`UserError`] is the person's to fix and is
//! shown to them as it is; anything else is the bot's fault, logged once at
//! the edge and shown as a short apology.

use crate::store::StoreError;

/// A message for the person who sent the command. Nothing was changed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct UserError(pub String);

impl UserError {
    pub fn new(message: impl Into<String>) -> UserError {
        UserError(message.into())
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
}

/// Shorthand for a user error result.
pub fn refuse<T>(message: impl Into<String>) -> Result<T, ServiceError> {
    Err(ServiceError::User(UserError::new(message)))
}

/// The most characters any text option may have; more is refused before
/// any work is done.
pub const MAX_OPTION_CHARS: usize = 200;

/// Refuses oversized text, naming the option.
pub fn check_length(option: &str, text: &str, limit: usize) -> Result<(), ServiceError> {
    let n = text.chars().count();
    if n > limit {
        return refuse(format!(
            "`{option}` is too long ({n} characters; at most {limit})."
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
