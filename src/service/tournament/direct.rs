//! The moderators' hand on a running tournament: setting or correcting a
//! result (a forfeit, an adjudication), pausing and resuming the pairing of
//! new rounds, and cancelling. A result set on a game still in progress
//! ends that game first (an adjudication, or an abort if no move was
//! played), so a board and its game never disagree.

use shakmaty::Color;

use super::Loaded;
use crate::{
    chess::GameResult,
    msg,
    service::{
        buttons::ButtonAction,
        display_name,
        error::{refuse_msg, ServiceError},
        Actor, Button, ButtonStyle, Notice, Reply, Service, TournamentRef, UserRef,
    },
    store::{TournamentGame, TournamentStatus},
    t,
    tournament::event::BoardResult,
};

impl Service {
    pub(super) async fn set_tournament_result(
        &self,
        actor: &Actor,
        which: TournamentRef,
        player: &UserRef,
        result: &str,
        round: Option<i64>,
        correct: bool,
    ) -> Result<Reply, ServiceError> {
        self.moderators_only(actor)?;
        let found = self.find_tournament(actor, &which).await?;
        let id = found.record.id;
        let _guard = self.lock_tournament(id).await;
        // Read again under the lock: a step may have run meanwhile.
        let Some(t) = self.load_tournament(id).await? else {
            return refuse_msg(msg!("tournament-not-found", name = format!("#{id}")));
        };
        let name = t.record.tournament.name.clone();
        match t.record.status {
            TournamentStatus::Running | TournamentStatus::Paused => {}
            TournamentStatus::Open => {
                return refuse_msg(msg!("tournament-not-started", name = name.as_str()))
            }
            _ => return refuse_msg(msg!("tournament-over", name = name.as_str())),
        }
        let who = display_name(&player.name);
        if t.entrant(&player.id).is_none() {
            return refuse_msg(msg!(
                "tournament-player-not-entered",
                player = who.as_str(),
                name = name.as_str()
            ));
        }
        let Some(board) = board_of(&t, &player.id, round) else {
            return refuse_msg(msg!(
                "tournament-no-board",
                player = who.as_str(),
                round = round.unwrap_or(t.record.current_round)
            ));
        };
        let Some(opponent) = other_player(&board, &player.id) else {
            return refuse_msg(msg!("tournament-result-bye", player = who.as_str()));
        };
        let as_white = board.white_id == player.id;
        let Some(new) = parse_result(result, as_white) else {
            return refuse_msg(msg!(
                "tournament-bad-result",
                value = crate::service::error::echo(result, 20)
            ));
        };
        if let Some(old) = &board.result {
            if !correct {
                return refuse_msg(msg!(
                    "tournament-result-exists",
                    result = old.as_str(),
                    player = who.as_str()
                ));
            }
            if old == new.id() {
                return refuse_msg(msg!("tournament-result-same", result = old.as_str()));
            }
        }
        let mut notices = Vec::new();
        if let Some(game_id) = board.game_id {
            let lang = self.server_lang(&actor.server).await;
            let why = t!(
                lang,
                "tournament-game-ended-result",
                result = result_text(new)
            );
            notices.extend(
                self.end_for_tournament(game_id, new, [why.clone(), why])
                    .await?,
            );
        }
        self.store()
            .set_tournament_result(id, &board, new.id(), &actor.user, false)
            .await?;
        for n in notices {
            self.post(n);
        }
        let lang = self.server_lang(&actor.server).await;
        let (white, black) = if as_white {
            (who.clone(), self.entrant_name(&t, opponent))
        } else {
            (self.entrant_name(&t, opponent), who.clone())
        };
        drop(_guard);
        self.advance_later(id);
        Ok(Reply::text(t!(
            lang,
            "tournament-result-set",
            name = name.as_str(),
            round = board.round,
            board = board.board,
            white = white,
            black = black,
            result = result_text(new)
        )))
    }

    fn entrant_name(&self, t: &Loaded, user: &str) -> String {
        t.entrant(user)
            .map_or_else(|| user.to_owned(), |e| t.titled_name(e))
    }

