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

/// A thread's texts, and the key of the call being looked up, written into
/// one buffer kept between calls: a text found here costs no allocation but
/// its copy. Keys are hashed with foldhash (the hash hashbrown builds),
/// seeded at random per process as the standard library's SipHash is (the
/// arguments hold players' names), but cheaper on keys this short. With the
/// buffer, that took the bench's lookups from 90.5 M to 71.8 M instructions
/// (docs/benchmarks.md, "three trims of the bot's side of a move").
#[derive(Default)]
struct Kept {
    texts: HashMap<Box<str>, Box<str>, foldhash::fast::RandomState>,
    key: String,
}

thread_local! {
    static KEPT: RefCell<Kept> = RefCell::default();
}

/// Writes the key of a call worth keeping into `key` (emptied first);
/// `false` if its arguments are too long to keep.
fn write_key(key: &mut String, lang: Lang, id: &str, args: &[(&str, Arg)]) -> bool {
    let mut bytes = 0;
    for (_, value) in args {
        bytes += match value {
            Arg::Str(s) => s.len(),
            Arg::Num(_) => 8,
        };
    }
    key.clear();
    if bytes > ARGS_BYTES {
        return false;
    }
    // Each text argument is written with its length, so no text (a
    // player's name may hold any character) can pass for another split of
    // the arguments; a number is keyed by its bits.
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
    true
}

/// The text of the call `lang`, `id`, `args`: kept, or made by `format`
/// (and kept if its arguments are short).
pub(super) fn text_of(
    lang: Lang,
    id: &str,
    args: &[(&str, Arg)],
    format: impl FnOnce() -> String,
) -> String {
    let worth = KEPT.with_borrow_mut(|kept| {
        let Kept { texts, key } = kept;
        if !write_key(key, lang, id, args) {
            return Err(false);
        }
        texts.get(key.as_str()).map(|t| t.to_string()).ok_or(true)
    });
    match worth {
        Ok(text) => text,
        Err(keep) => {
            // Formatted outside the borrow: Fluent may format another
            // message (a term) on this thread meanwhile.
            let text = format();
            if keep {
                KEPT.with_borrow_mut(|kept| {
                    let Kept { texts, key } = kept;
                    // The key buffer may have been reused meanwhile.
                    if !write_key(key, lang, id, args) {
                        return;
                    }
                    if texts.len() >= ENTRIES {
                        texts.clear();
                    }
                    texts.insert(key.as_str().into(), text.as_str().into());
                });
            }
            text
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_tell_calls_apart() {
        let s = |v: &str| Arg::Str(v.to_owned());
        let key = |lang, id, args: &[(&str, Arg)]| {
            let mut key = String::new();
            write_key(&mut key, lang, id, args).then_some(key)
        };
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
    fn long_arguments_are_formatted_every_time_and_never_kept() {
        use crate::t;
        let long = "n".repeat(ARGS_BYTES + 1);
        let before = KEPT.with_borrow(|kept| kept.texts.len());
        for _ in 0..2 {
            let text = t!(Lang::En, "board-draw-offer", name = long.as_str());
            assert_eq!(text, format!("{long} offers a draw"));
        }
        assert_eq!(KEPT.with_borrow(|kept| kept.texts.len()), before);
        // A short one is kept once, and answered from there the second time.
        for _ in 0..2 {
            assert_eq!(
                t!(Lang::En, "board-draw-offer", name = "Ann"),
                "Ann offers a draw"
            );
        }
        assert_eq!(KEPT.with_borrow(|kept| kept.texts.len()), before + 1);
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
