//! Conditional moves in correspondence games (issue 19): `/conditional add
//! line:…`, `/conditional list` and `/conditional clear`, and the step
//! after every move that plays a stored answer.
//!
//! A player's tree is stored with the game (`store/conditional.rs`) with the
//! ply count it was written at; the moves played since lead through it
//! (`chess::conditional`), so what it means never depends on this process
//! having seen those moves: a restart, or a crash between a move and its
//! answer, loses nothing (start-up looks at every game with a tree).
//!
//! After a move the game's trees are followed: a tree the move left is
//! removed and its owner told in a direct message; a tree whose owner is
//! now to move and that holds an answer has it played through the normal
//! move path ([`Service::play_move_at`] with the owner as the actor:
//! validated, committed with a version check, drawn, clocks and claims as
//! for any move). The mover's reply then shows both moves and the board
//! after the answer, so the answer is announced in the same message and
//! never arrives before the move it answers. Both players may have trees:
//! an answer can meet the other player's answer in turn.
//!
//! Nothing here is public: `/conditional list` answers only its owner, and
//! the opponent learns of a tree only when one of its moves is played.

use std::{collections::HashSet, sync::Mutex};

use shakmaty::Color;

use super::{
    error::{check_length, refuse, refuse_msg, ServiceError},
    session::Session,
    Actor, ConditionalAction, Notice, Reply, Service,
};
use crate::{
    chess::{
        color_text,
        conditional::{
            read_line, write_line, AddError, Followed, LineError, Tree, MAX_LINE_MOVES,
            MAX_TREE_MOVES,
        },
        Game, Notation,
    },
    clock::TimeControl,
    i18n::{join_sentences, Lang},
    msg,
    store::{ConditionalRecord, StoreError},
    t,
};

/// Longest `line` text read: room for a line of [`MAX_LINE_MOVES`] in any
/// form with move numbers, and for a much longer one to be counted and
/// refused with the limit in words.
const MAX_LINE_CHARS: usize = 2000;

/// Answers played one after another after a single move, at most (both
/// players' trees answering each other; each answer is a move, so trees of
/// bounded size end long before this).
const MAX_CHAIN: usize = 2 * MAX_LINE_MOVES;

/// A move just committed in a game with stored trees (from
/// [`Service::play_move_at`]).
pub(super) struct Moved {
    pub game_id: i64,
    /// The move as the reply's text begins with it: `12. Nf3`.
    pub echo: String,
    /// The rest of the reply's text: the board's words.
    pub board: String,
}

/// Games whose trees could not be looked at after a move (a database
/// error): looked at again at the next tick.
#[derive(Default)]
pub(super) struct Retry(Mutex<HashSet<i64>>);

impl Retry {
    fn add(&self, game_id: i64) {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(game_id);
    }

    fn take(&self) -> Vec<i64> {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .drain()
            .collect()
    }
}

/// Answers played after one move: the words announcing each, and the reply
/// of the last (its board, buttons and mentions).
struct Answered {
    segments: Vec<String>,
    last: Reply,
    board: String,
}

/// Where `stored` stands after the moves played since it was written.
fn current(game: &Game, stored: &ConditionalRecord) -> Followed {
    let plies = game.plies();
    match usize::try_from(stored.base_plies) {
        Ok(base) if base <= plies.len() => {
            Tree::from_text(&stored.lines).follow(plies[base..].iter().map(|p| p.uci.as_str()))
        }
        // Written against moves that are gone (a takeback's trigger removes
        // such rows; this guards a race with it).
        _ => Followed::Off { index: 0 },
    }
}

impl Service {
    pub(super) async fn conditional(
        &self,
        actor: &Actor,
        action: ConditionalAction,
    ) -> Result<Reply, ServiceError> {
        match action {
            ConditionalAction::Add { line } => self.conditional_add(actor, &line).await,
            ConditionalAction::List => self.conditional_list(actor).await,
            ConditionalAction::Clear => self.conditional_clear(actor).await,
        }
    }

