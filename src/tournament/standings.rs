//! Standings: rank by score (积分多少排列名次); equal scores share the place
//! (名次并列) unless tie-breaks are selected, applied in the order given.
//!
//! Tie-breaks (FIDE Handbook C.07, Tie-Break Regulations in force from 1
//! July 2023, article numbers in comments):
//! - `sb` Sonneborn–Berger (小分, 9.1): the score of every opponent beaten
//!   plus half the score of every opponent drawn.
//! - `buchholz` (对手分, 8.1): the sum of the opponents' scores;
//!   `buchholz-cut1` drops the lowest value (14.1, Cut-1),
//!   `median-buchholz` the lowest and the highest (14.2, Median-1).
//! - `de` direct encounter (6): among the tied players, when all of them met,
//!   the points scored in those games.
//! - `wins` (7.1, WIN): rounds won, with or without playing.
//!
//! Unplayed rounds (C.07 article 16): a player's own unplayed round (bye,
//! forfeit either way, absence) counts, for his Buchholz and
//! Sonneborn–Berger, as a game against a "dummy" with his own final score
//! (16.2, the game against oneself); an opponent's score is adjusted so that
//! the opponent's unplayed rounds count as draws (16.3); the cut modifiers
//! drop the dummy values first (16.4).

use std::{fmt::Write as _, str::FromStr};

use super::model::{show_score, Player, Score, Tournament};

/// A selectable tie-break.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TieBreak {
    SonnebornBerger,
    Buchholz,
    BuchholzCut1,
    MedianBuchholz,
    DirectEncounter,
    Wins,
}

impl FromStr for TieBreak {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ok(match s.trim().to_ascii_lowercase().as_str() {
            "sb" | "sonneborn-berger" => TieBreak::SonnebornBerger,
            "buchholz" | "bh" => TieBreak::Buchholz,
            "buchholz-cut1" | "bh-c1" | "cut1" => TieBreak::BuchholzCut1,
            "median-buchholz" | "bh-m1" | "median" => TieBreak::MedianBuchholz,
            "de" | "direct-encounter" => TieBreak::DirectEncounter,
            "wins" | "win" => TieBreak::Wins,
            other => {
                return Err(format!(
                    "unknown tie-break \"{other}\" (known: sb, buchholz, buchholz-cut1, \
                     median-buchholz, de, wins)"
                ))
            }
        })
    }
}

impl TieBreak {
    /// Column heading.
    pub fn label(self) -> &'static str {
        match self {
            TieBreak::SonnebornBerger => "SB",
            TieBreak::Buchholz => "BH",
            TieBreak::BuchholzCut1 => "BH-C1",
            TieBreak::MedianBuchholz => "BH-M1",
            TieBreak::DirectEncounter => "DE",
            TieBreak::Wins => "WIN",
        }
    }
}

/// One line of the standings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    /// Shared by players equal on score and every tie-break.
    pub place: usize,
    pub pno: u32,
    pub name: String,
    pub score: Score,
    /// Tie-break values in hundredths of a point (wins: a count).
    pub tiebreaks: Vec<i64>,
}

/// Values a player's rounds give to Buchholz-type tie-breaks: (value in
/// tenths, whether it is a dummy for an unplayed round).
fn buchholz_values(t: &Tournament, p: &Player, rounds: u32) -> Vec<(Score, bool)> {
    let own = p.score_after(&t.scoring, rounds);
    (1..=rounds)
        .map(|r| match p.entry(r) {
            Some(e) if e.played() => {
                let o = e.opponent.and_then(|o| t.player(o));
                (o.map_or(own, |o| adjusted(t, o, rounds)), false)
            }
            _ => (own, true), // 16.2: the game against oneself.
        })
        .collect()
}

/// 16.3: an opponent's score with his unplayed rounds counted as draws.
fn adjusted(t: &Tournament, p: &Player, rounds: u32) -> Score {
    (1..=rounds)
        .map(|r| match p.entry(r) {
            Some(e) if e.played() => t.scoring.points(e.outcome),
            _ => t.scoring.draw,
        })
        .sum()
}

fn sonneborn_berger(t: &Tournament, p: &Player, rounds: u32) -> i64 {
    let values = buchholz_values(t, p, rounds);
    (1..=rounds)
        .zip(values)
        .map(|(r, (v, _))| {
            let got = p.entry(r).map_or(0, |e| t.scoring.points(e.outcome));
            // Opponent's score × the fraction of a win scored, in hundredths.
            v * got * 10 / t.scoring.win.max(1)
        })
        .sum()
}

fn cut(mut values: Vec<(Score, bool)>, low: usize, high: usize) -> i64 {
    // 16.4: dummies (unplayed rounds) are cut first, then the lowest.
    values.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let n = values.len();
    let mut kept: Vec<Score> = values.iter().skip(low.min(n)).map(|v| v.0).collect();
    kept.sort_unstable();
    kept.truncate(kept.len().saturating_sub(high));
    kept.iter().sum::<Score>() * 10
}

