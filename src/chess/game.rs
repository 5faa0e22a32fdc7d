//! A game of chess over shakmaty: the moves played (with their SAN, UCI and
//! the caller's timestamps), whose turn it is, and every way a game ends
//! (SPEC §1): the automatic endings are detected after each move, the
//! claimable draws are offered to the side to move, and the player actions
//! (resign, offer/accept/decline a draw, abort, flag, adjudication) are
//! checked against the rules before they change anything.
//!
//! The rules are the variant's ([`Variant`]): the position is shakmaty's
//! `VariantPosition`, whose own end conditions (an exploded king, the king
//! on the hill, the third check, the horde destroyed, the race won or
//! tied, antichess's empty or stalemated side) come first, as lichess and
//! python-chess put them. The draw rules are standard chess's in every
//! variant, except that Crazyhouse has no fifty- or seventy-five-move rule.
//!
//! Like shakmaty's `PlayError`, a refused action leaves the game untouched.

use std::fmt;

use shakmaty::{
    fen::Fen, san::SanPlus, uci::UciMove, variant::VariantPosition, CastlingSide, Chess, Color,
    EnPassantMode, FromSetup, KnownOutcome, Move, Outcome, Position,
};

use crate::{i18n::Lang, t};

use super::{
    chess960,
    ending::{DrawClaim, Ending, GameResult, Termination},
    input::{self, CastlingBlock, IllegalReason, InputError},
    move_text::MoveText,
    notation::Notation,
    opening::Opening,
    variant::Variant,
};

/// How many times the same position (FIDE: same side to move, castling and
/// en-passant rights) must stand before the side to move may claim a draw.
const THREEFOLD: usize = 3;
/// ... and before the game is drawn automatically.
const FIVEFOLD: usize = 5;
/// Half-moves without capture or pawn move for the fifty-move claim.
const FIFTY_MOVES: u32 = 100;
/// ... and for the automatic seventy-five-move rule.
const SEVENTY_FIVE_MOVES: u32 = 150;
/// Attempts to move the king into check that lose the game under the
/// `strict_illegal_moves` house rule (seed 003: 送王 three times loses).
pub const ILLEGAL_KING_MOVES_LIMIT: u8 = 3;

/// One half-move as it was played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ply {
    pub mv: Move,
    /// Standard algebraic notation with check suffix, e.g. `Nf3`, `Qxf7#`.
    pub san: MoveText,
    /// UCI, e.g. `g1f3`, `e1g1` for castling.
    pub uci: MoveText,
    /// When it was played (caller's clock, milliseconds since the epoch).
    pub at_ms: i64,
}

/// Why an action was refused. Nothing changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RuleError {
    /// The move could not be read, is illegal or ambiguous.
    Input(InputError),
    /// A move given as a `Move` (not text) that is not legal here.
    NotLegal {
        uci: String,
    },
    GameOver,
    NotYourTurn,
    NoDrawOffer,
    AlreadyOffered,
    NothingToClaim,
    /// A claim made together with a move that would not create the claimed
    /// position; the move is not played.
    ClaimWithMoveFails {
        san: String,
    },
    AbortTooLate,
}

impl RuleError {
    /// Why the action was refused, in `lang`, moves in letters (`Nf3`).
    pub fn text(&self, lang: Lang) -> String {
        self.text_in(lang, Notation::Letters)
    }

    /// Why the action was refused, in `lang`, with the moves it names
    /// written in `notation`.
    pub fn text_in(&self, lang: Lang, notation: Notation) -> String {
        match self {
            RuleError::Input(e) => e.text_in(lang, notation),
            RuleError::NotLegal { uci } => t!(lang, "rule-not-legal", uci = uci),
            RuleError::GameOver => t!(lang, "rule-game-over"),
            RuleError::NotYourTurn => t!(lang, "rule-not-your-turn"),
            RuleError::NoDrawOffer => t!(lang, "rule-no-draw-offer"),
            RuleError::AlreadyOffered => t!(lang, "rule-already-offered"),
            RuleError::NothingToClaim => t!(lang, "rule-nothing-to-claim"),
            RuleError::ClaimWithMoveFails { san } => t!(
                lang,
                "rule-claim-with-move-fails",
                san = notation.write(san).into_owned()
            ),
            RuleError::AbortTooLate => t!(lang, "rule-abort-too-late"),
        }
    }
}