    /// Forfeits `user`'s pending boards (a withdrawal): their running
    /// games end, the opponents score "+". The number of boards.
    pub(super) async fn forfeit_pending(
        &self,
        t: &Loaded,
        user: &str,
        by: &str,
    ) -> Result<usize, ServiceError> {
        let _guard = self.lock_tournament(t.record.id).await;
        let mut count = 0;
        for board in t.games.iter().filter(|g| g.result.is_none()) {
            if board.white_id != user && board.black_id.as_deref() != Some(user) {
                continue;
            }
            let result = if board.white_id == user {
                BoardResult::BlackForfeitWin
            } else {
                BoardResult::WhiteForfeitWin
            };
            if let Some(game_id) = board.game_id {
                let lang = self.server_lang(&t.record.tournament.server_id).await;
                let name = t.entrant(user).map_or(user, |e| e.name.as_str());
                let why = [
                    t!(lang, "tournament-game-ended-withdrawal", name = name),
                    t!(lang, "tournament-game-unplayed-withdrawal", name = name),
                ];
                if let Some(n) = self.end_for_tournament(game_id, result, why).await? {
                    self.post(n);
                }
            }
            self.store()
                .set_tournament_result(t.record.id, board, result.id(), by, false)
                .await?;
            count += 1;
        }
        Ok(count)
    }

    /// Ends a running tournament game with `result`: adjudicated if moves
    /// were played (rated like any ending), else aborted (a forfeit is no
    /// game). The notice to post in its thread, if it was still running,
    /// opens with `why`: its first text for a game adjudicated, its second
    /// for one aborted.
    async fn end_for_tournament(
        &self,
        game_id: i64,
        result: BoardResult,
        why: [String; 2],
    ) -> Result<Option<Notice>, ServiceError> {
        let _guard = self.lock_game(game_id).await;
        let Some(record) = self.store().game(game_id).await? else {
            return Ok(None);
        };
        if !record.is_active() {
            return Ok(None);
        }
        let mut session = self.load(record).await?;
        let mut game = session.game.clone();
        let unplayed = game.can_abort();
        let ended = if unplayed {
            game.abort()
        } else {
            game.adjudicate(match result {
                BoardResult::WhiteWins | BoardResult::WhiteForfeitWin => GameResult::WhiteWins,
                BoardResult::BlackWins | BoardResult::BlackForfeitWin => GameResult::BlackWins,
                BoardResult::Draw | BoardResult::DoubleForfeit | BoardResult::Bye => {
                    GameResult::Draw
                }
            })
        };
        ended.map_err(|e| ServiceError::Internal(format!("ending a tournament game: {e:?}")))?;
        let applied = self.commit(&mut session, &game, false).await?;
        let mut reply = self.board_reply(&session, &game, applied.ratings).await?;
        let lang = self.server_lang(&session.record.game.server_id).await;
        let [adjudicated, aborted] = why;
        let why = if unplayed { aborted } else { adjudicated };
        reply.text = crate::i18n::join_sentences(lang, [why, reply.text]);
        Ok(Some(Notice {
            channel: session.record.game.channel_id.clone(),
            dm_user: None,
            reply,
        }))
    }

    pub(super) async fn pause_tournament(
        &self,
        actor: &Actor,
        which: TournamentRef,
        pause: bool,
    ) -> Result<Reply, ServiceError> {
        self.moderators_only(actor)?;
        let t = self.find_tournament(actor, &which).await?;
        let name = t.record.tournament.name.as_str();
        let (from, to) = if pause {
            (TournamentStatus::Running, TournamentStatus::Paused)
        } else {
            (TournamentStatus::Paused, TournamentStatus::Running)
        };
        if t.record.status != from
            || !self
                .store()
                .set_tournament_status(t.record.id, &[from], to, self.now_ms())
                .await?
        {
            return refuse_msg(if pause {
                msg!("tournament-pause-not-running", name = name)
            } else {
                msg!("tournament-resume-not-paused", name = name)
            });
        }
        let lang = self.server_lang(&actor.server).await;
        if !pause {
            self.advance_later(t.record.id);
        }
        Ok(Reply::text(if pause {
            t!(lang, "tournament-paused", name = name)
        } else {
            t!(lang, "tournament-resumed", name = name)
        }))
    }

