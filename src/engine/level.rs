//! The computer's playing levels 1–8, shaped like lichess's: each level is
//! a Stockfish `Skill Level` with a depth and a move-time limit (lichess's
//! fishnet uses skill −9…20, depth 5…22, 50…1000 ms; Debian's Stockfish
//! 15.1 knows skill 0…20 only, so the weakest levels also get a shallower
//! depth). Level 1 is beatable by a beginner; level 8 is full strength
//! within its second.

use super::uci::Limits;

/// The weakest and the strongest level.
pub const MIN: u8 = 1;
pub const MAX: u8 = 8;
/// The level of a game started by challenging the bot itself.
pub const FOR_CHALLENGE: u8 = 1;

/// Skill Level, depth, move time (ms) and node limit per level.
const TABLE: [(u8, u32, u64, u64); 8] = [
    (0, 1, 50, 2_000),
    (2, 2, 100, 8_000),
    (4, 3, 150, 20_000),
    (6, 5, 200, 60_000),
    (9, 6, 300, 150_000),
    (12, 8, 400, 400_000),
    (16, 13, 500, 1_500_000),
    (20, 22, 1000, 5_000_000),
];

/// A playing level, 1 to 8.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Level(u8);

impl Level {
    /// The level `n`, if it is one of 1..8.
    pub fn new(n: i64) -> Option<Level> {
        u8::try_from(n)
            .ok()
            .filter(|n| (MIN..=MAX).contains(n))
            .map(Level)
    }

    pub const fn number(self) -> u8 {
        self.0
    }

    /// The `Skill Level` option (0..20).
    pub fn skill(self) -> u8 {
        TABLE[usize::from(self.0 - 1)].0
    }

    /// The bounds of one move's search.
    pub fn limits(self) -> Limits {
        let (_, depth, movetime_ms, nodes) = TABLE[usize::from(self.0 - 1)];
        Limits {
            movetime_ms,
            nodes,
            depth: Some(depth),
        }
    }

    /// The computer's player id at this level (`engine:3`): never a
    /// Discord id (those are digits) nor a console name (no `:`).
    pub fn player_id(self) -> String {
        format!("engine:{}", self.0)
    }

    /// The level of a computer player id, `None` for a person.
    pub fn of_player(id: &str) -> Option<Level> {
        Level::new(id.strip_prefix("engine:")?.parse().ok()?)
    }

    /// The name stored with the computer's player row (standard chess's).
    pub fn display_name(self) -> String {
        self.display_name_in(crate::chess::Variant::Standard)
    }

    /// The name in a game of `variant`'s PGN: the engine that plays it
    /// (`Fairy-Stockfish level 3` in Crazyhouse).
    pub fn display_name_in(self, variant: crate::chess::Variant) -> String {
        format!("{} level {}", variant.engine_name(), self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_and_ids() {
        assert_eq!(Level::new(0), None);
        assert_eq!(Level::new(9), None);
        assert_eq!(Level::new(-1), None);
        let three = Level::new(3).expect("level 3");
        assert_eq!(three.player_id(), "engine:3");
        assert_eq!(Level::of_player("engine:3"), Some(three));
        assert_eq!(Level::of_player("engine:9"), None);
        assert_eq!(Level::of_player("123456789"), None);
        assert_eq!(three.display_name(), "Stockfish level 3");
        assert_eq!(
            three.display_name_in(crate::chess::Variant::Chess960),
            "Stockfish level 3"
        );
        assert_eq!(
            three.display_name_in(crate::chess::Variant::Atomic),
            "Fairy-Stockfish level 3"
        );
    }

    #[test]
    fn stronger_levels_search_more() {
        let all: Vec<Level> = (1..=8).filter_map(Level::new).collect();
        for pair in all.windows(2) {
            let (a, b) = (pair[0].limits(), pair[1].limits());
            assert!(pair[0].skill() < pair[1].skill());
            assert!(a.movetime_ms < b.movetime_ms && a.nodes < b.nodes && a.depth < b.depth);
        }
        // Live games want an answer within about a second.
        assert!(all.iter().all(|l| l.limits().movetime_ms <= 1000));
        assert_eq!(all[7].skill(), 20);
    }
}
