//! Opening names, as lichess gives them ("C50 Italian Game: Giuoco
//! Pianissimo"), from lichess's CC0 data set `chess-openings` (the five
//! TSV files in `data/`, copied unchanged; see `data/SOURCE.md`).
//!
//! A game is classified by *position*, not by move order: every named line
//! of the data set is played out once into an index keyed by its final
//! position (board, side to move, castling rights and the en-passant square
//! only where a capture is legal: lichess's EPD), and a game's positions
//! are looked up from the last back to the first. The first named position
//! found is the deepest the game reached, and a transposition (1. d4 Nf6
//! 2. c4 e6 3. Nc3 Bb4 or 1. c4 e6 2. Nc3 Nf6 3. d4 Bb4) gets the same name
//! as the main line. A game that leaves the book keeps the name of the last
//! book position it passed through.
//!
//! Names come in English; [`Opening::text`] puts the family (the part
//! before `:`) into the reader's language where the catalogue has it
//! (`opening-family`), the rest stays as lichess writes it.

use std::{collections::HashMap, sync::LazyLock};

use shakmaty::{san::San, Bitboard, Board, Chess, Color, EnPassantMode, Move, Position, Square};

use super::Game;
use crate::{i18n::Lang, t};

/// The data set's files: `eco`, `name`, `pgn`, one named line a row.
const TSV: [&str; 5] = [
    include_str!("data/a.tsv"),
    include_str!("data/b.tsv"),
    include_str!("data/c.tsv"),
    include_str!("data/d.tsv"),
    include_str!("data/e.tsv"),
];

/// A named opening from the data set.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Opening {
    /// The ECO code, `C50`.
    pub eco: &'static str,
    /// lichess's name, `Italian Game: Giuoco Pianissimo`.
    pub name: &'static str,
}

impl Opening {
    /// The family: the name before its first `:` (or `,` for the few
    /// names written `Family, with …`), `Italian Game`.
    pub fn family(&self) -> &'static str {
        let end = self.name.find([':', ',']).unwrap_or(self.name.len());
        self.name[..end].trim_end()
    }

    /// The name in `lang`: the family translated where the catalogue knows
    /// it, the variation as lichess writes it. A translated family is joined
    /// to its variation with the language's own colon (`西西里防御：Najdorf
    /// Variation`); an English one keeps lichess's `: `.
    pub fn name_in(&self, lang: Lang) -> String {
        let family = self.family();
        let rest = &self.name[family.len()..];
        let shown = family_text(family, lang);
        match rest.strip_prefix(": ") {
            Some(variation) if shown != family => t!(
                lang,
                "opening-with-variation",
                family = shown,
                variation = variation
            ),
            _ => format!("{shown}{rest}"),
        }
    }

    /// `C50 Italian Game: Giuoco Pianissimo`, in `lang`.
    pub fn text(&self, lang: Lang) -> String {
        format!("{} {}", self.eco, self.name_in(lang))
    }
}

/// A family's name (`Italian Game`) in `lang`, English where the
/// catalogue has none.
pub fn family_text(family: &str, lang: Lang) -> String {
    t!(
        lang,
        "opening-family",
        family = family_key(family),
        name = family
    )
}

/// The catalogue's key of a family: lower-case ASCII words joined by `-`
/// (`Grünfeld Defense` → `grunfeld-defense`, `Petrov's Defense` →
/// `petrov-s-defense`), as Fluent's variant keys must be.
pub fn family_key(family: &str) -> String {
    let mut key = String::with_capacity(family.len());
    for c in family.chars().flat_map(char::to_lowercase) {
        let c = match c {
            'á' | 'à' | 'ä' | 'â' => 'a',
            'é' | 'è' | 'ë' | 'ê' => 'e',
            'í' | 'ï' => 'i',
            'ó' | 'ö' | 'ô' => 'o',
            'ú' | 'ü' => 'u',
            c => c,
        };
        if c.is_ascii_alphanumeric() {
            key.push(c);
        } else if !key.is_empty() && !key.ends_with('-') {
            key.push('-');
        }
    }
    while key.ends_with('-') {
        key.pop();
    }
    // A variant key starts with a letter.
    if !key.starts_with(|c: char| c.is_ascii_alphabetic()) {
        key.insert(0, 'x');
    }
    key
}

