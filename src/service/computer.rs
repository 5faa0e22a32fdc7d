//! Playing the computer: `/play level:1..8` (or a challenge to the
//! computer) starts an unrated game against Stockfish at that level, and
//! the computer's turns are taken in the background.
//!
//! The computer's moves go through the same path as a person's
//! ([`Service::play_move`] with the computer as the actor: validated,
//! committed with a version check, rendered), so clocks, claims,
//! resignations and restarts treat both sides alike. A move is posted as a
//! notice in the game's channel. A turn owed by the computer is looked for
//! again at every tick (after an engine failure) and at start-up (after a
//! restart), so none is lost.
//!
//! The computer also answers draw offers by its evaluation, claims the
//! draws it is owed when it is not better, and resigns lost positions from
//! the configured level up.

use std::{
    collections::{HashMap, HashSet},
    sync::{Arc, Mutex, OnceLock},
};

use rand::Rng;
use shakmaty::Color;

use super::{
    error::{check_length, refuse_msg, ServiceError},
    Actor, ColorChoice, DrawAction, Notice, OpenThread, Reply, Service,
};
use crate::{
    chess::Variant,
    engine::{Engine, Level},
    i18n::join_sentences,
    store::{NewChallenge, NewGame, StoreError},
    t,
};

/// The computer accepts a draw when it is at least this much worse
/// (centipawns, its own view).
const ACCEPT_DRAW_WHEN_WORSE_CP: i32 = -150;
/// …or when the game is long and level (|eval| within this, after
/// [`LONG_GAME_PLIES`]).
const ACCEPT_DRAW_LEVEL_CP: i32 = 30;
const LONG_GAME_PLIES: usize = 80;
/// It resigns at this evaluation or worse (a mate against it counts).
const RESIGN_CP: i32 = -1000;
/// …but never in the first moves.
const RESIGN_AFTER_PLIES: usize = 20;