impl fmt::Display for RuleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text(Lang::En))
    }
}

impl std::error::Error for RuleError {}

impl From<InputError> for RuleError {
    fn from(e: InputError) -> Self {
        RuleError::Input(e)
    }
}

/// What a refused move did under the strict house rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IllegalAttempt {
    pub error: InputError,
    /// Set when the attempt was counted (king moved into check, rule on).
    pub counted: Option<u8>,
    /// Set when the count reached the limit and the game is lost.
    pub ending: Option<Ending>,
}

/// Bad FEN or a position that cannot be played: what is wrong, to be put
/// into the reader's words with [`FenProblem::text`].
///
/// [`FenProblem::text`]: super::fen_input::FenProblem::text
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}", .0.text(crate::i18n::Lang::En))]
pub struct FenError(pub super::fen_input::FenProblem);

/// A stored move list that does not replay legally.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("move {ply} (`{uci}`) does not replay: {reason}")]
pub struct ReplayError {
    pub ply: usize,
    pub uci: String,
    pub reason: String,
}

/// A game of chess in one [`Variant`], from its start position.
#[derive(Clone, Debug)]
pub struct Game {
    variant: Variant,
    initial: VariantPosition,
    /// `None` for the variant's usual start position (standard chess's, or
    /// Horde's and Racing Kings' own); always set in Chess960, whose start
    /// is part of the game.
    initial_fen: Option<String>,
    /// The Chess960 start position's number (0–959), when it is one.
    start_number: Option<u16>,
    position: VariantPosition,
    plies: Vec<Ply>,
    /// Positions since the last irreversible move, oldest first, the current
    /// one last. shakmaty's positions compare exactly what FIDE 9.2.2
    /// compares (pieces, side to move, castling rights, *legal* en passant),
    /// and what the variant adds: Crazyhouse's pockets and promoted pieces,
    /// Three-check's checks. "Irreversible" is the variant's own: in
    /// Crazyhouse a capture is not (the piece comes back as a drop), in
    /// Three-check a check is.
    recent: Vec<VariantPosition>,
    ending: Option<Ending>,
    draw_offer: Option<Color>,
    strict_illegal_moves: bool,
    illegal_king_moves: [u8; 2],
    /// The deepest position of the game so far that the opening book names
    /// (standard chess positions only), kept up as moves are played so that
    /// naming the opening is not a replay of the whole game each time
    /// ([`super::opening::classify`] decides whether it applies).
    named: Option<Opening>,
}

/// The opening book's name of `position`, if it is a standard chess
/// position the book has.
fn book_name(position: &VariantPosition) -> Option<Opening> {
    match position {
        VariantPosition::Chess(chess) => super::opening::lookup(chess),
        _ => None,
    }
}

impl Default for Game {
    fn default() -> Self {
        Game::new()
    }
}

impl Game {
    /// A game from the standard start position.
    pub fn new() -> Game {
        Game::from_position(
            Variant::Standard,
            VariantPosition::Chess(Chess::default()),
            None,
        )
    }

    /// A Chess960 game from start position `number` (`None` past 959).
    pub fn chess960(number: u16) -> Option<Game> {
        let fen = chess960::start_fen(number)?;
        Game::from_fen_in(Variant::Chess960, &fen).ok()
    }

    /// A game of `variant` from its usual start: standard chess's (also
    /// Chess960's position 518, the same squares), or the variant's own
    /// (Horde's pawns, Racing Kings' last two ranks).
    pub fn start_of(variant: Variant) -> Game {
        match variant {
            Variant::Standard => Game::new(),
            Variant::Chess960 => Game::chess960(chess960::STANDARD).unwrap_or_default(),
            _ => Game::from_position(variant, VariantPosition::new(variant.rules()), None),
        }
    }

    /// The FEN of `variant`'s usual start, as [`Game::fen`] writes it.
    pub fn start_fen_of(variant: Variant) -> String {
        let start = VariantPosition::new(variant.rules());
        Fen::from_position(&start, EnPassantMode::Legal).to_string()
    }

