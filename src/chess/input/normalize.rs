//! From what a person typed to the ASCII forms that shakmaty reads.
//!
//! Normalisation never decides legality: it only produces, in order of
//! preference, the [`Reading`]s a text could mean. `bxc3` yields the pawn
//! reading first and the bishop reading second; the caller takes the first
//! reading that is legal in the position.

use shakmaty::{san::San, CastlingSide, Role, Square};

/// Inputs longer than this (in characters, after trimming) are unreadable.
/// The longest real form, `Qh4xe1=Q+!!` plus spaces, fits easily.
pub const MAX_INPUT_CHARS: usize = 32;

/// One way to read the input as a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reading {
    /// Standard algebraic notation (including over-specified forms such as
    /// `Ng1f3`, which shakmaty reads directly).
    San(San),
    /// Coordinate notation (`e2e4`, `e7e8q`, `Ng1-f3`, `e1g1`), with the
    /// piece letter if one was typed.
    Uci {
        role: Option<Role>,
        from: Square,
        to: Square,
        promotion: Option<Role>,
    },
}

/// Every reading of `text`, best first. Empty when the text cannot be read.
pub fn readings(text: &str) -> Vec<Reading> {
    let Some(core) = canonical(text) else {
        return Vec::new();
    };
    if let Some(side) = castling(&core) {
        return vec![Reading::San(San::Castle(side))];
    }
    let mut out = Vec::new();
    for variant in variants(&core) {
        let san = San::from_ascii(variant.as_bytes())
            .ok()
            // Drops too (`N@f3`, `@f3` for a pawn, as lichess reads them):
            // they are legal only in Crazyhouse, which the position decides.
            .filter(|san| matches!(san, San::Normal { .. } | San::Put { .. }))
            .map(Reading::San);
        let uci = coordinates(&variant);
        // A bare `b1c3` is coordinates first (shakmaty's SAN reader would take
        // it as a pawn on b1); with a piece letter, SAN says it best.
        let bare = variant
            .as_bytes()
            .first()
            .is_some_and(u8::is_ascii_lowercase);
        let pair = if bare { [uci, san] } else { [san, uci] };
        for reading in pair.into_iter().flatten() {
            if !out.contains(&reading) {
                out.push(reading);
            }
        }
    }
    out
}

/// Maps one typed character to ASCII: full-width forms, Chinese piece names,
/// chess figurines (♘), typographic dashes and crosses. `None` for characters that are dropped
/// (whitespace, `!`, `?`); `Some(Err(()))` for characters no move contains.
pub fn map_char(c: char) -> Option<Result<char, ()>> {
    let c = match c {
        '\u{FF01}'..='\u{FF5E}' => char::from_u32(c as u32 - 0xFEE0).unwrap_or('\u{0}'),
        _ => c,
    };
    Some(Ok(match c {
        c if c.is_whitespace() => return None,
        '!' | '?' | '‼' | '⁇' | '⁈' | '⁉' => return None,
        '王' | '♔' | '♚' => 'K',
        '后' | '♕' | '♛' => 'Q',
        '车' | '車' | '♖' | '♜' => 'R',
        '象' | '♗' | '♝' => 'B',
        '马' | '馬' | '♘' | '♞' => 'N',
        '兵' | '♙' | '♟' => 'P',
        '吃' | '×' | 'X' => 'x',
        '‐' | '‑' | '‒' | '–' | '—' | '−' => '-',
        c if c.is_ascii_graphic() => c,
        _ => return Some(Err(())),
    }))
}

/// Trims, maps and strips annotations: `" １.马ｆ３+!"` → `"Nf3"` (well,
/// `"Nf3"` after the piece letter is read). `None` if nothing move-like is
/// left or the text is too long.
fn canonical(text: &str) -> Option<String> {
    // Cheap bound first: never walk a huge text.
    if text.len() > MAX_INPUT_CHARS * 8 {
        return None;
    }
    let text = text.trim();
    if text.is_empty() || text.chars().count() > MAX_INPUT_CHARS {
        return None;
    }
    let text = text
        .replace("皇后", "后")
        .replace("短易位", "O-O")
        .replace("长易位", "O-O-O")
        .replace("長易位", "O-O-O");
    let mut s = String::with_capacity(text.len());
    for c in text.chars() {
        match map_char(c) {
            None => {}
            Some(Ok(c)) => s.push(c),
            Some(Err(())) => return None,
        }
    }
    // A leading move number: `12.`, `12...`.
    let digits = s.bytes().take_while(u8::is_ascii_digit).count();
    if digits > 0 && s[digits..].starts_with('.') {
        s = s[digits..].trim_start_matches('.').to_owned();
    }
    // Trailing check marks and en-passant notes, in any order.
    loop {
        let lower = s.to_ascii_lowercase();
        let cut = ["+", "#", "e.p.", "e.p", "ep", "(ep)", "(e.p.)"]
            .iter()
            .find(|suffix| lower.ends_with(*suffix))
            .map(|suffix| suffix.len());
        match cut {
            Some(n) => s.truncate(s.len() - n),
            None => break,
        }
    }
    (!s.is_empty()).then_some(s)
}

