//! Playing a game: moves, the board, resignation (with confirmation), draw
//! offers and claims, and aborts. Each action takes the game's lock, rebuilds
//! the game, checks who may do what, changes a copy, commits it (version
//! checked) and only then answers.

use shakmaty::Color;

use super::{
    buttons::{ButtonAction, GameButton},
    error::{check_length, refuse, refuse_msg, ServiceError},
    session::Session,
    timing::Stage,
    Actor, Button, ButtonStyle, DrawAction, Reply, Service,
};
use crate::{
    chess::{color_name, color_text, DrawOffer, Game, Notation, PlayTextError},
    clock::TimeControl,
    i18n::{join_sentences, Lang},
    msg, t,
};

/// Longest move text read (the longest real input is about 12 characters).
const MAX_MOVE_CHARS: usize = 64;

/// A move's answer and, for a move that a conditional move may answer,
/// what that answer needs.
type Played = (Reply, Option<super::conditional::Moved>);

/// Whether `session`, the game a move of `actor` went to, is their own game
/// in progress in the channel they asked in: the game `move_without_game`
/// would find there (a channel has at most one game in progress).
fn own_game_here(session: &Session, actor: &Actor) -> bool {
    session.side_of(&actor.user).is_some()
        && session.record.game.channel_id.as_deref() == Some(actor.channel.as_str())
        && session.record.state.result.is_none()
}

/// A validated time control.
pub(super) struct ParsedTimeControl {
    /// The form stored and shown (`3d`, `10+5`, `40/9000:16/3600`).
    pub canonical: String,
    /// The control itself (put into words with [`TimeControl::text`]).
    pub control: TimeControl,
}

/// Reads a time control option, or says what is wrong with it (in `lang`,
/// the asker's).
pub(super) fn parse_time_control(
    text: &str,
    lang: Lang,
) -> Result<ParsedTimeControl, ServiceError> {
    match text.trim().parse::<TimeControl>() {
        Ok(tc) => Ok(ParsedTimeControl {
            canonical: tc.to_string(),
            control: tc,
        }),
        Err(e) => refuse(t!(lang, "time-option-invalid", reason = e.text(lang))),
    }
}

impl Service {
    /// Finds the game an action is about: the one a button names (checking
    /// that its version is still current), or the channel's active game.
    pub(super) async fn target_game(
        &self,
        actor: &Actor,
        at: Option<(i64, i64)>,
    ) -> Result<(tokio::sync::OwnedMutexGuard<()>, Session), ServiceError> {
        if at.is_none()
            && let Some(found) = self.hinted_game(actor).await?
        {
            return Ok(found);
        }
        let game_id = match at {
            Some((id, _)) => id,
            None => {
                let id = self.active_game_here(actor).await?.id;
                self.remember_channel(&actor.channel, id);
                id
            }
        };
        let guard = self.lock_game(game_id).await;
        // Read again under the lock: this is the version we will change.
        let since = self.now_ms();
        let Some(view) = self.read_for_play(game_id, since).await? else {
            return refuse_msg(msg!("game-not-found"));
        };
        let record = &view.record;
        if record.game.server_id != actor.server {
            return refuse_msg(msg!("game-not-found"));
        }
        if !record.is_active() {
            return refuse_msg(msg!("rule-game-over"));
        }
        let session = self.load_for_play(view, since).await?;
        if let Some((_, shown_at)) = at {
            // A button belongs to the position it was shown with: only a
            // move makes it stale. A declined draw or extra time changes
            // the game's version but posts no new board, and must not
            // kill the buttons of the board everyone is looking at.
            if shown_at != board_position(&session.game) {
                return refuse_msg(msg!("game-button-stale"));
            }
        }
        Ok((guard, session))
    }

    /// The game `game_id` with what a move reads along with it (timed).
    async fn read_for_play(
        &self,
        game_id: i64,
        since_ms: i64,
    ) -> Result<Option<crate::store::PlayView>, ServiceError> {
        let started = std::time::Instant::now();
        let view = self.store().play_view(game_id, since_ms).await?;
        self.inner.timings.record(Stage::Read, started);
        Ok(view)
    }

