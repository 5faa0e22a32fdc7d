//! Club competitions in the bot (`/tournament …`): created by moderators,
//! joined by players, paired by the core (`crate::tournament::event`), and
//! played as ordinary games, each in its own thread. The pieces:
//!
//! - [`create`]: `/tournament create` and the checks of its options.
//! - [`entry`]: joining, leaving, withdrawing and removing players.
//! - [`advance`]: starting, and every step after a game ends: the next
//!   round, the next game of a knockout match, the end with the final
//!   standings. Driven by game endings and by the scheduler's tick, so a
//!   restart finishes whatever a crash interrupted; the store makes each
//!   step happen once.
//! - [`direct`]: the moderators' results, pause, resume and cancel.
//! - [`view`]: lists, information, pairings, standings (with the
//!   crosstable image) and the export (TRF and PGN).
//!
//! Messages about a tournament (announcements, pairings, standings) are
//! public and in the server's language; refusals in the asker's.

mod advance;
mod create;
mod direct;
mod entry;
mod page;
mod view;

pub use page::{CardGame, PageBoard, PageRound, PlayerCard, TournamentPage};

use super::{
    error::{refuse_msg, ServiceError},
    Actor, Reply, Service, TournamentCommand, TournamentRef,
};
use crate::{
    msg,
    store::{Entrant, TournamentGame, TournamentRecord},
    tournament::{
        event::{self, BoardResult, Event, Format, Settings},
        knockout::Decider,
        model::{Colour, Pno, Scoring},
        standings::TieBreak,
    },
};

/// A tournament as read for one command: its row, entrants and boards.
pub(super) struct Loaded {
    pub record: TournamentRecord,
    pub entrants: Vec<Entrant>,
    pub games: Vec<TournamentGame>,
    /// The FIDE titles of entrants who hold one, by user id.
    pub titles: std::collections::HashMap<String, String>,
}

impl Loaded {
    pub fn format(&self) -> Format {
        Format::from_id(&self.record.tournament.format).unwrap_or(Format::Swiss)
    }

    pub fn tiebreaks(&self) -> Vec<TieBreak> {
        parse_tiebreaks(&self.record.tournament.tiebreaks).unwrap_or_default()
    }

    /// Entrants in pairing-number order (after the start).
    pub fn by_pno(&self) -> Vec<&Entrant> {
        let mut v: Vec<&Entrant> = self.entrants.iter().filter(|e| e.pno.is_some()).collect();
        v.sort_by_key(|e| e.pno);
        v
    }

    /// An entrant's name as tables show it: the title first (`GM 张伟`).
    pub fn titled_name(&self, e: &Entrant) -> String {
        crate::store::titled(self.titles.get(&e.user_id).map(String::as_str), &e.name)
    }

    pub fn entrant(&self, user: &str) -> Option<&Entrant> {
        self.entrants.iter().find(|e| e.user_id == user)
    }

    /// The user with pairing number `pno`.
    pub fn user_of(&self, pno: Pno) -> Option<&Entrant> {
        self.entrants.iter().find(|e| e.pno == Some(i64::from(pno)))
    }

    pub fn pno_of(&self, user: &str) -> Option<Pno> {
        self.entrant(user)
            .and_then(|e| e.pno)
            .and_then(|p| u32::try_from(p).ok())
    }