/// What lichess's EPD compares: the pieces, the side to move, castling
/// rights and a *legal* en-passant square (no halfmove or move number).
#[derive(Clone, PartialEq, Eq, Hash)]
struct Key {
    board: Board,
    turn: Color,
    castles: Bitboard,
    ep: Option<Square>,
}

fn key(position: &Chess) -> Key {
    Key {
        board: position.board().clone(),
        turn: position.turn(),
        castles: position.castles().castling_rights(),
        ep: position.ep_square(EnPassantMode::Legal),
    }
}

/// Every named position, built once on first use.
static INDEX: LazyLock<HashMap<Key, Opening>> = LazyLock::new(build_index);

/// One index entry per position. Where the data set names a position more
/// than once (a line that transposes into another's), the name reached in
/// fewer moves wins, then the first in the files' order (ECO, then name).
fn build_index() -> HashMap<Key, Opening> {
    let mut index: HashMap<Key, (usize, Opening)> = HashMap::new();
    for (eco, name, pgn) in rows() {
        let Some((position, plies)) = play_line(pgn) else {
            // The data set is fixed and a test replays every row; a row
            // that does not replay would only lose its own name.
            tracing::warn!(eco, name, "opening line does not replay");
            continue;
        };
        let opening = Opening { eco, name };
        index
            .entry(key(&position))
            .and_modify(|held| {
                if plies < held.0 {
                    *held = (plies, opening);
                }
            })
            .or_insert((plies, opening));
    }
    index.into_iter().map(|(k, (_, o))| (k, o)).collect()
}

/// The rows of the data set (header lines skipped).
fn rows() -> impl Iterator<Item = (&'static str, &'static str, &'static str)> {
    TSV.iter().flat_map(|file| {
        file.lines().filter_map(|line| {
            let mut columns = line.split('\t');
            let (eco, name, pgn) = (columns.next()?, columns.next()?, columns.next()?);
            (eco != "eco").then_some((eco, name, pgn))
        })
    })
}

/// The position after a line of the data set (`1. e4 e5 2. Nf3`) and its
/// length in plies; `None` if a move does not read or is not legal.
fn play_line(pgn: &str) -> Option<(Chess, usize)> {
    let mut position = Chess::default();
    let mut plies = 0;
    for token in pgn.split_whitespace() {
        // Move numbers: `1.`, `12.` (and `1...` if a line had one).
        if token.ends_with('.') {
            continue;
        }
        let san: San = token.parse().ok()?;
        let mv = san.to_move(&position).ok()?;
        position.play_unchecked(mv);
        plies += 1;
    }
    Some((position, plies))
}

/// The named opening of `position` itself, if the data set has it.
pub fn lookup(position: &Chess) -> Option<Opening> {
    INDEX.get(&key(position)).copied()
}

/// The opening of the line from `start` through `moves`: the last (deepest)
/// of its positions that has a name. `None` while no position has one (the
/// start position, or a game from a set-up position outside the book).
pub fn classify_line(start: &Chess, moves: &[Move]) -> Option<Opening> {
    let mut positions = Vec::with_capacity(moves.len() + 1);
    let mut position = start.clone();
    positions.push(position.clone());
    for &mv in moves {
        position.play_unchecked(mv);
        positions.push(position.clone());
    }
    positions.iter().rev().find_map(lookup)
}

