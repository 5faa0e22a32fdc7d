//! PGN export and import (seed 002, SPEC §1 "Notation and export").
//!
//! Export writes the Seven Tag Roster (Event, Site, Date, Round, White, Black,
//! Result), then `Variant` for a game that is not standard chess (lichess's
//! `Chess960`), `SetUp`/`FEN` for games from a custom position and for every
//! Chess960 game (castling rights in X-FEN), `TimeControl`,
//! `Termination` and the club points of both players (`WhiteClubPoints`,
//! `BlackClubPoints`, in the spirit of `WhiteElo`), then SAN movetext wrapped at
//! 80 columns, with optional `[%clk h:mm:ss]` comments.
//!
//! Import reads the main line of the first game with `pgn-reader` (variations
//! and comments are skipped) and replays it into a [`Game`], so an imported
//! game has exactly the moves and, where the moves do not decide it, the
//! result that the PGN states.

use std::{io, ops::ControlFlow};

use pgn_reader::{RawTag, Reader, SanPlus, Visitor};
use shakmaty::{Color, Outcome};

use super::{Ending, Game, GameResult, Termination, Variant};

/// Largest PGN text accepted for import (a long game is about 10 KB).
pub const MAX_PGN_BYTES: usize = 256 * 1024;

/// The tags that the game itself does not know.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PgnTags {
    pub event: String,
    pub site: String,
    /// `YYYY.MM.DD`, or `????.??.??` when unknown.
    pub date: String,
    pub round: String,
    pub white: String,
    pub black: String,
    /// PGN `TimeControl` value (`600+5`, `40/9000:16/3600`, `-`).
    pub time_control: Option<String>,
    /// Club points before the game, as shown (`107.5`).
    pub white_points: Option<String>,
    pub black_points: Option<String>,
    /// FIDE titles (`GM`, …) of the players, if they hold one.
    pub white_title: Option<String>,
    pub black_title: Option<String>,
    /// Anything else, written after the known tags.
    pub extra: Vec<(String, String)>,
}

/// Writes `game` as PGN. `clocks`, when given, holds the mover's remaining
/// time in milliseconds after each ply and becomes `[%clk]` comments.
pub fn export(game: &Game, tags: &PgnTags, clocks: Option<&[i64]>) -> String {
    export_with(game, tags, clocks, &[])
}

/// What an analysis adds to one ply of the movetext: a suffix annotation
/// (`?!`, `?`, `??`) and a comment (`[%eval 0.35]`, words).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlyNote {
    pub nag: Option<&'static str>,
    pub comment: Option<String>,
}

/// Writes `game` as PGN with `notes` (one per ply, from the first; fewer
/// is fine) after each move: an annotated game.
pub fn export_annotated(game: &Game, tags: &PgnTags, notes: &[PlyNote]) -> String {
    export_with(game, tags, None, notes)
}

/// Writes `game` as PGN with `[%clk]` comments (`clocks`, as for
/// [`export`]) and `notes` after the moves (an adjournment's comment).
pub fn export_noted(
    game: &Game,
    tags: &PgnTags,
    clocks: Option<&[i64]>,
    notes: &[PlyNote],
) -> String {
    export_with(game, tags, clocks, notes)
}

fn export_with(game: &Game, tags: &PgnTags, clocks: Option<&[i64]>, notes: &[PlyNote]) -> String {
    let result = game.ending().map_or(GameResult::NoResult, |e| e.result);
    let mut out = String::new();
    let or_unknown = |s: &str, unknown: &'static str| {
        if s.is_empty() {
            unknown.to_owned()
        } else {
            s.to_owned()
        }
    };
    let mut tag = |name: &str, value: &str| {
        out.push_str(&format!("[{name} \"{}\"]\n", escape(value)));
    };
    tag("Event", &or_unknown(&tags.event, "?"));
    tag("Site", &or_unknown(&tags.site, "?"));
    tag("Date", &or_unknown(&tags.date, "????.??.??"));
    tag("Round", &or_unknown(&tags.round, "-"));
    tag("White", &or_unknown(&tags.white, "?"));
    tag("Black", &or_unknown(&tags.black, "?"));
    tag("Result", result.pgn());
    if let Some(name) = game.variant().pgn_tag() {
        tag("Variant", name);
    }
    if let Some(fen) = game.initial_fen() {
        tag("SetUp", "1");
        tag("FEN", fen);
    }
    if let Some(tc) = &tags.time_control {
        tag("TimeControl", tc);
    }
    if let Some(ending) = game.ending() {
        tag("Termination", ending.termination.pgn_tag());
    }
    if let Some(title) = &tags.white_title {
        tag("WhiteTitle", title);
    }
    if let Some(title) = &tags.black_title {
        tag("BlackTitle", title);
    }
    if let Some(points) = &tags.white_points {
        tag("WhiteClubPoints", points);
    }
    if let Some(points) = &tags.black_points {
        tag("BlackClubPoints", points);
    }
    for (name, value) in &tags.extra {
        tag(name, value);
    }
    out.push('\n');
    out.push_str(&movetext(game, clocks, notes, result));
    out.push('\n');
    out
}

