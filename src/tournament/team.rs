//! Team competitions (团体赛): matches on ordered boards and team round
//! robins (全队循环制). The seed rules count game points only (只计局分，不计
//! 场分): a team's result is the sum of its board points; equal teams share
//! the place.
//!
//! Colours alternate by board: the first-named team has White on the odd
//! boards and Black on the even ones (the FIDE Olympiad convention).

use super::{
    berger::berger,
    model::{show_score, Colour, Score},
};

/// A team: its name and players in board order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Team {
    pub name: String,
    pub boards: Vec<String>,
}

/// One board of a team match.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Board {
    pub number: usize,
    /// The first-named team's player and colour.
    pub home_player: String,
    pub home_colour: Colour,
    pub away_player: String,
}

/// The boards of `home` v `away`: as many as the smaller team fields.
pub fn boards(home: &Team, away: &Team) -> Vec<Board> {
    home.boards
        .iter()
        .zip(&away.boards)
        .enumerate()
        .map(|(i, (h, a))| Board {
            number: i + 1,
            home_player: h.clone(),
            home_colour: if i % 2 == 0 {
                Colour::White
            } else {
                Colour::Black
            },
            away_player: a.clone(),
        })
        .collect()
}

/// Game points of each side from the home side's points per board (tenths).
pub fn match_points(home_results: &[Score]) -> (Score, Score) {
    let home: Score = home_results.iter().sum();
    (home, home_results.len() as Score * 10 - home)
}

/// The rounds of a team round robin among `teams` teams (Berger order; a
/// team listed first is the first-named, i.e. White on board 1).
pub fn round_robin(teams: u32, double: bool) -> Vec<Vec<(u32, Option<u32>)>> {
    berger(teams, double)
        .into_iter()
        .map(|r| r.into_iter().map(|p| (p.white, p.black)).collect())
        .collect()
}

/// Team standings by game points: (place, team index, points), places shared
/// by equal teams ("1", "1", "3" …), teams in input order among equals.
pub fn standings(points: &[Score]) -> Vec<(usize, usize, Score)> {
    let mut order: Vec<usize> = (0..points.len()).collect();
    order.sort_by(|&a, &b| points[b].cmp(&points[a]).then(a.cmp(&b)));
    order
        .iter()
        .map(|&i| {
            let place = 1 + points.iter().filter(|&&p| p > points[i]).count();
            (place, i, points[i])
        })
        .collect()
}

/// A printable table of [`standings`].
pub fn render_standings(names: &[String], points: &[Score]) -> String {
    standings(points)
        .iter()
        .map(|&(place, i, p)| {
            format!(
                "{place:>3}  {:<24} {:>5}\n",
                names.get(i).map_or("?", |s| s.as_str()),
                show_score(p)
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn team(name: &str, n: usize) -> Team {
        Team {
            name: name.into(),
            boards: (1..=n).map(|i| format!("{name}{i}")).collect(),
        }
    }

    #[test]
    fn colours_alternate_by_board() {
        let b = boards(&team("A", 4), &team("B", 4));
        let colours: Vec<Colour> = b.iter().map(|x| x.home_colour).collect();
        assert_eq!(
            colours,
            [Colour::White, Colour::Black, Colour::White, Colour::Black]
        );
        assert_eq!(b[2].home_player, "A3");
        assert_eq!(b[2].away_player, "B3");
    }

    #[test]
    fn game_points_only_and_shared_places() {
        // A beats B 2.5-1.5; C beats D 3-1; B beats... totals by game points.
        let (a, b) = match_points(&[10, 5, 10, 0]);
        assert_eq!((a, b), (25, 15));
        let totals = [55, 70, 55, 20];
        let s = standings(&totals);
        assert_eq!(s, vec![(1, 1, 70), (2, 0, 55), (2, 2, 55), (4, 3, 20)]);
        let names: Vec<String> = ["A", "B", "C", "D"].iter().map(|s| s.to_string()).collect();
        assert!(render_standings(&names, &totals).contains("  2  C"));
    }

    #[test]
    fn team_round_robin_meets_everyone() {
        let rounds = round_robin(5, false);
        assert_eq!(rounds.len(), 5);
        let games: usize = rounds
            .iter()
            .map(|r| r.iter().filter(|p| p.1.is_some()).count())
            .sum();
        assert_eq!(games, 10);
    }
}