    /// The channel's game for a conditional command, its lock and the
    /// asker's side; refused outside correspondence games.
    async fn conditional_game(
        &self,
        actor: &Actor,
    ) -> Result<(tokio::sync::OwnedMutexGuard<()>, Session, Color), ServiceError> {
        let (guard, session) = self.target_game(actor, None).await?;
        let side = session.side_of_actor(actor)?;
        if let Ok(control @ TimeControl::Live(_)) =
            session.record.game.time_control.parse::<TimeControl>()
        {
            let lang = actor.lang();
            return refuse(t!(lang, "conditional-live", time = control.text(lang)));
        }
        Ok((guard, session, side))
    }

    async fn conditional_add(&self, actor: &Actor, text: &str) -> Result<Reply, ServiceError> {
        check_length("line", text, MAX_LINE_CHARS)?;
        let (_guard, session, side) = self.conditional_game(actor).await?;
        let lang = actor.lang();
        let (_, notation) = self.session_words(&session).await?;
        let game = &session.game;
        let line =
            read_line(game, side, text).or_else(|e| refuse(line_error(lang, notation, &e)))?;
        let stored = self
            .store()
            .conditional(session.record.id, &actor.user)
            .await?;
        let mut tree = match stored.as_ref().map(|s| current(game, s)) {
            Some(Followed::At(tree)) => tree,
            _ => Tree::default(),
        };
        let added = tree
            .add(game, side, &line)
            .or_else(|e| refuse(add_error(lang, notation, &e)))?;
        let ucis: Vec<&str> = line.moves.iter().map(|m| m.uci.as_str()).collect();
        let written = write_line(game.position(), &ucis, notation);
        if added == 0 {
            return Ok(Reply::private(t!(
                lang,
                "conditional-already",
                line = written
            )));
        }
        let record = ConditionalRecord {
            game_id: session.record.id,
            user_id: actor.user.clone(),
            base_plies: game.plies().len() as i64,
            lines: tree.to_text(),
            updated_ms: self.now_ms(),
        };
        match self
            .store()
            .put_conditional(session.record.version, &record)
            .await
        {
            Ok(()) => {}
            Err(StoreError::Conflict) => return refuse_msg(msg!("game-moved-on")),
            Err(e) => return Err(e.into()),
        }
        let opponent = self
            .name_in(
                &session.record.game.server_id,
                session.player_id(!side),
                lang,
            )
            .await?;
        let added = t!(
            lang,
            "conditional-added",
            line = written,
            opponent = opponent
        );
        let own_turn = (game.turn() == side).then(|| {
            let first = line.moves.first().map(|m| m.san.as_str()).unwrap_or("");
            t!(
                lang,
                "conditional-added-own-turn",
                first = notation.write(first).into_owned()
            )
        });
        Ok(Reply::private(join_sentences(
            lang,
            std::iter::once(added).chain(own_turn),
        )))
    }

    async fn conditional_list(&self, actor: &Actor) -> Result<Reply, ServiceError> {
        let (_guard, session, side) = self.conditional_game(actor).await?;
        let lang = actor.lang();
        let (_, notation) = self.session_words(&session).await?;
        let stored = self
            .store()
            .conditional(session.record.id, &actor.user)
            .await?;
        let tree = match stored.as_ref().map(|s| current(&session.game, s)) {
            Some(Followed::At(tree)) if !tree.is_empty() => tree,
            _ => return Ok(Reply::private(t!(lang, "conditional-none"))),
        };
        let lines = tree.lines();
        let mut text = vec![t!(
            lang,
            "conditional-list-title",
            id = session.record.id,
            color = color_text(lang, side)
        )];
        for line in &lines {
            text.push(t!(
                lang,
                "conditional-list-line",
                line = write_line(session.game.position(), line, notation)
            ));
        }
        text.push(t!(
            lang,
            "conditional-list-footer",
            lines = lines.len(),
            moves = tree.size()
        ));
        Ok(Reply::private(text.join("\n")))
    }

