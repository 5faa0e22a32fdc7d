//! Conditional moves (correspondence games): a player enters, in advance,
//! lines of the form "if they play X, I answer Y; if they then play Z, I
//! answer W", and the bot plays the answers as the opponent's moves come.
//! This module is the pure part: reading a line against a position with the
//! same move forms and explanations as `/move` ([`super::input`]), merging
//! lines into a [`Tree`], refusing a line that answers a move differently
//! from an earlier one, following the tree along the moves actually played,
//! and writing a line back as numbered SAN.
//!
//! A tree is rooted at a position. At the plies where its owner is to move a
//! node has at most one branch (the answer); at the opponent's plies it may
//! have many (one per expected move). Entered on the opponent's turn, a line
//! starts with the opponent's next move; entered on the owner's own turn, it
//! starts with the owner's pending move (`Nxd5 Qxd5 Nc3`: "I take, they
//! retake, I bring the knight"). Either way it ends with one of the owner's
//! moves: a line that ends with the opponent's move asks nothing of the bot.
//!
//! Trees are kept as text, one line per row of UCI moves (`e2e4 e7e5`), so
//! the store needs no chess and the text survives any change of this code.

use std::fmt;

use shakmaty::{Color, Position};

use super::{input::InputError, Game, Notation};

/// The most moves (half-moves, both sides counted) one line may have.
pub const MAX_LINE_MOVES: usize = 40;
/// The most moves one player's tree may hold in one game, all lines
/// together (a move shared by several lines counts once).
pub const MAX_TREE_MOVES: usize = 200;

/// One move of a line as read: UCI (stored) and SAN (shown).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineMove {
    pub uci: String,
    pub san: String,
}

/// A line read against a position, every move legal in turn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    pub moves: Vec<LineMove>,
}

/// Why a line was refused. Nothing was stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LineError {
    /// No move at all (only move numbers, or nothing).
    Empty,
    /// More than [`MAX_LINE_MOVES`] moves.
    TooLong { moves: usize },
    /// The move at `index` (0-based) is unreadable, illegal or ambiguous
    /// where it comes; `before` is the line up to it, numbered SAN.
    BadMove {
        index: usize,
        before: String,
        error: InputError,
    },
    /// A move at `index` comes after the game would be over (`last` ended it).
    AfterEnd { index: usize, last: String },
    /// The line ends with the opponent's move (`last`): no answer to play.
    NoAnswer { last: String },
}

/// Why a line does not fit the tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AddError {
    /// At move `index` of the line the tree already answers differently:
    /// `existing` (SAN) where the line says `new`; `before` is the line up
    /// to that move, numbered SAN.
    Conflict {
        index: usize,
        before: String,
        existing: String,
        new: String,
    },
    /// The tree would hold more than [`MAX_TREE_MOVES`] moves.
    TooBig { moves: usize },
}

/// Reads `text` as a line of moves for `owner` from the game's position:
/// moves separated by spaces or commas, move numbers (`12.`, `12...`)
/// allowed and ignored, every form `/move` reads.
///
/// # Errors
///
/// [`LineError`] naming the first move that does not fit and why (with the
/// explanation `/move` would give).
///
/// # Examples
///
/// ```
/// use chessbot::chess::{conditional::read_line, Game};
/// use shakmaty::Color;
///
/// let mut game = Game::new();
/// game.play_text("e4", 0).unwrap();
/// // Black to move: Black's line starts with Black's own pending move.
/// let line = read_line(&game, Color::Black, "1... e5 2. Nf3 Nc6")?;
/// assert_eq!(line.moves.len(), 3);
/// assert_eq!(line.moves[2].san, "Nc6");
/// # Ok::<_, chessbot::chess::conditional::LineError>(())
/// ```
pub fn read_line(game: &Game, owner: Color, text: &str) -> Result<Line, LineError> {
    let tokens = tokens(text);
    if tokens.is_empty() {
        return Err(LineError::Empty);
    }
    if tokens.len() > MAX_LINE_MOVES {
        return Err(LineError::TooLong {
            moves: tokens.len(),
        });
    }
    let start = game.position().clone();
    let mut game = game.clone();
    // The strict house rule counts attempts in real play only.
    game.set_strict_illegal_moves(false);
    let mut moves: Vec<LineMove> = Vec::with_capacity(tokens.len());
    for (index, token) in tokens.iter().enumerate() {
        if game.is_over() {
            let last = moves.last().map(|m| m.san.clone()).unwrap_or_default();
            return Err(LineError::AfterEnd { index, last });
        }
        let played = game
            .parse(token)
            .map_err(|error| LineError::BadMove {
                index,
                before: written(&start, &moves),
                error,
            })
            .and_then(|mv| {
                // Parsed in this position, so legal in it: playing cannot fail
                // but for an ending, which was checked above.
                game.play_move(mv, 0).map_err(|_| LineError::AfterEnd {
                    index,
                    last: moves.last().map(|m| m.san.clone()).unwrap_or_default(),
                })
            })?;
        moves.push(LineMove {
            uci: played.uci.to_string(),
            san: played.san.to_string(),
        });
    }
    // The last move must be the owner's: the side to move after it is the
    // other one.
    if game.turn() == owner {
        let last = moves.last().map(|m| m.san.clone()).unwrap_or_default();
        return Err(LineError::NoAnswer { last });
    }
    Ok(Line { moves })
}

