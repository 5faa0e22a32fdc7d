//! A position in words, for the people who cannot see the board image: the
//! text a screen reader reads from an image's description (Discord's
//! attachment `description`, at most [`MAX_DESCRIPTION`] characters).
//!
//! It says whose move it is (or how the game ended), the last move, check,
//! and where every piece of each side stands, king first: `White to move.
//! Last move: e5. White: Kg1, Qd1, Ra1, …, pawns a2, b2. Black: …`. In
//! Chinese the pieces are named as the seeds name them (`王g1`, `后d1`).
//! Crazyhouse adds the pieces each side holds (`in hand Q, N ×2`),
//! Three-check the checks given.

use std::fmt::Write;

use shakmaty::{Color, Position, Role};

use super::{color_text, Notation};
use crate::{i18n::Lang, t};

/// Discord's limit on an attachment's description.
pub const MAX_DESCRIPTION: usize = 1024;

/// What the board's caption says beside the pieces.
#[derive(Clone, Debug, Default)]
pub struct Caption<'a> {
    /// The last move in SAN (`Qh4#`), if any.
    pub last_move: Option<&'a str>,
    /// How the game ended, in the reader's words; `None` while it runs.
    pub ending: Option<String>,
}

/// `position` described in `lang` (at most [`MAX_DESCRIPTION`] characters;
/// a full board takes about 250).
pub fn describe<P: Position + Clone>(lang: Lang, position: &P, caption: &Caption<'_>) -> String {
    let notation = match lang {
        Lang::En => Notation::Letters,
        Lang::ZhCn => Notation::Chinese,
    };
    let mut sentences = Vec::new();
    match &caption.ending {
        Some(ending) => sentences.push(t!(lang, "alt-game-over", ending = ending.as_str())),
        None => sentences.push(t!(
            lang,
            "alt-to-move",
            color = color_text(lang, position.turn())
        )),
    }
    if let Some(san) = caption.last_move {
        sentences.push(t!(
            lang,
            "alt-last-move",
            san = notation.write(san).into_owned()
        ));
    }
    if position.is_check() && caption.ending.is_none() {
        sentences.push(t!(lang, "alt-check"));
    }
    for color in [Color::White, Color::Black] {
        sentences.push(t!(
            lang,
            "alt-side",
            color = color_text(lang, color),
            pieces = pieces_of(lang, position, color, notation)
        ));
    }
    if let Some(remaining) = position.remaining_checks() {
        let given = |color: Color| 3 - u8::from(remaining[color]).min(3);
        sentences.push(t!(
            lang,
            "alt-checks-given",
            white = given(Color::White),
            black = given(Color::Black)
        ));
    }
    // Chinese sentences end in full-width marks and need no space.
    let space = match lang {
        Lang::En => " ",
        Lang::ZhCn => "",
    };
    let text = sentences.join(space);
    match text.chars().count() <= MAX_DESCRIPTION {
        true => text,
        false => cut(&text, MAX_DESCRIPTION),
    }
}

/// `Kg1, Qd1, Ra1, Nf3, pawns a2, b2` (the king first, then by value;
/// squares from a1 to h8 within a kind).
fn pieces_of<P: Position + Clone>(
    lang: Lang,
    position: &P,
    color: Color,
    notation: Notation,
) -> String {
    // Chinese lists with the enumeration comma.
    let separator = match lang {
        Lang::En => ", ",
        Lang::ZhCn => "、",
    };
    let board = position.board();
    // One string for the whole list (the alt text is made for every
    // board drawn): each piece is written into `item` and appended.
    let mut list = String::with_capacity(96);
    let mut item = String::with_capacity(8);
    let add = |list: &mut String, text: &str| {
        if !list.is_empty() {
            list.push_str(separator);
        }
        list.push_str(text);
    };
    for role in [
        Role::King,
        Role::Queen,
        Role::Rook,
        Role::Bishop,
        Role::Knight,
    ] {
        for square in board.by_piece(role.of(color)) {
            item.clear();
            item.push(role.upper_char());
            let _ = write!(item, "{square}");
            add(&mut list, &notation.write(&item));
        }
    }
    let mut pawns = String::with_capacity(40);
    for square in board.by_piece(Role::Pawn.of(color)) {
        if !pawns.is_empty() {
            pawns.push_str(separator);
        }
        let _ = write!(pawns, "{square}");
    }
    if !pawns.is_empty() {
        add(&mut list, &t!(lang, "alt-pawns", squares = pawns));
    }
    if let Some(pockets) = position.pockets() {
        let hand = &pockets[color];
        let held: Vec<String> = [
            Role::Queen,
            Role::Rook,
            Role::Bishop,
            Role::Knight,
            Role::Pawn,
        ]
        .into_iter()
        .filter(|role| hand[*role] > 0)
        .map(|role| {
            // SAN has no letter for a pawn; the catalogue names it.
            let name = match role {
                Role::Pawn => t!(lang, "alt-pawn-in-hand"),
                _ => notation.write(&role.upper_char().to_string()).into_owned(),
            };
            match hand[role] {
                1 => name,
                n => format!("{name} ×{n}"),
            }
        })
        .collect();
        if !held.is_empty() {
            add(
                &mut list,
                &t!(lang, "alt-in-hand", pieces = held.join(separator)),
            );
        }
    }
    list
}