    async fn conditional_clear(&self, actor: &Actor) -> Result<Reply, ServiceError> {
        let (_guard, session, _) = self.conditional_game(actor).await?;
        let lang = actor.lang();
        if self
            .store()
            .clear_conditional(session.record.id, &actor.user)
            .await?
        {
            Ok(Reply::private(t!(lang, "conditional-cleared")))
        } else {
            refuse(t!(lang, "conditional-nothing-to-clear"))
        }
    }

    /// After `actor`'s move (`reply` answers it): plays the answers the
    /// game's trees hold for it and returns the reply showing the move, the
    /// answers and the board after them. Never fails: if the trees cannot
    /// be looked at now, the move's own reply goes out and the game is
    /// looked at again at the next tick.
    pub(super) async fn after_move(&self, actor: &Actor, reply: Reply, moved: Moved) -> Reply {
        match self.answer_conditionally(moved.game_id).await {
            Ok(None) => reply,
            Ok(Some(answered)) => {
                let mut last = answered.last;
                let mut parts = vec![moved.echo];
                parts.extend(answered.segments);
                parts.push(answered.board);
                last.text = parts.join(" — ");
                // The mover is usually the one to move again: no need to
                // notify them of their own command's answer.
                last.mentions.retain(|m| *m != actor.user);
                last
            }
            Err(e) => {
                tracing::error!(game_id = moved.game_id, error = %e, "conditional moves not looked at; trying again at the next tick");
                self.inner.conditional_retry.add(moved.game_id);
                reply
            }
        }
    }

    /// At start-up: the trees of every game in progress, in case a move was
    /// committed and its answer not played before the bot stopped.
    pub(super) async fn resume_conditional_moves(&self) -> Result<Vec<Notice>, ServiceError> {
        let games = self.store().games_with_conditionals().await?;
        Ok(self.conditional_notices(games).await)
    }

    /// At each tick: the games whose trees could not be looked at.
    pub(super) async fn retry_conditional_moves(&self) -> Vec<Notice> {
        let games = self.inner.conditional_retry.take();
        self.conditional_notices(games).await
    }

    /// Plays what the trees of `games` owe, each answer as a notice in its
    /// game's channel.
    async fn conditional_notices(&self, games: Vec<i64>) -> Vec<Notice> {
        let mut notices = Vec::new();
        for game_id in games {
            match self.answer_conditionally(game_id).await {
                Ok(Some(answered)) => {
                    let Ok(Some(record)) = self.store().game(game_id).await else {
                        continue;
                    };
                    let mut reply = answered.last;
                    let mut parts = answered.segments;
                    parts.push(answered.board);
                    reply.text = parts.join(" — ");
                    notices.push(Notice {
                        channel: record.game.channel_id,
                        dm_user: None,
                        reply,
                    });
                }
                Ok(None) => {}
                Err(e) => {
                    tracing::error!(game_id, error = %e, "conditional moves not looked at; trying again at the next tick");
                    self.inner.conditional_retry.add(game_id);
                }
            }
        }
        notices
    }

    /// Follows the trees of `game_id` to the position now, again after each
    /// answer played, until none has an answer to play.
    async fn answer_conditionally(&self, game_id: i64) -> Result<Option<Answered>, ServiceError> {
        let mut answered: Option<Answered> = None;
        for _ in 0..MAX_CHAIN {
            let Some((segment, reply, moved)) = self.conditional_step(game_id).await? else {
                break;
            };
            let more = moved.is_some();
            let board = moved.map_or_else(|| board_words(&reply.text), |m| m.board);
            let mut segments = answered.map(|a| a.segments).unwrap_or_default();
            segments.push(segment);
            answered = Some(Answered {
                segments,
                last: reply,
                board,
            });
            if !more {
                break;
            }
        }
        Ok(answered)
    }

