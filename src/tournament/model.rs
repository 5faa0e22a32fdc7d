//! The tournament record: players with pairing numbers, one entry per round
//! (opponent, colour, outcome), and the scoring system. It mirrors what a FIDE
//! TRF records, so the TRF module is a plain translation and every pairing or
//! ranking computes from the same facts.
//!
//! Scores are integers in tenths of a point ([`Score`]): ½ is exact, and
//! tournaments that score a win 3 or a pairing-allocated bye ½ fit too.

use std::fmt;

/// A pairing number (starting rank), 1-based, as in the TRF.
pub type Pno = u32;

/// Points in tenths (10 = one point).
pub type Score = i64;

/// Formats a score in tenths as points: `10` → "1", `25` → "2.5".
pub fn show_score(s: Score) -> String {
    if s % 10 == 0 {
        format!("{}", s / 10)
    } else {
        format!("{}.{}", s / 10, (s % 10).abs())
    }
}

/// A piece colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Colour {
    White,
    Black,
}

impl Colour {
    /// The other colour.
    pub fn invert(self) -> Colour {
        match self {
            Colour::White => Colour::Black,
            Colour::Black => Colour::White,
        }
    }
}

/// What a player got in one round: the TRF result codes (TRF-2026 §"player
/// section", result column).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// `1`: a game won over the board.
    Win,
    /// `=`: a game drawn.
    Draw,
    /// `0`: a game lost.
    Loss,
    /// `+`: won by forfeit (the opponent did not play).
    ForfeitWin,
    /// `-`: lost by forfeit, or absent without a bye.
    ForfeitLoss,
    /// `W`, `D`, `L`: a game played but not rated (counts as played).
    UnratedWin,
    UnratedDraw,
    UnratedLoss,
    /// `U`: the pairing-allocated bye (PAB).
    PairingBye,
    /// `H`: a half-point bye (requested absence).
    HalfBye,
    /// `F`: a full-point bye (requested absence, full point by regulation).
    FullBye,
    /// `Z`: a zero-point bye (requested absence).
    ZeroBye,
}

impl Outcome {
    /// The TRF code.
    pub fn code(self) -> char {
        match self {
            Outcome::Win => '1',
            Outcome::Draw => '=',
            Outcome::Loss => '0',
            Outcome::ForfeitWin => '+',
            Outcome::ForfeitLoss => '-',
            Outcome::UnratedWin => 'W',
            Outcome::UnratedDraw => 'D',
            Outcome::UnratedLoss => 'L',
            Outcome::PairingBye => 'U',
            Outcome::HalfBye => 'H',
            Outcome::FullBye => 'F',
            Outcome::ZeroBye => 'Z',
        }
    }

    /// Parses a TRF result code.
    pub fn from_code(c: char) -> Option<Outcome> {
        Some(match c {
            '1' => Outcome::Win,
            '=' => Outcome::Draw,
            '0' => Outcome::Loss,
            '+' => Outcome::ForfeitWin,
            '-' => Outcome::ForfeitLoss,
            'W' => Outcome::UnratedWin,
            'D' => Outcome::UnratedDraw,
            'L' => Outcome::UnratedLoss,
            'U' => Outcome::PairingBye,
            'H' => Outcome::HalfBye,
            'F' => Outcome::FullBye,
            'Z' => Outcome::ZeroBye,
            _ => return None,
        })
    }

    /// Whether the game was played over the board (C.04.1: only played games
    /// give colours; forfeits and byes do not).
    pub fn is_played(self) -> bool {
        matches!(
            self,
            Outcome::Win
                | Outcome::Draw
                | Outcome::Loss
                | Outcome::UnratedWin
                | Outcome::UnratedDraw
                | Outcome::UnratedLoss
        )
    }
}

/// One player's entry for one round.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entry {
    /// The opponent, if the player was paired against someone.
    pub opponent: Option<Pno>,
    /// The colour, for a pairing (played or forfeited).
    pub colour: Option<Colour>,
    /// What happened.
    pub outcome: Outcome,
}

impl Entry {
    /// A game (or forfeit) against `opponent`.
    pub fn game(opponent: Pno, colour: Colour, outcome: Outcome) -> Entry {
        Entry {
            opponent: Some(opponent),
            colour: Some(colour),
            outcome,
        }
    }

    /// An entry without opponent (a bye or an absence).
    pub fn bye(outcome: Outcome) -> Entry {
        Entry {
            opponent: None,
            colour: None,
            outcome,
        }
    }

    /// Whether a game was played over the board.
    pub fn played(&self) -> bool {
        self.opponent.is_some() && self.outcome.is_played()
    }
}

/// Points per outcome, in tenths. The seed rules: win 1, draw ½, loss 0, bye
/// 1 (the PAB value is configurable, C.04.1.c "unless the regulations of the
/// tournament state otherwise").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Scoring {
    pub win: Score,
    pub draw: Score,
    pub loss: Score,
    /// The pairing-allocated bye.
    pub pab: Score,
    /// Half-point bye (requested).
    pub half_bye: Score,
    /// Full-point bye (requested).
    pub full_bye: Score,
    /// Zero-point bye / absence.
    pub zero_bye: Score,
}

impl Default for Scoring {
    fn default() -> Self {
        Scoring {
            win: 10,
            draw: 5,
            loss: 0,
            pab: 10,
            half_bye: 5,
            full_bye: 10,
            zero_bye: 0,
        }
    }
}

