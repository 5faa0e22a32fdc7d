//! Crash test: the console bot, as a child process on a SQLite file, plays a
//! stream of moves in several games and is killed with SIGKILL at random
//! moments, then restarted, many times. After every kill the database must
//! hold every move whose reply was printed, every game must replay legally
//! with one move per ply, and each server's points must still sum to 0.
//!
//! Bounded: `CRASH_ROUNDS` rounds (default 15 in `cargo test`, a sample;
//! the long run: `CRASH_ROUNDS=300 cargo test --release --test store crash::`),
//! each a few dozen commands.

use std::{
    io::{BufRead, BufReader, Write},
    path::Path,
    process::{Child, Command, Stdio},
    sync::mpsc,
    thread,
    time::Duration,
};

use chessbot::{chess::Game, store::Store};
use rand::{rngs::SmallRng, seq::SliceRandom, Rng, SeedableRng};
use shakmaty::{san::San, Position};

const GAMES: usize = 4;
const SERVER: &str = "console";

/// A running console and the lines it has printed so far.
struct Bot {
    child: Child,
    lines: mpsc::Receiver<String>,
    reader: Option<thread::JoinHandle<()>>,
}

impl Bot {
    fn start(db: &Path) -> Bot {
        let mut child = Command::new(env!("CARGO_BIN_EXE_chessbot"))
            .args(["console", "--moderators", "admin", "--db"])
            .arg(db)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("console starts");
        let stdout = child.stdout.take().expect("stdout piped");
        let (tx, lines) = mpsc::channel();
        let reader = thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut bot = Bot {
            child,
            lines,
            reader: Some(reader),
        };
        // Wait until it reads input, so the kill window falls on the moves
        // rather than on start-up.
        bot.run("");
        bot
    }

    fn send(&mut self, text: &str) {
        let stdin = self.child.stdin.as_mut().expect("stdin piped");
        // A write may fail once the bot is dead; the test judges by output.
        let _ = stdin.write_all(text.as_bytes());
        let _ = stdin.flush();
    }

    /// Sends `text` and then a line the console always answers, and waits
    /// for that answer: everything before it has been handled.
    fn run(&mut self, text: &str) -> Vec<String> {
        self.send(text);
        self.send(":sync\n");
        let mut out = Vec::new();
        loop {
            let line = self
                .lines
                .recv_timeout(Duration::from_secs(120))
                .expect("the console answers");
            if line.starts_with("[console] unknown directive `:sync`") {
                return out;
            }
            out.push(line);
        }
    }

    /// SIGKILL, then everything it printed before dying.
    fn kill(mut self) -> Vec<String> {
        let _ = self.child.kill();
        let _ = self.child.wait();
        if let Some(reader) = self.reader.take() {
            let _ = reader.join();
        }
        self.lines.try_iter().collect()
    }
}

/// A game as the database has it.
struct Stored {
    id: i64,
    white: String,
    black: String,
    position: shakmaty::variant::VariantPosition,
}

async fn active_games(store: &Store) -> Vec<Option<Stored>> {
    let mut games = Vec::new();
    for i in 0..GAMES {
        let record = store
            .active_game_in(&format!("g{i}"))
            .await
            .expect("query active game");
        games.push(match record {
            None => None,
            Some(record) => {
                let moves = store.moves(record.id).await.expect("moves");
                let game = Game::replay(
                    record.game.initial_fen.as_deref(),
                    moves.iter().map(|m| (m.uci.as_str(), m.played_ms)),
                )
                .expect("active game replays");
                Some(Stored {
                    id: record.id,
                    white: record.game.white_id,
                    black: record.game.black_id,
                    position: game.position().clone(),
                })
            }
        });
    }
    games
}

/// Every invariant a kill must not break.
async fn check_database(store: &Store, acknowledged: &[(i64, i64, String)]) {
    for id in store.all_game_ids().await.expect("game ids") {
        let moves = store.moves(id).await.expect("moves");
        for (expected, m) in (1..).zip(&moves) {
            assert_eq!(
                m.ply, expected,
                "game {id}: plies must run 1, 2, 3 … once each"
            );
        }
        Game::replay(None, moves.iter().map(|m| (m.uci.as_str(), m.played_ms)))
            .unwrap_or_else(|e| panic!("game {id} does not replay: {e}"));
        let record = store.game(id).await.expect("game").expect("exists");
        if record.is_active() {
            assert_eq!(
                record.version,
                moves.len() as i64,
                "game {id}: an active game's version counts its changes (moves only here)"
            );
        }
    }
    for (game, ply, san) in acknowledged {
        let moves = store.moves(*game).await.expect("moves");
        let stored = moves.iter().find(|m| m.ply == *ply);
        assert_eq!(
            stored.map(|m| m.san.as_str()),
            Some(san.as_str()),
            "game {game} ply {ply}: the bot answered {san}, so it must be stored"
        );
    }
    assert_eq!(store.points_total(SERVER).await.expect("points"), 0);
}

