//! A running competition, as the bot keeps it: its format and settings, its
//! entrants (by pairing number) and every board played or pending. This is
//! the pure part of running a tournament: what to pair next ([`next`]),
//! the FIDE record of it all for the Dutch engine, the standings and the
//! TRF ([`Event::record`]), and the crosstable's rows ([`table`]). The
//! service keeps the rows in the database and turns these decisions into
//! games and messages.

pub mod next;
pub mod table;

use super::{
    knockout::Decider,
    model::{Colour, Entry, Outcome, Player, Pno, Scoring, Tournament},
};

/// The kinds of competition of the seed rules (SPEC §4).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Format {
    /// 积分循环制: the FIDE Dutch system, paired afresh each round.
    Swiss,
    /// 大循环制: everyone meets everyone once (Berger tables).
    RoundRobin,
    /// Twice, colours reversed in the second cycle.
    DoubleRoundRobin,
    /// 分组循环制: groups by snake seeding, each a round robin.
    Groups,
    /// 淘汰制: a seeded bracket of matches.
    Knockout,
    /// 团体赛 / 全队循环制: teams meet on ordered boards, each team every
    /// other once.
    Team,
}

impl Format {
    pub const ALL: [Format; 6] = [
        Format::Swiss,
        Format::RoundRobin,
        Format::DoubleRoundRobin,
        Format::Groups,
        Format::Knockout,
        Format::Team,
    ];

    pub const fn id(self) -> &'static str {
        match self {
            Format::Swiss => "swiss",
            Format::RoundRobin => "roundrobin",
            Format::DoubleRoundRobin => "double-roundrobin",
            Format::Groups => "groups",
            Format::Knockout => "knockout",
            Format::Team => "team",
        }
    }

    pub fn from_id(id: &str) -> Option<Format> {
        let id = id.trim().to_ascii_lowercase();
        Format::ALL.into_iter().find(|f| f.id() == id)
    }

    /// Whether every pairing is known from the start (round robins).
    pub fn is_round_robin(self) -> bool {
        matches!(
            self,
            Format::RoundRobin | Format::DoubleRoundRobin | Format::Groups | Format::Team
        )
    }
}

/// A board's result.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum BoardResult {
    WhiteWins,
    BlackWins,
    Draw,
    /// `+-`: White wins by forfeit (Black did not play).
    WhiteForfeitWin,
    /// `-+`.
    BlackForfeitWin,
    /// `--`: neither played.
    DoubleForfeit,
    /// The pairing-allocated bye (Swiss) or a knockout bye.
    Bye,
}

impl BoardResult {
    /// The stored form.
    pub const fn id(self) -> &'static str {
        match self {
            BoardResult::WhiteWins => "1-0",
            BoardResult::BlackWins => "0-1",
            BoardResult::Draw => "1/2-1/2",
            BoardResult::WhiteForfeitWin => "+-",
            BoardResult::BlackForfeitWin => "-+",
            BoardResult::DoubleForfeit => "--",
            BoardResult::Bye => "bye",
        }
    }

    pub fn from_id(id: &str) -> Option<BoardResult> {
        Some(match id {
            "1-0" => BoardResult::WhiteWins,
            "0-1" => BoardResult::BlackWins,
            "1/2-1/2" => BoardResult::Draw,
            "+-" => BoardResult::WhiteForfeitWin,
            "-+" => BoardResult::BlackForfeitWin,
            "--" => BoardResult::DoubleForfeit,
            "bye" => BoardResult::Bye,
            _ => return None,
        })
    }

    /// The outcomes for White and Black (TRF codes: C.04.1 and TRF-2026).
    pub fn outcomes(self) -> (Outcome, Outcome) {
        match self {
            BoardResult::WhiteWins => (Outcome::Win, Outcome::Loss),
            BoardResult::BlackWins => (Outcome::Loss, Outcome::Win),
            BoardResult::Draw => (Outcome::Draw, Outcome::Draw),
            BoardResult::WhiteForfeitWin => (Outcome::ForfeitWin, Outcome::ForfeitLoss),
            BoardResult::BlackForfeitWin => (Outcome::ForfeitLoss, Outcome::ForfeitWin),
            BoardResult::DoubleForfeit => (Outcome::ForfeitLoss, Outcome::ForfeitLoss),
            BoardResult::Bye => (Outcome::PairingBye, Outcome::PairingBye),
        }
    }

    /// White's points in tenths, for match scores (a forfeit counts as the
    /// game won or lost).
    pub fn white_points(self, scoring: &Scoring) -> i64 {
        scoring.points(self.outcomes().0)
    }

    /// Whether a game was played over the board.
    pub fn played(self) -> bool {
        matches!(
            self,
            BoardResult::WhiteWins | BoardResult::BlackWins | BoardResult::Draw
        )
    }
}

/// One entrant, by pairing number.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entrant {
    pub pno: Pno,
    pub name: String,
    /// Club points (whole points), for the TRF's rating column.
    pub rating: u32,
    /// The team (team events) or group (group round robin).
    pub section: Option<String>,
    /// Withdrawn after this round: not paired again.
    pub withdrawn_after: Option<u32>,
}