/// The move tokens of a line: split on whitespace and commas, move numbers
/// and detached en-passant notes dropped.
fn tokens(text: &str) -> Vec<&str> {
    text.split(|c: char| c.is_whitespace() || matches!(c, ',' | '，' | ';' | '；' | '、'))
        .filter(|t| !t.is_empty() && !is_move_number(t) && !is_en_passant_note(t))
        .collect()
}

/// `12.`, `12...`, `12…`, `１２．`, or dots alone (`1. e4 ... e5`); a bare
/// number is read as a bad move, to say so.
fn is_move_number(token: &str) -> bool {
    let mut dots = 0;
    for c in token.chars() {
        match c {
            '0'..='9' | '０'..='９' if dots == 0 => {}
            '.' | '．' | '。' | '…' => dots += 1,
            _ => return false,
        }
    }
    dots > 0
}

fn is_en_passant_note(token: &str) -> bool {
    matches!(
        token.to_ascii_lowercase().as_str(),
        "e.p." | "e.p" | "(e.p.)" | "(ep)"
    )
}

/// One player's conditional moves in one game: a tree of UCI moves.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tree {
    branches: Vec<Branch>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Branch {
    uci: String,
    then: Tree,
}

/// Where following a tree along the moves played leads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Followed {
    /// Every move played was in the tree: what is left of it (maybe empty:
    /// used up).
    At(Tree),
    /// The move at this index of those played was on no branch.
    Off { index: usize },
}

impl Tree {
    /// Reads the stored form ([`Tree::to_text`]). Lines are merged as they
    /// come; text that is not a move list is skipped (it was validated when
    /// it was stored).
    pub fn from_text(text: &str) -> Tree {
        let mut tree = Tree::default();
        for line in text.lines() {
            let moves: Vec<&str> = line.split_whitespace().collect();
            if !moves.is_empty() {
                tree.insert(&moves);
            }
        }
        tree
    }

    /// The stored form: one line per row, UCI moves separated by spaces.
    pub fn to_text(&self) -> String {
        self.lines()
            .iter()
            .map(|l| l.join(" "))
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// Whether the tree holds no move.
    pub fn is_empty(&self) -> bool {
        self.branches.is_empty()
    }

    /// The number of moves held (each node once).
    pub fn size(&self) -> usize {
        self.branches.iter().map(|b| 1 + b.then.size()).sum()
    }

    /// Every line from the root to a leaf, as UCI moves, in the order they
    /// were entered.
    pub fn lines(&self) -> Vec<Vec<&str>> {
        let mut out = Vec::new();
        for branch in &self.branches {
            if branch.then.is_empty() {
                out.push(vec![branch.uci.as_str()]);
            }
            for rest in branch.then.lines() {
                let mut line = vec![branch.uci.as_str()];
                line.extend(rest);
                out.push(line);
            }
        }
        out
    }

    /// The answer at the root: the one move the owner has said they will
    /// play here (meaningful when the owner is to move).
    pub fn answer(&self) -> Option<&str> {
        match self.branches.as_slice() {
            [only] => Some(&only.uci),
            _ => None,
        }
    }

    /// The tree after the moves `played` (UCI), if each was on a branch.
    /// A line played to its end is used up, whatever follows it.
    pub fn follow<'a>(&self, played: impl IntoIterator<Item = &'a str>) -> Followed {
        let mut at = self;
        for (index, uci) in played.into_iter().enumerate() {
            if index > 0 && at.is_empty() {
                break;
            }
            match at.branches.iter().find(|b| b.uci == uci) {
                Some(branch) => at = &branch.then,
                None => return Followed::Off { index },
            }
        }
        Followed::At(at.clone())
    }