    /// One look at the trees of `game_id`: removes those the game has left
    /// (telling their owners), and plays the answer of the player to move
    /// if their tree has one. Returns the words announcing the answer, its
    /// reply, and what a further answer needs (`None` when no tree is left
    /// to answer it, or the game is over).
    async fn conditional_step(
        &self,
        game_id: i64,
    ) -> Result<Option<(String, Reply, Option<Moved>)>, ServiceError> {
        let trees = self.store().conditionals_of_game(game_id).await?;
        if trees.is_empty() {
            return Ok(None);
        }
        let Some(record) = self.store().game(game_id).await? else {
            return Ok(None);
        };
        let Some(channel) = record.game.channel_id.clone() else {
            return Ok(None);
        };
        if !record.is_active() {
            return Ok(None);
        }
        let session = self.load(record).await?;
        let game = &session.game;
        let plies = game.plies().len();
        let mut answer: Option<(String, String)> = None;
        for stored in &trees {
            let Some(owner) = session.side_of(&stored.user_id) else {
                continue;
            };
            match current(game, stored) {
                Followed::Off { index } => {
                    if self.store().drop_conditional(stored).await? {
                        let at = usize::try_from(stored.base_plies).unwrap_or(0) + index;
                        self.tell_tree_missed(&session, owner, at).await?;
                    }
                }
                Followed::At(tree) if tree.is_empty() => {
                    // Used up: its last answer has been played. It can
                    // answer nothing more, so it is removed after the
                    // reply rather than before (a write less to wait for).
                    let service = self.clone();
                    let seen = stored.clone();
                    self.spawn_background(async move {
                        if let Err(e) = service.store().drop_conditional(&seen).await {
                            tracing::warn!(game_id = seen.game_id, error = %e, "a used-up conditional tree stays until the game ends");
                        }
                    });
                }
                Followed::At(tree) => {
                    // Only an answer to a move made since the tree was
                    // written: a line entered on one's own turn starts with
                    // the owner's own pending move, which they play.
                    let answers_a_move =
                        usize::try_from(stored.base_plies).is_ok_and(|base| plies > base);
                    if game.turn() == owner
                        && answers_a_move
                        && let Some(uci) = tree.answer()
                    {
                        answer = Some((stored.user_id.clone(), uci.to_owned()));
                    }
                }
            }
        }
        let Some((owner, uci)) = answer else {
            return Ok(None);
        };
        let server = session.record.game.server_id.clone();
        let player = self.store().player(&server, &owner).await?;
        let name = player
            .as_ref()
            .map_or_else(|| owner.clone(), |p| p.display_name.clone());
        let actor = Actor {
            server: server.clone(),
            channel,
            user: owner,
            name: name.clone(),
            locale: player.and_then(|p| p.locale),
            server_locale: None,
            is_moderator: false,
        };
        match self.play_move_at(&actor, &uci, false, Some(plies)).await {
            Ok((reply, moved)) => {
                let lang = self.server_lang(&server).await;
                let echo = match &moved {
                    Some(m) => m.echo.clone(),
                    None => move_words(&reply.text),
                };
                let segment = t!(lang, "conditional-played", name = name, answer = echo);
                Ok(Some((segment, reply, moved)))
            }
            // The game changed meanwhile (a move, a resignation, a timeout):
            // the next look follows the trees from there.
            Err(ServiceError::User(e)) => {
                tracing::debug!(game_id, reason = %e, "a conditional answer was not needed");
                Ok(None)
            }
            Err(e) => Err(e),
        }
    }