    /// A game of standard chess from a FEN. A position that is already over
    /// (mate, stalemate, dead) starts ended.
    pub fn from_fen(fen: &str) -> Result<Game, FenError> {
        Game::from_fen_in(Variant::Standard, fen)
    }

    /// A game of `variant` from a FEN (in Chess960, castling rights in
    /// X-FEN or Shredder-FEN; in Crazyhouse, pockets as `[Nq]` or `/Nq`
    /// and promoted pieces marked `~`; in Three-check, the checks left as
    /// `3+3` or given as lichess's trailing `+0+0`). The position must be
    /// legal in the variant (Racing Kings has no checks, Horde's White has
    /// no king, …). A position that is already over starts ended.
    pub fn from_fen_in(variant: Variant, fen: &str) -> Result<Game, FenError> {
        let position =
            super::fen_input::read_position_in(variant.rules(), variant.castling_mode(), fen)
                .map_err(FenError)?;
        // The en-passant square is kept wherever a pawn stands next to it
        // (pseudo-legal), even when taking would expose the king: the game
        // is replayed from this text, and a pinned pawn's capture must be
        // refused for the pin, not for a right the position lost.
        let canonical = Fen::from_position(&position, EnPassantMode::PseudoLegal).to_string();
        let start = Game::start_fen_of(variant);
        let initial_fen = (canonical != start || variant == Variant::Chess960).then_some(canonical);
        let mut game = Game::from_position(variant, position, initial_fen);
        if variant.numbered_starts()
            && let VariantPosition::Chess(chess) = &game.initial
        {
            game.start_number = chess960::number_of(chess);
        }
        Ok(game)
    }

    fn from_position(
        variant: Variant,
        position: VariantPosition,
        initial_fen: Option<String>,
    ) -> Game {
        let mut game = Game {
            variant,
            initial: position.clone(),
            initial_fen,
            start_number: None,
            recent: vec![position.clone()],
            position,
            plies: Vec::new(),
            ending: None,
            draw_offer: None,
            strict_illegal_moves: false,
            illegal_king_moves: [0, 0],
            named: None,
        };
        game.named = book_name(&game.position);
        game.ending = game.automatic_ending();
        game
    }

    /// Rebuilds a game of standard chess from its stored moves (UCI) and
    /// their times.
    pub fn replay<'a>(
        initial_fen: Option<&str>,
        moves: impl IntoIterator<Item = (&'a str, i64)>,
    ) -> Result<Game, ReplayError> {
        Game::replay_in(Variant::Standard, initial_fen, moves)
    }

    /// Rebuilds a game of `variant` from its start position (`None`: the
    /// variant's usual start) and its stored moves (UCI) and their times.
    pub fn replay_in<'a>(
        variant: Variant,
        initial_fen: Option<&str>,
        moves: impl IntoIterator<Item = (&'a str, i64)>,
    ) -> Result<Game, ReplayError> {
        let mut game = match initial_fen {
            Some(fen) => Game::from_fen_in(variant, fen).map_err(|e| ReplayError {
                ply: 0,
                uci: String::new(),
                reason: e.to_string(),
            })?,
            None => Game::start_of(variant),
        };
        for (index, (uci, at_ms)) in moves.into_iter().enumerate() {
            let fail = |reason: String| ReplayError {
                ply: index + 1,
                uci: uci.to_owned(),
                reason,
            };
            let parsed: UciMove = uci.parse().map_err(|e| fail(format!("{e}")))?;
            let mv = parsed
                .to_move(&game.position)
                .map_err(|e| fail(format!("{e}")))?;
            game.play_move(mv, at_ms).map_err(|e| fail(e.to_string()))?;
        }
        Ok(game)
    }

    /// Turns the `strict_illegal_moves` house rule on or off.
    pub fn set_strict_illegal_moves(&mut self, on: bool) {
        self.strict_illegal_moves = on;
    }

    /// Restores state kept beside the moves (after [`Game::replay`]).
    pub fn restore(
        &mut self,
        draw_offer: Option<Color>,
        illegal_king_moves: [u8; 2],
        ending: Option<Ending>,
    ) {
        self.draw_offer = draw_offer;
        self.illegal_king_moves = illegal_king_moves;
        if ending.is_some() {
            self.ending = ending;
        }
    }

    /// The position on the board, in the game's variant.
    pub fn position(&self) -> &VariantPosition {
        &self.position
    }