    /// The channel's game by this process's hint, if the hint still holds
    /// under the game's lock (same channel and server, still active); else
    /// `None` and the caller looks the channel up.
    async fn hinted_game(
        &self,
        actor: &Actor,
    ) -> Result<Option<(tokio::sync::OwnedMutexGuard<()>, Session)>, ServiceError> {
        let Some(game_id) = self.channel_hint(&actor.channel) else {
            return Ok(None);
        };
        let guard = self.lock_game(game_id).await;
        let since = self.now_ms();
        let Some(view) = self.read_for_play(game_id, since).await? else {
            return Ok(None);
        };
        let record = &view.record;
        let holds = record.is_active()
            && record.game.server_id == actor.server
            && record.game.channel_id.as_deref() == Some(actor.channel.as_str());
        if !holds {
            return Ok(None);
        }
        Ok(Some((guard, self.load_for_play(view, since).await?)))
    }

    pub(super) async fn play_move(
        &self,
        actor: &Actor,
        text: &str,
        claim_draw: bool,
    ) -> Result<Reply, ServiceError> {
        let (played, own_game) = self.play_move_judged(actor, text, claim_draw, None).await;
        let (reply, moved) = match played {
            Ok(played) => played,
            // Refused in the asker's own game here: the refusal stands (as
            // `move_without_game` would find, with a query).
            Err(e @ ServiceError::User(_)) if own_game => return Err(e),
            // Not a move in a game of the asker's here: perhaps an answer to
            // their puzzle. (Asked only now, so a game's move costs no
            // extra query; boxed, so the move path's future stays small.)
            Err(e @ ServiceError::User(_)) => {
                return Box::pin(self.move_without_game(actor, text, e)).await
            }
            Err(e) => return Err(e),
        };
        match moved {
            // Conditional moves may answer it (`conditional.rs`).
            Some(moved) => Ok(self.after_move(actor, reply, moved).await),
            None => Ok(reply),
        }
    }

    /// A `/move` that is no move in a game of the asker's here (`refusal`
    /// says why): the answer to their open puzzle if they have one; else,
    /// with no game here and a puzzle attempt just ended, an answer too
    /// late; else the refusal as it is. A game of theirs in the channel
    /// comes first: its refusal stands.
    async fn move_without_game(
        &self,
        actor: &Actor,
        text: &str,
        refusal: ServiceError,
    ) -> Result<Reply, ServiceError> {
        check_length("move", text, MAX_MOVE_CHARS)?;
        // Asked first: most refusals here are a player's in their own game
        // (out of turn, illegal), and those stand without a puzzle lookup.
        let (plays_here, game_here) = self.plays_here(actor).await?;
        if plays_here {
            return Err(refusal);
        }
        if let Some(attempt) = self.open_puzzle(actor).await? {
            return self.puzzle_answer(actor, attempt, text).await;
        }
        if !game_here {
            // A daily attempt the day's close ended says so; then any
            // attempt just ended.
            if let Some(closed) = self.daily_closed_lately(actor).await? {
                return refuse_msg(closed);
            }
            if self.puzzle_ended_lately(actor).await? {
                return refuse_msg(msg!("puzzle-over"));
            }
        }
        Err(refusal)
    }

    /// Plays one move; with `at_plies`, only if the game has exactly that
    /// many plies (a conditional answer belongs to one position). Also
    /// returns, for a move that a conditional move may answer, what the
    /// answer needs.
    pub(super) async fn play_move_at(
        &self,
        actor: &Actor,
        text: &str,
        claim_draw: bool,
        at_plies: Option<usize>,
    ) -> Result<Played, ServiceError> {
        self.play_move_judged(actor, text, claim_draw, at_plies)
            .await
            .0
    }

