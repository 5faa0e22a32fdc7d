//! Adjourned games (封棋, seed 001): a live game stops at the end of a
//! session (or when both players agree, or when a moderator adjourns it as
//! the arbiter), the player to move seals a move that nobody sees, and play
//! resumes at a set time with the sealed move.
//!
//! - **Adjourning**: `/adjourn offer` then `accept`/`decline` (as a draw
//!   offer works; the offer stands until a move), `/adjourn now` by a
//!   moderator, or by itself when `session_hours` have passed since the
//!   session began (the game's first move, or its last resumption) and both
//!   sides have made the moves their control requires
//!   ([`crate::clock::controls_met`]): checked after every move and when
//!   the session's end comes (it is part of the game's deadline).
//! - **Sealing**: `/seal move:…` by the player to move, answered only to
//!   them. The sealer's clock runs until the move is sealed (a flag before
//!   loses on time, with the dead-position exception as always); from then
//!   on no clock runs ([`crate::clock::clocks_paused`]).
//! - **Resumption**: at the time a moderator sets (`/adjourn resume`, in
//!   the server's time zone), reminded 24 h and 1 h before in the thread and
//!   by direct message, the sealed move is played and the opponent's clock
//!   starts. The opponent must move within an hour of the resumption (the
//!   seed's 迟到判负以1小时为限), or loses as on time (a draw if the sealer
//!   cannot mate).
//! - While adjourned, moves, draw claims, takebacks and extra time are
//!   refused; resigning and a draw by agreement stay possible (the sealed
//!   move is then never shown).
//!
//! Everything is in the store (adjournments, offers, resumption times), so
//! a restart loses nothing; the scheduler ([`Service::tick`]) plays due
//! sealed moves and sends reminders.

use shakmaty::Color;

use super::{
    buttons::{ButtonAction, GameButton},
    error::{check_length, refuse, refuse_msg, ServiceError},
    session::Session,
    Actor, AdjournAction, Button, ButtonStyle, Notice, Reply, Service, UserRef,
};
use crate::{
    chess::{color_text, Game},
    clock::{clocks_paused, controls_met, local_minute, parse_local_time, TimeControl, HOUR_MS},
    i18n::{join_sentences, Lang},
    msg,
    store::{AuditEntry, NewAdjournment, StoreError},
    t,
};

/// How long after the resumption the player to move may be absent (seed
/// 001: 迟到判负以1小时为限).
pub const LATE_MS: i64 = HOUR_MS;
/// Reminders of a resumption, in hours before it.
const REMINDER_HOURS: [i64; 2] = [24, 1];
/// Adjournments handled per tick.
const BATCH: i64 = 100;
/// Longest sealed move text read.
const MAX_SEAL_CHARS: usize = 64;

/// The FIDE titles a moderator may give: seed 001's five, in its order.
pub const TITLES: [&str; 5] = ["GM", "IM", "FM", "WGM", "WIM"];

/// Reads a title as typed: `GM`, `wgm`, or its Chinese name (特级大师);
/// `Some(None)` for `none`.
pub fn parse_title(text: &str) -> Option<Option<&'static str>> {
    let t = text.trim();
    if t.eq_ignore_ascii_case("none") || t == "无" {
        return Some(None);
    }
    const CHINESE: [&str; 5] = [
        "特级大师",
        "国际大师",
        "棋联大师",
        "女子特级大师",
        "女子国际大师",
    ];
    TITLES
        .iter()
        .zip(CHINESE)
        .find(|(code, zh)| t.eq_ignore_ascii_case(code) || t == *zh)
        .map(|(code, _)| Some(*code))
}