    /// Tells `owner` privately that the game left their tree at ply `at`
    /// (0-based) and that it is gone.
    async fn tell_tree_missed(
        &self,
        session: &Session,
        owner: Color,
        at: usize,
    ) -> Result<(), ServiceError> {
        let plies = session.game.plies();
        // A tree written past the moves there are (a takeback racing it)
        // was missed by no one's move: it goes without a word.
        let (Some(ply), Some(after)) = (plies.get(at), plies.len().checked_sub(at)) else {
            return Ok(());
        };
        // Written as the game's boards write it (the server's notation),
        // in the owner's own language.
        let (_, notation) = self.session_words(session).await?;
        let san = notation.write(&ply.san).into_owned();
        let server = &session.record.game.server_id;
        let owner_id = session.player_id(owner).to_owned();
        let player = self.store().player(server, &owner_id).await?;
        let lang = Lang::from_locale(player.as_ref().and_then(|p| p.locale.as_deref()));
        // The owner's own move, or the opponent's: `after` plies since it,
        // counting it, so an odd count is the side not to move now.
        let mover = if after % 2 == 1 {
            !session.game.turn()
        } else {
            session.game.turn()
        };
        let text = if mover == owner {
            t!(
                lang,
                "conditional-missed-own",
                id = session.record.id,
                san = san
            )
        } else {
            let opponent = self
                .name_in(server, session.player_id(!owner), lang)
                .await?;
            t!(
                lang,
                "conditional-missed",
                id = session.record.id,
                opponent = opponent,
                san = san
            )
        };
        self.post(Notice {
            channel: None,
            dm_user: Some(owner_id),
            reply: Reply::text(text),
        });
        Ok(())
    }
}

/// `12. Nf3` from a move's reply text `12. Nf3 — …`.
fn move_words(text: &str) -> String {
    text.split_once(" — ")
        .map_or(text, |(head, _)| head)
        .to_owned()
}

/// The board's words from a move's reply text `12. Nf3 — …`.
fn board_words(text: &str) -> String {
    text.split_once(" — ")
        .map_or(text, |(_, rest)| rest)
        .to_owned()
}

/// Why a line was refused, in `lang`, moves in `notation`.
fn line_error(lang: Lang, notation: Notation, e: &LineError) -> String {
    match e {
        LineError::Empty => t!(lang, "conditional-empty"),
        LineError::TooLong { moves } => t!(
            lang,
            "conditional-too-long",
            moves = *moves,
            limit = MAX_LINE_MOVES
        ),
        LineError::BadMove {
            index,
            before,
            error,
        } => {
            if *index == 0 {
                t!(
                    lang,
                    "conditional-bad-move-first",
                    reason = error.text_in(lang, notation)
                )
            } else {
                t!(
                    lang,
                    "conditional-bad-move",
                    number = *index + 1,
                    before = notation.write(before).into_owned(),
                    reason = error.text_in(lang, notation)
                )
            }
        }
        LineError::AfterEnd { index, last } => t!(
            lang,
            "conditional-after-end",
            last = notation.write(last).into_owned(),
            number = *index + 1
        ),
        LineError::NoAnswer { last } => t!(
            lang,
            "conditional-no-answer",
            last = notation.write(last).into_owned()
        ),
    }
}

/// Why a line does not fit the tree, in `lang`.
fn add_error(lang: Lang, notation: Notation, e: &AddError) -> String {
    match e {
        AddError::Conflict {
            index,
            before,
            existing,
            new,
        } => {
            let existing = notation.write(existing).into_owned();
            let new = notation.write(new).into_owned();
            if *index == 0 {
                t!(
                    lang,
                    "conditional-conflict-first",
                    existing = existing,
                    new = new
                )
            } else {
                t!(
                    lang,
                    "conditional-conflict",
                    before = notation.write(before).into_owned(),
                    existing = existing,
                    new = new
                )
            }
        }
        AddError::TooBig { moves } => t!(
            lang,
            "conditional-too-big",
            moves = *moves,
            limit = MAX_TREE_MOVES
        ),
    }
}
