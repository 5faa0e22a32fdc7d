//! What the store's calls on a move cost, one at a time, on a SQLite file:
//! a bare round trip through the pool (the least any query costs), the game
//! read alone, the read a move makes (`play_view`: game, settings, players,
//! vacations), the conditional-moves probe that read carries, the commit
//! of a move, and the floor's one-row `INSERT`.
//!
//! `cargo run --release --example store_calls`
use std::time::Instant;

use chessbot::store::{GameChange, GameState, MoveRecord, NewChallenge, NewGame, Store};

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let dir = tempfile::tempdir()?;
    let url = format!("sqlite:{}/x.db", dir.path().display());
    let store = Store::open(&url).await?;
    let pool = store.pool().clone();
    store.touch_player("s", "w", "w").await?;
    store.touch_player("s", "b", "b").await?;
    let c = store
        .create_challenge(&NewChallenge {
            server_id: "s".into(),
            channel_id: "c".into(),
            challenger_id: "w".into(),
            opponent_id: Some("b".into()),
            color: "white".into(),
            rated: false,
            time_control: "3d".into(),
            initial_fen: None,
            variant: chessbot::store::Variant::Standard,
            start_number: None,
            created_ms: 0,
            expires_ms: i64::MAX / 2,
        })
        .await?;
    let game = store
        .accept_challenge(
            c.id,
            1,
            &NewGame {
                server_id: "s".into(),
                home_channel_id: "c".into(),
                channel_id: Some("c".into()),
                white_id: "w".into(),
                black_id: "b".into(),
                rated: false,
                time_control: "3d".into(),
                initial_fen: None,
                variant: chessbot::store::Variant::Standard,
                start_number: None,
                deadline_ms: Some(1000),
                created_ms: 1,
            },
        )
        .await?;
    let n = 3000i64;
    let time = |name: &str, t: Instant| {
        println!(
            "{name:34} {:8.1} us",
            t.elapsed().as_secs_f64() * 1e6 / n as f64
        )
    };
    let t = Instant::now();
    for _ in 0..n {
        sqlx::query("SELECT 1").execute(&pool).await?;
    }
    time("SELECT 1 through the pool", t);
    let t = Instant::now();
    for _ in 0..n {
        store.game(game.id).await?;
    }
    time("Store::game", t);
    let t = Instant::now();
    for _ in 0..n {
        store.play_view(game.id, 0).await?;
    }
    time("Store::play_view", t);
    // The conditional-moves probe that `play_view` carries (issue 19), as
    // a statement of its own: its cost over `SELECT 1` bounds what it adds
    // to every move's read.
    let t = Instant::now();
    for _ in 0..n {
        sqlx::query("SELECT (SELECT COUNT(*) FROM conditional_moves c WHERE c.game_id = $1) AS n")
            .bind(game.id)
            .fetch_one(&pool)
            .await?;
    }
    time("conditional-moves probe alone", t);
    let t = Instant::now();
    for ply in 1..=n {
        store
            .apply(&GameChange {
                game_id: game.id,
                expected_version: ply - 1,
                new_move: Some(MoveRecord {
                    ply,
                    uci: "e2e4".into(),
                    san: "e4".into(),
                    played_ms: ply,
                }),
                state: GameState {
                    deadline_ms: Some(ply * 1000),
                    next_reminder_ms: Some(ply * 900),
                    ..GameState::default()
                },
                rating: None,
                mover: None,
                at_ms: ply,
            })
            .await?;
    }
    time("Store::apply (a move)", t);
    sqlx::query("CREATE TABLE floor (a BIGINT PRIMARY KEY, b TEXT)")
        .execute(&pool)
        .await?;
    let t = Instant::now();
    for i in 0..n {
        sqlx::query("INSERT INTO floor VALUES ($1, 'e2e4')")
            .bind(i)
            .execute(&pool)
            .await?;
    }
    time("one-row INSERT (the floor's commit)", t);
    Ok(())
}