/// `O-O`, `0-0`, `o-o`, `OO` … (any case, zeros for letters).
fn castling(core: &str) -> Option<CastlingSide> {
    let t: String = core
        .chars()
        .map(|c| {
            if c == '0' {
                'O'
            } else {
                c.to_ascii_uppercase()
            }
        })
        .collect();
    match t.as_str() {
        "O-O" | "OO" => Some(CastlingSide::KingSide),
        "O-O-O" | "OOO" => Some(CastlingSide::QueenSide),
        _ => None,
    }
}

/// Spellings of `core` for shakmaty's SAN reader, best first: separators
/// dropped, squares lower-cased, promotion as `=Q`, and the leading letter
/// read as a piece or a file (`b…` is tried as a pawn first, `B…` as a
/// bishop first).
fn variants(core: &str) -> Vec<String> {
    let mut b: Vec<u8> = core.bytes().filter(|&c| c != b'-').collect();
    for c in &mut b {
        if *c == b':' {
            *c = b'x';
        }
    }
    // A leading capital `B` before a rank is a bishop's SAN told apart by
    // its rank (`B3xb4`, common with Crazyhouse's dropped bishops) before
    // it is the square b3: it keeps its case, and so is read as the
    // bishop first, as `Bxc3` is.
    let skip = usize::from(b.first() == Some(&b'B') && b.len() > 2);
    for i in skip..b.len().saturating_sub(1) {
        if (b'A'..=b'H').contains(&b[i]) && (b'1'..=b'8').contains(&b[i + 1]) {
            b[i] = b[i].to_ascii_lowercase();
        }
    }
    let b = promotion_tail(b);
    let Some(&first) = b.first() else {
        return Vec::new();
    };
    let with_first = |c: u8| {
        let mut v = b.clone();
        v[0] = c;
        String::from_utf8(v).unwrap_or_default()
    };
    match first {
        b'n' | b'r' | b'q' | b'k' | b'p' => vec![with_first(first.to_ascii_uppercase())],
        b'b' => vec![with_first(b'b'), with_first(b'B')],
        b'B' => vec![with_first(b'B'), with_first(b'b')],
        b'A' | b'C'..=b'H' => vec![with_first(first.to_ascii_lowercase())],
        _ => vec![with_first(first)],
    }
}

/// Rewrites a promotion after the last square as `=X`: `e8q`, `e8Q`,
/// `e8=q`, `e8(Q)`, `e8/Q` all become `e8=Q`.
fn promotion_tail(b: Vec<u8>) -> Vec<u8> {
    let Some(p) = (1..b.len())
        .rev()
        .find(|&i| (b'1'..=b'8').contains(&b[i]) && (b'a'..=b'h').contains(&b[i - 1]))
    else {
        return b;
    };
    let tail: Vec<u8> = b[p + 1..]
        .iter()
        .copied()
        .filter(|c| !b"=/()".contains(c))
        .collect();
    match tail.as_slice() {
        [piece] if b"qrbnkpQRBNKP".contains(piece) => {
            let mut out = b[..=p].to_vec();
            out.push(b'=');
            out.push(piece.to_ascii_uppercase());
            out
        }
        _ => b,
    }
}

/// Coordinates with an optional piece letter and capture mark:
/// `e2e4`, `e4xd5`, `e7e8=Q`, `Ng1f3`.
fn coordinates(v: &str) -> Option<Reading> {
    let b = v.as_bytes();
    let (role, rest) = match b.first()? {
        c if c.is_ascii_uppercase() => (Some(Role::from_char(char::from(*c))?), &b[1..]),
        _ => (None, b),
    };
    let from = Square::from_ascii(rest.get(0..2)?).ok()?;
    let rest = &rest[2..];
    let rest = rest.strip_prefix(b"x").unwrap_or(rest);
    let to = Square::from_ascii(rest.get(0..2)?).ok()?;
    let promotion = match &rest[2..] {
        [] => None,
        [b'=', piece] => Some(Role::from_char(char::from(*piece))?),
        _ => return None,
    };
    Some(Reading::Uci {
        role,
        from,
        to,
        promotion,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_forms() {
        assert_eq!(canonical(" 12...Nf3+! ").as_deref(), Some("Nf3"));
        assert_eq!(canonical("exd6 e.p.").as_deref(), Some("exd6"));
        assert_eq!(canonical("马ｆ３").as_deref(), Some("Nf3"));
        assert_eq!(canonical("短易位").as_deref(), Some("O-O"));
        assert_eq!(canonical("e4 😀"), None);
        assert_eq!(canonical("   "), None);
        assert_eq!(canonical("+"), None);
    }

    #[test]
    fn spellings() {
        assert_eq!(variants("e8q"), vec!["e8=Q"]);
        assert_eq!(variants("bxc3"), vec!["bxc3", "Bxc3"]);
        assert_eq!(variants("NG1-F3"), vec!["Ng1f3"]);
        assert_eq!(variants("E4"), vec!["e4"]);
        assert_eq!(castling("0-0-0"), Some(CastlingSide::QueenSide));
        assert_eq!(castling("o-o"), Some(CastlingSide::KingSide));
    }
}