/// One board of one round (a game of a knockout match).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    pub round: u32,
    pub board: u32,
    pub game_no: u32,
    pub white: Pno,
    /// `None`: a bye for `white`.
    pub black: Option<Pno>,
    /// `None` while the game is on.
    pub result: Option<BoardResult>,
}

/// A competition's settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    pub name: String,
    pub format: Format,
    /// Rounds planned (Swiss: chosen; the others: fixed by the field, see
    /// [`Event::planned_rounds`]).
    pub rounds: u32,
    pub groups: u32,
    /// Knockout: games in a match, and the decider of a tied one.
    pub match_games: u32,
    pub decider: Decider,
    /// Pairing number 1's colour in round 1 (drawn by lot at creation).
    pub initial_colour: Colour,
    pub scoring: Scoring,
}

/// A competition: settings, entrants (index = pairing number − 1) and
/// boards.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    pub settings: Settings,
    pub entrants: Vec<Entrant>,
    pub boards: Vec<Board>,
}

impl Event {
    /// The rounds a field of this size plays: a Swiss its chosen number,
    /// a round robin one per Berger round (twice for a double), a knockout
    /// one per halving of the bracket, a team event one per team round.
    pub fn planned_rounds(&self) -> u32 {
        let n = self.entrants.len() as u32;
        let cycle = |k: u32| if k < 2 { 0 } else { k + k % 2 - 1 };
        match self.settings.format {
            Format::Swiss => self.settings.rounds,
            Format::RoundRobin => cycle(n),
            Format::DoubleRoundRobin => 2 * cycle(n),
            Format::Groups => {
                let g = self.settings.groups.max(1);
                // The largest group sets the count.
                cycle(n.div_ceil(g))
            }
            Format::Knockout => n.max(1).next_power_of_two().trailing_zeros(),
            Format::Team => cycle(self.teams().len() as u32),
        }
    }

    /// Team names in order of their first pairing number.
    pub fn teams(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for e in &self.entrants {
            if let Some(s) = &e.section
                && !out.contains(s)
            {
                out.push(s.clone());
            }
        }
        out
    }

    /// The entrant with pairing number `pno`.
    pub fn entrant(&self, pno: Pno) -> Option<&Entrant> {
        self.entrants.get((pno as usize).wrapping_sub(1))
    }

    /// The last round with any board.
    pub fn last_round(&self) -> u32 {
        self.boards.iter().map(|b| b.round).max().unwrap_or(0)
    }

    /// Whether every board so far has its result.
    pub fn all_decided(&self) -> bool {
        self.boards.iter().all(|b| b.result.is_some())
    }

    /// The FIDE record (what a TRF holds): each player's entry per round,
    /// for the boards with a result. Knockout matches put each game in a
    /// round of its own, as they were played.
    pub fn record(&self) -> Tournament {
        let mut t = Tournament {
            name: self.settings.name.clone(),
            total_rounds: Some(self.planned_rounds()),
            initial_colour: self.settings.initial_colour,
            scoring: self.settings.scoring,
            players: self
                .entrants
                .iter()
                .map(|e| Player {
                    pno: e.pno,
                    name: e.name.clone(),
                    rating: e.rating,
                    withdrawn: e.withdrawn_after.is_some(),
                    ..Player::default()
                })
                .collect(),
            other_lines: Vec::new(),
        };
        let slot = |b: &Board| -> u32 {
            match self.settings.format {
                // A match's games are rounds of the record, in order.
                Format::Knockout => self.record_round_of(b),
                _ => b.round,
            }
        };
        for b in &self.boards {
            let Some(result) = b.result else { continue };
            let idx = slot(b) as usize - 1;
            let (w, bl) = result.outcomes();
            let mut put = |pno: Pno, e: Entry| {
                if let Some(p) = t.players.get_mut(pno as usize - 1) {
                    if p.rounds.len() <= idx {
                        p.rounds.resize(idx + 1, None);
                    }
                    p.rounds[idx] = Some(e);
                }
            };
            match b.black {
                Some(black) => {
                    put(b.white, Entry::game(black, Colour::White, w));
                    put(black, Entry::game(b.white, Colour::Black, bl));
                }
                None => put(b.white, Entry::bye(w)),
            }
        }
        // Rounds a player sat out (withdrawn, a round-robin rest) are
        // zero-point absences in the record, so every line has every round.
        let rounds = t.players.iter().map(|p| p.rounds.len()).max().unwrap_or(0);
        for p in &mut t.players {
            p.rounds.resize(rounds, None);
            for e in p.rounds.iter_mut().filter(|e| e.is_none()) {
                *e = Some(Entry::bye(Outcome::ZeroBye));
            }
        }
        t
    }

    /// Knockout: the record's round of a match game: the games of earlier
    /// bracket rounds come first, each bracket round taking as many record
    /// rounds as its longest match.
    fn record_round_of(&self, b: &Board) -> u32 {
        let longest = |round: u32| {
            self.boards
                .iter()
                .filter(|x| x.round == round)
                .map(|x| x.game_no)
                .max()
                .unwrap_or(0)
        };
        (1..b.round).map(longest).sum::<u32>() + b.game_no
    }
}

#[cfg(test)]
mod tests;