    /// [`Self::play_move_at`], and whether the move was judged on the
    /// asker's own game in progress in their channel: that game's refusal
    /// is the answer, with no look for a puzzle the text might answer.
    async fn play_move_judged(
        &self,
        actor: &Actor,
        text: &str,
        claim_draw: bool,
        at_plies: Option<usize>,
    ) -> (Result<Played, ServiceError>, bool) {
        if let Err(e) = check_length("move", text, MAX_MOVE_CHARS) {
            return (Err(e), false);
        }
        // The game as this process last left it, if it kept it (PostgreSQL):
        // no read. The commit checks that nothing it was read from has
        // changed; anything but a plain move committed on it is judged again
        // on a fresh read or on the kept view confirmed current, so a stale
        // view never decides a refusal.
        if let Some((guard, session)) = self.kept_session(actor).await {
            // Read off the view before it is confirmed: a refusal on a kept
            // view is decided only once the view is confirmed current (else
            // the move is judged again below, on a fresh read), so whenever
            // this answer is used it describes the game as stored.
            let own_game = own_game_here(&session, actor);
            match self
                .play_move_on(actor, text, claim_draw, at_plies, guard, session)
                .await
            {
                Err(ServiceError::KeptViewStale) => {}
                done => return (done, own_game),
            }
        }
        let (guard, session) = match self.target_game(actor, None).await {
            Ok(found) => found,
            Err(e) => return (Err(e), false),
        };
        let own_game = own_game_here(&session, actor);
        let done = self
            .play_move_on(actor, text, claim_draw, at_plies, guard, session)
            .await;
        (done, own_game)
    }

    /// [`Self::play_move_at`] on the game `session` (locked by `guard`).
    /// On a kept session, whatever is not a plain legal move in turn is
    /// [`ServiceError::KeptViewStale`] before anything is written.
    async fn play_move_on(
        &self,
        actor: &Actor,
        text: &str,
        claim_draw: bool,
        at_plies: Option<usize>,
        guard: tokio::sync::OwnedMutexGuard<()>,
        mut session: Session,
    ) -> Result<Played, ServiceError> {
        if session.kept {
            let plain = session
                .side_of(&actor.user)
                .is_some_and(|side| session.game.turn() == side)
                && at_plies.is_none_or(|p| p == session.game.plies().len())
                && session.open_adjournment().is_none()
                && session
                    .record
                    .state
                    .deadline_ms
                    .is_none_or(|d| d > self.now_ms());
            if !plain {
                // Judged as on a fresh read, if the view still is one.
                self.confirm_kept(&mut session).await?;
            }
        }
        let side = session.side_of_actor(actor)?;
        if at_plies.is_some_and(|p| p != session.game.plies().len()) {
            return refuse_msg(msg!("game-moved-on"));
        }
        session.answer_in_advance = at_plies.is_some();
        if let Some(open) = session.open_adjournment() {
            return refuse_msg(
                if open.sealer == color_name(side).to_ascii_lowercase() && open.sealed_uci.is_none()
                {
                    msg!("adjourn-no-moves-seal")
                } else {
                    msg!("adjourn-no-moves")
                },
            );
        }
        if session.game.turn() != side {
            let waiting = self.player_name(&session, !side, actor.lang()).await?;
            return refuse_msg(msg!(
                "game-not-your-turn",
                name = waiting,
                color = color_text(actor.lang(), !side)
            ));
        }
        let now = self.now_ms();
        if session.record.state.deadline_ms.is_some_and(|d| d <= now) {
            // The scheduler has not fired yet, but the time is up all the
            // same: a flag, or the session's end (`adjourn.rs`).
            match self.session_end_instead(&mut session).await? {
                None => return Ok((self.expire_session(&mut session).await?, None)),
                // Adjourned before this move: the thread hears it, the
                // player is told to seal instead.
                Some(Some(adjourned)) => {
                    self.post_notice(super::Notice {
                        channel: session.record.game.channel_id.clone(),
                        dm_user: None,
                        reply: adjourned,
                    });
                    return refuse_msg(msg!("adjourn-no-moves-seal"));
                }
                // The session is over but the game goes on: play.
                Some(None) => {}
            }
        }
        let mut game = session.game.clone();
        let started = std::time::Instant::now();
        let played = if claim_draw {
            game.play_text_claiming_draw(text, now)
                .map(|_| ())
                .map_err(PlayTextError::Rule)
        } else {
            game.play_text(text, now).map(|_| ())
        };
        self.inner.timings.record(Stage::Validate, started);
        if session.kept && played.is_err() {
            // Refused, or an illegal attempt the strict rule would count:
            // decided only on a view that is still what a read would give.
            self.confirm_kept(&mut session).await?;
        }
        match played {
            Ok(()) => {
                let players = self.players_for(&session).await?;
                // The board is drawn while the database commits the move
                // (the commit is polled first, so its statement is on its way
                // before the drawing starts), unless the move ends the game:
                // its points bar waits for the settlement. Nothing is
                // answered before the commit.
                let frame = match game.is_over() {
                    false => Some(self.move_board_frame(&session, &game, &players).await?),
                    true => None,
                };
                let (applied, image) = tokio::join!(
                    biased;
                    self.commit(&mut session, &game, true),
                    async { frame.map(|f| self.draw_now(f)).transpose() },
                );
                let (applied, image) = (applied?, image?);
                let mut reply = self
                    .board_reply_with(&session, &game, applied.ratings, players, image)
                    .await?;
                let (_, notation) = self.session_words(&session).await?;
                let echo = echo_move(&game, notation);
                let stored = session.read_along.as_ref().is_some_and(|r| r.conditional);
                let moved = (stored && !game.is_over()).then(|| super::conditional::Moved {
                    game_id: session.record.id,
                    echo: echo.clone(),
                    board: reply.text.clone(),
                });
                reply.text = format!("{echo} — {}", reply.text);
                self.computer_may_act(&session.record, game.turn());
                if applied.vacation_ended {
                    // Other games of this player are locked one by one to
                    // re-derive their deadlines: release this one first.
                    drop(guard);
                    self.refresh_deadlines_of(&actor.server, &actor.user)
                        .await?;
                }
                Ok((reply, moved))
            }
            Err(PlayTextError::Rule(e)) => {
                // Moves suggested are written as the game's boards write them.
                let (_, notation) = self.session_words(&session).await?;
                refuse(e.text_in(actor.lang(), notation))
            }
            Err(error @ PlayTextError::Illegal(_)) => {
                // The strict house rule counts this attempt: that is a change
                // to the game, committed before the player is told.
                let applied = self.commit(&mut session, &game, false).await?;
                let (lang, notation) = self.session_words(&session).await?;
                if game.is_over() {
                    let mut reply = self.board_reply(&session, &game, applied.ratings).await?;
                    let error = error.text_in(lang, notation);
                    reply.text = join_sentences(lang, [error.as_str(), &reply.text]);
                    Ok((reply, None))
                } else {
                    Ok((Reply::private(error.text_in(actor.lang(), notation)), None))
                }
            }
        }
    }