    /// Merges `line` (read from `game` for `owner`, see [`read_line`]): a
    /// shared beginning extends the tree. Returns the number of new moves.
    ///
    /// # Errors
    ///
    /// [`AddError::Conflict`] when, at one of the owner's moves, the tree
    /// already answers the same position with another move;
    /// [`AddError::TooBig`] past [`MAX_TREE_MOVES`]. The tree is unchanged.
    pub fn add(&mut self, game: &Game, owner: Color, line: &Line) -> Result<usize, AddError> {
        let mut at: &Tree = self;
        let mut turn = game.turn();
        let mut new = line.moves.len();
        let mut position = game.position().clone();
        for (index, m) in line.moves.iter().enumerate() {
            if let Some(branch) = at.branches.iter().find(|b| b.uci == m.uci) {
                at = &branch.then;
                new -= 1;
            } else {
                if turn == owner
                    && let Some(existing) = at.branches.first()
                {
                    return Err(AddError::Conflict {
                        index,
                        before: written(game.position(), &line.moves[..index]),
                        existing: san_of(&position, &existing.uci),
                        new: m.san.clone(),
                    });
                }
                break;
            }
            if let Some(mv) = uci_move(&position, &m.uci) {
                position.play_unchecked(mv);
            }
            turn = !turn;
        }
        let moves = self.size() + new;
        if moves > MAX_TREE_MOVES {
            return Err(AddError::TooBig { moves });
        }
        let ucis: Vec<&str> = line.moves.iter().map(|m| m.uci.as_str()).collect();
        self.insert(&ucis);
        Ok(new)
    }

    /// Adds a line without checks (reading stored text; [`Tree::add`]).
    fn insert(&mut self, moves: &[&str]) {
        let Some((first, rest)) = moves.split_first() else {
            return;
        };
        let index = match self.branches.iter().position(|b| b.uci == *first) {
            Some(i) => i,
            None => {
                self.branches.push(Branch {
                    uci: (*first).to_owned(),
                    then: Tree::default(),
                });
                self.branches.len() - 1
            }
        };
        self.branches[index].then.insert(rest);
    }
}

/// Moves of a line as numbered SAN (letters).
fn written<P: shakmaty::Position + Clone>(start: &P, moves: &[LineMove]) -> String {
    let ucis: Vec<&str> = moves.iter().map(|m| m.uci.as_str()).collect();
    write_line(start, &ucis, Notation::Letters)
}

fn uci_move<P: shakmaty::Position>(position: &P, uci: &str) -> Option<shakmaty::Move> {
    uci.parse::<shakmaty::uci::UciMove>()
        .ok()?
        .to_move(position)
        .ok()
}

fn san_of<P: shakmaty::Position + Clone>(position: &P, uci: &str) -> String {
    match uci_move(position, uci) {
        Some(mv) => shakmaty::san::SanPlus::from_move(position.clone(), mv).to_string(),
        None => uci.to_owned(),
    }
}

