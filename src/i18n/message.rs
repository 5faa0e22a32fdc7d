//! A message not yet put into words: its catalogue id and arguments.

use std::fmt;

use super::{tr, Lang};

/// An argument of a message: text, or a number (which chooses plural forms).
#[derive(Clone, Debug, PartialEq)]
pub enum Arg {
    Str(String),
    Num(f64),
}

impl From<&str> for Arg {
    fn from(s: &str) -> Arg {
        Arg::Str(s.to_owned())
    }
}

impl From<String> for Arg {
    fn from(s: String) -> Arg {
        Arg::Str(s)
    }
}

impl From<&String> for Arg {
    fn from(s: &String) -> Arg {
        Arg::Str(s.clone())
    }
}

impl From<f64> for Arg {
    fn from(n: f64) -> Arg {
        Arg::Num(n)
    }
}

macro_rules! number_args {
    ($($t:ty),*) => {$(
        impl From<$t> for Arg {
            fn from(n: $t) -> Arg {
                // Counts, ids and minutes: far inside f64's exact integers.
                Arg::Num(n as f64)
            }
        }
    )*};
}
number_args!(i32, i64, u8, u16, u32, u64, usize);

/// A catalogue message with its arguments; [`Msg::text`] puts it into words.
#[derive(Clone, Debug, PartialEq)]
pub struct Msg {
    id: &'static str,
    args: Vec<(&'static str, Arg)>,
    /// Text made already (a name, a move, an older message): shown as it is
    /// in every language.
    verbatim: Option<String>,
}

impl Msg {
    /// A message of the catalogues (use [`msg!`](crate::msg)).
    pub fn new(id: &'static str, args: Vec<(&'static str, Arg)>) -> Msg {
        Msg {
            id,
            args,
            verbatim: None,
        }
    }

    /// Text that needs no translation, shown as it is.
    pub fn verbatim(text: impl Into<String>) -> Msg {
        Msg {
            id: "",
            args: Vec::new(),
            verbatim: Some(text.into()),
        }
    }

    /// The catalogue id (empty for verbatim text).
    pub fn id(&self) -> &'static str {
        self.id
    }

    /// The message in `lang`.
    pub fn text(&self, lang: Lang) -> String {
        match &self.verbatim {
            Some(text) => text.clone(),
            None => tr(lang, self.id, &self.args),
        }
    }
}

/// In English: for logs and `Display` of errors.
impl fmt::Display for Msg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text(Lang::En))
    }
}