    pub(super) async fn board(&self, actor: &Actor) -> Result<Reply, ServiceError> {
        let record = match self.store().active_game_in(&actor.channel).await? {
            Some(record) => record,
            None => match self.store().latest_game_in(&actor.channel).await? {
                Some(record) => record,
                None => return refuse_msg(msg!("game-none-in-channel")),
            },
        };
        let session = self.load(record).await?;
        let ratings = self.ratings_of(&session).await?;
        let mut reply = self.board_reply(&session, &session.game, ratings).await?;
        // Looking is not a move: nobody needs a notification.
        reply.mentions.clear();
        Ok(reply)
    }

    pub(super) async fn resign(
        &self,
        actor: &Actor,
        confirmed: bool,
        at: Option<(i64, i64)>,
    ) -> Result<Reply, ServiceError> {
        let (_guard, mut session) = self.target_game(actor, at).await?;
        let side = session.side_of_actor(actor)?;
        if !confirmed {
            let lang = actor.lang();
            return Ok(Reply {
                text: t!(lang, "game-resign-confirm"),
                ephemeral: true,
                buttons: vec![self.game_button(
                    &session,
                    &session.game,
                    GameButton::ResignConfirm,
                    &t!(lang, "button-resign-confirm"),
                    ButtonStyle::Danger,
                )],
                ..Reply::default()
            });
        }
        let mut game = session.game.clone();
        game.resign(side)
            .or_else(|e| refuse(e.text(actor.lang())))?;
        let mut reply = self.finish(&mut session, &game).await?;
        reply.text = crate::t!(
            self.server_lang(&actor.server).await,
            "fixes-resigned",
            name = super::display_name(&actor.name),
            result = reply.text.as_str()
        );
        Ok(reply)
    }