    /// The competition as the core sees it.
    pub fn event(&self) -> Event {
        let t = &self.record.tournament;
        let entrants = self
            .by_pno()
            .into_iter()
            .map(|e| event::Entrant {
                pno: e.pno.unwrap_or(0) as Pno,
                name: self.titled_name(e),
                rating: u32::try_from(e.points.max(0) / 100).unwrap_or(0),
                section: e.section.clone(),
                withdrawn_after: e.withdrawn_after.and_then(|w| u32::try_from(w).ok()),
            })
            .collect();
        let boards = self
            .games
            .iter()
            .filter_map(|g| {
                Some(event::Board {
                    round: u32::try_from(g.round).ok()?,
                    board: u32::try_from(g.board).ok()?,
                    game_no: u32::try_from(g.game_no).ok()?,
                    white: self.pno_of(&g.white_id)?,
                    black: match &g.black_id {
                        Some(b) => Some(self.pno_of(b)?),
                        None => None,
                    },
                    result: g.result.as_deref().and_then(BoardResult::from_id),
                })
            })
            .collect();
        Event {
            settings: Settings {
                name: t.name.clone(),
                format: self.format(),
                rounds: u32::try_from(t.rounds).unwrap_or(0),
                groups: u32::try_from(t.groups_count).unwrap_or(1),
                match_games: u32::try_from(t.match_games).unwrap_or(1),
                decider: Decider {
                    extra_pairs: u32::try_from(t.decider_pairs).unwrap_or(0),
                    sudden_death: t.sudden_death,
                },
                initial_colour: if t.initial_colour == "black" {
                    Colour::Black
                } else {
                    Colour::White
                },
                scoring: Scoring::default(),
            },
            entrants,
            boards,
        }
    }
}

/// Tie-breaks from their ids (`sb,buchholz`) or the seed's names (小分,
/// 对手分); `None` names the one not understood.
pub(super) fn parse_tiebreaks(text: &str) -> Result<Vec<TieBreak>, String> {
    text.split([',', '，', '、', ' '])
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| match s {
            "小分" => Ok(TieBreak::SonnebornBerger),
            "对手分" => Ok(TieBreak::Buchholz),
            other => other.parse().map_err(|_| other.to_owned()),
        })
        .collect()
}

/// The id a tie-break is stored under.
pub(super) fn tiebreak_id(tb: TieBreak) -> &'static str {
    match tb {
        TieBreak::SonnebornBerger => "sb",
        TieBreak::Buchholz => "buchholz",
        TieBreak::BuchholzCut1 => "buchholz-cut1",
        TieBreak::MedianBuchholz => "median-buchholz",
        TieBreak::DirectEncounter => "de",
        TieBreak::Wins => "wins",
    }
}

impl Service {
    pub(super) async fn tournament(
        &self,
        actor: &Actor,
        command: TournamentCommand,
    ) -> Result<Reply, ServiceError> {
        use TournamentCommand as T;
        // What only reads leaves the club pages as they are.
        let changes = !matches!(
            command,
            T::List | T::Info { .. } | T::Pairings { .. } | T::Standings { .. } | T::Export { .. }
        );
        let answer = match command {
            T::Create(options) => self.create_tournament(actor, options).await,
            T::Join { tournament } => self.join_tournament(actor, tournament).await,
            T::Leave { tournament } => self.leave_tournament(actor, tournament).await,
            T::Withdraw { tournament } => self.withdraw_from_tournament(actor, tournament).await,
            T::Start { tournament } => self.start_tournament(actor, tournament).await,
            T::List => self.list_tournaments(actor).await,
            T::Info { tournament } => self.tournament_info(actor, tournament).await,
            T::Pairings { tournament, round } => {
                self.tournament_pairings(actor, tournament, round).await
            }
            T::Standings { tournament } => self.tournament_standings(actor, tournament).await,
            T::Export { tournament } => self.export_tournament(actor, tournament).await,
            T::Result {
                tournament,
                player,
                result,
                round,
                correct,
            } => {
                self.set_tournament_result(actor, tournament, &player, &result, round, correct)
                    .await
            }
            T::Pause { tournament } => self.pause_tournament(actor, tournament, true).await,
            T::Resume { tournament } => self.pause_tournament(actor, tournament, false).await,
            T::Cancel {
                tournament,
                confirmed,
            } => self.cancel_tournament(actor, tournament, confirmed).await,
            T::Remove { tournament, player } => {
                self.remove_from_tournament(actor, tournament, &player)
                    .await
            }
        };
        if changes && answer.is_ok() {
            self.club_changed(Some(&actor.server));
        }
        answer
    }