    /// The rules this game is played by.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The Chess960 start position's number, if the game started from one.
    pub fn start_number(&self) -> Option<u16> {
        self.start_number
    }

    /// A move in UCI as this game's variant writes it (Chess960 castling
    /// is the king onto its rook, `e1h1`; standard's the king's step, `e1g1`).
    pub fn uci(&self, mv: Move) -> String {
        mv.to_uci(self.variant.castling_mode()).to_string()
    }

    pub fn initial_position(&self) -> &VariantPosition {
        &self.initial
    }

    /// The starting FEN, or `None` for the variant's usual start position.
    pub fn initial_fen(&self) -> Option<&str> {
        self.initial_fen.as_deref()
    }

    /// The current position as FEN (X-FEN: Crazyhouse's pockets as `[…]`
    /// and promoted pieces as `~`, Three-check's checks left as `3+3`, as
    /// shakmaty and python-chess write them).
    pub fn fen(&self) -> String {
        Fen::from_position(&self.position, EnPassantMode::Legal).to_string()
    }

    pub fn turn(&self) -> Color {
        self.position.turn()
    }

    pub fn plies(&self) -> &[Ply] {
        &self.plies
    }

    /// The deepest position so far, from the start, that the opening book
    /// names: what [`super::opening::classify_line`] finds for the game's
    /// line, whatever the variant (see [`super::opening::classify`]).
    pub fn book_opening(&self) -> Option<Opening> {
        self.named
    }

    pub fn last_ply(&self) -> Option<&Ply> {
        self.plies.last()
    }

    pub fn ending(&self) -> Option<Ending> {
        self.ending
    }

    pub fn is_over(&self) -> bool {
        self.ending.is_some()
    }

    /// The side whose draw offer stands, if any.
    pub fn draw_offer(&self) -> Option<Color> {
        self.draw_offer
    }

    /// Attempts to move the king into check so far, by colour (White, Black).
    pub fn illegal_king_moves(&self) -> [u8; 2] {
        self.illegal_king_moves
    }

    /// Number of moves made by `color` in this game.
    pub fn moves_by(&self, color: Color) -> usize {
        let first = self.initial.turn();
        let n = self.plies.len();
        if color == first {
            n.div_ceil(2)
        } else {
            n / 2
        }
    }

    /// How often the current position has stood since the last irreversible
    /// move (including now).
    pub fn repetitions(&self) -> usize {
        self.recent.iter().filter(|p| **p == self.position).count()
    }

    /// The draw the side to move may claim now, if any.
    pub fn claimable_draw(&self) -> Option<DrawClaim> {
        if self.is_over() {
            return None;
        }
        if self.repetitions() >= THREEFOLD {
            Some(DrawClaim::ThreefoldRepetition)
        } else if self.variant.has_move_count_draws() && self.position.halfmoves() >= FIFTY_MOVES {
            Some(DrawClaim::FiftyMoveRule)
        } else {
            None
        }
    }

    /// Reads `text` as a move for the side to move and plays it. Under the
    /// strict house rule an attempt to move the king into check is counted,
    /// and the third loses the game: that is reported as
    /// [`PlayTextError::Illegal`] with the attempt's ending set.
    pub fn play_text(&mut self, text: &str, at_ms: i64) -> Result<&Ply, PlayTextError> {
        if self.is_over() {
            return Err(PlayTextError::Rule(RuleError::GameOver));
        }
        match self.parse(text) {
            Ok(mv) => self.play_move(mv, at_ms).map_err(PlayTextError::Rule),
            Err(error) => Err(self.refuse_input(error)),
        }
    }

    /// Parses `text` without playing it.
    pub fn parse(&self, text: &str) -> Result<Move, InputError> {
        input::parse_move(&self.position, text)
            .map_err(|e| self.in_variant(self.in_history(e), text))
    }