/// A colour as stored (`white`, `black`).
fn color_id(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

fn color_of(id: &str) -> Color {
    if id == "black" {
        Color::Black
    } else {
        Color::White
    }
}

/// A future on the heap (see [`Service::adjournment_command`]).
type Boxed<'a, T> = std::pin::Pin<Box<dyn std::future::Future<Output = T> + Send + 'a>>;

impl Service {
    /// Runs `/adjourn`, `/seal` or `/title` (`at`: the game and position a
    /// button names). The work is boxed here, not in the caller: the
    /// futures of every command share [`Service::execute`]'s state, and
    /// debug builds give each of them stack room while it is built.
    pub(super) fn adjournment_command<'a>(
        &'a self,
        actor: &'a Actor,
        command: super::Command,
        at: Option<(i64, i64)>,
    ) -> Boxed<'a, Result<Reply, ServiceError>> {
        Box::pin(async move {
            match command {
                super::Command::Adjourn { action } => self.adjourn(actor, action, at).await,
                super::Command::Seal { text } => self.seal(actor, text.as_deref()).await,
                super::Command::Title { user, title } => self.title(actor, &user, &title).await,
                _ => Err(ServiceError::Internal(
                    "not an adjournment command".to_owned(),
                )),
            }
        })
    }

    pub(super) async fn adjourn(
        &self,
        actor: &Actor,
        action: AdjournAction,
        at: Option<(i64, i64)>,
    ) -> Result<Reply, ServiceError> {
        if matches!(action, AdjournAction::Now) && !actor.is_moderator {
            return refuse_msg(msg!("adjourn-moderators-only"));
        }
        let (_guard, mut session) = Box::pin(self.target_game(actor, at)).await?;
        match action {
            AdjournAction::Offer | AdjournAction::Accept | AdjournAction::Decline => {
                let side = session.side_of_actor(actor)?;
                Box::pin(self.adjourn_by_agreement(actor, &mut session, side, action)).await
            }
            AdjournAction::Now => {
                self.check_adjournable(&session)?;
                Box::pin(self.adjourn_game(&mut session, "arbiter")).await
            }
            AdjournAction::Resume { when } => {
                Box::pin(self.set_resumption(actor, &session, &when)).await
            }
        }
    }

    /// Whether `session`'s game may be adjourned: a live game both sides
    /// have started, between people, not adjourned already.
    fn check_adjournable(&self, session: &Session) -> Result<(), ServiceError> {
        if session.open_adjournment().is_some() {
            return refuse_msg(msg!("adjourn-already"));
        }
        let live = matches!(
            session.record.game.time_control.parse(),
            Ok(TimeControl::Live(_))
        );
        if !live {
            return refuse_msg(msg!("adjourn-live-only"));
        }
        let ids = [&session.record.game.white_id, &session.record.game.black_id];
        if ids
            .iter()
            .any(|id| crate::engine::Level::of_player(id).is_some())
        {
            return refuse_msg(msg!("adjourn-not-computer"));
        }
        if session.game.can_abort() {
            return refuse_msg(msg!("adjourn-not-started"));
        }
        Ok(())
    }

    async fn adjourn_by_agreement(
        &self,
        actor: &Actor,
        session: &mut Session,
        side: Color,
        action: AdjournAction,
    ) -> Result<Reply, ServiceError> {
        self.check_adjournable(session)?;
        let plies = session.game.plies().len() as i64;
        let standing = self
            .store()
            .adjourn_offer(session.record.id)
            .await?
            .filter(|o| o.ply == plies)
            .map(|o| color_of(&o.offered_by));
        let lang = self.server_lang(&actor.server).await;
        let name = super::display_name(&actor.name);
        let opponent = session.player_id(!side).to_owned();
        match (action, standing) {
            (AdjournAction::Offer, Some(by)) if by == side => {
                refuse_msg(msg!("adjourn-offer-already"))
            }
            (AdjournAction::Accept | AdjournAction::Decline, Some(by)) if by == side => {
                refuse_msg(msg!("adjourn-own-offer"))
            }
            // Offering what the opponent offered is agreeing.
            (AdjournAction::Offer | AdjournAction::Accept, Some(_)) => {
                Box::pin(self.adjourn_game(session, "agreed")).await
            }
            (AdjournAction::Offer, None) => {
                let version = match self
                    .store()
                    .offer_adjournment(
                        session.record.id,
                        session.record.version,
                        color_id(side),
                        plies,
                    )
                    .await
                {
                    Ok(version) => version,
                    Err(StoreError::Conflict) => return refuse_msg(msg!("game-moved-on")),
                    Err(e) => return Err(e.into()),
                };
                session.record.version = version;
                self.game_changed(session.record.id);
                let id = |action| {
                    ButtonAction::Game {
                        id: session.record.id,
                        action,
                        version: plies,
                    }
                    .id()
                };
                Ok(Reply {
                    text: t!(
                        lang,
                        "adjourn-offered",
                        name = name,
                        opponent = self.name_in(&actor.server, &opponent, lang).await?
                    ),
                    buttons: vec![
                        Button {
                            id: id(GameButton::AdjournAccept),
                            label: t!(lang, "adjourn-button-accept"),
                            style: ButtonStyle::Success,
                        },
                        Button {
                            id: id(GameButton::AdjournDecline),
                            label: t!(lang, "adjourn-button-decline"),
                            style: ButtonStyle::Secondary,
                        },
                    ],
                    mentions: vec![opponent],
                    ..Reply::default()
                })
            }
            (AdjournAction::Accept | AdjournAction::Decline, None) => {
                refuse_msg(msg!("adjourn-no-offer"))
            }
            (AdjournAction::Decline, Some(_)) => {
                match self
                    .store()
                    .clear_adjourn_offer(session.record.id, session.record.version)
                    .await
                {
                    Ok(version) => session.record.version = version,
                    Err(StoreError::Conflict) => return refuse_msg(msg!("game-moved-on")),
                    Err(e) => return Err(e.into()),
                }
                self.game_changed(session.record.id);
                Ok(Reply {
                    text: t!(lang, "adjourn-declined", name = name),
                    mentions: vec![opponent],
                    ..Reply::default()
                })
            }
            (AdjournAction::Now | AdjournAction::Resume { .. }, _) => Err(ServiceError::Internal(
                "not an answer between the players".to_owned(),
            )),
        }
    }

    /// Adjourns the session's game (`reason`: `session`, `agreed` or
    /// `arbiter`) and says so in its channel: the player to move seals.
    pub(super) async fn adjourn_game(
        &self,
        session: &mut Session,
        reason: &str,
    ) -> Result<Reply, ServiceError> {
        let sealer = session.game.turn();
        let new = NewAdjournment {
            ply: session.game.plies().len() as i64,
            reason: reason.to_owned(),
            adjourned_ms: self.now_ms(),
            sealer: color_id(sealer).to_owned(),
        };
        // The sealer's clock runs on until the move is sealed; the session's
        // end is no longer the deadline.
        let deadline =
            Self::clock_flag(session, &session.game).or(session.record.state.deadline_ms);
        let (version, adjournment) = match self
            .store()
            .adjourn(session.record.id, session.record.version, &new, deadline)
            .await
        {
            Ok(done) => done,
            Err(StoreError::Conflict) => return refuse_msg(msg!("game-moved-on")),
            Err(e) => return Err(e.into()),
        };
        session.record.version = version;
        session.record.state.deadline_ms = deadline;
        session.adjournments.push(adjournment);
        self.game_changed(session.record.id);
        let (lang, _) = self.session_words(session).await?;
        let server = session.record.game.server_id.clone();
        let sealer_id = session.player_id(sealer).to_owned();
        let name = self.name_in(&server, &sealer_id, lang).await?;
        let why = match reason {
            "session" => t!(
                lang,
                "adjourn-session-over",
                hours = self.settings_of(session).await?.session_hours
            ),
            "agreed" => t!(lang, "adjourn-agreed"),
            _ => t!(lang, "adjourn-by-arbiter"),
        };
        let seal = t!(
            lang,
            "adjourn-seal-now",
            name = name,
            color = color_text(lang, sealer)
        );
        let seal_button = Button {
            id: ButtonAction::Game {
                id: session.record.id,
                action: GameButton::Seal,
                version: new.ply,
            }
            .id(),
            label: t!(lang, "adjourn-button-seal"),
            style: ButtonStyle::Primary,
        };
        Ok(Reply {
            text: join_sentences(lang, [why.as_str(), &seal]),
            buttons: vec![seal_button],
            mentions: vec![
                session.record.game.white_id.clone(),
                session.record.game.black_id.clone(),
            ],
            ..Reply::default()
        })
    }

    /// `/seal`: seals the move of an adjourned game, or shows the sealer
    /// their own sealed move (`text` `None`).
    pub(super) async fn seal(
        &self,
        actor: &Actor,
        text: Option<&str>,
    ) -> Result<Reply, ServiceError> {
        if let Some(text) = text {
            check_length("move", text, MAX_SEAL_CHARS)?;
        }
        let (_guard, mut session) = Box::pin(self.target_game(actor, None)).await?;
        let Some(open) = session.open_adjournment().cloned() else {
            return refuse_msg(msg!("seal-not-adjourned"));
        };
        let sealer = color_of(&open.sealer);
        let mine = actor.lang();
        let Some(side) = session.side_of(&actor.user) else {
            // Nobody but the sealer sees the sealed move: not the
            // moderators either.
            return match text {
                None => refuse_msg(msg!("seal-hidden")),
                Some(_) => refuse_msg(msg!("game-not-playing")),
            };
        };
        let Some(text) = text else {
            return match (&open.sealed_uci, side == sealer) {
                (Some(uci), true) => {
                    let san = sealed_san(&session.game, uci)?;
                    let (_, notation) = self.session_words(&session).await?;
                    Ok(Reply::private(t!(
                        mine,
                        "seal-yours",
                        san = notation.write(&san).into_owned()
                    )))
                }
                (None, true) => refuse_msg(msg!("seal-not-yet")),
                (_, false) => refuse_msg(msg!("seal-hidden")),
            };
        };
        if side != sealer {
            let name = self
                .name_in(&actor.server, session.player_id(sealer), mine)
                .await?;
            return refuse_msg(msg!("seal-not-yours", name = name));
        }
        if open.sealed_uci.is_some() {
            return refuse_msg(msg!("seal-already"));
        }
        let now = self.now_ms();
        if session.record.state.deadline_ms.is_some_and(|d| d <= now) {
            // The sealer's clock ran out before the move was sealed.
            return self.expire_session(&mut session).await;
        }
        let (lang, notation) = self.session_words(&session).await?;
        let mv = session
            .game
            .parse(text)
            .or_else(|e| refuse(e.text_in(mine, notation)))?;
        let mut trial = session.game.clone();
        let san = trial
            .play_move(mv, now)
            .map(|p| p.san.clone())
            .or_else(|e| refuse(e.text_in(mine, notation)))?;
        let uci = session.game.uci(mv);
        let version = match self
            .store()
            .seal_move(
                session.record.id,
                session.record.version,
                open.id,
                &uci,
                now,
            )
            .await
        {
            Ok(version) => version,
            Err(StoreError::Conflict) => return refuse_msg(msg!("game-moved-on")),
            Err(e) => return Err(e.into()),
        };
        session.record.version = version;
        self.game_changed(session.record.id);
        // The thread hears that a move is sealed, not which.
        let name = self
            .name_in(&actor.server, session.player_id(sealer), lang)
            .await?;
        let settings = self.settings_of(&session).await?;
        let when = match open.resume_ms {
            Some(at) => t!(
                lang,
                "adjourn-resumes-at",
                time = local_minute(at, settings.utc_offset_minutes)
            ),
            None => t!(lang, "adjourn-resume-unset"),
        };
        let sealed = t!(lang, "seal-announced", name = name);
        self.inner.outbox.post(Notice {
            channel: session.record.game.channel_id.clone(),
            dm_user: None,
            reply: Reply::text(join_sentences(lang, [sealed.as_str(), &when])),
        });
        Ok(Reply::private(t!(
            mine,
            "seal-done",
            san = notation.write(&san).into_owned()
        )))
    }

    /// A move from the live board of game `game_id` (shown at `ply`
    /// plies) by the player who seals its adjournment: sealed as `/seal`
    /// would. `None` if the game is not waiting for this player's seal.
    pub(super) async fn seal_from_board(
        &self,
        actor: &Actor,
        game_id: i64,
        ply: usize,
        text: &str,
    ) -> Result<Option<Reply>, ServiceError> {
        let Some(record) = self.store().game(game_id).await? else {
            return Ok(None);
        };
        let session = self.load(record).await?;
        let waiting = session.open_adjournment().is_some_and(|a| {
            a.sealed_uci.is_none() && session.side_of(&actor.user) == Some(color_of(&a.sealer))
        });
        if !waiting {
            return Ok(None);
        }
        if session.game.plies().len() != ply {
            return refuse_msg(msg!("game-moved-on"));
        }
        Ok(Some(Box::pin(self.seal(actor, Some(text))).await?))
    }

    /// `/adjourn resume when:…`: sets when play resumes.
    async fn set_resumption(
        &self,
        actor: &Actor,
        session: &Session,
        when: &str,
    ) -> Result<Reply, ServiceError> {
        check_length("when", when, 40)?;
        let Some(open) = session.open_adjournment() else {
            return refuse_msg(msg!("seal-not-adjourned"));
        };
        let settings = self.settings_of(session).await?;
        let offset = settings.utc_offset_minutes;
        let Ok(at) = parse_local_time(when, offset) else {
            return refuse_msg(msg!(
                "adjourn-when-unreadable",
                value = super::error::echo(when, 40),
                zone = crate::clock::offset_text(offset)
            ));
        };
        let now = self.now_ms();
        if at <= now {
            return refuse_msg(msg!(
                "adjourn-when-past",
                time = local_minute(at, offset),
                now = local_minute(now, offset)
            ));
        }
        let id = session.record.id;
        // A player proposes; the opponent agrees by giving the same time. A
        // moderator (who may also play) sets it.
        if !actor.is_moderator {
            let side = session.side_of_actor(actor)?;
            let agreed = open.proposed_by.as_deref() == Some(color_id(!side))
                && open.proposed_ms == Some(at);
            if !agreed {
                return self
                    .propose_resumption(actor, session, side, at, offset)
                    .await;
            }
        }
        match self
            .store()
            .set_resumption(id, session.record.version, open.id, at)
            .await
        {
            Ok(_) => {}
            Err(StoreError::Conflict) => return refuse_msg(msg!("game-moved-on")),
            Err(e) => return Err(e.into()),
        }
        self.game_changed(id);
        self.store()
            .record_audit(&AuditEntry {
                server_id: actor.server.clone(),
                actor_id: actor.user.clone(),
                actor_name: super::display_name(&actor.name),
                action: "adjourn-resume".to_owned(),
                subject: format!("#{id}"),
                old_value: open.resume_ms.map(|t| local_minute(t, offset)),
                new_value: Some(local_minute(at, offset)),
                at_ms: now,
            })
            .await?;
        let (lang, _) = self.session_words(session).await?;
        Ok(Reply {
            text: t!(
                lang,
                "adjourn-resume-set",
                game = id,
                time = local_minute(at, offset)
            ),
            mentions: vec![
                session.record.game.white_id.clone(),
                session.record.game.black_id.clone(),
            ],
            ..Reply::default()
        })
    }

    /// Records a player's proposed resumption time and asks the opponent.
    async fn propose_resumption(
        &self,
        actor: &Actor,
        session: &Session,
        side: Color,
        at: i64,
        offset: i64,
    ) -> Result<Reply, ServiceError> {
        let Some(open) = session.open_adjournment() else {
            return refuse_msg(msg!("seal-not-adjourned"));
        };
        let id = session.record.id;
        if open.proposed_by.as_deref() == Some(color_id(side)) && open.proposed_ms == Some(at) {
            return refuse_msg(msg!("adjourn-resume-proposed-already"));
        }
        match self
            .store()
            .propose_resumption(id, session.record.version, open.id, color_id(side), at)
            .await
        {
            Ok(_) => {}
            Err(StoreError::Conflict) => return refuse_msg(msg!("game-moved-on")),
            Err(e) => return Err(e.into()),
        }
        self.game_changed(id);
        let (lang, _) = self.session_words(session).await?;
        let opponent = session.player_id(!side).to_owned();
        Ok(Reply {
            text: t!(
                lang,
                "adjourn-resume-proposed",
                name = super::display_name(&actor.name),
                time = local_minute(at, offset),
                opponent = self.name_in(&actor.server, &opponent, lang).await?,
                when = crate::clock::local_time_input(at, offset)
            ),
            mentions: vec![opponent],
            ..Reply::default()
        })
    }

    /// When the current session of a live game ends: `session_hours` after
    /// its first move or its last resumption. `None` for other games.
    pub(super) async fn session_end(
        &self,
        session: &Session,
        game: &Game,
    ) -> Result<Option<i64>, ServiceError> {
        if !matches!(
            session.record.game.time_control.parse(),
            Ok(TimeControl::Live(_))
        ) {
            return Ok(None);
        }
        let ids = [&session.record.game.white_id, &session.record.game.black_id];
        if ids
            .iter()
            .any(|id| crate::engine::Level::of_player(id).is_some())
        {
            return Ok(None);
        }
        let start = match session.last_resumed().and_then(|a| a.resumed_ms) {
            Some(resumed) => resumed,
            None => match game.plies().first() {
                Some(first) => first.at_ms,
                None => return Ok(None),
            },
        };
        let hours = self.settings_of(session).await?.session_hours;
        Ok(Some(start + hours * HOUR_MS))
    }

    /// When the player to move after a resumption loses for not having
    /// appeared, if they have not moved since.
    pub(super) fn late_at(session: &Session, game: &Game) -> Option<i64> {
        let last = session.last_resumed()?;
        let resumed = last.resumed_ms?;
        (session.open_adjournment().is_none() && game.plies().len() as i64 == last.ply + 1)
            .then_some(resumed + LATE_MS)
    }

    /// When the side to move of a live game flags by its clock (with the
    /// turn's extra time), if its clock runs.
    pub(super) fn clock_flag(session: &Session, game: &Game) -> Option<i64> {
        let Ok(TimeControl::Live(live)) = session.record.game.time_control.parse() else {
            return None;
        };
        let times: Vec<i64> = game.plies().iter().map(|p| p.at_ms).collect();
        clocks_paused(&live, &times, &session.pauses())
            .flag_time()
            .map(|f| f + session.record.state.bonus_ms)
    }

    /// A live game's deadline given its flag time: no later than the
    /// lateness limit after a resumption and, while the session has not
    /// ended, its end (then the game may be adjourned).
    pub(super) async fn live_deadline(
        &self,
        session: &Session,
        game: &Game,
        flag_ms: i64,
    ) -> Result<i64, ServiceError> {
        let mut deadline = flag_ms;
        if let Some(late) = Self::late_at(session, game) {
            deadline = deadline.min(late);
        }
        if session.open_adjournment().is_none()
            && let Some(end) = self.session_end(session, game).await?
            && end > self.now_ms()
        {
            deadline = deadline.min(end);
        }
        Ok(deadline)
    }

    /// Whether the session's game is over its session and may be
    /// adjourned: the session's time is up, both sides have made the moves
    /// their control requires, and the game goes on.
    async fn session_over(&self, session: &Session, game: &Game) -> Result<bool, ServiceError> {
        if game.is_over() || session.open_adjournment().is_some() {
            return Ok(false);
        }
        let Ok(TimeControl::Live(live)) = session.record.game.time_control.parse() else {
            return Ok(false);
        };
        let Some(end) = self.session_end(session, game).await? else {
            return Ok(false);
        };
        if self.now_ms() < end {
            return Ok(false);
        }
        let times: Vec<i64> = game.plies().iter().map(|p| p.at_ms).collect();
        let state = clocks_paused(&live, &times, &session.pauses());
        Ok(controls_met(&live, &state))
    }

    /// After a committed move: adjourns the game if its session is over,
    /// and posts the announcement in its channel. A failure is logged, not
    /// the move's: the move stands.
    pub(super) fn adjourn_if_session_over<'a>(
        &'a self,
        session: &'a mut Session,
        game: &'a Game,
    ) -> Boxed<'a, ()> {
        // Boxed here (see `adjournment_command`): the move path's future
        // does not grow by the adjournment's.
        Box::pin(self.adjourn_if_session_over_now(session, game))
    }

    async fn adjourn_if_session_over_now(&self, session: &mut Session, game: &Game) {
        let result = async {
            if self.session_over(session, game).await? {
                let reply = self.adjourn_game(session, "session").await?;
                self.inner.outbox.post(Notice {
                    channel: session.record.game.channel_id.clone(),
                    dm_user: None,
                    reply,
                });
            }
            Ok::<(), ServiceError>(())
        }
        .await;
        if let Err(e) = result
            && !matches!(e, ServiceError::User(_))
        {
            tracing::error!(game = session.record.id, error = %e, "session end");
        }
    }

    /// A due deadline of a live game that is its session's end, not a flag
    /// or lateness: adjourns it if it may be, else moves the deadline on to
    /// the flag. `Ok(None)` if the deadline is a flag or lateness (the
    /// caller ends the game).
    pub(super) fn session_end_instead<'a>(
        &'a self,
        session: &'a mut Session,
    ) -> Boxed<'a, Result<Option<Option<Reply>>, ServiceError>> {
        // Boxed here (see `adjournment_command`).
        Box::pin(self.session_end_instead_now(session))
    }

    async fn session_end_instead_now(
        &self,
        session: &mut Session,
    ) -> Result<Option<Option<Reply>>, ServiceError> {
        if !matches!(
            session.record.game.time_control.parse(),
            Ok(TimeControl::Live(_))
        ) {
            return Ok(None);
        }
        let now = self.now_ms();
        let game = session.game.clone();
        let flag = Self::clock_flag(session, &game);
        let late = Self::late_at(session, &game);
        let flag_due = flag.is_none_or(|f| f <= now) || late.is_some_and(|l| l <= now);
        if flag_due || session.open_adjournment().is_some() {
            return Ok(None);
        }
        if self.session_over(session, &game).await? {
            return Ok(Some(Some(self.adjourn_game(session, "session").await?)));
        }
        // Not yet: the session's end is checked again after each move.
        let deadline = self
            .deadline_for(session, &game, session.record.state.bonus_ms)
            .await?;
        let reminder = self
            .next_reminder_for(session, &game, deadline, now)
            .await?;
        let r = &session.record;
        match self
            .store()
            .set_deadline(r.id, r.version, deadline, r.state.bonus_ms, reminder)
            .await
        {
            Ok(()) | Err(StoreError::Conflict) => Ok(Some(None)),
            Err(e) => Err(e.into()),
        }
    }

    /// Refuses what may not happen while the session's game is adjourned
    /// (`what`: the catalogue message that says so).
    pub(super) fn refuse_while_adjourned(
        session: &Session,
        what: crate::i18n::Msg,
    ) -> Result<(), ServiceError> {
        match session.open_adjournment() {
            Some(_) => refuse_msg(what),
            None => Ok(()),
        }
    }

    /// Plays the sealed moves that are due and sends the reminders of
    /// resumptions (24 h and 1 h before, in the thread and by DM).
    pub(super) async fn adjournment_tick(&self, now: i64) -> Result<Vec<Notice>, ServiceError> {
        let mut notices = Vec::new();
        for game_id in self.store().resumptions_due_by(now, BATCH).await? {
            notices.extend(self.resume(game_id).await?);
        }
        let [first, last] = REMINDER_HOURS;
        for a in self
            .store()
            .resumption_reminders_due(now, first, last, BATCH)
            .await?
        {
            let Some(at) = a.resume_ms else { continue };
            let hours = if at - now <= last * HOUR_MS {
                last
            } else {
                first
            };
            if !self.store().mark_resumption_reminder(a.id, hours).await? {
                continue;
            }
            let Some(record) = self.store().game(a.game_id).await? else {
                continue;
            };
            let session = self.load(record).await?;
            notices.extend(self.resumption_reminders(&session, at).await?);
        }
        Ok(notices)
    }

    /// When the next resumption or resumption reminder is due.
    pub(super) async fn next_resumption_event(&self) -> Option<i64> {
        let [first, last] = REMINDER_HOURS;
        self.store()
            .next_resumption_event(first, last)
            .await
            .ok()
            .flatten()
    }

    async fn resumption_reminders(
        &self,
        session: &Session,
        at: i64,
    ) -> Result<Vec<Notice>, ServiceError> {
        let settings = self.settings_of(session).await?;
        let offset = settings.utc_offset_minutes;
        let (lang, _) = self.session_words(session).await?;
        let id = session.record.id;
        let time = local_minute(at, offset);
        let left = crate::clock::human_left_in(lang, at - self.now_ms());
        let players = [
            session.record.game.white_id.clone(),
            session.record.game.black_id.clone(),
        ];
        let mut notices = vec![Notice {
            channel: session.record.game.channel_id.clone(),
            dm_user: None,
            reply: Reply {
                text: t!(
                    lang,
                    "adjourn-reminder",
                    game = id,
                    time = time.as_str(),
                    left = left.as_str()
                ),
                mentions: players.to_vec(),
                ..Reply::default()
            },
        }];
        for user in players {
            let dm_lang = self
                .player_lang(&session.record.game.server_id, &user)
                .await?;
            notices.push(Notice {
                channel: None,
                dm_user: Some(user),
                reply: Reply::text(t!(
                    dm_lang,
                    "adjourn-reminder-dm",
                    game = id,
                    time = time.as_str(),
                    left = crate::clock::human_left_in(dm_lang, at - self.now_ms())
                )),
            });
        }
        Ok(notices)
    }

    /// The language of a direct message to `user`: their last client
    /// locale, else the server's.
    async fn player_lang(&self, server: &str, user: &str) -> Result<Lang, ServiceError> {
        let row = self.store().player(server, user).await?;
        Ok(match row.and_then(|p| p.locale) {
            Some(locale) => Lang::from_locale(Some(&locale)),
            None => self.server_lang(server).await,
        })
    }

    /// Resumes game `game_id` if its resumption is due: reveals and plays
    /// the sealed move, and the opponent's clock starts.
    async fn resume(&self, game_id: i64) -> Result<Option<Notice>, ServiceError> {
        let _guard = self.lock_game(game_id).await;
        let Some(record) = self.store().game(game_id).await? else {
            return Ok(None);
        };
        if !record.is_active() {
            return Ok(None);
        }
        let mut session = self.load(record).await?;
        let now = self.now_ms();
        let Some(open) = session.open_adjournment().cloned() else {
            return Ok(None);
        };
        let (Some(uci), Some(at)) = (open.sealed_uci.clone(), open.resume_ms) else {
            return Ok(None);
        };
        if at > now {
            return Ok(None);
        }
        let mut game = session.game.clone();
        let mv = shakmaty::uci::UciMove::from_ascii(uci.as_bytes())
            .ok()
            .and_then(|u| u.to_move(game.position()).ok())
            .ok_or_else(|| ServiceError::Internal(format!("game {game_id}: sealed move {uci}")))?;
        game.play_move(mv, now)
            .map_err(|e| ServiceError::Internal(format!("game {game_id}: sealed move: {e}")))?;
        if let Some(last) = session.adjournments.last_mut() {
            last.resumed_ms = Some(now);
        }
        session.resuming = Some(open.id);
        let applied = self.commit(&mut session, &game, true).await?;
        session.resuming = None;
        let mut reply = self.board_reply(&session, &game, applied.ratings).await?;
        let (lang, notation) = self.session_words(&session).await?;
        let echo = super::play::echo_move(&game, notation);
        let mut said = vec![t!(lang, "adjourn-resumed", game = game_id, sealed = echo)];
        if !game.is_over() {
            let to_move = game.turn();
            let name = self
                .name_in(
                    &session.record.game.server_id,
                    session.player_id(to_move),
                    lang,
                )
                .await?;
            said.push(t!(lang, "adjourn-appear-within", name = name));
        }
        said.push(std::mem::take(&mut reply.text));
        reply.text = join_sentences(lang, said.iter().map(String::as_str));
        reply.mentions = vec![
            session.record.game.white_id.clone(),
            session.record.game.black_id.clone(),
        ];
        self.computer_may_act(&session.record, game.turn());
        Ok(Some(Notice {
            channel: session.record.game.channel_id.clone(),
            dm_user: None,
            reply,
        }))
    }

    /// `/title`: a moderator gives a member a FIDE title (or takes it).
    pub(super) async fn title(
        &self,
        actor: &Actor,
        user: &UserRef,
        title: &str,
    ) -> Result<Reply, ServiceError> {
        if !actor.is_moderator {
            return refuse_msg(msg!("title-moderators-only"));
        }
        let Some(title) = parse_title(title) else {
            return refuse_msg(msg!("title-unknown", value = super::error::echo(title, 20)));
        };
        if crate::engine::Level::of_player(&user.id).is_some() {
            return refuse_msg(msg!("title-not-computer"));
        }
        let old = self
            .store()
            .player(&actor.server, &user.id)
            .await?
            .and_then(|p| p.title);
        self.store()
            .touch_player(&actor.server, &user.id, &super::display_name(&user.name))
            .await?;
        self.store()
            .set_title(&actor.server, &user.id, title)
            .await?;
        self.store()
            .record_audit(&AuditEntry {
                server_id: actor.server.clone(),
                actor_id: actor.user.clone(),
                actor_name: super::display_name(&actor.name),
                action: "title".to_owned(),
                subject: super::display_name(&user.name),
                old_value: old,
                new_value: title.map(str::to_owned),
                at_ms: self.now_ms(),
            })
            .await?;
        self.club_changed(Some(&actor.server));
        let lang = self.server_lang(&actor.server).await;
        let name = super::display_name(&user.name);
        Ok(Reply::text(match title {
            Some(code) => t!(
                lang,
                "title-given",
                name = name,
                title = code,
                words = title_words(lang, code)
            ),
            None => t!(lang, "title-removed", name = name),
        }))
    }
}

