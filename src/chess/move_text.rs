//! [`MoveText`]: a move written out (SAN such as `Qxf7#`, UCI such as
//! `e7e8q`), kept inline instead of on the heap.
//!
//! A game keeps two of these for every ply, and the move path copies the
//! game (a session's working copy, the cache's copy): as `String`s that was
//! two heap allocations per ply per copy, hundreds per move in a long game.
//! Inline, copying a game's plies is one `memcpy`.

use std::{borrow::Borrow, fmt, ops::Deref};

/// Longest text kept inline; SAN is at most 7 characters (`Qa1xb2+`,
/// `exd8=Q#`) and UCI at most 5 (`e7e8q`), so longer text only comes from
/// elsewhere and is kept on the heap.
const INLINE: usize = 22;

/// A move's SAN or UCI text. Reads as a `&str` (it derefs to one) and
/// compares equal to the same text as `str` or `String`.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MoveText(Repr);

#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Repr {
    Inline { len: u8, bytes: [u8; INLINE] },
    Heap(Box<str>),
}

impl MoveText {
    pub fn new(text: &str) -> MoveText {
        MoveText(match text.len() {
            len if len <= INLINE => {
                let mut bytes = [0; INLINE];
                bytes[..len].copy_from_slice(text.as_bytes());
                Repr::Inline {
                    len: len as u8,
                    bytes,
                }
            }
            _ => Repr::Heap(text.into()),
        })
    }

    pub fn as_str(&self) -> &str {
        match &self.0 {
            // The bytes are a copy of a `str`'s, cut at its end.
            Repr::Inline { len, bytes } => std::str::from_utf8(&bytes[..usize::from(*len)])
                .expect("inline move text is a str's bytes"),
            Repr::Heap(text) => text,
        }
    }
}

impl Deref for MoveText {
    type Target = str;

    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for MoveText {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl Borrow<str> for MoveText {
    fn borrow(&self) -> &str {
        self.as_str()
    }
}

impl From<&str> for MoveText {
    fn from(text: &str) -> MoveText {
        MoveText::new(text)
    }
}

impl From<String> for MoveText {
    fn from(text: String) -> MoveText {
        MoveText::new(&text)
    }
}

impl From<MoveText> for String {
    fn from(text: MoveText) -> String {
        text.as_str().to_owned()
    }
}

impl fmt::Display for MoveText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for MoveText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl PartialEq<str> for MoveText {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for MoveText {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<String> for MoveText {
    fn eq(&self, other: &String) -> bool {
        self.as_str() == other.as_str()
    }
}

impl PartialEq<MoveText> for str {
    fn eq(&self, other: &MoveText) -> bool {
        self == other.as_str()
    }
}

impl PartialEq<MoveText> for &str {
    fn eq(&self, other: &MoveText) -> bool {
        *self == other.as_str()
    }
}

impl PartialEq<MoveText> for String {
    fn eq(&self, other: &MoveText) -> bool {
        self.as_str() == other.as_str()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_back_what_it_was_given() {
        for text in [
            "", "e4", "Qa1xb2+", "exd8=Q#", "e7e8q", "P@e4", "O-O-O", "ä→中",
        ] {
            let kept = MoveText::new(text);
            assert_eq!(kept.as_str(), text);
            assert_eq!(kept, text);
            assert_eq!(kept.to_string(), text);
            assert_eq!(format!("{kept:?}"), format!("{text:?}"));
        }
    }

    #[test]
    fn long_text_goes_to_the_heap_and_still_reads_back() {
        let long = "x".repeat(INLINE + 1);
        let kept = MoveText::new(&long);
        assert!(matches!(kept.0, Repr::Heap(_)));
        assert_eq!(kept, long);
        let edge = "y".repeat(INLINE);
        assert!(matches!(MoveText::new(&edge).0, Repr::Inline { .. }));
        assert_eq!(MoveText::new(&edge), edge);
    }

    #[test]
    fn is_no_larger_than_a_string() {
        assert!(std::mem::size_of::<MoveText>() <= std::mem::size_of::<String>());
    }
}