    /// Refines a refusal with the variant's own rules: a move standard
    /// chess would allow on this board is refused for the variant's sake
    /// (a capture was compulsory in Antichess; an Atomic king may not
    /// capture; Racing Kings has no checks), and the reply says so rather
    /// than explaining it by standard chess's rules.
    fn in_variant(&self, mut error: InputError, text: &str) -> InputError {
        if matches!(self.variant, Variant::Standard | Variant::Chess960) {
            return error;
        }
        if let InputError::Illegal { reason, .. } = &mut error {
            if matches!(reason, IllegalReason::Drop(_)) {
                return error;
            }
            let setup = self.position.to_setup(EnPassantMode::Legal);
            // Horde's kingless White is no standard position: no refinement.
            let standard = Chess::from_setup(setup, self.variant.castling_mode()).ok();
            if standard.is_some_and(|chess| input::parse_move(&chess, text).is_ok()) {
                let captures = self.position.capture_moves();
                *reason = match self.variant {
                    Variant::Antichess if !captures.is_empty() => IllegalReason::MustCapture,
                    variant => IllegalReason::VariantRule(variant),
                };
            }
        }
        error
    }

    /// Refines a refusal with what only the game knows: a castling right
    /// missing since the starting position (a FEN that never granted it)
    /// was not lost by moving the king or rook.
    fn in_history(&self, mut error: InputError) -> InputError {
        if let InputError::Illegal { reason, .. } = &mut error
            && *reason == IllegalReason::Castling(CastlingBlock::NoRight)
        {
            let turn = self.position.turn();
            let granted = self.initial.castles();
            let now = self.position.castles();
            // The side asked for is not in the error; it is known when
            // the start granted no right, or the one it granted is
            // still there (so the refused one was never granted).
            let never = CastlingSide::ALL
                .iter()
                .all(|&side| !granted.has(turn, side) || now.has(turn, side));
            if never {
                *reason = IllegalReason::Castling(CastlingBlock::NotGranted);
            }
        }
        error
    }

    fn refuse_input(&mut self, error: InputError) -> PlayTextError {
        let king_into_check = matches!(
            error,
            InputError::Illegal {
                reason: IllegalReason::KingIntoCheck,
                ..
            }
        );
        if !(self.strict_illegal_moves && king_into_check) {
            return PlayTextError::Rule(RuleError::Input(error));
        }
        let side = self.turn();
        let count = &mut self.illegal_king_moves[color_index(side)];
        *count = count.saturating_add(1);
        let counted = *count;
        let ending = (counted >= ILLEGAL_KING_MOVES_LIMIT).then(|| Ending {
            result: GameResult::from_winner(Some(!side)),
            termination: Termination::IllegalMoves,
        });
        if let Some(ending) = ending {
            self.end(ending);
        }
        PlayTextError::Illegal(IllegalAttempt {
            error,
            counted: Some(counted),
            ending,
        })
    }

    /// Plays a legal move.
    pub fn play_move(&mut self, mv: Move, at_ms: i64) -> Result<&Ply, RuleError> {
        if self.is_over() {
            return Err(RuleError::GameOver);
        }
        if !self.position.is_legal(mv) {
            return Err(RuleError::NotLegal { uci: self.uci(mv) });
        }
        let mover = self.turn();
        let san = SanPlus::from_move(self.position.clone(), mv).to_string();
        let uci = self.uci(mv);
        let irreversible = self.position.is_irreversible(mv);
        self.position.play_unchecked(mv);
        if irreversible {
            self.recent.clear();
        }
        self.recent.push(self.position.clone());
        if let Some(named) = book_name(&self.position) {
            self.named = Some(named);
        }
        // An offer lapses when the offerer's opponent moves instead of answering.
        if self.draw_offer.is_some_and(|offerer| offerer != mover) {
            self.draw_offer = None;
        }
        self.plies.push(Ply {
            mv,
            san: MoveText::new(&san),
            uci: MoveText::new(&uci),
            at_ms,
        });
        self.ending = self.automatic_ending();
        if self.ending.is_some() {
            self.draw_offer = None;
        }
        Ok(self.plies.last().expect("a ply was just pushed"))
    }