/// `moves` (UCI) from `position` as numbered SAN in `notation`:
/// `3. Nxd5 Qxd5 4. Nc3`, or `3... Qxd5 4. Nc3` when Black moves first.
/// Stops at the first move that is not legal (a stored line always is).
pub fn write_line<P: shakmaty::Position + Clone>(
    position: &P,
    moves: &[&str],
    notation: Notation,
) -> String {
    let mut position = position.clone();
    let mut out: Vec<String> = Vec::with_capacity(moves.len() + moves.len() / 2 + 1);
    for (i, uci) in moves.iter().enumerate() {
        let Some(mv) = uci_move(&position, uci) else {
            break;
        };
        let number = position.fullmoves().get();
        match position.turn() {
            Color::White => out.push(format!("{number}.")),
            Color::Black if i == 0 => out.push(format!("{number}...")),
            Color::Black => {}
        }
        let san = shakmaty::san::SanPlus::from_move(position.clone(), mv).to_string();
        out.push(notation.write(&san).into_owned());
        position.play_unchecked(mv);
    }
    out.join(" ")
}

impl fmt::Display for Tree {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_text())
    }
}

#[cfg(test)]
mod tests {
    use shakmaty::Chess;

    use super::*;
    use crate::chess::input::IllegalReason;

    fn game_after(moves: &[&str]) -> Game {
        let mut game = Game::new();
        for m in moves {
            game.play_text(m, 0).expect("test move");
        }
        game
    }

    #[test]
    fn reads_numbers_and_every_input_form() {
        let game = game_after(&["e4", "d5"]);
        // White to move: White's line begins with White's own move.
        let line = read_line(&game, Color::White, "2. exd5 Qxd5 3. 马c3").expect("line");
        let san: Vec<&str> = line.moves.iter().map(|m| m.san.as_str()).collect();
        assert_eq!(san, ["exd5", "Qxd5", "Nc3"]);
        assert_eq!(line.moves[2].uci, "b1c3");
        let same = read_line(&game, Color::White, "e4d5, d8d5, Nb1-c3").expect("line");
        assert_eq!(same, line);
        let numbered = read_line(&game, Color::White, "2.exd5 2...Qxd5 3．Nc3").expect("line");
        assert_eq!(numbered, line);
    }

    #[test]
    fn names_the_first_bad_move_and_why() {
        let game = game_after(&["e4", "d5"]);
        let err = read_line(&game, Color::White, "exd5 Qxd5 Ke3 Qe4").unwrap_err();
        match err {
            LineError::BadMove {
                index,
                before,
                error,
            } => {
                assert_eq!(index, 2);
                assert_eq!(before, "2. exd5 Qxd5");
                assert!(matches!(
                    error,
                    InputError::Illegal {
                        reason: IllegalReason::NoPieceCanGoThere { .. },
                        ..
                    }
                ));
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            read_line(&game, Color::White, "exd5 banana"),
            Err(LineError::BadMove { index: 1, .. })
        ));
    }

    #[test]
    fn a_line_ends_with_an_answer_and_is_bounded() {
        let game = game_after(&["e4"]);
        // White's line on Black's turn: Black's move, then White's answer.
        assert!(read_line(&game, Color::White, "e5 Nf3").is_ok());
        assert_eq!(
            read_line(&game, Color::White, "e5 Nf3 Nc6"),
            Err(LineError::NoAnswer {
                last: "Nc6".to_owned()
            })
        );
        assert_eq!(
            read_line(&game, Color::White, "1. 2. ..."),
            Err(LineError::Empty)
        );
        let long = ["Nf6 Ng1 Ng8 Nf3"; 50].join(" ");
        assert_eq!(
            read_line(&game, Color::White, &long),
            Err(LineError::TooLong { moves: 200 })
        );
    }

    #[test]
    fn nothing_follows_a_mate() {
        let game = game_after(&["f3", "e5"]);
        assert!(read_line(&game, Color::Black, "g4 Qh4#").is_ok());
        assert_eq!(
            read_line(&game, Color::Black, "g4 Qh4# Kf2 Qxe4"),
            Err(LineError::AfterEnd {
                index: 2,
                last: "Qh4#".to_owned()
            })
        );
    }

