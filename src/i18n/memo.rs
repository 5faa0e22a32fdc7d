//! Messages already formatted, kept for calls that come again.
//!
//! Formatting a message with Fluent costs about a microsecond (the id's
//! lookup, the arguments' map, the pattern resolved into a new string), and
//! a move's answer formats some twenty: the board's labels, the players'
//! names in its title, the time control, the opening's family, its alt
//! text. Most come again on the next move of the same game with the same
//! arguments. A message's text depends on nothing but its language, id and
//! arguments (the catalogues are fixed at build time), so a text formatted
//! once can be answered again from here.
//!
//! Only calls whose arguments are short are kept: long ones (the pieces of
//! each side in the alt text) are different every move. Each thread keeps
//! its own texts (no lock between the runtime's workers, which format at
//! the same time), emptied when full, so none grows past [`ENTRIES`].

use std::{cell::RefCell, collections::HashMap, fmt::Write};

use super::{Arg, Lang};

/// Most texts kept.
const ENTRIES: usize = 4096;

/// Longest arguments (in bytes, all together) of a call that is kept.
const ARGS_BYTES: usize = 64;

thread_local! {
    static KEPT: RefCell<HashMap<String, String>> = RefCell::default();
}

/// The key of a call worth keeping, `None` if its arguments are too long.
pub(super) fn key(lang: Lang, id: &str, args: &[(&str, Arg)]) -> Option<String> {
    let mut bytes = 0;
    for (_, value) in args {
        bytes += match value {
            Arg::Str(s) => s.len(),
            Arg::Num(_) => 8,
        };
    }
    if bytes > ARGS_BYTES {
        return None;
    }
    // Each text argument is written with its length, so no text (a
    // player's name may hold any character) can pass for another split of
    // the arguments; a number is keyed by its bits.
    let mut key = String::with_capacity(id.len() + bytes + 8 * args.len() + 4);
    key.push_str(lang.code());
    key.push('\u{1f}');
    key.push_str(id);
    for (name, value) in args {
        key.push('\u{1f}');
        key.push_str(name);
        match value {
            Arg::Str(s) => {
                let _ = write!(key, "={}:", s.len());
                key.push_str(s);
            }
            Arg::Num(n) => {
                let _ = write!(key, "#{:x}", n.to_bits());
            }
        }
    }
    Some(key)
}

/// The text kept for `key`, if any.
pub(super) fn get(key: &str) -> Option<String> {
    KEPT.with_borrow(|kept| kept.get(key).cloned())
}

/// Keeps `text` for `key`.
pub(super) fn keep(key: String, text: &str) {
    KEPT.with_borrow_mut(|kept| {
        if kept.len() >= ENTRIES {
            kept.clear();
        }
        kept.insert(key, text.to_owned());
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_tell_calls_apart() {
        let s = |v: &str| Arg::Str(v.to_owned());
        let a = key(Lang::En, "m", &[("x", s("a")), ("y", s("bc"))]);
        let b = key(Lang::En, "m", &[("x", s("ab")), ("y", s("c"))]);
        let c = key(Lang::ZhCn, "m", &[("x", s("a")), ("y", s("bc"))]);
        let d = key(Lang::En, "m", &[("x", Arg::Num(1.0)), ("y", s("bc"))]);
        // A text that holds the separator and what would follow it.
        let e = key(Lang::En, "m", &[("x", s("a\u{1f}y=bc"))]);
        let f = key(Lang::En, "m", &[("x", s("a")), ("y", s("bc"))]);
        assert!(a.is_some());
        assert_ne!(a, b);
        assert_ne!(a, c);
        assert_ne!(a, d);
        assert_ne!(e, f);
        assert_eq!(key(Lang::En, "m", &[("x", s(&"p".repeat(65)))]), None);
    }

    #[test]
    fn a_text_formatted_again_is_the_same_in_each_language() {
        use crate::t;
        for _ in 0..2 {
            assert_eq!(t!(Lang::En, "days", count = 3), "3 days");
            assert_eq!(t!(Lang::ZhCn, "days", count = 3), "3天");
            assert_eq!(t!(Lang::En, "days", count = 1), "1 day");
        }
    }
}
