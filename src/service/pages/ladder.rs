//! The ladder's pages: the leaderboard by level and points, a page at a
//! time, and a player's profile (points over time, record, openings,
//! recent games).

use super::Club;
use crate::{
    chess::Variant,
    i18n::Lang,
    rating::Points,
    service::{
        ladder::{points_text, PROVISIONAL_GAMES, RECENT_GAMES},
        Service, ServiceError,
    },
};

/// Players per page of the web leaderboard.
pub const LADDER_PAGE_SIZE: i64 = 50;

/// One page of a variant's leaderboard.
#[derive(Clone, Debug)]
pub struct LadderPage {
    pub variant: Variant,
    /// 1-based, and how many there are (at least 1).
    pub page: i64,
    pub pages: i64,
    pub total: i64,
    pub rows: Vec<LadderRow>,
    /// Rated games before points settle (the `?` mark).
    pub provisional_games: i64,
}

#[derive(Clone, Debug)]
pub struct LadderRow {
    pub rank: i64,
    pub user_id: String,
    pub name: String,
    /// `1234?` (with the provisional mark).
    pub points: String,
    pub level: String,
    pub provisional: bool,
    pub wins: i64,
    pub draws: i64,
    pub losses: i64,
}

/// A player's profile page.
#[derive(Clone, Debug)]
pub struct ProfilePage {
    pub name: String,
    /// `1234?` (with the provisional mark).
    pub points: String,
    /// Fewer rated games than settle a player's points: the page explains
    /// the `?`, as the ladder's does.
    pub provisional: bool,
    pub provisional_games: i64,
    pub level: String,
    pub rated_games: i64,
    pub wins: i64,
    pub draws: i64,
    pub losses: i64,
    /// Points (hundredths) over time: `(unix ms, points)`, first the points
    /// before the first rated game.
    pub series: Vec<(i64, i64)>,
    /// "Italian Game — 4 games", most played first.
    pub openings: Vec<String>,
    pub recent: Vec<ProfileGame>,
}

#[derive(Clone, Debug)]
pub struct ProfileGame {
    pub game_id: i64,
    pub text: String,
}

impl Service {
    /// Page `page` of `club`'s leaderboard in `variant` (each variant has
    /// a ladder of its own); `None` past the last page.
    pub async fn ladder_page(
        &self,
        club: &Club,
        variant: Variant,
        page: i64,
        lang: Lang,
    ) -> Result<Option<LadderPage>, ServiceError> {
        let server = club.server();
        let total = self.store().ladder_size_in(server, variant).await?;
        let pages = ((total + LADDER_PAGE_SIZE - 1) / LADDER_PAGE_SIZE).max(1);
        if !(1..=pages).contains(&page) {
            return Ok(None);
        }
        let offset = (page - 1) * LADDER_PAGE_SIZE;
        let players = self
            .store()
            .leaderboard_in(server, variant, offset, LADDER_PAGE_SIZE)
            .await?;
        let rows = players
            .into_iter()
            .enumerate()
            .map(|(i, p)| LadderRow {
                rank: offset + i as i64 + 1,
                points: points_text(p.points, p.rated_games),
                level: Points::from_hundredths(p.points).level().name(lang),
                provisional: p.rated_games < PROVISIONAL_GAMES,
                name: p.titled_name(),
                user_id: p.user_id,
                wins: p.wins,
                draws: p.draws,
                losses: p.losses,
            })
            .collect();
        Ok(Some(LadderPage {
            variant,
            page,
            pages,
            total,
            rows,
            provisional_games: PROVISIONAL_GAMES,
        }))
    }

    /// `user`'s profile on `club`'s ladder; `None` if they are not on it.
    pub async fn profile_page(
        &self,
        club: &Club,
        user: &str,
        lang: Lang,
    ) -> Result<Option<ProfilePage>, ServiceError> {
        let server = club.server();
        let Some(player) = self.store().player(server, user).await? else {
            return Ok(None);
        };
        let history = self.store().rating_history(server, user).await?;
        let mut series = Vec::with_capacity(history.len() + 1);
        if let Some(first) = history.first() {
            series.push((first.at_ms, first.before));
        }
        series.extend(history.iter().map(|c| (c.at_ms, c.after)));
        let games = self
            .store()
            .games_of(server, user, false, RECENT_GAMES)
            .await?;
        let lines = self.game_lines(&games, user, lang).await?;
        let recent = games
            .iter()
            .zip(lines)
            .map(|(g, text)| ProfileGame {
                game_id: g.id,
                text,
            })
            .collect();
        let openings = self.most_played_openings(server, user, lang).await?;
        Ok(Some(ProfilePage {
            points: points_text(player.points, player.rated_games),
            provisional: player.rated_games < PROVISIONAL_GAMES,
            provisional_games: PROVISIONAL_GAMES,
            level: Points::from_hundredths(player.points).level().name(lang),
            name: player.titled_name(),
            rated_games: player.rated_games,
            wins: player.wins,
            draws: player.draws,
            losses: player.losses,
            series,
            openings,
            recent,
        }))
    }
}