    pub(super) async fn abort(&self, actor: &Actor) -> Result<Reply, ServiceError> {
        self.abort_at(actor, None).await
    }

    /// Aborts the channel's game, or the game a board shown at some ply names.
    pub(super) async fn abort_at(
        &self,
        actor: &Actor,
        at: Option<(i64, i64)>,
    ) -> Result<Reply, ServiceError> {
        let (_guard, mut session) = self.target_game(actor, at).await?;
        session.side_of_actor(actor)?;
        self.refuse_in_tournament(session.record.id, msg!("tournament-no-abort"))
            .await?;
        let mut game = session.game.clone();
        game.abort().or_else(|e| refuse(e.text(actor.lang())))?;
        let mut reply = self.finish(&mut session, &game).await?;
        reply.text = crate::t!(
            self.server_lang(&actor.server).await,
            "fixes-aborted",
            name = super::display_name(&actor.name),
            result = reply.text.as_str()
        );
        Ok(reply)
    }

    pub(super) async fn draw(
        &self,
        actor: &Actor,
        action: DrawAction,
        at: Option<(i64, i64)>,
    ) -> Result<Reply, ServiceError> {
        let (_guard, mut session) = self.target_game(actor, at).await?;
        let side = session.side_of_actor(actor)?;
        let mut game = session.game.clone();
        let name = super::display_name(&actor.name);
        let mine = actor.lang();
        match action {
            DrawAction::Offer => match game.offer_draw(side).or_else(|e| refuse(e.text(mine)))? {
                DrawOffer::Agreed(_) => self.finish(&mut session, &game).await,
                DrawOffer::Offered => {
                    self.commit(&mut session, &game, false).await?;
                    self.computer_may_act(&session.record, game.turn());
                    let (lang, _) = self.session_words(&session).await?;
                    let opponent = session.player_id(!side).to_owned();
                    let id = |action| {
                        ButtonAction::Game {
                            id: session.record.id,
                            action,
                            version: board_position(&game),
                        }
                        .id()
                    };
                    Ok(Reply {
                        text: t!(
                            lang,
                            "game-draw-offered",
                            name = &name,
                            opponent = self.name_in(&actor.server, &opponent, lang).await?
                        ),
                        buttons: vec![
                            Button {
                                id: id(GameButton::DrawAccept),
                                label: t!(lang, "button-draw-accept"),
                                style: ButtonStyle::Success,
                            },
                            Button {
                                id: id(GameButton::DrawDecline),
                                label: t!(lang, "button-draw-decline"),
                                style: ButtonStyle::Secondary,
                            },
                        ],
                        mentions: vec![opponent],
                        ..Reply::default()
                    })
                }
            },
            DrawAction::Accept => {
                game.accept_draw(side).or_else(|e| refuse(e.text(mine)))?;
                self.finish(&mut session, &game).await
            }
            DrawAction::Decline => {
                game.decline_draw(side).or_else(|e| refuse(e.text(mine)))?;
                self.commit(&mut session, &game, false).await?;
                let (lang, _) = self.session_words(&session).await?;
                Ok(Reply {
                    text: t!(lang, "game-draw-declined", name = &name),
                    mentions: vec![session.player_id(!side).to_owned()],
                    ..Reply::default()
                })
            }
            DrawAction::Claim => {
                Self::refuse_while_adjourned(&session, msg!("adjourn-no-claim"))?;
                game.claim_draw(side).or_else(|e| refuse(e.text(mine)))?;
                self.finish(&mut session, &game).await
            }
        }
    }

    /// Commits an ended game and announces the result.
    async fn finish(&self, session: &mut Session, game: &Game) -> Result<Reply, ServiceError> {
        let applied = self.commit(session, game, false).await?;
        self.board_reply(session, game, applied.ratings).await
    }