    /// Plays `text` and claims the draw it creates (FIDE 9.2.1.2 / 9.3.1):
    /// the claim holds when, after the move, the position has stood three
    /// times or fifty moves have passed. A claim that would not hold is
    /// refused and the move is not played.
    pub fn play_text_claiming_draw(&mut self, text: &str, at_ms: i64) -> Result<Ending, RuleError> {
        if self.is_over() {
            return Err(RuleError::GameOver);
        }
        let mv = self.parse(text)?;
        let mut trial = self.clone();
        trial.play_move(mv, at_ms)?;
        if let Some(ending) = trial.ending {
            *self = trial;
            return Ok(ending);
        }
        let claim = trial
            .claimable_draw()
            .ok_or_else(|| RuleError::ClaimWithMoveFails {
                san: trial
                    .last_ply()
                    .map(|p| p.san.to_string())
                    .unwrap_or_default(),
            })?;
        *self = trial;
        Ok(self.end(Ending {
            result: GameResult::Draw,
            termination: claim.termination(),
        }))
    }

    /// The side to move claims a draw available now.
    pub fn claim_draw(&mut self, claimant: Color) -> Result<Ending, RuleError> {
        self.check_running()?;
        if claimant != self.turn() {
            return Err(RuleError::NotYourTurn);
        }
        let claim = self.claimable_draw().ok_or(RuleError::NothingToClaim)?;
        Ok(self.end(Ending {
            result: GameResult::Draw,
            termination: claim.termination(),
        }))
    }

    /// `side` offers a draw. If the opponent's offer stands, this accepts it.
    pub fn offer_draw(&mut self, side: Color) -> Result<DrawOffer, RuleError> {
        self.check_running()?;
        match self.draw_offer {
            Some(offerer) if offerer == side => Err(RuleError::AlreadyOffered),
            Some(_) => self.accept_draw(side).map(DrawOffer::Agreed),
            None => {
                self.draw_offer = Some(side);
                Ok(DrawOffer::Offered)
            }
        }
    }

    /// `side` accepts the opponent's standing draw offer.
    pub fn accept_draw(&mut self, side: Color) -> Result<Ending, RuleError> {
        self.check_running()?;
        if self.draw_offer != Some(!side) {
            return Err(RuleError::NoDrawOffer);
        }
        Ok(self.end(Ending {
            result: GameResult::Draw,
            termination: Termination::Agreement,
        }))
    }

    /// `side` declines the opponent's standing draw offer.
    pub fn decline_draw(&mut self, side: Color) -> Result<(), RuleError> {
        self.check_running()?;
        if self.draw_offer != Some(!side) {
            return Err(RuleError::NoDrawOffer);
        }
        self.draw_offer = None;
        Ok(())
    }

    /// `side` resigns.
    pub fn resign(&mut self, side: Color) -> Result<Ending, RuleError> {
        self.check_running()?;
        Ok(self.end(Ending {
            result: GameResult::from_winner(Some(!side)),
            termination: Termination::Resignation,
        }))
    }

    /// Whether the game may still be aborted: not before each side has made
    /// its first move.
    pub fn can_abort(&self) -> bool {
        !self.is_over() && self.plies.len() < 2
    }

    /// Aborts the game: no result, not rated.
    pub fn abort(&mut self) -> Result<Ending, RuleError> {
        self.check_running()?;
        if !self.can_abort() {
            return Err(RuleError::AbortTooLate);
        }
        Ok(self.end(Ending {
            result: GameResult::NoResult,
            termination: Termination::Aborted,
        }))
    }

    /// `flagged` ran out of time. The opponent wins, unless the opponent
    /// cannot possibly mate with any series of legal moves (FIDE 6.9): then
    /// it is a draw.
    pub fn flag(&mut self, flagged: Color) -> Result<Ending, RuleError> {
        self.check_running()?;
        let opponent = !flagged;
        let result = if self.position.has_insufficient_material(opponent) {
            GameResult::Draw
        } else {
            GameResult::from_winner(Some(opponent))
        };
        Ok(self.end(Ending {
            result,
            termination: Termination::Timeout,
        }))
    }

    /// A moderator decides the result.
    pub fn adjudicate(&mut self, result: GameResult) -> Result<Ending, RuleError> {
        self.check_running()?;
        Ok(self.end(Ending {
            result,
            termination: Termination::Adjudication,
        }))
    }

    fn check_running(&self) -> Result<(), RuleError> {
        if self.is_over() {
            Err(RuleError::GameOver)
        } else {
            Ok(())
        }
    }

    fn end(&mut self, ending: Ending) -> Ending {
        self.ending = Some(ending);
        self.draw_offer = None;
        ending
    }