    /// Reads a tournament whole.
    pub(super) async fn load_tournament(&self, id: i64) -> Result<Option<Loaded>, ServiceError> {
        let Some(record) = self.store().tournament(id).await? else {
            return Ok(None);
        };
        let (entrants, games) =
            tokio::try_join!(self.store().entrants(id), self.store().tournament_games(id))?;
        let mut titles = std::collections::HashMap::new();
        for e in &entrants {
            let title = self
                .store()
                .player(&record.tournament.server_id, &e.user_id)
                .await?
                .and_then(|p| p.title);
            if let Some(title) = title {
                titles.insert(e.user_id.clone(), title);
            }
        }
        Ok(Some(Loaded {
            record,
            entrants,
            games,
            titles,
        }))
    }

    /// The tournament a command names (see [`TournamentRef`]).
    pub(super) async fn find_tournament(
        &self,
        actor: &Actor,
        which: &TournamentRef,
    ) -> Result<Loaded, ServiceError> {
        let id = match which.as_deref().map(str::trim).filter(|s| !s.is_empty()) {
            Some(text) => self.tournament_named(actor, text).await?,
            None => self.tournament_here(actor).await?,
        };
        match self.load_tournament(id).await? {
            Some(t) if t.record.tournament.server_id == actor.server => Ok(t),
            _ => refuse_msg(msg!("tournament-not-found", name = format!("#{id}"))),
        }
    }

    async fn tournament_named(&self, actor: &Actor, text: &str) -> Result<i64, ServiceError> {
        super::error::check_length("tournament", text, super::error::MAX_OPTION_CHARS)?;
        if let Ok(id) = text.trim_start_matches('#').parse::<i64>() {
            return Ok(id);
        }
        let all = self
            .store()
            .tournaments_of(&actor.server, false, 200)
            .await?;
        let wanted = text.to_lowercase();
        // A live one of that name first, else the newest of that name.
        all.iter()
            .filter(|t| t.tournament.name.to_lowercase() == wanted)
            .max_by_key(|t| (t.status.is_live(), t.id))
            .map(|t| t.id)
            .map_or_else(
                || {
                    refuse_msg(msg!(
                        "tournament-not-found",
                        name = super::error::echo(text, 60)
                    ))
                },
                Ok,
            )
    }

    /// With no name: the tournament of this channel's game, else the one
    /// live tournament created in this channel or, failing that, on the
    /// server; else the newest.
    async fn tournament_here(&self, actor: &Actor) -> Result<i64, ServiceError> {
        if let Some(game) = self.store().latest_game_in(&actor.channel).await?
            && let Some((id, _)) = self.store().tournament_of_game(game.id).await?
        {
            return Ok(id);
        }
        let all = self
            .store()
            .tournaments_of(&actor.server, false, 200)
            .await?;
        let live: Vec<&TournamentRecord> = all.iter().filter(|t| t.status.is_live()).collect();
        let here: Vec<&TournamentRecord> = live
            .iter()
            .copied()
            .filter(|t| t.tournament.channel_id == actor.channel)
            .collect();
        match (here.as_slice(), live.as_slice()) {
            ([one], _) | ([], [one]) => Ok(one.id),
            ([], []) => match all.first() {
                Some(newest) => Ok(newest.id),
                None => refuse_msg(msg!("tournament-none")),
            },
            _ => refuse_msg(msg!("tournament-which")),
        }
    }

    /// Refuses anyone but a moderator.
    pub(super) fn moderators_only(&self, actor: &Actor) -> Result<(), ServiceError> {
        if actor.is_moderator {
            Ok(())
        } else {
            refuse_msg(msg!("tournament-moderators-only"))
        }
    }

    /// Takes the lock of one tournament (its steps run one at a time in
    /// this process; the store keeps processes apart). Tournament locks
    /// share the games' lock table under negative keys.
    pub(super) async fn lock_tournament(&self, id: i64) -> tokio::sync::OwnedMutexGuard<()> {
        self.lock_game(-id).await
    }

    /// Refuses what a tournament game does not allow (abort, takeback,
    /// rematch: its result belongs to the tournament), with `refusal`.
    pub(super) async fn refuse_in_tournament(
        &self,
        game_id: i64,
        refusal: crate::i18n::Msg,
    ) -> Result<(), ServiceError> {
        if self.store().tournament_of_game(game_id).await?.is_some() {
            return refuse_msg(refusal);
        }
        Ok(())
    }
}
