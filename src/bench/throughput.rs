//! The service under load: many games at once, each move played by the
//! right player through [`Service::handle`] exactly as an adapter would
//! (lookup, lock, validate, commit, render), with some wrong-player and
//! illegal attempts mixed in. Games that end (or grow long) are replaced by
//! a new game in the same channel, so the number of live games stays fixed.

use std::{
    collections::VecDeque,
    sync::{
        atomic::{AtomicUsize, Ordering},
        Arc, Mutex,
    },
    time::{Duration, Instant},
};

use anyhow::{bail, Context};
use rand::{rngs::SmallRng, seq::SliceRandom, Rng, SeedableRng};
use shakmaty::{san::San, Chess, Position};

use super::report::Samples;
use crate::service::{Actor, Command, Reply, Service, Setting, UserRef};

/// The server every bench game is played on.
pub const SERVER: &str = "bench";
/// Games longer than this are resigned and replaced, keeping positions in
/// the range real correspondence games spend most of their time in.
const MAX_PLIES: u32 = 120;

/// One game the bench keeps playing, with its own copy of the position so
/// it knows which moves are legal and whose turn it is.
pub struct Slot {
    pub channel: String,
    pub white: String,
    pub black: String,
    position: Chess,
    plies: u32,
}

/// What one run measured.
#[derive(Default)]
pub struct Outcome {
    /// Accepted moves: latency of `handle` for each.
    pub moves: Samples,
    /// Wrong-player and illegal attempts (refused without a board).
    pub refusals: Samples,
    /// Games replaced because they ended or grew long.
    pub restarts: usize,
    pub elapsed: Duration,
}

impl Outcome {
    pub fn moves_per_sec(&self) -> f64 {
        self.moves.len() as f64 / self.elapsed.as_secs_f64()
    }

    /// Adds another run's figures to these.
    pub fn extend(&mut self, other: Outcome) {
        self.moves.extend(other.moves);
        self.refusals.extend(other.refusals);
        self.restarts += other.restarts;
        self.elapsed += other.elapsed;
    }
}

pub fn actor(user: &str, channel: &str) -> Actor {
    Actor {
        server: SERVER.to_owned(),
        channel: channel.to_owned(),
        user: user.to_owned(),
        name: user.to_owned(),
        locale: None,
        server_locale: None,
        is_moderator: true,
    }
}

/// Turns threads off so every game lives in its bench channel.
pub async fn configure(service: &Service) -> anyhow::Result<()> {
    let reply = service
        .handle(
            &actor("admin", "setup"),
            Command::Settings {
                changes: vec![Setting::Threads(false)],
            },
        )
        .await;
    if reply.text.contains("Sorry") {
        bail!("configuring the bench server failed: {}", reply.text);
    }
    Ok(())
}

/// Creates `games` slots and starts their games, `concurrency` at a time.
pub async fn start_games(
    service: &Service,
    games: usize,
    concurrency: usize,
) -> anyhow::Result<Vec<Slot>> {
    let slots: Vec<Slot> = (0..games)
        .map(|i| Slot {
            channel: format!("c{i}"),
            white: format!("w{i}"),
            black: format!("b{i}"),
            position: Chess::default(),
            plies: 0,
        })
        .collect();
    let queue = Arc::new(Mutex::new(slots.into_iter().collect::<VecDeque<_>>()));
    let done = Arc::new(Mutex::new(Vec::with_capacity(games)));
    let mut tasks = Vec::new();
    for _ in 0..concurrency.max(1) {
        let (service, queue, done) = (service.clone(), queue.clone(), done.clone());
        tasks.push(tokio::spawn(async move {
            loop {
                let next = queue.lock().unwrap_or_else(|e| e.into_inner()).pop_front();
                let Some(mut slot) = next else { break };
                new_game(&service, &mut slot).await?;
                done.lock().unwrap_or_else(|e| e.into_inner()).push(slot);
            }
            anyhow::Ok(())
        }));
    }
    for task in tasks {
        task.await??;
    }
    let slots = std::mem::take(&mut *done.lock().unwrap_or_else(|e| e.into_inner()));
    Ok(slots)
}

/// Challenge and accept: a fresh game in the slot's channel.
async fn new_game(service: &Service, slot: &mut Slot) -> anyhow::Result<()> {
    let challenge = Command::challenge_as_white(UserRef {
        id: slot.black.clone(),
        name: slot.black.clone(),
    });
    let reply = service
        .handle(&actor(&slot.white, &slot.channel), challenge)
        .await;
    expect_buttons(&reply, "challenge")?;
    let reply = service
        .handle(
            &actor(&slot.black, &slot.channel),
            Command::Accept { challenge: None },
        )
        .await;
    if reply.image.is_none() {
        bail!("accept in {} was refused: {}", slot.channel, reply.text);
    }
    slot.position = Chess::default();
    slot.plies = 0;
    Ok(())
}