/// The opening of `game` so far. A Chess960 game has none unless it began
/// from position 518, the ordinary start: the book's names are for lines
/// from that start only. lichess's other variants have none (their moves
/// mean something else: a Crazyhouse or Atomic `1. e4` is no King's Pawn
/// opening), as lichess shows none.
pub fn classify(game: &Game) -> Option<Opening> {
    if !matches!(
        game.initial_position(),
        shakmaty::variant::VariantPosition::Chess(_)
    ) {
        return None;
    }
    if game.variant().numbered_starts() && game.start_number() != Some(super::chess960::STANDARD) {
        return None;
    }
    // Kept up move by move by the game: what `classify_line` finds for its
    // line (a test compares them), without replaying the game.
    game.book_opening()
}

/// How many rows the data set has and how many named positions they make
/// (for tests and the docs).
pub fn index_size() -> (usize, usize) {
    (rows().count(), INDEX.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A game from the start position through UCI moves.
    fn game(uci: &str) -> Game {
        Game::replay(None, uci.split_whitespace().map(|m| (m, 0))).expect("legal moves")
    }

    fn name_of(uci: &str) -> Option<String> {
        classify(&game(uci)).map(|o| o.text(Lang::En))
    }

    #[test]
    fn every_row_of_the_data_set_replays() {
        for (eco, name, pgn) in rows() {
            assert!(play_line(pgn).is_some(), "{eco} {name}: {pgn}");
        }
        let (rows, positions) = index_size();
        assert_eq!(rows, 3_807, "the five files' rows");
        // Some rows name a position another row reached already.
        assert!(positions > 3_700 && positions <= rows, "{positions}");
    }

    #[test]
    fn names_the_giuoco_pianissimo_as_lichess_does() {
        // 1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. d3
        assert_eq!(
            name_of("e2e4 e7e5 g1f3 b8c6 f1c4 f8c5 d2d3").as_deref(),
            Some("C50 Italian Game: Giuoco Pianissimo")
        );
        assert_eq!(
            name_of("e2e4 e7e5 g1f3 b8c6 f1c4").as_deref(),
            Some("C50 Italian Game")
        );
    }

    #[test]
    fn a_transposition_gets_the_main_line_name() {
        // Nimzo-Indian by the main order, and reached from the English.
        let main = name_of("d2d4 g8f6 c2c4 e7e6 b1c3 f8b4");
        let english = name_of("c2c4 e7e6 b1c3 g8f6 d2d4 f8b4");
        assert_eq!(main.as_deref(), Some("E20 Nimzo-Indian Defense"));
        assert_eq!(english, main);
    }

    #[test]
    fn the_deepest_named_position_wins() {
        // Every prefix of the Najdorf is named; the last one is shown.
        let najdorf = "e2e4 c7c5 g1f3 d7d6 d2d4 c5d4 f3d4 g8f6 b1c3 a7a6";
        let name = name_of(najdorf).expect("named");
        assert_eq!(name, "B90 Sicilian Defense: Najdorf Variation");
        assert_eq!(
            name_of("e2e4 c7c5").as_deref(),
            Some("B20 Sicilian Defense")
        );
    }

    #[test]
    fn a_game_that_leaves_the_book_keeps_its_last_name() {
        // The Italian, then moves no line of the data set plays.
        let out_of_book = "e2e4 e7e5 g1f3 b8c6 f1c4 f8c5 h2h4 h7h5 a2a4 a7a5 h1h3 a8a6";
        let name = name_of(out_of_book).expect("named");
        assert!(name.starts_with("C5"), "{name}");
        assert!(name.contains("Italian Game"), "{name}");
        // Before any named position (none after 1. h3 h6 2. a3?) nothing.
        assert_eq!(name_of(""), None);
    }

    /// The name a game keeps up move by move is what a replay of its whole
    /// line finds, after every ply: on every line of the book (the lines
    /// then random moves out of it) and on games from set-up positions.
    #[test]
    fn the_kept_name_is_the_replayed_one_after_every_ply() {
        use rand::{rngs::SmallRng, seq::SliceRandom, SeedableRng};
        let mut rng = SmallRng::seed_from_u64(7);
        let check = |game: &Game, start: &Chess| {
            let moves: Vec<Move> = game.plies().iter().map(|p| p.mv).collect();
            assert_eq!(classify(game), classify_line(start, &moves), "{moves:?}");
        };
        for (_, _, pgn) in rows().step_by(7) {
            let mut game = Game::new();
            let start = Chess::default();
            for token in pgn.split_whitespace().filter(|t| !t.ends_with('.')) {
                game.play_text(token, 0).expect("a book move");
                check(&game, &start);
            }
            for _ in 0..6 {
                let legal = match game.position() {
                    shakmaty::variant::VariantPosition::Chess(p) => p.legal_moves(),
                    _ => unreachable!("standard chess"),
                };
                let Some(&mv) = legal.choose(&mut rng) else {
                    break;
                };
                game.play_move(mv, 0).expect("legal");
                check(&game, &start);
            }
        }
        // From a set-up position that is itself in the book (after 1. e4
        // e5), and from one that is not.
        for fen in [
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
            "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
        ] {
            let mut game = Game::from_fen(fen).expect("fen");
            let start: Chess = fen
                .parse::<shakmaty::fen::Fen>()
                .expect("fen")
                .into_position(shakmaty::CastlingMode::Standard)
                .expect("legal");
            check(&game, &start);
            for text in ["Nf3", "Nc6", "Bc4"] {
                if game.play_text(text, 0).is_ok() {
                    check(&game, &start);
                }
            }
        }
    }

    #[test]
    fn the_en_passant_square_counts_only_where_a_capture_is_legal() {
        // After 1. e4 the square e3 is not capturable: the position is the
        // King's Pawn Game whatever a FEN says about e3.
        let position: Chess = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"
            .parse::<shakmaty::fen::Fen>()
            .expect("fen")
            .into_position(shakmaty::CastlingMode::Standard)
            .expect("legal");
        assert_eq!(lookup(&position).map(|o| o.eco), Some("B00"));
    }

    #[test]
    fn families_are_translated_and_variations_kept() {
        let italian = classify(&game("e2e4 e7e5 g1f3 b8c6 f1c4 f8c5 d2d3")).expect("named");
        assert_eq!(italian.family(), "Italian Game");
        assert_eq!(
            italian.text(Lang::ZhCn),
            "C50 意大利开局：Giuoco Pianissimo"
        );
        assert_eq!(
            italian.text(Lang::En),
            "C50 Italian Game: Giuoco Pianissimo"
        );
        let sicilian = classify(&game("e2e4 c7c5")).expect("named");
        assert_eq!(sicilian.text(Lang::ZhCn), "B20 西西里防御");
        // A family the catalogue has no name for stays in English.
        let amar = classify(&game("g1h3")).expect("named");
        assert_eq!(amar.text(Lang::ZhCn), "A00 Amar Opening");
        // …and keeps lichess's colon before its variation.
        let fools_mate = classify(&game("f2f3 e7e5 g2g4 d8h4")).expect("named");
        assert_eq!(
            fools_mate.text(Lang::ZhCn),
            "A00 Barnes Opening: Fool's Mate"
        );
        assert_eq!(family_key("Grünfeld Defense"), "grunfeld-defense");
        assert_eq!(family_key("Petrov's Defense"), "petrov-s-defense");
        assert_eq!(family_key("Réti Opening"), "reti-opening");
    }

    #[test]
    fn every_common_family_has_a_chinese_name() {
        let mut rows_of: HashMap<&str, usize> = HashMap::new();
        for (eco, name, _) in rows() {
            *rows_of.entry(Opening { eco, name }.family()).or_default() += 1;
        }
        let untranslated: Vec<_> = rows_of
            .iter()
            .filter(|&(_, &n)| n >= 10)
            .map(|(&family, _)| family)
            .filter(|&family| family_text(family, Lang::ZhCn) == family)
            .collect();
        assert!(untranslated.is_empty(), "no Chinese name: {untranslated:?}");
        assert!(rows_of.len() > 100, "{} families", rows_of.len());
    }
}
