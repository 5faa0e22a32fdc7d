//! The platform-neutral bot: [`Service::handle`] takes a [`Command`] from an
//! [`Actor`] and answers a [`Reply`]. It owns the behaviour (per-channel game
//! sessions, challenges, moves, draws, resignations, ratings, ladders) and
//! speaks only in domain types; adapters (Discord, console) stay thin.
//!
//! Every change is committed by the store before its reply is built, so an
//! acknowledged action is never lost; a game's actions are serialised by a
//! per-game lock in this process and by the game's version in the database
//! across processes.

mod adjourn;
mod analyze;
mod analyze_pasted;
mod audit;
pub mod buttons;
mod challenges;
pub mod command;
pub mod computer;
mod conditional;
mod daily;
mod engine_text;
pub mod error;
mod help;
mod known;
mod ladder;
pub mod lang;
mod limits;
pub mod links;
pub mod live;
mod mining;
mod orientation;
mod outbox;
mod own_puzzles;
pub mod pages;
mod play;
mod privacy;
mod puzzles;
mod rematch;
mod replay;
pub mod reply;
mod review;
mod session;
mod settings;
mod show;
pub(crate) mod start;
mod takeback;
mod time;
pub mod timing;
mod tournament;
mod variant_board;
mod view;

use std::sync::Arc;

pub use analyze_pasted::MAX_PASTED_PLIES;
pub use command::*;
pub use error::{ServiceError, UserError};
pub use live::{Allowed, BoardAction, LiveClock, LiveEnd, LiveVariant, LiveView, POCKET_ROLES};
pub use reply::*;
pub use show::MAX_SHOW_PGN_BYTES;

use crate::{clock::Clock, metrics::Outcome, render::Renderer, store::Store};

/// The bot, shared by every adapter task (cheap to clone).
#[derive(Clone)]
pub struct Service {
    inner: Arc<Inner>,
}

struct Inner {
    store: Store,
    renderer: Arc<Renderer>,
    clock: Arc<dyn Clock>,
    sessions: session::Sessions,
    timings: timing::StageTimings,
    known_players: known::KnownPlayers,
    gate: limits::Gate,
    engine: computer::EngineState,
    outbox: outbox::Outbox,
    server_locales: lang::KnownServerLocales,
    conditional_retry: conditional::Retry,
    hub: live::Hub,
    /// Draws by lot (a tournament's first colour, a knockout game's
    /// colours): from entropy, or a seed for reproducible transcripts.
    lots: std::sync::Mutex<rand::rngs::StdRng>,
}

impl Service {
    pub fn new(store: Store, renderer: Arc<Renderer>, clock: Arc<dyn Clock>) -> Service {
        Service {
            inner: Arc::new(Inner {
                store,
                renderer,
                clock,
                sessions: session::Sessions::default(),
                timings: timing::StageTimings::default(),
                known_players: known::KnownPlayers::default(),
                // No limits until the operator's are set (`with_limits`):
                // tests, the console and benchmarks run the bare path.
                gate: limits::Gate::new(crate::limits::Limits::off()),
                engine: computer::EngineState::default(),
                outbox: outbox::Outbox::default(),
                server_locales: lang::KnownServerLocales::default(),
                conditional_retry: conditional::Retry::default(),
                hub: live::Hub::default(),
                lots: std::sync::Mutex::new(rand::SeedableRng::from_entropy()),
            }),
        }
    }

    /// Makes every draw by lot from now on follow `seed` (the console's
    /// transcripts, tests).
    pub fn seed_lots(&self, seed: u64) {
        *self.inner.lots.lock().unwrap_or_else(|e| e.into_inner()) =
            rand::SeedableRng::seed_from_u64(seed);
    }

    /// A draw by lot: heads or tails.
    /// A number below `n` drawn by lot (a Chess960 round's start), from the
    /// same seeded source as [`Service::draw_lot`].
    pub(crate) fn draw_number(&self, n: u16) -> u16 {
        rand::Rng::gen_range(
            &mut *self.inner.lots.lock().unwrap_or_else(|e| e.into_inner()),
            0..n,
        )
    }

    pub(crate) fn draw_lot(&self) -> bool {
        rand::Rng::gen_bool(
            &mut *self.inner.lots.lock().unwrap_or_else(|e| e.into_inner()),
            0.5,
        )
    }

    pub fn store(&self) -> &Store {
        &self.inner.store
    }

    pub fn now_ms(&self) -> i64 {
        self.inner.clock.now_ms()
    }

    /// Time spent so far in the stages of the move path (for `chessbot bench`).
    pub fn stage_timings(&self) -> timing::StageSnapshot {
        self.inner.timings.snapshot()
    }