/// SAN movetext with move numbers and the result, wrapped at 80 columns.
fn movetext(game: &Game, clocks: Option<&[i64]>, notes: &[PlyNote], result: GameResult) -> String {
    let start = game.initial_position();
    let mut fullmove = u32::from(shakmaty::Position::fullmoves(start));
    let mut turn = shakmaty::Position::turn(start);
    let mut tokens: Vec<String> = Vec::new();
    for (index, ply) in game.plies().iter().enumerate() {
        match turn {
            Color::White => tokens.push(format!("{fullmove}.")),
            Color::Black if index == 0 => tokens.push(format!("{fullmove}...")),
            Color::Black => {}
        }
        let note = notes.get(index);
        match note.and_then(|n| n.nag) {
            Some(nag) => tokens.push(format!("{}{nag}", ply.san)),
            None => tokens.push(ply.san.to_string()),
        }
        if let Some(ms) = clocks.and_then(|c| c.get(index)) {
            tokens.push(format!("{{ [%clk {}] }}", clock_text(*ms)));
        }
        if let Some(comment) = note.and_then(|n| n.comment.as_deref()) {
            // A comment ends at the first `}`: keep it out of the text.
            tokens.push(format!("{{ {} }}", comment.replace('}', ")")));
        }
        if turn == Color::Black {
            fullmove += 1;
        }
        turn = !turn;
    }
    tokens.push(result.pgn().to_owned());
    wrap(&tokens, 80)
}

fn wrap(tokens: &[String], width: usize) -> String {
    let mut out = String::new();
    let mut line_len = 0;
    for token in tokens {
        if line_len > 0 && line_len + 1 + token.len() > width {
            out.push('\n');
            line_len = 0;
        } else if line_len > 0 {
            out.push(' ');
            line_len += 1;
        }
        out.push_str(token);
        line_len += token.len();
    }
    out
}

/// `h:mm:ss` for a `[%clk]` comment (negative times show as zero).
pub fn clock_text(ms: i64) -> String {
    let secs = ms.max(0) / 1000;
    format!("{}:{:02}:{:02}", secs / 3600, secs / 60 % 60, secs % 60)
}

fn escape(value: &str) -> String {
    value
        .chars()
        .filter(|c| !c.is_control())
        .flat_map(|c| match c {
            '"' | '\\' => vec!['\\', c],
            c => vec![c],
        })
        .collect()
}

/// A game read from PGN.
#[derive(Clone, Debug)]
pub struct ImportedGame {
    pub game: Game,
    /// All tags, in file order.
    pub tags: Vec<(String, String)>,
}

impl ImportedGame {
    /// The value of tag `name`, if present.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// Why a PGN could not be imported.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum PgnError {
    #[error("the PGN is larger than {MAX_PGN_BYTES} bytes")]
    TooLarge,
    #[error("no game found in the PGN")]
    Empty,
    #[error("the PGN could not be read: {0}")]
    Unreadable(String),
    /// A word of the movetext that is no move, number, result or
    /// annotation (pgn-reader would skip it, and the next move would then
    /// be refused for the wrong reason).
    #[error("`{token}` is not a move (after {after} moves)")]
    NotAMove { token: String, after: usize },
    #[error("bad FEN tag: {}", .0.text(crate::i18n::Lang::En))]
    BadFen(super::fen_input::FenProblem),
    /// A `Variant` tag naming rules this bot does not play.
    #[error("the variant `{0}` is not played here")]
    UnknownVariant(String),
    #[error("move {label} `{san}` is not legal: {reason}")]
    IllegalMove {
        /// The half-move's place in the game, from 1.
        ply: usize,
        /// Its number as PGN writes it: `3.` for White, `3...` for Black.
        label: String,
        san: String,
        /// Why, as shakmaty says it (`illegal san`, `ambiguous san`).
        reason: String,
        kind: BadMove,
    },
}

/// Why a move of a PGN is refused.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum BadMove {
    /// No piece can make it.
    Illegal,
    /// More than one piece can: the move must say which.
    Ambiguous,
    /// The game was already over (checkmate, stalemate) before it.
    AfterEnd,
}