/// Reads `[#g2] bot: @b2 3... Nf6 — …` as (channel index, ply, SAN).
fn acknowledged_move(line: &str) -> Option<(usize, i64, String)> {
    let rest = line.strip_prefix("[#g")?;
    let (index, rest) = rest.split_once("] bot: ")?;
    // A mention of the player to move comes first, unless the game ended.
    let rest = match rest.strip_prefix('@') {
        Some(mention) => mention.split_once(' ')?.1,
        None => rest,
    };
    let (echo, _) = rest.split_once(" — ")?;
    let (number, san) = echo.split_once(' ')?;
    let (n, black) = match number.strip_suffix("...") {
        Some(n) => (n, true),
        None => (number.strip_suffix('.')?, false),
    };
    let n: i64 = n.parse().ok()?;
    Some((
        index.parse().ok()?,
        if black { 2 * n } else { 2 * n - 1 },
        san.to_owned(),
    ))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn killed_bot_loses_nothing_it_acknowledged() {
    let rounds: usize = std::env::var("CRASH_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(15);
    let seed: u64 = std::env::var("CRASH_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| rand::thread_rng().r#gen());
    eprintln!("crash test: {rounds} rounds, CRASH_SEED={seed}");
    let mut rng = SmallRng::seed_from_u64(seed);
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("crash.db");
    let url = format!("sqlite:{}", db.display());
    let mut acknowledged: Vec<(i64, i64, String)> = Vec::new();
    let mut total_acks = 0;

    let mut bot = Bot::start(&db);
    bot.run("admin: /settings threads:off\n");
    for round in 0..rounds {
        // Start a game wherever there is none (a kill may have cut a
        // resignation or a challenge short).
        let store = Store::open(&url).await.expect("store opens");
        let games = active_games(&store).await;
        store.close().await;
        let mut setup = String::new();
        for (i, game) in games.iter().enumerate() {
            if game.is_none() {
                setup.push_str(&format!(
                    ":channel g{i}\nw{i}: /challenge @b{i} color:white\nb{i}: /accept\n"
                ));
            }
        }
        if !setup.is_empty() {
            bot.run(&setup);
        }
        let store = Store::open(&url).await.expect("store opens");
        let games = active_games(&store).await;
        store.close().await;

        // A burst of moves in every game, sent at once; sometimes a game
        // ends with a (rated) resignation.
        let mut burst = String::new();
        let mut ids = Vec::new();
        for (i, game) in games.into_iter().enumerate() {
            let mut game = game.expect("every channel has a game now");
            ids.push(game.id);
            burst.push_str(&format!(":channel g{i}\n"));
            for _ in 0..rng.gen_range(1..6) {
                let legal = game.position.legal_moves();
                let Some(mv) = legal.choose(&mut rng).cloned() else {
                    break;
                };
                let mover = match game.position.turn() {
                    shakmaty::Color::White => &game.white,
                    shakmaty::Color::Black => &game.black,
                };
                let san = San::from_move(&game.position, mv);
                burst.push_str(&format!("{mover}: /move {san}\n"));
                game.position.play_unchecked(mv);
                if game.position.is_game_over() {
                    break;
                }
            }
            if rng.gen_bool(0.15) {
                burst.push_str(&format!("{}: /resign confirm:yes\n", game.white));
            }
        }
        bot.send(&burst);
        // Kill somewhere in the burst: before it starts, in the middle of a
        // commit, or after it is all done.
        thread::sleep(Duration::from_micros(rng.gen_range(0..150_000)));
        let printed = bot.kill();
        for (index, ply, san) in printed.iter().filter_map(|l| acknowledged_move(l)) {
            acknowledged.push((ids[index], ply, san));
            total_acks += 1;
        }
        let store = Store::open(&url).await.expect("store opens after a kill");
        check_database(&store, &acknowledged).await;
        store.close().await;
        if round + 1 < rounds {
            bot = Bot::start(&db);
        } else {
            bot = Bot::start(&db);
            // The bot still works after the last kill.
            let out = bot.run(":channel g0\nw0: /board\n");
            assert!(
                out.iter().any(|l| l.contains("FEN:")),
                "board after restart: {out:?}"
            );
        }
    }
    drop(bot.kill());
    eprintln!("crash test: {total_acks} acknowledged moves checked after {rounds} kills");
    assert!(total_acks > 0, "the bot never got to answer a move");
}

#[test]
fn reads_move_acknowledgements() {
    assert_eq!(
        acknowledged_move("[#g2] bot: @b2 3... Nf6 — w2 (White) to move."),
        Some((2, 6, "Nf6".to_owned()))
    );
    assert_eq!(
        acknowledged_move("[#g0] bot: @b0 1. e4 — b0 (Black) to move."),
        Some((0, 1, "e4".to_owned()))
    );
    assert_eq!(
        acknowledged_move("[#g1] bot: 20. Qxf7# — Game over: white wins by checkmate."),
        Some((1, 39, "Qxf7#".to_owned()))
    );
    assert_eq!(acknowledged_move("[#g0] bot: @b0 alice challenges"), None);
}