    /// The ending the rules impose without anyone asking, after a move.
    fn automatic_ending(&self) -> Option<Ending> {
        let pos = &self.position;
        let ending = |result, termination| {
            Some(Ending {
                result,
                termination,
            })
        };
        // The variant's own ending first (python-chess and lichess put it
        // first too); then checkmate: a mate on the 75th move or on a fifth
        // repetition still wins (FIDE 9.6).
        if let Outcome::Known(outcome) = pos.variant_outcome() {
            return ending(
                match outcome {
                    KnownOutcome::Decisive { winner } => GameResult::from_winner(Some(winner)),
                    KnownOutcome::Draw => GameResult::Draw,
                },
                self.variant_termination(outcome),
            );
        }
        if pos.is_checkmate() {
            return ending(
                GameResult::from_winner(Some(!pos.turn())),
                Termination::Checkmate,
            );
        }
        if pos.is_stalemate() {
            return ending(GameResult::Draw, Termination::Stalemate);
        }
        if pos.is_insufficient_material() {
            return ending(GameResult::Draw, Termination::InsufficientMaterial);
        }
        if self.repetitions() >= FIVEFOLD {
            return ending(GameResult::Draw, Termination::FivefoldRepetition);
        }
        if self.variant.has_move_count_draws() && pos.halfmoves() >= SEVENTY_FIVE_MOVES {
            return ending(GameResult::Draw, Termination::SeventyFiveMoveRule);
        }
        None
    }

    /// Why the variant ended the game with `outcome` (its rules' own
    /// ending, never standard chess's).
    fn variant_termination(&self, outcome: KnownOutcome) -> Termination {
        let pos = &self.position;
        match self.variant {
            Variant::Atomic => Termination::Explosion,
            Variant::KingOfTheHill => Termination::KingOfTheHill,
            Variant::ThreeCheck => Termination::ThreeChecks,
            Variant::Horde => Termination::HordeDestroyed,
            Variant::RacingKings if outcome == KnownOutcome::Draw => Termination::RaceTied,
            Variant::RacingKings => Termination::RaceWon,
            Variant::Antichess if pos.us().is_empty() => Termination::NoPiecesLeft,
            Variant::Antichess => Termination::NoMovesLeft,
            // Standard chess, Chess960 and Crazyhouse have no variant
            // ending; shakmaty reports none for them.
            Variant::Standard | Variant::Chess960 | Variant::Crazyhouse => match outcome {
                KnownOutcome::Draw => Termination::Stalemate,
                KnownOutcome::Decisive { .. } => Termination::Checkmate,
            },
        }
    }
}

/// `0` for White, `1` for Black: the order of every `[white, black]` pair in
/// this crate (shakmaty's own `Color as usize` is the other way round).
pub const fn color_index(color: Color) -> usize {
    match color {
        Color::White => 0,
        Color::Black => 1,
    }
}

/// Outcome of an offer.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum DrawOffer {
    /// The offer stands until the opponent answers or moves.
    Offered,
    /// The opponent had offered already: the game is drawn.
    Agreed(Ending),
}

/// Why [`Game::play_text`] did not play a move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayTextError {
    Rule(RuleError),
    /// An attempt counted by the strict house rule (may have lost the game).
    Illegal(IllegalAttempt),
}

impl PlayTextError {
    /// Why the move was not played, in `lang`, moves in letters (`Nf3`).
    pub fn text(&self, lang: Lang) -> String {
        self.text_in(lang, Notation::Letters)
    }

    /// Why the move was not played, in `lang`, with the moves it suggests
    /// written in `notation`.
    pub fn text_in(&self, lang: Lang, notation: Notation) -> String {
        match self {
            PlayTextError::Rule(e) => e.text_in(lang, notation),
            PlayTextError::Illegal(attempt) => {
                let text = attempt.error.text_in(lang, notation);
                let counted = attempt.counted.map(|count| {
                    t!(
                        lang,
                        "rule-illegal-king-move-counted",
                        count = count,
                        limit = ILLEGAL_KING_MOVES_LIMIT
                    )
                });
                crate::i18n::join_sentences(lang, std::iter::once(text).chain(counted))
            }
        }
    }
}

impl fmt::Display for PlayTextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text(Lang::En))
    }
}

impl std::error::Error for PlayTextError {}