    /// Runs a command. Errors become replies: the user's own mistakes as a
    /// private message saying what was wrong, anything else as an apology
    /// (logged here, once, with its context).
    pub async fn handle(&self, actor: &Actor, command: Command) -> Reply {
        let summary = command_name(&command);
        let started = std::time::Instant::now();
        if let Some(slow_down) = self.rate_limit(actor, &command) {
            crate::metrics::command_handled(summary, Outcome::Limited, started.elapsed());
            return slow_down;
        }
        // On the heap: the future of every command is as large as the
        // largest (tens of kilobytes in debug builds), and a caller that
        // awaits several in one task (a test, a script) would carry it on
        // its stack. One allocation per command.
        let (reply, outcome) = match Box::pin(self.execute(actor, command)).await {
            Ok(reply) => (reply, Outcome::Ok),
            Err(ServiceError::User(e)) => {
                (Reply::private(e.0.text(actor.lang())), Outcome::Refused)
            }
            Err(e) => {
                tracing::error!(command = summary, server = %actor.server, channel = %actor.channel, user = %actor.user, error = %e, "command failed");
                let apology = Reply::private(crate::t!(actor.lang(), "error-apology"));
                (apology, Outcome::Error)
            }
        };
        crate::metrics::command_handled(summary, outcome, started.elapsed());
        without_computer_mentions(reply)
    }

    /// The help text, which needs no server (adapters answer `/help` in a
    /// direct message with it).
    pub fn help_reply(&self, lang: crate::i18n::Lang) -> Reply {
        help::help(lang)
    }

    /// Runs a command, returning errors as they are.
    pub async fn execute(&self, actor: &Actor, command: Command) -> Result<Reply, ServiceError> {
        // Privacy commands must not record the asker: `/privacy forget`
        // by someone with no data has to leave no trace.
        match command {
            Command::PrivacyShow => return self.privacy_show(actor).await,
            Command::PrivacyForget { confirmed } => {
                return self.privacy_forget(actor, confirmed).await
            }
            // A picture of someone's text: it records nobody (only the
            // server's Discord locale, to answer in the server's language).
            Command::Show { fen, pgn } => {
                self.note_server_locale(actor).await?;
                return self.show(actor, fen, pgn).await;
            }
            _ => {}
        }
        self.touch_actor(
            &actor.server,
            &actor.user,
            &display_name(&actor.name),
            actor.locale.as_deref(),
        )
        .await?;
        self.note_server_locale(actor).await?;
        match command {
            Command::Challenge {
                opponent,
                color,
                rated,
                time,
                fen,
                variant,
                position,
            } => {
                let options = ChallengeOptions {
                    rated,
                    time,
                    fen,
                    variant,
                    position,
                };
                self.challenge(actor, opponent, color, options).await
            }
            Command::Accept { challenge } => self.accept(actor, challenge).await,
            Command::Decline { challenge } => self.decline(actor, challenge).await,
            Command::Cancel { challenge } => self.cancel(actor, challenge).await,
            Command::Move { text, claim_draw } => self.play_move(actor, &text, claim_draw).await,
            Command::BoardMove { game, ply, text } => {
                self.play_board_move(actor, game, ply, &text).await
            }
            Command::BoardAction { game, ply, action } => {
                self.board_action(actor, game, ply, action).await
            }
            Command::Board => self.board(actor).await,
            Command::Resign { confirmed } => self.resign(actor, confirmed, None).await,
            Command::Draw { action } => self.draw(actor, action, None).await,
            Command::Abort => self.abort(actor).await,
            Command::Games => self.games(actor).await,
            Command::Leaderboard { page, variant } => {
                self.leaderboard(actor, page, variant.as_deref()).await
            }
            // Boxed: the puzzle futures are large, and every command's
            // future is as large as the largest arm.
            Command::PuzzleLeaderboard { page } => {
                Box::pin(self.puzzle_leaderboard(actor, page)).await
            }
            Command::Puzzle => Box::pin(self.puzzle(actor)).await,
            Command::DailyPuzzle => Box::pin(self.daily_start(actor, None)).await,
            Command::MistakePuzzle => Box::pin(self.mistake_puzzle(actor)).await,
            Command::Profile { user } => self.profile(actor, user).await,
            Command::History { user } => self.history(actor, user).await,
            Command::Pgn { game } => self.pgn(actor, game).await,
            Command::RatingPreview { opponent } => self.rating_preview(actor, &opponent).await,
            Command::Settings { changes } => self.settings(actor, changes).await,
            Command::SettingsLog { page } => self.settings_log(actor, page).await,
            // Answered above, before the asker is recorded.
            Command::PrivacyShow => self.privacy_show(actor).await,
            Command::PrivacyForget { confirmed } => self.privacy_forget(actor, confirmed).await,
            Command::Vacation { days } => self.vacation(actor, days).await,
            Command::Play {
                level,
                color,
                time,
                variant,
                position,
            } => {
                let options = ChallengeOptions {
                    time,
                    variant,
                    position,
                    ..ChallengeOptions::default()
                };
                self.play_computer(actor, level, color, options).await
            }
            Command::Analyze { game, pgn } => self.analyze(actor, game, pgn).await,
            Command::Takeback { action } => self.takeback(actor, action, None).await,
            Command::Replay { game } => self.replay_gif(actor, game).await,
            Command::Show { fen, pgn } => self.show(actor, fen, pgn).await,
            Command::BoardOrientation { white } => self.board_orientation(actor, white).await,
            Command::Conditional { action } => self.conditional(actor, action).await,
            Command::Tournament(command) => self.tournament(actor, command).await,
            command @ (Command::Adjourn { .. } | Command::Seal { .. } | Command::Title { .. }) => {
                self.adjournment_command(actor, command, None).await
            }
            Command::Help => Ok(help::help(actor.lang())),
            Command::Button { id } => self.button(actor, &id).await,
        }
    }