fn wins(t: &Tournament, p: &Player, rounds: u32) -> i64 {
    (1..=rounds)
        .filter(|&r| {
            p.entry(r)
                .is_some_and(|e| t.scoring.points(e.outcome) >= t.scoring.win && t.scoring.win > 0)
        })
        .count() as i64
}

/// The standings after the recorded rounds.
pub fn standings(t: &Tournament, tiebreaks: &[TieBreak]) -> Vec<Row> {
    let rounds = t.recorded_rounds();
    let mut rows: Vec<Row> = t
        .players
        .iter()
        .map(|p| Row {
            place: 0,
            pno: p.pno,
            // A title read from a TRF goes before the name (`GM 张伟`).
            name: match p.title.trim() {
                "" => p.name.clone(),
                title => format!("{title} {}", p.name),
            },
            score: p.score_after(&t.scoring, rounds),
            tiebreaks: Vec::new(),
        })
        .collect();
    // Compute tie-breaks one at a time: direct encounter depends on who is
    // still tied after the ones before it.
    for (k, tb) in tiebreaks.iter().enumerate() {
        let values: Vec<i64> = match tb {
            TieBreak::DirectEncounter => direct_encounter(t, &rows, k, rounds),
            _ => t
                .players
                .iter()
                .map(|p| match tb {
                    TieBreak::SonnebornBerger => sonneborn_berger(t, p, rounds),
                    TieBreak::Buchholz => cut(buchholz_values(t, p, rounds), 0, 0),
                    TieBreak::BuchholzCut1 => cut(buchholz_values(t, p, rounds), 1, 0),
                    TieBreak::MedianBuchholz => cut(buchholz_values(t, p, rounds), 1, 1),
                    TieBreak::Wins => wins(t, p, rounds),
                    TieBreak::DirectEncounter => 0,
                })
                .collect(),
        };
        for (row, v) in rows.iter_mut().zip(values) {
            row.tiebreaks.push(v);
        }
    }
    rows.sort_by(|a, b| {
        b.score
            .cmp(&a.score)
            .then_with(|| b.tiebreaks.cmp(&a.tiebreaks))
            .then(a.pno.cmp(&b.pno))
    });
    for i in 0..rows.len() {
        rows[i].place = if i > 0
            && rows[i - 1].score == rows[i].score
            && rows[i - 1].tiebreaks == rows[i].tiebreaks
        {
            rows[i - 1].place
        } else {
            i + 1
        };
    }
    rows
}

/// Article 6: within each group still tied (same score and same first `k`
/// tie-breaks), if every pair met, each player's points in those games.
fn direct_encounter(t: &Tournament, rows: &[Row], k: usize, rounds: u32) -> Vec<i64> {
    let mut out = vec![0; rows.len()];
    for (i, row) in rows.iter().enumerate() {
        let group: Vec<u32> = rows
            .iter()
            .filter(|r| r.score == row.score && r.tiebreaks[..k] == row.tiebreaks[..k])
            .map(|r| r.pno)
            .collect();
        if group.len() < 2 {
            continue;
        }
        let met_all = group.iter().all(|&a| {
            group.iter().all(|&b| {
                a == b
                    || t.player(a).is_some_and(|p| {
                        (1..=rounds).any(|r| p.entry(r).is_some_and(|e| e.opponent == Some(b)))
                    })
            })
        });
        if !met_all {
            continue;
        }
        if let Some(p) = t.player(row.pno) {
            out[i] = (1..=rounds)
                .filter_map(|r| p.entry(r))
                .filter(|e| e.opponent.is_some_and(|o| group.contains(&o)))
                .map(|e| t.scoring.points(e.outcome) * 10)
                .sum();
        }
    }
    out
}