    /// A button of the board of `game` (the session's game, possibly just
    /// changed: its plies are what the button carries).
    pub(super) fn game_button(
        &self,
        session: &Session,
        game: &Game,
        action: GameButton,
        label: &str,
        style: ButtonStyle,
    ) -> Button {
        Button {
            id: ButtonAction::Game {
                id: session.record.id,
                action,
                version: board_position(game),
            }
            .id(),
            label: label.to_owned(),
            style,
        }
    }

    /// A game's two rating changes if it has any.
    pub(super) async fn ratings_of(
        &self,
        session: &Session,
    ) -> Result<Option<[crate::store::RatingChangeRecord; 2]>, ServiceError> {
        let changes = self.store().game_rating_changes(session.record.id).await?;
        let white = changes
            .iter()
            .find(|c| c.user_id == session.record.game.white_id);
        let black = changes
            .iter()
            .find(|c| c.user_id == session.record.game.black_id);
        Ok(match (white, black) {
            (Some(w), Some(b)) => Some([w.clone(), b.clone()]),
            _ => None,
        })
    }

    /// Legal moves in SAN for the game of `channel` that start with
    /// `prefix`, most natural first, at most `limit` (for autocomplete).
    /// Never fails: anything unexpected yields no suggestions.
    pub async fn move_suggestions(&self, channel: &str, prefix: &str, limit: usize) -> Vec<String> {
        let Ok(Some(record)) = self.store().active_game_in(channel).await else {
            return Vec::new();
        };
        match self.load(record).await {
            Ok(session) => crate::chess::input::suggest(session.game.position(), prefix, limit),
            Err(e) => {
                tracing::warn!(channel, error = %e, "move suggestions failed");
                Vec::new()
            }
        }
    }

    /// Thread housekeeping: the adapter opened the thread a new game asked
    /// for; the game moves there and its first board is posted.
    pub async fn thread_opened(&self, game_id: i64, channel: &str) -> Reply {
        match self.move_to_thread(game_id, channel).await {
            Ok(reply) => reply,
            Err(e) => {
                // Said in the game's channel: the server's language.
                let lang = match self.store().game(game_id).await {
                    Ok(Some(record)) => self.server_lang(&record.game.server_id).await,
                    _ => Lang::En,
                };
                match e {
                    ServiceError::User(e) => Reply::private(e.0.text(lang)),
                    e => {
                        tracing::error!(game_id, error = %e, "moving a game to its thread failed");
                        Reply::private(t!(lang, "error-thread-move-failed"))
                    }
                }
            }
        }
    }

    async fn move_to_thread(&self, game_id: i64, channel: &str) -> Result<Reply, ServiceError> {
        let _guard = self.lock_game(game_id).await;
        self.store().move_game_to(game_id, channel).await?;
        let Some(record) = self.store().game(game_id).await? else {
            return refuse_msg(msg!("game-not-found"));
        };
        let session = self.load(record).await?;
        let reply = self.board_reply(&session, &session.game, None).await?;
        // A game against the computer waited for its place: if the
        // computer has White, its first move is due now.
        self.computer_may_act(&session.record, session.game.turn());
        Ok(reply)
    }
}

/// What a game button carries as its `version`: the plies played when it
/// was shown (see [`ButtonAction::Game`]).
pub(super) fn board_position(game: &Game) -> i64 {
    game.plies().len() as i64
}

/// `12. Nf3` / `12... Nf6` (`12. 马f3`): the last move, numbered.
pub(super) fn echo_move(game: &Game, notation: Notation) -> String {
    let Some(ply) = game.last_ply() else {
        return String::new();
    };
    let mover = !game.turn();
    // The position's own fullmove counter, so a game from a FEN goes on
    // with the FEN's numbers (as its FEN and PGN do): it counts up after
    // Black's move, so Black's move belongs to the number before.
    let after = shakmaty::Position::fullmoves(game.position()).get();
    let number = match mover {
        Color::White => after,
        Color::Black => after.saturating_sub(1).max(1),
    };
    let fullmove = match mover {
        Color::White => format!("{number}."),
        Color::Black => format!("{number}..."),
    };
    format!("{fullmove} {}", notation.write(&ply.san))
}