    async fn button(&self, actor: &Actor, id: &str) -> Result<Reply, ServiceError> {
        use buttons::{ButtonAction, ChallengeButton, GameButton};
        let Some(action) = ButtonAction::parse(id) else {
            return error::refuse_msg(crate::msg!("button-unknown"));
        };
        match action {
            ButtonAction::Challenge { id, action } => match action {
                ChallengeButton::Accept => self.accept(actor, Some(id)).await,
                ChallengeButton::Decline => self.decline(actor, Some(id)).await,
                ChallengeButton::Cancel => self.cancel(actor, Some(id)).await,
            },
            ButtonAction::Game {
                id,
                action,
                version,
            } => {
                let at = Some((id, version));
                match action {
                    GameButton::Resign => self.resign(actor, false, at).await,
                    GameButton::ResignConfirm => self.resign(actor, true, at).await,
                    GameButton::DrawOffer => self.draw(actor, DrawAction::Offer, at).await,
                    GameButton::DrawAccept => self.draw(actor, DrawAction::Accept, at).await,
                    GameButton::DrawDecline => self.draw(actor, DrawAction::Decline, at).await,
                    GameButton::DrawClaim => self.draw(actor, DrawAction::Claim, at).await,
                    GameButton::GiveTime => self.give_time(actor, id).await,
                    GameButton::Takeback => self.takeback(actor, TakebackAction::Request, at).await,
                    GameButton::TakebackAccept => {
                        self.takeback(actor, TakebackAction::Accept, at).await
                    }
                    GameButton::TakebackDecline => {
                        self.takeback(actor, TakebackAction::Decline, at).await
                    }
                    GameButton::Rematch => self.rematch(actor, id).await,
                    GameButton::Browser => self.browser_link_of(actor, id).await,
                    GameButton::AdjournAccept => {
                        let command = Command::Adjourn {
                            action: AdjournAction::Accept,
                        };
                        self.adjournment_command(actor, command, at).await
                    }
                    GameButton::Seal => {
                        let command = Command::Seal { text: None };
                        self.adjournment_command(actor, command, at).await
                    }
                    GameButton::AdjournDecline => {
                        let command = Command::Adjourn {
                            action: AdjournAction::Decline,
                        };
                        self.adjournment_command(actor, command, at).await
                    }
                }
            }
            ButtonAction::PrivacyForget => self.privacy_forget(actor, true).await,
            ButtonAction::PuzzleHint { id } => Box::pin(self.puzzle_hint(actor, id)).await,
            ButtonAction::DailySolve { day } => Box::pin(self.daily_start(actor, Some(day))).await,
            ButtonAction::TournamentJoin { id } => {
                let tournament = Some(format!("#{id}"));
                self.tournament(actor, TournamentCommand::Join { tournament })
                    .await
            }
            ButtonAction::TournamentCancel { id } => {
                let tournament = Some(format!("#{id}"));
                let cancel = TournamentCommand::Cancel {
                    tournament,
                    confirmed: true,
                };
                self.tournament(actor, cancel).await
            }
        }
    }
}

/// The computer is never notified (its id is no platform user's).
pub(crate) fn without_computer_mentions(mut reply: Reply) -> Reply {
    reply
        .mentions
        .retain(|m| crate::engine::Level::of_player(m).is_none());
    reply
}