/// While `game` is adjourned: the sealer, and the sealed move's SAN once
/// sealed (for the sealer's own live board only).
pub(super) fn sealing(session: &Session, game: &Game) -> Option<(Color, Option<String>)> {
    let open = session.open_adjournment()?;
    let san = open
        .sealed_uci
        .as_deref()
        .and_then(|uci| sealed_san(game, uci).ok());
    Some((color_of(&open.sealer), san))
}

/// A title's name in `lang` (特级大师 for GM).
pub fn title_words(lang: Lang, code: &str) -> String {
    match code {
        "GM" => t!(lang, "title-gm"),
        "IM" => t!(lang, "title-im"),
        "FM" => t!(lang, "title-fm"),
        "WGM" => t!(lang, "title-wgm"),
        _ => t!(lang, "title-wim"),
    }
}

/// The SAN of the stored sealed move `uci` in `game`'s position.
fn sealed_san(game: &Game, uci: &str) -> Result<String, ServiceError> {
    let mv = shakmaty::uci::UciMove::from_ascii(uci.as_bytes())
        .ok()
        .and_then(|u| u.to_move(game.position()).ok())
        .ok_or_else(|| ServiceError::Internal(format!("sealed move {uci}")))?;
    Ok(shakmaty::san::SanPlus::from_move(game.position().clone(), mv).to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn titles_read_in_both_languages() {
        assert_eq!(parse_title("GM"), Some(Some("GM")));
        assert_eq!(parse_title(" wgm "), Some(Some("WGM")));
        assert_eq!(parse_title("特级大师"), Some(Some("GM")));
        assert_eq!(parse_title("女子国际大师"), Some(Some("WIM")));
        assert_eq!(parse_title("棋联大师"), Some(Some("FM")));
        assert_eq!(parse_title("none"), Some(None));
        assert_eq!(parse_title("CM"), None);
        assert_eq!(parse_title(""), None);
        for code in TITLES {
            assert_eq!(parse_title(code), Some(Some(code)));
            assert!(!title_words(Lang::ZhCn, code).is_empty());
        }
        assert_eq!(title_words(Lang::ZhCn, "GM"), "特级大师");
    }
}