/// The first word of `text`'s movetext that is not a move, a move number,
/// a result, a NAG or an annotation, with the number of moves before it.
/// Tag pairs, `{comments}`, `; comments` and `(variations)` are skipped.
pub fn unreadable_token(text: &str) -> Option<(String, usize)> {
    let mut plain = String::with_capacity(text.len());
    let (mut brace, mut paren, mut bracket, mut line_comment) = (false, 0usize, false, false);
    // Inside a tag pair's quoted value (a Crazyhouse FEN holds `[Pp]`), and
    // after a backslash there.
    let (mut quoted, mut escaped) = (false, false);
    for c in text.chars() {
        if bracket && (quoted || c == '"') {
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => quoted = !quoted,
                _ => {}
            }
            continue;
        }
        match c {
            '\n' | '\r' if line_comment => {
                line_comment = false;
                plain.push(' ');
            }
            _ if line_comment => {}
            '}' if brace => brace = false,
            _ if brace => {}
            '{' => brace = true,
            ']' if bracket => bracket = false,
            _ if bracket => {}
            '[' if paren == 0 => bracket = true,
            ';' if paren == 0 => line_comment = true,
            '(' => paren += 1,
            ')' if paren > 0 => paren -= 1,
            _ if paren > 0 => {}
            c => plain.push(c),
        }
    }
    let mut moves = 0;
    for token in plain.split_whitespace() {
        // A move number, glued to its move or not: `12.`, `12...`, `1.e4`.
        let token = match token.rfind('.') {
            Some(dot) if token[..dot].chars().all(|c| c.is_ascii_digit() || c == '.') => {
                &token[dot + 1..]
            }
            _ => token,
        };
        let token = token.trim_end_matches(['!', '?']);
        if token.is_empty()
            || matches!(token, "1-0" | "0-1" | "1/2-1/2" | "½-½" | "*" | "--")
            || token.starts_with('$')
        {
            continue;
        }
        // Castling is often typed with zeros (`0-0`), which pgn-reader reads.
        let castle = token.replace('0', "O");
        if shakmaty::san::SanPlus::from_ascii(castle.as_bytes()).is_err() {
            return Some((token.to_owned(), moves));
        }
        moves += 1;
    }
    None
}

/// Reads the first game of a PGN text and replays its main line.
pub fn import(text: &str) -> Result<ImportedGame, PgnError> {
    if text.len() > MAX_PGN_BYTES {
        return Err(PgnError::TooLarge);
    }
    if let Some((token, after)) = unreadable_token(text) {
        return Err(PgnError::NotAMove { token, after });
    }
    let mut reader = Reader::new(io::Cursor::new(text.as_bytes()));
    let mut visitor = Importer;
    match reader.read_game(&mut visitor) {
        Ok(Some(result)) => result,
        Ok(None) => Err(PgnError::Empty),
        Err(e) => Err(PgnError::Unreadable(e.to_string())),
    }
}

struct Importer;

struct Movetext {
    game: Game,
    tags: Vec<(String, String)>,
    outcome: Option<Outcome>,
    termination: Option<String>,
}

type ImportResult = Result<ImportedGame, PgnError>;

impl Visitor for Importer {
    type Tags = Vec<(String, String)>;
    type Movetext = Movetext;
    type Output = ImportResult;

    fn begin_tags(&mut self) -> ControlFlow<ImportResult, Self::Tags> {
        ControlFlow::Continue(Vec::new())
    }

    fn tag(
        &mut self,
        tags: &mut Self::Tags,
        name: &[u8],
        value: RawTag<'_>,
    ) -> ControlFlow<ImportResult> {
        tags.push((
            String::from_utf8_lossy(name).into_owned(),
            value.decode_utf8_lossy().into_owned(),
        ));
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Self::Tags) -> ControlFlow<ImportResult, Movetext> {
        let value = |name: &str| tags.iter().find(|(n, _)| n == name).map(|(_, v)| v);
        let named = value("Variant");
        let Some(variant) = Variant::from_pgn_tag(named.map(String::as_str)) else {
            let name = named.cloned().unwrap_or_default();
            return ControlFlow::Break(Err(PgnError::UnknownVariant(name)));
        };
        let game = match value("FEN") {
            Some(fen) => match Game::from_fen_in(variant, fen) {
                Ok(game) => game,
                Err(e) => return ControlFlow::Break(Err(PgnError::BadFen(e.0))),
            },
            None => Game::start_of(variant),
        };
        let termination = tags
            .iter()
            .find(|(n, _)| n == "Termination")
            .map(|(_, v)| v.clone());
        ControlFlow::Continue(Movetext {
            game,
            tags,
            outcome: None,
            termination,
        })
    }