impl Scoring {
    /// Points for an outcome.
    pub fn points(&self, o: Outcome) -> Score {
        match o {
            Outcome::Win | Outcome::ForfeitWin | Outcome::UnratedWin => self.win,
            Outcome::Draw | Outcome::UnratedDraw => self.draw,
            Outcome::Loss | Outcome::UnratedLoss => self.loss,
            Outcome::ForfeitLoss => self.loss,
            Outcome::PairingBye => self.pab,
            Outcome::HalfBye => self.half_bye,
            Outcome::FullBye => self.full_bye,
            Outcome::ZeroBye => self.zero_bye,
        }
    }
}

/// A registered player.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Player {
    /// Pairing number (starting rank), 1-based.
    pub pno: Pno,
    pub name: String,
    /// Rating (club points or FIDE), 0 when unknown.
    pub rating: u32,
    /// TRF fields kept as written (sex, title, federation, FIDE id, birth).
    pub sex: String,
    pub title: String,
    pub federation: String,
    pub fide_id: String,
    pub birth: String,
    /// Round entries, index 0 = round 1; `None` = nothing recorded.
    pub rounds: Vec<Option<Entry>>,
    /// Withdrawn: no further pairings.
    pub withdrawn: bool,
}

impl Player {
    /// The entry of round `round` (1-based), if any.
    pub fn entry(&self, round: u32) -> Option<&Entry> {
        self.rounds
            .get((round as usize).wrapping_sub(1))
            .and_then(|e| e.as_ref())
    }

    /// The score after the first `rounds` rounds.
    pub fn score_after(&self, scoring: &Scoring, rounds: u32) -> Score {
        self.rounds
            .iter()
            .take(rounds as usize)
            .flatten()
            .map(|e| scoring.points(e.outcome))
            .sum()
    }
}

/// A tournament: its players and settings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tournament {
    pub name: String,
    /// Total rounds planned (TRF(x) `XXR`); needed to know the last round.
    pub total_rounds: Option<u32>,
    /// The colour pairing number 1 gets in round 1 (TRF(x) `XXC white1`,
    /// drawn by lot when the tournament is created, then stored).
    pub initial_colour: Colour,
    pub scoring: Scoring,
    /// Players by pairing number (index = pno − 1).
    pub players: Vec<Player>,
    /// Header lines this program does not interpret, kept for writing back.
    pub other_lines: Vec<String>,
}

impl Default for Tournament {
    fn default() -> Self {
        Tournament {
            name: String::new(),
            total_rounds: None,
            initial_colour: Colour::White,
            scoring: Scoring::default(),
            players: Vec::new(),
            other_lines: Vec::new(),
        }
    }
}

/// Why a pairing request cannot be met.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PairingError {
    /// No pairing satisfies the absolute criteria (C.04.3 C.1–C.3).
    Impossible(String),
}

impl fmt::Display for PairingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PairingError::Impossible(why) => write!(f, "the round cannot be paired: {why}"),
        }
    }
}

impl std::error::Error for PairingError {}

/// One board of a round's pairing: `white` against `black`, or a PAB when
/// `black` is `None`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pair {
    pub white: Pno,
    pub black: Option<Pno>,
}

impl Tournament {
    /// The number of rounds with any recorded entry.
    pub fn recorded_rounds(&self) -> u32 {
        self.players
            .iter()
            .map(|p| {
                p.rounds
                    .iter()
                    .rposition(|e| e.is_some())
                    .map_or(0, |i| i + 1)
            })
            .max()
            .unwrap_or(0) as u32
    }

    /// The rounds already paired: the last round with a game or a PAB.
    /// Entries beyond it are absences entered ahead of pairing.
    pub fn paired_rounds(&self) -> u32 {
        let mut last = 0;
        for p in &self.players {
            for (i, e) in p.rounds.iter().enumerate() {
                if let Some(e) = e
                    && (e.opponent.is_some() || e.outcome == Outcome::PairingBye)
                {
                    last = last.max(i as u32 + 1);
                }
            }
        }
        last
    }

    /// The player with pairing number `pno`.
    pub fn player(&self, pno: Pno) -> Option<&Player> {
        self.players.iter().find(|p| p.pno == pno)
    }

    /// Records a round's pairing (results still to come: callers set the
    /// outcomes later with [`Tournament::record_result`]). Players left out
    /// of `pairs` who have no entry get a zero-point absence.
    pub fn record_pairing(&mut self, round: u32, pairs: &[Pair], pending: Outcome) {
        let idx = round as usize - 1;
        for p in &mut self.players {
            if p.rounds.len() <= idx {
                p.rounds.resize(idx + 1, None);
            }
        }
        for pair in pairs {
            match pair.black {
                Some(b) => {
                    self.set(pair.white, idx, Entry::game(b, Colour::White, pending));
                    self.set(b, idx, Entry::game(pair.white, Colour::Black, pending));
                }
                None => self.set(pair.white, idx, Entry::bye(Outcome::PairingBye)),
            }
        }
        for p in &mut self.players {
            if p.rounds[idx].is_none() {
                p.rounds[idx] = Some(Entry::bye(Outcome::ZeroBye));
            }
        }
    }

    fn set(&mut self, pno: Pno, idx: usize, e: Entry) {
        if let Some(p) = self.players.iter_mut().find(|p| p.pno == pno) {
            p.rounds[idx] = Some(e);
        }
    }
}