/// A display name safe to store and show: no control characters or
/// markdown, at most 32 characters.
pub fn display_name(name: &str) -> String {
    let cleaned = error::echo(name, 32);
    if cleaned.is_empty() {
        "player".to_owned()
    } else {
        cleaned
    }
}

/// The name shown in `lang` for the player `id` whose row holds `stored`
/// (`None`: no row): the computer reads as "Stockfish level 3" in the
/// reader's words, a player erased at their request (`/privacy forget`)
/// as the catalogue's word for one, anyone else without a row as their
/// id. PGN export keeps the stored English names (it is data).
pub(crate) fn shown_name(lang: crate::i18n::Lang, id: &str, stored: Option<&str>) -> String {
    shown_name_in(lang, id, stored, crate::chess::Variant::Standard)
}

/// [`shown_name`] in a game of `variant`: the computer is named by the
/// engine that plays it ("Fairy-Stockfish level 3" in Crazyhouse).
pub(crate) fn shown_name_in(
    lang: crate::i18n::Lang,
    id: &str,
    stored: Option<&str>,
    variant: crate::chess::Variant,
) -> String {
    if let Some(level) = crate::engine::Level::of_player(id) {
        return crate::t!(
            lang,
            "engine-computer-name",
            engine = variant.engine_name(),
            level = level.number()
        );
    }
    match stored {
        Some(name) => name.to_owned(),
        None if id == crate::store::DELETED_PLAYER => crate::t!(lang, "player-deleted"),
        None => id.to_owned(),
    }
}

fn command_name(command: &Command) -> &'static str {
    match command {
        Command::Challenge { .. } => "challenge",
        Command::Accept { .. } => "accept",
        Command::Decline { .. } => "decline",
        Command::Cancel { .. } => "cancel",
        Command::Move { .. } => "move",
        Command::BoardMove { .. } => "board-move",
        Command::BoardAction { .. } => "board-action",
        Command::Board => "board",
        Command::Resign { .. } => "resign",
        Command::Draw { .. } => "draw",
        Command::Takeback { .. } => "takeback",
        Command::Replay { .. } => "replay",
        Command::Show { .. } => "show",
        Command::BoardOrientation { .. } => "board-orientation",
        Command::Conditional { .. } => "conditional",
        Command::Abort => "abort",
        Command::Games => "games",
        Command::Leaderboard { .. } => "leaderboard",
        Command::PuzzleLeaderboard { .. } => "leaderboard-puzzles",
        Command::Puzzle => "puzzle",
        Command::DailyPuzzle => "puzzle-daily",
        Command::MistakePuzzle => "puzzle-mine",
        Command::Profile { .. } => "profile",
        Command::History { .. } => "history",
        Command::Pgn { .. } => "pgn",
        Command::RatingPreview { .. } => "rating-preview",
        Command::Settings { .. } => "settings",
        Command::SettingsLog { .. } => "settings-log",
        Command::PrivacyShow => "privacy-show",
        Command::PrivacyForget { .. } => "privacy-forget",
        Command::Vacation { .. } => "vacation",
        Command::Play { .. } => "play",
        Command::Analyze { .. } => "analyze",
        Command::Tournament(command) => tournament_command_name(command),
        Command::Adjourn { action } => match action {
            AdjournAction::Offer => "adjourn-offer",
            AdjournAction::Accept => "adjourn-accept",
            AdjournAction::Decline => "adjourn-decline",
            AdjournAction::Now => "adjourn-now",
            AdjournAction::Resume { .. } => "adjourn-resume",
        },
        Command::Seal { .. } => "seal",
        Command::Title { .. } => "title",
        Command::Help => "help",
        Command::Button { .. } => "button",
    }
}

fn tournament_command_name(command: &TournamentCommand) -> &'static str {
    use TournamentCommand as T;
    match command {
        T::Create(_) => "tournament-create",
        T::Join { .. } => "tournament-join",
        T::Leave { .. } => "tournament-leave",
        T::Withdraw { .. } => "tournament-withdraw",
        T::Start { .. } => "tournament-start",
        T::List => "tournament-list",
        T::Info { .. } => "tournament-info",
        T::Pairings { .. } => "tournament-pairings",
        T::Standings { .. } => "tournament-standings",
        T::Export { .. } => "tournament-export",
        T::Result { .. } => "tournament-result",
        T::Pause { .. } => "tournament-pause",
        T::Resume { .. } => "tournament-resume",
        T::Cancel { .. } => "tournament-cancel",
        T::Remove { .. } => "tournament-remove",
    }
}