    fn san(&mut self, movetext: &mut Movetext, san_plus: SanPlus) -> ControlFlow<ImportResult> {
        let game = &movetext.game;
        let ply = game.plies().len() + 1;
        let position = game.position();
        let number = shakmaty::Position::fullmoves(position);
        let label = match shakmaty::Position::turn(position) {
            Color::White => format!("{number}."),
            Color::Black => format!("{number}..."),
        };
        let fail = |reason: String, kind: BadMove| {
            ControlFlow::Break(Err(PgnError::IllegalMove {
                ply,
                label: label.clone(),
                san: san_plus.to_string(),
                reason,
                kind,
            }))
        };
        if game.is_over() {
            return fail("the game is over".to_owned(), BadMove::AfterEnd);
        }
        let mv = match san_plus.san.to_move(position) {
            Ok(mv) => mv,
            Err(e) => {
                let kind = match e {
                    shakmaty::san::SanError::AmbiguousSan => BadMove::Ambiguous,
                    _ => BadMove::Illegal,
                };
                return fail(e.to_string(), kind);
            }
        };
        // PGN carries no times; imported plies are stamped 0.
        match movetext.game.play_move(mv, 0) {
            Ok(_) => ControlFlow::Continue(()),
            Err(e) => fail(e.to_string(), BadMove::Illegal),
        }
    }

    fn outcome(&mut self, movetext: &mut Movetext, outcome: Outcome) -> ControlFlow<ImportResult> {
        movetext.outcome = Some(outcome);
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, movetext: Movetext) -> ImportResult {
        let Movetext {
            mut game,
            tags,
            outcome,
            termination,
        } = movetext;
        if !game.is_over()
            && let Some(Outcome::Known(known)) = outcome
        {
            let result = GameResult::from_winner(known.winner());
            let termination = match (result, game.claimable_draw()) {
                (GameResult::Draw, Some(claim)) => claim.termination(),
                _ => stated_termination(termination.as_deref(), result),
            };
            let ending = Ending {
                result,
                termination,
            };
            game.restore(game.draw_offer(), game.illegal_king_moves(), Some(ending));
        }
        Ok(ImportedGame { game, tags })
    }
}

/// Best guess at how a game the moves do not finish ended, from its
/// `Termination` tag and result.
fn stated_termination(tag: Option<&str>, result: GameResult) -> Termination {
    match (tag.map(str::to_ascii_lowercase).as_deref(), result) {
        (Some("time forfeit"), _) => Termination::Timeout,
        (Some("abandoned"), _) => Termination::Aborted,
        (Some("adjudication"), _) => Termination::Adjudication,
        (Some("rules infraction"), _) => Termination::IllegalMoves,
        (_, GameResult::Draw) => Termination::Agreement,
        _ => Termination::Resignation,
    }
}

#[cfg(test)]
mod annotation_tests {
    use super::*;

    #[test]
    fn notes_follow_their_moves_and_the_pgn_reads_back() {
        let game = Game::replay(None, [("e2e4", 0), ("e7e5", 0), ("d1h5", 0)]).expect("replays");
        let notes = [
            PlyNote {
                nag: None,
                comment: Some("[%eval 0.30]".to_owned()),
            },
            PlyNote::default(),
            PlyNote {
                nag: Some("?!"),
                comment: Some("[%eval 0.10] Inaccuracy. Nf3 was best }".to_owned()),
            },
        ];
        let text = export_annotated(&game, &PgnTags::default(), &notes);
        assert!(
            text.contains(
                "1. e4 { [%eval 0.30] } e5 2. Qh5?! { [%eval 0.10] Inaccuracy. Nf3 was best ) } *"
            ),
            "{text}"
        );
        let back = import(&text).expect("annotated PGN imports");
        assert_eq!(back.game.plies().len(), 3);
    }
}

#[cfg(test)]
mod title_tests {
    use super::*;

    #[test]
    fn titles_and_an_adjournment_comment_are_written_and_the_pgn_reads_back() {
        let game = Game::replay(None, [("e2e4", 0), ("e7e5", 0), ("g1f3", 0)]).expect("replays");
        let tags = PgnTags {
            white: "张伟".into(),
            black: "Li Na".into(),
            white_title: Some("GM".into()),
            black_title: Some("WIM".into()),
            ..PgnTags::default()
        };
        let notes = [
            PlyNote::default(),
            PlyNote {
                nag: None,
                comment: Some("Adjourned by agreement".into()),
            },
        ];
        let text = export_noted(&game, &tags, Some(&[1_000, 2_000, 3_000]), &notes);
        assert!(text.contains("[White \"张伟\"]\n"), "{text}");
        assert!(
            text.contains("[WhiteTitle \"GM\"]\n[BlackTitle \"WIM\"]\n"),
            "{text}"
        );
        assert!(
            text.contains("e5 { [%clk 0:00:02] } { Adjourned by agreement } 2. Nf3"),
            "{text}"
        );
        let back = import(&text).expect("reads back");
        assert_eq!(back.tag("WhiteTitle"), Some("GM"));
        assert_eq!(back.game.plies().len(), 3);
        // No title, no tag.
        let plain = export(&game, &PgnTags::default(), None);
        assert!(!plain.contains("Title"), "{plain}");
    }
}