/// The standings as a table (what `chessbot standings` prints).
pub fn render(rows: &[Row], tiebreaks: &[TieBreak]) -> String {
    let mut s = String::new();
    let _ = write!(s, "{:>5} {:>4}  {:<24} {:>5}", "Place", "No", "Name", "Pts");
    for tb in tiebreaks {
        let _ = write!(s, " {:>7}", tb.label());
    }
    s.push('\n');
    for r in rows {
        let _ = write!(
            s,
            "{:>5} {:>4}  {:<24} {:>5}",
            r.place,
            r.pno,
            r.name.chars().take(24).collect::<String>(),
            show_score(r.score)
        );
        for (tb, v) in tiebreaks.iter().zip(&r.tiebreaks) {
            let shown = match tb {
                TieBreak::Wins => v.to_string(),
                _ => format!("{}.{:02}", v / 100, v % 100),
            };
            let _ = write!(s, " {shown:>7}");
        }
        s.push('\n');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::model::{Colour, Entry, Outcome};

    /// Four players, three rounds: a small round robin plus a bye case.
    fn sample() -> Tournament {
        let mut t = Tournament::default();
        for (pno, name) in [(1, "A"), (2, "B"), (3, "C"), (4, "D")] {
            t.players.push(Player {
                pno,
                name: name.into(),
                ..Player::default()
            });
        }
        use Colour::*;
        use Outcome::*;
        let games = [
            // round, white, black, white's outcome
            (1, 1, 4, Win),
            (1, 2, 3, Draw),
            (2, 4, 3, Loss),
            (2, 1, 2, Loss),
            (3, 2, 4, Win),
            (3, 3, 1, Draw),
        ];
        for p in &mut t.players {
            p.rounds = vec![None; 3];
        }
        for (r, w, b, o) in games {
            let back = match o {
                Win => Loss,
                Loss => Win,
                x => x,
            };
            t.players[w as usize - 1].rounds[r - 1] = Some(Entry::game(b, White, o));
            t.players[b as usize - 1].rounds[r - 1] = Some(Entry::game(w, Black, back));
        }
        t
    }

    #[test]
    fn scores_and_shared_places_without_tiebreaks() {
        let rows = standings(&sample(), &[]);
        // B 2.5, C 2, A 1.5, D 0.
        let got: Vec<(usize, u32, Score)> =
            rows.iter().map(|r| (r.place, r.pno, r.score)).collect();
        assert_eq!(got, vec![(1, 2, 25), (2, 3, 20), (3, 1, 15), (4, 4, 0)]);
    }

    #[test]
    fn sonneborn_berger_and_buchholz_by_hand() {
        let t = sample();
        let rows = standings(&t, &[TieBreak::SonnebornBerger, TieBreak::Buchholz]);
        let a = rows.iter().find(|r| r.pno == 1).unwrap();
        // A beat D (0), lost to B, drew C (2): SB = 0 + ½·2 = 1.00.
        assert_eq!(a.tiebreaks[0], 100);
        // BH(A) = D 0 + B 2.5 + C 2 = 4.5.
        assert_eq!(a.tiebreaks[1], 450);
        let b = rows.iter().find(|r| r.pno == 2).unwrap();
        // B drew C (2 → 1), beat A (1.5), beat D (0): SB = 2.5.
        assert_eq!(b.tiebreaks[0], 250);
    }

    #[test]
    fn tiebreaks_separate_equal_scores_and_identical_ones_share() {
        let mut t = sample();
        // B loses to D in round 3: A and B both 1.5, C 2, D 1.
        t.players[1].rounds[2] = Some(Entry::game(4, Colour::White, Outcome::Loss));
        t.players[3].rounds[2] = Some(Entry::game(2, Colour::Black, Outcome::Win));
        let plain = standings(&t, &[]);
        let places: Vec<(u32, usize)> = plain.iter().map(|r| (r.pno, r.place)).collect();
        assert_eq!(places, vec![(3, 1), (1, 2), (2, 2), (4, 4)]);
        let de = standings(&t, &[TieBreak::DirectEncounter]);
        // B beat A in round 2.
        let places: Vec<(u32, usize)> = de.iter().map(|r| (r.pno, r.place)).collect();
        assert_eq!(places, vec![(3, 1), (2, 2), (1, 3), (4, 4)]);
        let text = render(&de, &[TieBreak::DirectEncounter]);
        assert!(text.contains("DE"), "{text}");
    }

    #[test]
    fn unplayed_rounds_use_the_dummy_and_are_cut_first() {
        let mut t = sample();
        // D did not play round 3: a forfeit loss; B wins by forfeit.
        t.players[3].rounds[2] = Some(Entry::game(2, Colour::Black, Outcome::ForfeitLoss));
        t.players[1].rounds[2] = Some(Entry::game(4, Colour::White, Outcome::ForfeitWin));
        let rows = standings(&t, &[TieBreak::Buchholz, TieBreak::BuchholzCut1]);
        let b = rows.iter().find(|r| r.pno == 2).unwrap();
        // B: C 2 (played), A 1.5 (played), dummy = own 2.5: BH 6.0;
        // Cut-1 drops the dummy first: 3.5.
        assert_eq!(b.tiebreaks, vec![600, 350]);
        let a = rows.iter().find(|r| r.pno == 1).unwrap();
        // A met D and B over the board; their unplayed round 3 counts as a
        // draw in their adjusted scores (16.3): D = 0 + 0 + ½ = 0.5 and
        // B = ½ + 1 + ½ = 2. BH(A) = 0.5 + 2 + 2 = 4.5.
        assert_eq!(a.tiebreaks[0], 450);
    }

    #[test]
    fn a_title_read_from_a_trf_goes_before_the_name() {
        let mut t = sample();
        t.players[0].title = "GM".into();
        t.players[1].title = "  ".into();
        let rows = standings(&t, &[]);
        let name_of = |pno: u32| rows.iter().find(|r| r.pno == pno).map(|r| r.name.clone());
        assert_eq!(name_of(1).as_deref(), Some("GM A"));
        assert_eq!(name_of(2).as_deref(), Some("B"));
    }

    #[test]
    fn unknown_tiebreak_is_refused_by_name() {
        let e = "sb,foo"
            .split(',')
            .map(str::parse::<TieBreak>)
            .find_map(Result::err);
        assert!(e.unwrap().contains("\"foo\""));
    }
}