    pub(super) async fn cancel_tournament(
        &self,
        actor: &Actor,
        which: TournamentRef,
        confirmed: bool,
    ) -> Result<Reply, ServiceError> {
        self.moderators_only(actor)?;
        let t = self.find_tournament(actor, &which).await?;
        let name = t.record.tournament.name.as_str();
        if !t.record.status.is_live() {
            return refuse_msg(msg!("tournament-over", name = name));
        }
        if !confirmed {
            let lang = actor.lang();
            let mut reply = Reply::private(t!(lang, "tournament-cancel-confirm", name = name));
            reply.buttons = vec![Button {
                id: ButtonAction::TournamentCancel { id: t.record.id }.id(),
                label: t!(lang, "tournament-button-cancel"),
                style: ButtonStyle::Danger,
            }];
            return Ok(reply);
        }
        let live = [
            TournamentStatus::Open,
            TournamentStatus::Running,
            TournamentStatus::Paused,
        ];
        if !self
            .store()
            .set_tournament_status(
                t.record.id,
                &live,
                TournamentStatus::Cancelled,
                self.now_ms(),
            )
            .await?
        {
            return refuse_msg(msg!("tournament-over", name = name));
        }
        let lang = self.server_lang(&actor.server).await;
        Ok(Reply::text(t!(lang, "tournament-cancelled", name = name)))
    }
}

/// The board of `user` in `round`; with no round, their first board still
/// pending, else their latest. A knockout match's latest game.
fn board_of(t: &Loaded, user: &str, round: Option<i64>) -> Option<TournamentGame> {
    let mut mine = t
        .games
        .iter()
        .filter(|g| g.white_id == user || g.black_id.as_deref() == Some(user));
    match round {
        Some(r) => mine.rfind(|g| g.round == r).cloned(),
        None => {
            let all: Vec<&TournamentGame> = mine.collect();
            all.iter()
                .find(|g| g.result.is_none())
                .or(all.last())
                .map(|g| (*g).clone())
        }
    }
}

fn other_player<'a>(board: &'a TournamentGame, user: &str) -> Option<&'a str> {
    let black = board.black_id.as_deref()?;
    Some(if board.white_id == user {
        black
    } else {
        &board.white_id
    })
}

/// A result as the moderator gave it: for the named player (`win`,
/// `forfeit-loss` …) or from White's side (`1-0`, `+-` …).
fn parse_result(text: &str, player_is_white: bool) -> Option<BoardResult> {
    let text = text.trim().to_ascii_lowercase();
    if let Some(r) = BoardResult::from_id(&text).filter(|r| *r != BoardResult::Bye) {
        return Some(r);
    }
    let side = if player_is_white {
        Color::White
    } else {
        Color::Black
    };
    let for_player = |white: BoardResult, black: BoardResult| match side {
        Color::White => white,
        Color::Black => black,
    };
    Some(match text.as_str() {
        "win" | "胜" => for_player(BoardResult::WhiteWins, BoardResult::BlackWins),
        "loss" | "负" => for_player(BoardResult::BlackWins, BoardResult::WhiteWins),
        "draw" | "和" => BoardResult::Draw,
        "forfeit-win" => for_player(BoardResult::WhiteForfeitWin, BoardResult::BlackForfeitWin),
        "forfeit-loss" => for_player(BoardResult::BlackForfeitWin, BoardResult::WhiteForfeitWin),
        "double-forfeit" => BoardResult::DoubleForfeit,
        _ => return None,
    })
}

/// How a result reads in a message: `1–0`, `½–½`, `+/−` …
pub(super) fn result_text(r: BoardResult) -> &'static str {
    match r {
        BoardResult::WhiteWins => "1–0",
        BoardResult::BlackWins => "0–1",
        BoardResult::Draw => "½–½",
        BoardResult::WhiteForfeitWin => "+/−",
        BoardResult::BlackForfeitWin => "−/+",
        BoardResult::DoubleForfeit => "−/−",
        BoardResult::Bye => "bye",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_read_from_the_players_side() {
        assert_eq!(parse_result("win", false), Some(BoardResult::BlackWins));
        assert_eq!(
            parse_result("forfeit-loss", true),
            Some(BoardResult::BlackForfeitWin)
        );
        assert_eq!(parse_result("1-0", false), Some(BoardResult::WhiteWins));
        assert_eq!(parse_result("bye", true), None);
        assert_eq!(parse_result("3-0", true), None);
    }
}