    #[test]
    fn lines_merge_into_a_tree_and_conflicts_are_named() {
        let game = game_after(&["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"]);
        let white = Color::White;
        let mut tree = Tree::default();
        // White to move: the first move is White's own.
        let a = read_line(&game, white, "Bxc6 dxc6 O-O").expect("a");
        let b = read_line(&game, white, "Bxc6 bxc6 d4").expect("b");
        assert_eq!(tree.add(&game, white, &a), Ok(3));
        assert_eq!(tree.add(&game, white, &b), Ok(2));
        assert_eq!(tree.size(), 5);
        assert_eq!(tree.add(&game, white, &a), Ok(0));
        let c = read_line(&game, white, "Bxc6 dxc6 d3").expect("c");
        assert_eq!(
            tree.add(&game, white, &c),
            Err(AddError::Conflict {
                index: 2,
                before: "4. Bxc6 dxc6".to_owned(),
                existing: "O-O".to_owned(),
                new: "d3".to_owned()
            })
        );
        let d = read_line(&game, white, "Ba4 b5 Bb3").expect("d");
        assert!(matches!(
            tree.add(&game, white, &d),
            Err(AddError::Conflict { index: 0, .. })
        ));
        assert_eq!(tree.size(), 5, "refused lines change nothing");
        let back = Tree::from_text(&tree.to_text());
        assert_eq!(back, tree);
        assert_eq!(
            tree.to_text(),
            "b5c6 d7c6 e1g1\nb5c6 b7c6 d2d4",
            "castling is stored as the king's move"
        );
    }

    #[test]
    fn following_the_game() {
        let tree = Tree::from_text("e7e5 g1f3 b8c6 f1b5\ne7e5 g1f3 g8f6 f3e5\nc7c5 g1f3");
        match tree.follow(["e7e5"]) {
            Followed::At(t) => assert_eq!(t.answer(), Some("g1f3")),
            other => panic!("{other:?}"),
        }
        match tree.follow(["e7e5", "g1f3", "g8f6"]) {
            Followed::At(t) => assert_eq!(t.answer(), Some("f3e5")),
            other => panic!("{other:?}"),
        }
        assert_eq!(
            tree.follow(["e7e5", "g1f3", "d7d6"]),
            Followed::Off { index: 2 }
        );
        assert_eq!(tree.follow(["c7c5", "g1f3"]), Followed::At(Tree::default()));
        assert_eq!(
            tree.follow(["c7c5", "g1f3", "d7d6"]),
            Followed::At(Tree::default()),
            "used up, not missed"
        );
        assert_eq!(tree.follow([]), Followed::At(tree.clone()));
    }

    #[test]
    fn the_tree_has_a_size_limit() {
        use shakmaty::{san::San, CastlingMode};
        let game = Game::new();
        let start = game.position().clone();
        let mut tree = Tree::default();
        // Black's lines "X Nf6 Z Ng8" for White's moves X and Z: every new
        // Z adds two moves, until the limit.
        let mut refused = None;
        'outer: for x in start.legal_moves() {
            let mut after_x = start.clone();
            after_x.play_unchecked(x);
            let nf6 = San::from_ascii(b"Nf6")
                .expect("san")
                .to_move(&after_x)
                .expect("Nf6");
            let mut after = after_x.clone();
            after.play_unchecked(nf6);
            for z in after.legal_moves() {
                let uci = |m: shakmaty::Move| m.to_uci(CastlingMode::Standard).to_string();
                let text = format!("{} g8f6 {} f6g8", uci(x), uci(z));
                let line = read_line(&game, Color::Black, &text).expect("line");
                if let Err(e) = tree.add(&game, Color::Black, &line) {
                    refused = Some(e);
                    break 'outer;
                }
            }
        }
        assert!(matches!(refused, Some(AddError::TooBig { moves }) if moves > MAX_TREE_MOVES));
        assert!(tree.size() <= MAX_TREE_MOVES);
    }

    #[test]
    fn writes_numbered_lines() {
        let start = Chess::default();
        assert_eq!(
            write_line(&start, &["e2e4", "e7e5", "g1f3"], Notation::Letters),
            "1. e4 e5 2. Nf3"
        );
        let game = game_after(&["e4"]);
        assert_eq!(
            write_line(game.position(), &["e7e5", "g1f3"], Notation::Chinese),
            "1... e5 2. 马f3"
        );
    }
}