/// `text` cut to at most `max` characters, with `…` where it was cut.
pub fn cut(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_owned();
    }
    let mut out: String = text.chars().take(max.saturating_sub(1)).collect();
    out.push('…');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::Chess;

    use crate::chess::Game;

    fn after(uci: &str) -> Game {
        Game::replay(None, uci.split_whitespace().map(|m| (m, 0))).expect("legal")
    }

    #[test]
    fn the_start_position_in_english() {
        let text = describe(Lang::En, &Chess::default(), &Caption::default());
        assert_eq!(
            text,
            "White to move. \
             White: Ke1, Qd1, Ra1, Rh1, Bc1, Bf1, Nb1, Ng1, pawns a2, b2, c2, d2, e2, f2, g2, h2. \
             Black: Ke8, Qd8, Ra8, Rh8, Bc8, Bf8, Nb8, Ng8, pawns a7, b7, c7, d7, e7, f7, g7, h7."
        );
    }

    #[test]
    fn check_and_the_last_move_in_chinese() {
        // 1. e4 f5 2. Qh5+
        let game = after("e2e4 f7f5 d1h5");
        let caption = Caption {
            last_move: game.last_ply().map(|p| p.san.as_str()),
            ending: None,
        };
        let text = describe(Lang::ZhCn, game.position(), &caption);
        assert!(
            text.starts_with("黑方走棋。上一步：后h5+。将军！"),
            "{text}"
        );
        assert!(text.contains("白方：王e1、后h5、车a1"), "{text}");
        assert!(text.contains("兵a2、b2"), "{text}");
        let english = describe(Lang::En, game.position(), &caption);
        assert!(
            english.starts_with("Black to move. Last move: Qh5+. Check."),
            "{english}"
        );
    }

    #[test]
    fn crazyhouse_pockets_are_read_in_both_languages() {
        let game = Game::from_fen_in(
            crate::chess::Variant::Crazyhouse,
            "4k3/8/8/8/8/8/8/4K3[QNNPb] w - - 0 1",
        )
        .expect("legal");
        let text = describe(Lang::En, game.position(), &Caption::default());
        assert!(
            text.contains("White: Ke1, in hand Q, N ×2, P. Black: Ke8, in hand B."),
            "{text}"
        );
        let zh = describe(Lang::ZhCn, game.position(), &Caption::default());
        assert!(zh.contains("手中后、马 ×2、兵"), "{zh}");
    }

    #[test]
    fn three_check_counts_the_checks_given() {
        let game = Game::from_fen_in(
            crate::chess::Variant::ThreeCheck,
            "4k3/8/8/8/8/8/8/4K3 w - - 1+3 0 1",
        )
        .expect("legal");
        let text = describe(Lang::En, game.position(), &Caption::default());
        assert!(
            text.ends_with("Checks given: White 2, Black 0, of 3."),
            "{text}"
        );
        let zh = describe(Lang::ZhCn, game.position(), &Caption::default());
        assert!(zh.contains("白方2次，黑方0次"), "{zh}");
    }

    #[test]
    fn a_finished_game_says_how_it_ended_and_no_side_to_move() {
        let game = after("f2f3 e7e5 g2g4 d8h4");
        let caption = Caption {
            last_move: Some("Qh4#"),
            ending: Some("Black wins by checkmate".to_owned()),
        };
        let text = describe(Lang::En, game.position(), &caption);
        assert!(
            text.starts_with("Game over: Black wins by checkmate. Last move: Qh4#. White: Ke1"),
            "{text}"
        );
        assert!(!text.contains("to move"), "{text}");
    }

    #[test]
    fn every_description_fits_discord() {
        // The most text a position can need: all 32 pieces, long words.
        for lang in Lang::ALL {
            let text = describe(
                lang,
                &Chess::default(),
                &Caption {
                    last_move: Some("Nxe5+"),
                    ending: Some("x".repeat(2_000)),
                },
            );
            assert!(text.chars().count() <= MAX_DESCRIPTION, "{lang}");
        }
        assert_eq!(cut("abcdef", 4), "abc…");
        assert_eq!(cut("abc", 4), "abc");
    }
}
