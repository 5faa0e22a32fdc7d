//! Knockout (淘汰制): the seeded bracket and the matches.
//!
//! - Bracket: with `n` players in a bracket of `S` = the next power of two,
//!   round 1 pairs seed 1 v S, 2 v S−1, …, and the bracket is laid out so
//!   the top seeds can only meet late (1 and 2 in the final). Seeds above `n`
//!   do not exist, so the top seeds receive the byes.
//! - Match: `games` games, the first game's colours by lot (the caller draws
//!   it and passes it in, so this core stays deterministic), then alternating
//!   (seed rules: 以后每局先后互换). A tied match goes to the decider: more
//!   pairs of games (configurable, alternating on), then one decisive game
//!   with colours drawn by lot again.

use super::model::{Colour, Pno, Score};

/// Slots of a bracket of `size` (a power of two) in play order: the seeds
/// meeting in round 1 are adjacent. `[1, 4, 2, 3]` for 4: 1 v 4 and 2 v 3,
/// the winners in the final.
pub fn bracket_order(size: u32) -> Vec<u32> {
    let mut order = vec![1u32];
    let mut m = 1;
    while m < size {
        m *= 2;
        order = order.iter().flat_map(|&s| [s, m + 1 - s]).collect();
    }
    order
}

/// Round 1 of a knockout of `players` seeds: pairs (higher seed, lower seed),
/// `None` for a bye (the higher seed goes through).
pub fn first_round(players: u32) -> Vec<(Pno, Option<Pno>)> {
    let size = players.max(1).next_power_of_two();
    let order = bracket_order(size);
    order
        .chunks(2)
        .filter_map(|c| {
            let (a, b) = (c[0].min(c[1]), c[0].max(c[1]));
            if a > players {
                None
            } else {
                Some((a, (b <= players).then_some(b)))
            }
        })
        .collect()
}

/// How a tied match is decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Decider {
    /// Pairs of further games played while still tied (0 = none).
    pub extra_pairs: u32,
    /// Then a single decisive game (colours by lot), repeated until decisive.
    pub sudden_death: bool,
}

impl Default for Decider {
    fn default() -> Self {
        Decider {
            extra_pairs: 1,
            sudden_death: true,
        }
    }
}

/// A knockout match between `a` (the higher seed) and `b`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Match {
    pub a: Pno,
    pub b: Pno,
    /// Games of the regular match.
    pub games: u32,
    pub decider: Decider,
    /// Colour of `a` in game 1, drawn by lot by the caller.
    pub a_first: Colour,
    /// Points of `a` in each game played (tenths: 10, 5, 0).
    pub results: Vec<Score>,
    /// Colour of `a` in the sudden-death games, drawn by lot by the caller
    /// when the game is scheduled; one entry per sudden-death game.
    pub sudden_death_colours: Vec<Colour>,
}

/// What a match needs next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Next {
    /// Play game number `game` (1-based) with `a` having this colour.
    Game { game: u32, a_colour: Colour },
    /// A sudden-death game whose colours must be drawn by lot (push the
    /// draw to `sudden_death_colours`).
    DrawColours { game: u32 },
    /// Decided.
    Winner(Pno),
    /// Tied with no decider left (e.g. `sudden_death` off): a play-off is
    /// for the organiser to arrange.
    Tied,
}

impl Match {
    /// Points of `a` and `b` over the games played.
    pub fn score(&self) -> (Score, Score) {
        let a: Score = self.results.iter().sum();
        let b = self.results.len() as Score * 10 - a;
        (a, b)
    }

    /// What happens next.
    pub fn next(&self) -> Next {
        let played = self.results.len() as u32;
        let regular = self.games + 2 * self.decider.extra_pairs;
        let alternate = |g: u32| {
            if g % 2 == 1 {
                self.a_first
            } else {
                self.a_first.invert()
            }
        };
        let (sa, sb) = self.score();
        // The regular games, then each decider pair, end the match as soon
        // as a block is complete with a leader.
        let mut boundary = self.games;
        let mut blocks = vec![self.games];
        for _ in 0..self.decider.extra_pairs {
            boundary += 2;
            blocks.push(boundary);
        }
        if played < self.games {
            return Next::Game {
                game: played + 1,
                a_colour: alternate(played + 1),
            };
        }
        let block_complete = played > regular || blocks.contains(&played);
        if block_complete && sa != sb {
            return Next::Winner(if sa > sb { self.a } else { self.b });
        }
        if played < regular {
            return Next::Game {
                game: played + 1,
                a_colour: alternate(played + 1),
            };
        }
        if !self.decider.sudden_death {
            return Next::Tied;
        }
        let k = (played - regular) as usize;
        match self.sudden_death_colours.get(k) {
            Some(&c) => Next::Game {
                game: played + 1,
                a_colour: c,
            },
            None => Next::DrawColours { game: played + 1 },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bracket_seeds_one_against_last() {
        assert_eq!(bracket_order(8), vec![1, 8, 4, 5, 2, 7, 3, 6]);
        assert_eq!(
            first_round(8),
            vec![(1, Some(8)), (4, Some(5)), (2, Some(7)), (3, Some(6))]
        );
    }

    #[test]
    fn byes_go_to_the_top_seeds() {
        // 6 players in a bracket of 8: seeds 1 and 2 have byes.
        assert_eq!(
            first_round(6),
            vec![(1, None), (4, Some(5)), (2, None), (3, Some(6))]
        );
        let r = first_round(5);
        let byes: Vec<Pno> = r.iter().filter(|p| p.1.is_none()).map(|p| p.0).collect();
        assert_eq!(byes, vec![1, 2, 3]);
    }

    fn m(games: u32, results: &[Score]) -> Match {
        Match {
            a: 1,
            b: 2,
            games,
            decider: Decider::default(),
            a_first: Colour::Black,
            results: results.to_vec(),
            sudden_death_colours: Vec::new(),
        }
    }

    #[test]
    fn colours_by_lot_then_alternating() {
        assert_eq!(
            m(2, &[]).next(),
            Next::Game {
                game: 1,
                a_colour: Colour::Black
            }
        );
        assert_eq!(
            m(2, &[5]).next(),
            Next::Game {
                game: 2,
                a_colour: Colour::White
            }
        );
    }

    #[test]
    fn tie_goes_to_a_pair_then_sudden_death() {
        assert_eq!(m(2, &[10, 5]).next(), Next::Winner(1));
        assert_eq!(
            m(2, &[5, 5]).next(),
            Next::Game {
                game: 3,
                a_colour: Colour::Black
            }
        );
        // One game of the decider pair played: finish the pair even if ahead.
        assert_eq!(
            m(2, &[5, 5, 10]).next(),
            Next::Game {
                game: 4,
                a_colour: Colour::White
            }
        );
        assert_eq!(m(2, &[5, 5, 10, 5]).next(), Next::Winner(1));
        assert_eq!(m(2, &[5, 5, 5, 5]).next(), Next::DrawColours { game: 5 });
        let mut x = m(2, &[5, 5, 5, 5]);
        x.sudden_death_colours.push(Colour::White);
        assert_eq!(
            x.next(),
            Next::Game {
                game: 5,
                a_colour: Colour::White
            }
        );
        x.results.push(0);
        assert_eq!(x.next(), Next::Winner(2));
    }

    #[test]
    fn single_game_match_without_decider_can_stay_tied() {
        let mut x = m(1, &[5]);
        x.decider = Decider {
            extra_pairs: 0,
            sudden_death: false,
        };
        assert_eq!(x.next(), Next::Tied);
    }
}