/// The service's engine state: the engine (if any), and the background
/// work in flight.
#[derive(Default)]
pub(super) struct EngineState {
    engine: OnceLock<Arc<Engine>>,
    /// Fairy-Stockfish, for lichess's variants other than Chess960.
    fairy: OnceLock<Arc<Engine>>,
    /// Games whose computer side is thinking now.
    thinking: Mutex<HashSet<i64>>,
    /// Games where the computer may owe a turn (looked at again each tick).
    owed: Mutex<HashSet<i64>>,
    /// Analyses running or waiting in this process, by game, with their server.
    pub(super) analysing: Mutex<HashMap<i64, String>>,
    /// Each server's share of analysis slots.
    pub(super) server_slots: Mutex<HashMap<String, Arc<tokio::sync::Semaphore>>>,
    /// Pasted games analysed so far (their keys in `analysing` count down
    /// from -1).
    pub(super) pasted: std::sync::atomic::AtomicI64,
    /// Whether this process is mining games for puzzles now (`mining.rs`).
    pub(super) mining: std::sync::atomic::AtomicBool,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Service {
    /// Gives the bot its engine (once; later calls are ignored and return
    /// `false`). Without one, engine commands say that none is installed.
    pub fn attach_engine(&self, engine: Arc<Engine>) -> bool {
        self.inner.engine.engine.set(engine).is_ok()
    }

    /// The engine, if the bot has one.
    pub fn engine(&self) -> Option<Arc<Engine>> {
        self.inner.engine.engine.get().cloned()
    }

    /// Gives the bot Fairy-Stockfish, which plays and analyses lichess's
    /// variants (once, as [`Service::attach_engine`]).
    pub fn attach_fairy_engine(&self, engine: Arc<Engine>) -> bool {
        self.inner.engine.fairy.set(engine).is_ok()
    }

    /// Whether the bot has an engine of either kind (the computer's turns
    /// and analyses are looked for only then).
    pub(super) fn has_any_engine(&self) -> bool {
        self.engine().is_some() || self.inner.engine.fairy.get().is_some()
    }

    /// The engine that plays `variant`: Stockfish for standard chess and
    /// Chess960, Fairy-Stockfish for the others.
    pub fn engine_for(&self, variant: Variant) -> Option<Arc<Engine>> {
        if variant.stockfish_plays() {
            self.engine()
        } else {
            self.inner.engine.fairy.get().cloned()
        }
    }

    /// [`Service::engine_for`], or the refusal: no engine, or (for a
    /// variant only Fairy-Stockfish plays) that it needs Fairy-Stockfish.
    pub(super) fn require_engine_for(&self, variant: Variant) -> Result<Arc<Engine>, ServiceError> {
        match self.engine_for(variant) {
            Some(engine) => Ok(engine),
            None if variant.stockfish_plays() => refuse_msg(super::engine_text::no_engine()),
            None => refuse_msg(super::engine_text::needs_fairy(variant.key())),
        }
    }

    pub(super) fn engine_state(&self) -> &EngineState {
        &self.inner.engine
    }

    /// The engine, or the refusal every engine command gives without one.
    pub(super) fn require_engine(&self) -> Result<Arc<Engine>, ServiceError> {
        match self.engine() {
            Some(engine) => Ok(engine),
            None => refuse_msg(super::engine_text::no_engine()),
        }
    }

    /// `/play level:N [color] [time]`: a game against the computer in this
    /// channel, unrated.
    pub(super) async fn play_computer(
        &self,
        actor: &Actor,
        level: i64,
        color: ColorChoice,
        options: super::ChallengeOptions,
    ) -> Result<Reply, ServiceError> {
        let Some(level) = Level::new(level) else {
            return refuse_msg(super::engine_text::bad_level(level));
        };
        let time = options.time;
        // The computer plays standard chess and Chess960 (Stockfish's
        // `UCI_Chess960`), and lichess's other variants with
        // Fairy-Stockfish, from a start checked as a challenge's is.
        let start = super::start::challenge_start(
            options.variant.as_deref(),
            options.position,
            None,
            actor.lang(),
            || self.draw_number(crate::chess::chess960::POSITIONS),
        )?;
        self.require_engine_for(start.variant)?;
        let settings = self.store().server(&actor.server).await?;
        let time = match time {
            Some(text) => {
                check_length("time", &text, 32)?;
                text
            }
            None => settings.default_time_control.clone(),
        };
        let time_control = super::play::parse_time_control(&time, actor.lang())?;
        if self.store().active_game_in(&actor.channel).await?.is_some() {
            return refuse_msg(super::engine_text::channel_busy());
        }
        let computer = level.player_id();
        self.touch_player(&actor.server, &computer, &level.display_name())
            .await?;
        let person_white = match color {
            ColorChoice::White => true,
            ColorChoice::Black => false,
            ColorChoice::Random => rand::thread_rng().gen_bool(0.5),
        };
        let (white, black) = if person_white {
            (actor.user.clone(), computer.clone())
        } else {
            (computer.clone(), actor.user.clone())
        };
        let now = self.now_ms();
        // The game is made the way every game is: a challenge (to the
        // computer, which accepts at once) turned into a game in one
        // transaction, so the channel's one-game rule holds here too.
        let challenge = self
            .store()
            .create_challenge(&NewChallenge {
                server_id: actor.server.clone(),
                channel_id: actor.channel.clone(),
                challenger_id: actor.user.clone(),
                opponent_id: Some(computer.clone()),
                color: if person_white { "white" } else { "black" }.to_owned(),
                rated: false,
                time_control: time_control.canonical.clone(),
                initial_fen: start.fen.clone(),
                variant: start.variant,
                start_number: start.number,
                created_ms: now,
                expires_ms: now + settings.challenge_ttl_ms,
            })
            .await?;
        // With game threads on (the server's setting), the game gets its
        // own thread, as a person's does: no channel here yet.
        let new_game = NewGame {
            server_id: actor.server.clone(),
            home_channel_id: actor.channel.clone(),
            channel_id: (!settings.threads).then(|| actor.channel.clone()),
            white_id: white,
            black_id: black,
            rated: false,
            time_control: time_control.canonical.clone(),
            initial_fen: start.fen.clone(),
            variant: start.variant,
            start_number: start.number,
            deadline_ms: super::time::first_deadline(&time_control.canonical, now),
            created_ms: now,
        };
        let game = match self
            .store()
            .accept_challenge(challenge.id, now, &new_game)
            .await
        {
            Ok(game) => game,
            Err(StoreError::Conflict | StoreError::ChannelBusy) => {
                return refuse_msg(super::engine_text::channel_busy())
            }
            Err(e) => return Err(e.into()),
        };
        let lang = super::lang::settings_lang(&settings);
        let person = super::display_name(&actor.name);
        let computer_name = super::shown_name_in(lang, &computer, None, start.variant);
        let started = super::engine_text::play_started(
            lang,
            &person,
            &computer_name,
            &time_control.control.text(lang),
        );
        if settings.threads {
            // The adapter opens the thread and then asks for the first
            // board there ([`Service::thread_opened`]), which also wakes
            // the computer if it has White.
            let (white, black) = if person_white {
                (&person, &computer_name)
            } else {
                (&computer_name, &person)
            };
            return Ok(Reply {
                text: started,
                open_thread: Some(OpenThread {
                    game_id: game.id,
                    name: t!(lang, "challenge-thread-name", white = white, black = black),
                }),
                ..Reply::default()
            });
        }
        let session = self.load(game).await?;
        let mut reply = self.board_reply(&session, &session.game, None).await?;
        reply.text = join_sentences(lang, [started.as_str(), &reply.text]);
        if !person_white {
            // The computer is to move: that is for the background, and the
            // board above shows the start.
            reply.mentions.clear();
            self.wake_computer(session.record.id);
        }
        Ok(reply)
    }

    /// After a person's action in `game_id`: if the computer plays there
    /// and now has something to do (its turn, or a draw offer to answer),
    /// it starts thinking in the background.
    pub(super) fn computer_may_act(&self, record: &crate::store::GameRecord, turn: Color) {
        let ids = [&record.game.white_id, &record.game.black_id];
        if ids.iter().any(|id| Level::of_player(id).is_some()) {
            let to_move = match turn {
                Color::White => &record.game.white_id,
                Color::Black => &record.game.black_id,
            };
            if Level::of_player(to_move).is_some() || record.state.draw_offer.is_some() {
                self.wake_computer(record.id);
            }
        }
    }

    /// Starts the computer's turn in `game_id` in the background, unless it
    /// is already thinking there (then the game is looked at again at the
    /// next tick).
    pub(super) fn wake_computer(&self, game_id: i64) {
        if !self.has_any_engine() {
            return;
        }
        let state = self.engine_state();
        if !lock(&state.thinking).insert(game_id) {
            lock(&state.owed).insert(game_id);
            return;
        }
        let service = self.clone();
        self.spawn_background(async move {
            let done = service.computer_turn(game_id).await;
            let state = service.engine_state();
            lock(&state.thinking).remove(&game_id);
            if let Err(e) = done {
                tracing::warn!(game_id, error = %e, "the computer's turn failed; trying again at the next tick");
                lock(&state.owed).insert(game_id);
            }
        });
    }

    /// At each tick: the turns the computer may still owe.
    pub(super) fn retry_computer_turns(&self) {
        let owed: Vec<i64> = lock(&self.engine_state().owed).drain().collect();
        for game_id in owed {
            self.wake_computer(game_id);
        }
    }

    /// At start-up: every active game against the computer is looked at,
    /// so a move owed before a restart is made.
    pub(super) async fn resume_computer_games(&self) -> Result<(), ServiceError> {
        if !self.has_any_engine() {
            return Ok(());
        }
        for game_id in self.store().active_computer_games().await? {
            self.wake_computer(game_id);
        }
        Ok(())
    }

    /// One turn of the computer in `game_id`: answer a draw offer, claim a
    /// draw, resign, or move. Does nothing if there is nothing to do.
    async fn computer_turn(&self, game_id: i64) -> Result<(), ServiceError> {
        let Some(record) = self.store().game(game_id).await? else {
            return Ok(());
        };
        let variant = record.game.variant;
        let Some(engine) = self.engine_for(variant) else {
            return Ok(());
        };
        let Some(channel) = record.game.channel_id.clone() else {
            return Ok(());
        };
        if !record.is_active() {
            return Ok(());
        }
        let session = self.load(record).await?;
        let game = &session.game;
        let Some((side, level)) = [Color::White, Color::Black]
            .into_iter()
            .find_map(|c| Level::of_player(session.player_id(c)).map(|l| (c, l)))
        else {
            return Ok(());
        };
        let offered = game.draw_offer() == Some(!side);
        if game.turn() != side && !offered {
            return Ok(());
        }
        let found = engine
            .pool
            .search_variant(
                (!variant.stockfish_plays()).then_some(variant.uci_variant()),
                shakmaty::Position::castles(game.position()).mode(),
                &game.fen(),
                level.skill(),
                &level.limits(),
            )
            .await
            .map_err(|e| ServiceError::Internal(format!("engine: {e}")))?;
        // The engine speaks for the side to move; the computer's own view:
        let mine = found.score.map_or(0, |s| {
            let cp = s.clipped_cp();
            if game.turn() == side {
                cp
            } else {
                -cp
            }
        });
        // What it says (accepting a draw, resigning) is posted in the
        // channel, so its name is in the channel's language.
        let lang = self.server_lang(&session.record.game.server_id).await;
        let actor = Actor {
            server: session.record.game.server_id.clone(),
            channel: channel.clone(),
            user: level.player_id(),
            name: super::shown_name_in(lang, &level.player_id(), None, session.record.game.variant),
            locale: None,
            is_moderator: false,
            server_locale: None,
        };
        let plies = game.plies().len();
        let answer = if offered
            && (mine <= ACCEPT_DRAW_WHEN_WORSE_CP
                || (plies >= LONG_GAME_PLIES && mine.abs() <= ACCEPT_DRAW_LEVEL_CP))
        {
            self.draw(&actor, DrawAction::Accept, None).await
        } else if game.turn() != side {
            // Offered on the person's own turn: said no to now (on its own
            // turn the computer's move declines it).
            self.draw(&actor, DrawAction::Decline, None).await
        } else if game.claimable_draw().is_some() && mine <= 0 {
            self.draw(&actor, DrawAction::Claim, None).await
        } else if engine
            .options
            .resign_from_level
            .is_some_and(|from| level.number() >= from)
            && mine <= RESIGN_CP
            && plies >= RESIGN_AFTER_PLIES
        {
            self.resign(&actor, true, None).await
        } else {
            let Some(best) = found.best else {
                return Ok(());
            };
            // Claim a draw the move itself makes available, when not better.
            let mut after = game.clone();
            let claim = mine <= 0
                && after.play_text(&best, self.now_ms()).is_ok()
                && after.claimable_draw().is_some();
            self.play_move(&actor, &best, claim).await
        };
        match answer {
            Ok(reply) => {
                self.post(Notice {
                    channel: Some(channel),
                    dm_user: None,
                    reply,
                });
                Ok(())
            }
            // The game changed meanwhile (resigned, aborted, timed out):
            // nothing is owed any more.
            Err(ServiceError::User(e)) => {
                tracing::debug!(game_id, reason = %e, "the computer's turn was not needed");
                Ok(())
            }
            Err(e) => Err(e),
        }
    }
}
