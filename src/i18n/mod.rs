//! The bot's languages: every text a person reads comes from a message
//! catalogue (Project Fluent files under `locales/<lang>/*.ftl`, embedded in
//! the binary at build time), in English and Simplified Chinese.
//!
//! The service chooses the language (a private reply in the user's locale,
//! a public message in the server's language) and asks for text with
//! [`t!`](crate::t) or, when the text is made later than the decision to
//! say it (an error raised deep in a verb and shown at the edge), keeps a
//! [`Msg`] built with [`msg!`](crate::msg). Adapters pass locales in; they
//! never translate.
//!
//! ```
//! use chessbot::{i18n::Lang, t};
//! assert_eq!(t!(Lang::En, "days", count = 1), "1 day");
//! assert_eq!(t!(Lang::En, "days", count = 3), "3 days");
//! assert_eq!(t!(Lang::ZhCn, "days", count = 3), "3天");
//! ```

mod catalogue;
mod join;
mod lang;
mod memo;
mod message;

pub use catalogue::{catalogue_errors, catalogue_ids, catalogue_variables, tr};
pub use join::{join_list, join_sentences};
pub use lang::Lang;
pub use message::{Arg, Msg};

/// Text of a catalogue message in a language:
/// `t!(lang, "id", name = value, …)`. Arguments are strings or numbers
/// (numbers choose plural forms).
#[macro_export]
macro_rules! t {
    ($lang:expr, $id:literal $(, $name:ident = $value:expr)* $(,)?) => {
        $crate::i18n::tr(
            $lang,
            $id,
            &[$((stringify!($name), $crate::i18n::Arg::from($value))),*],
        )
    };
}

/// A catalogue message with its arguments, to be put into words later in
/// the reader's language: `msg!("id", name = value, …)`.
#[macro_export]
macro_rules! msg {
    ($id:literal $(, $name:ident = $value:expr)* $(,)?) => {
        $crate::i18n::Msg::new(
            $id,
            vec![$((stringify!($name), $crate::i18n::Arg::from($value))),*],
        )
    };
}