fn expect_buttons(reply: &Reply, what: &str) -> anyhow::Result<()> {
    if reply.buttons.is_empty() {
        bail!("{what} was refused: {}", reply.text);
    }
    Ok(())
}

/// Plays `moves` moves over `slots`, `concurrency` at a time. Each worker
/// takes the slot at the front of the queue, plays one move in it and puts
/// it at the back, so every game gets moves in turn and no game has two
/// moves in flight (a player waits for the board before moving again).
pub async fn play(
    service: &Service,
    slots: Vec<Slot>,
    moves: usize,
    concurrency: usize,
    bad_rate: f64,
    seed: u64,
) -> anyhow::Result<(Outcome, Vec<Slot>)> {
    let queue = Arc::new(Mutex::new(slots.into_iter().collect::<VecDeque<_>>()));
    let issued = Arc::new(AtomicUsize::new(0));
    let started = Instant::now();
    let mut tasks = Vec::new();
    for worker in 0..concurrency.max(1) {
        let (service, queue, issued) = (service.clone(), queue.clone(), issued.clone());
        tasks.push(tokio::spawn(async move {
            let mut rng = SmallRng::seed_from_u64(seed.wrapping_add(worker as u64));
            let mut outcome = Outcome::default();
            while issued.fetch_add(1, Ordering::Relaxed) < moves {
                let next = queue.lock().unwrap_or_else(|e| e.into_inner()).pop_front();
                let Some(mut slot) = next else {
                    bail!("more workers than games");
                };
                let result = step(&service, &mut slot, &mut rng, bad_rate, &mut outcome).await;
                queue
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .push_back(slot);
                result?;
            }
            anyhow::Ok(outcome)
        }));
    }
    let mut total = Outcome::default();
    for task in tasks {
        total.extend(task.await.context("bench worker panicked")??);
    }
    total.elapsed = started.elapsed();
    let slots = std::mem::take(&mut *queue.lock().unwrap_or_else(|e| e.into_inner()));
    Ok((total, slots.into()))
}

/// One move in one game, perhaps preceded by a bad attempt.
pub async fn step(
    service: &Service,
    slot: &mut Slot,
    rng: &mut SmallRng,
    bad_rate: f64,
    outcome: &mut Outcome,
) -> anyhow::Result<()> {
    let legal = slot.position.legal_moves();
    let Some(mv) = legal.choose(rng).cloned() else {
        bail!("no legal move in {} although the game is on", slot.channel);
    };
    let turn = slot.position.turn();
    let (mover, other) = match turn {
        shakmaty::Color::White => (slot.white.clone(), slot.black.clone()),
        shakmaty::Color::Black => (slot.black.clone(), slot.white.clone()),
    };
    let san = San::from_move(&slot.position, mv).to_string();
    if rng.gen_bool(bad_rate) {
        // The opponent tries to move out of turn.
        let t = Instant::now();
        let reply = service
            .handle(&actor(&other, &slot.channel), move_cmd(&san))
            .await;
        outcome.refusals.push(t.elapsed());
        if reply.image.is_some() {
            bail!("an out-of-turn move was accepted in {}", slot.channel);
        }
    }
    if rng.gen_bool(bad_rate) {
        // Something that is never legal: a pawn to the first rank without
        // promotion, or plain noise.
        let text = if rng.gen_bool(0.5) { "e1" } else { "xyzzy" };
        let t = Instant::now();
        let reply = service
            .handle(&actor(&mover, &slot.channel), move_cmd(text))
            .await;
        outcome.refusals.push(t.elapsed());
        if reply.image.is_some() {
            bail!("the illegal move `{text}` was accepted in {}", slot.channel);
        }
    }
    let t = Instant::now();
    let reply = service
        .handle(&actor(&mover, &slot.channel), move_cmd(&san))
        .await;
    let took = t.elapsed();
    if reply.image.is_none() {
        bail!(
            "the legal move {san} in {} was refused: {}",
            slot.channel,
            reply.text
        );
    }
    outcome.moves.push(took);
    slot.position.play_unchecked(mv);
    slot.plies += 1;
    let over = reply.text.contains("Game over");
    if over || slot.plies >= MAX_PLIES {
        if !over {
            let reply = service
                .handle(
                    &actor(&mover, &slot.channel),
                    Command::Resign { confirmed: true },
                )
                .await;
            if !reply.text.contains("Game over") {
                bail!("resigning in {} failed: {}", slot.channel, reply.text);
            }
        }
        new_game(service, slot).await?;
        outcome.restarts += 1;
    }
    Ok(())
}

fn move_cmd(text: &str) -> Command {
    Command::Move {
        text: text.to_owned(),
        claim_draw: false,
    }
}
