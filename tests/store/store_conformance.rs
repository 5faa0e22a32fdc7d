//! One store conformance suite, run against SQLite (a temp file) and
//! PostgreSQL (a fresh database on `TEST_POSTGRES_URL`). Both backends run the
//! same store code through sqlx's `Any` driver; this suite is what shows they
//! behave the same: transactions, constraints, ordering, concurrency.
//!
//! Without `TEST_POSTGRES_URL` the `postgres::` tests say they did not run
//! and pass; with it set but unreachable they fail.

use crate::common;

use std::sync::Arc;

use chessbot::{
    chess::Game,
    store::{
        Backend, ChallengeStatus, GameChange, GameRecord, GameState, MoveRecord, Mover,
        NewAdjournment, NewChallenge, NewGame, Score, ServerSettings, Store, StoreError, TakeBack,
        WebPages,
    },
};

const SERVER: &str = "server-1";
const HOUR: i64 = 3_600_000;

fn challenge(channel: &str, from: &str, to: Option<&str>, rated: bool) -> NewChallenge {
    NewChallenge {
        server_id: SERVER.to_owned(),
        channel_id: channel.to_owned(),
        challenger_id: from.to_owned(),
        opponent_id: to.map(str::to_owned),
        color: "white".to_owned(),
        rated,
        time_control: "3d".to_owned(),
        initial_fen: None,
        variant: chessbot::store::Variant::Standard,
        start_number: None,
        created_ms: 1_000,
        expires_ms: 1_000 + 24 * HOUR,
    }
}

fn new_game(channel: Option<&str>, white: &str, black: &str, rated: bool, at: i64) -> NewGame {
    NewGame {
        server_id: SERVER.to_owned(),
        home_channel_id: "home".to_owned(),
        channel_id: channel.map(str::to_owned),
        white_id: white.to_owned(),
        black_id: black.to_owned(),
        rated,
        time_control: "3d".to_owned(),
        initial_fen: None,
        variant: chessbot::store::Variant::Standard,
        start_number: None,
        deadline_ms: Some(at + 72 * HOUR),
        created_ms: at,
    }
}

/// A game created the way the service does it: challenge, then accept.
async fn start_game(
    store: &Store,
    channel: Option<&str>,
    white: &str,
    black: &str,
    rated: bool,
    at: i64,
) -> GameRecord {
    store.touch_player(SERVER, white, white).await.unwrap();
    store.touch_player(SERVER, black, black).await.unwrap();
    let c = store
        .create_challenge(&challenge(
            channel.unwrap_or("home"),
            white,
            Some(black),
            rated,
        ))
        .await
        .unwrap();
    store
        .accept_challenge(c.id, at, &new_game(channel, white, black, rated, at))
        .await
        .unwrap()
}

/// Settlement used by the suite: the winner takes 10.00 points (a draw moves
/// nothing), whatever the standings, so expected numbers are easy to read.
fn flat_ten(_white: i64, _black: i64, score: Score) -> (i64, i64) {
    match score {
        Score::WhiteWins => (1000, -1000),
        Score::BlackWins => (-1000, 1000),
        Score::Draw => (0, 0),
    }
}

fn ending(score: Score, at: i64) -> GameState {
    GameState {
        result: Some(
            match score {
                Score::WhiteWins => "1-0",
                Score::BlackWins => "0-1",
                Score::Draw => "1/2-1/2",
            }
            .to_owned(),
        ),
        termination: Some("resignation".to_owned()),
        ended_ms: Some(at),
        ..GameState::default()
    }
}

/// Ends a game (rated games settle with [`flat_ten`]).
async fn finish(store: &Store, game: &GameRecord, score: Score, at: i64) {
    let current = store.game(game.id).await.unwrap().unwrap();
    store
        .apply(&GameChange {
            game_id: game.id,
            expected_version: current.version,
            new_move: None,
            state: ending(score, at),
            rating: game
                .game
                .rated
                .then_some((score, flat_ten as chessbot::store::Settle)),
            mover: None,
            at_ms: at,
        })
        .await
        .unwrap();
}

fn a_move(ply: i64, uci: &str, san: &str) -> MoveRecord {
    MoveRecord {
        ply,
        uci: uci.to_owned(),
        san: san.to_owned(),
        played_ms: 10_000 + ply,
    }
}

fn move_change(game_id: i64, version: i64, m: MoveRecord) -> GameChange {
    GameChange {
        game_id,
        expected_version: version,
        new_move: Some(m),
        state: GameState::default(),
        rating: None,
        mover: None,
        at_ms: 10_000,
    }
}

/// A move by `user`, made at 10,000, by a caller who saw `user`'s vacation
/// running (or not).
fn move_by(game_id: i64, user: &str, running: bool, version: i64, m: MoveRecord) -> GameChange {
    GameChange {
        mover: Some(Mover {
            user_id: user.to_owned(),
            vacation_running: running,
        }),
        ..move_change(game_id, version, m)
    }
}

async fn migrations_are_idempotent(store: &Store) {
    store.migrate().await.unwrap();
    store.migrate().await.unwrap();
}

async fn challenges_are_answered_once(store: &Store) {
    store.server(SERVER).await.unwrap();
    let c = store
        .create_challenge(&challenge("ch", "alice", Some("bob"), true))
        .await
        .unwrap();
    let read = store.challenge(c.id).await.unwrap().unwrap();
    assert_eq!(read, c);
    assert_eq!(read.status, ChallengeStatus::Pending);
    assert!(store.challenge(c.id + 1000).await.unwrap().is_none());

    let pending = store.pending_challenges_in(SERVER, "ch").await.unwrap();
    assert_eq!(pending, vec![c.clone()]);
    let between = store
        .pending_challenge_between(SERVER, "alice", "bob", 2_000)
        .await
        .unwrap();
    assert_eq!(between.map(|r| r.id), Some(c.id));
    // Not after it expires, and not the other way round.
    let expired_at = c.challenge.expires_ms;
    assert!(store
        .pending_challenge_between(SERVER, "alice", "bob", expired_at)
        .await
        .unwrap()
        .is_none());
    assert!(store
        .pending_challenge_between(SERVER, "bob", "alice", 2_000)
        .await
        .unwrap()
        .is_none());

    store
        .close_challenge(c.id, ChallengeStatus::Declined)
        .await
        .unwrap();
    assert!(matches!(
        store
            .close_challenge(c.id, ChallengeStatus::Cancelled)
            .await,
        Err(StoreError::Conflict)
    ));
    assert!(matches!(
        store
            .accept_challenge(
                c.id,
                2_000,
                &new_game(Some("ch"), "alice", "bob", true, 2_000)
            )
            .await,
        Err(StoreError::Conflict)
    ));
    let read = store.challenge(c.id).await.unwrap().unwrap();
    assert_eq!(read.status, ChallengeStatus::Declined);
    assert!(store
        .pending_challenges_in(SERVER, "ch")
        .await
        .unwrap()
        .is_empty());
    assert!(store.all_game_ids().await.unwrap().is_empty());
}

async fn accepting_creates_one_game(store: &Store) {
    store.server(SERVER).await.unwrap();
    let c = store
        .create_challenge(&challenge("ch", "alice", None, false))
        .await
        .unwrap();
    // Too late: expired challenges cannot be accepted.
    let late = c.challenge.expires_ms;
    assert!(matches!(
        store
            .accept_challenge(
                c.id,
                late,
                &new_game(Some("ch"), "alice", "bob", false, late)
            )
            .await,
        Err(StoreError::Conflict)
    ));
    let game = store
        .accept_challenge(
            c.id,
            5_000,
            &new_game(Some("ch"), "alice", "bob", false, 5_000),
        )
        .await
        .unwrap();
    assert_eq!(game.version, 0);
    assert!(game.is_active());
    let read = store.challenge(c.id).await.unwrap().unwrap();
    assert_eq!(read.status, ChallengeStatus::Accepted);
    assert_eq!(read.game_id, Some(game.id));
    assert_eq!(store.game(game.id).await.unwrap().unwrap(), game);
    assert!(matches!(
        store
            .accept_challenge(
                c.id,
                5_001,
                &new_game(Some("ch2"), "alice", "carol", false, 5_001)
            )
            .await,
        Err(StoreError::Conflict)
    ));
    assert_eq!(store.all_game_ids().await.unwrap(), vec![game.id]);
}

async fn one_active_game_per_channel(store: &Store) {
    let first = start_game(store, Some("ch"), "alice", "bob", false, 1_000).await;
    assert_eq!(
        store.active_game_in("ch").await.unwrap().map(|g| g.id),
        Some(first.id)
    );

    // A second accept into the busy channel fails and changes nothing: the
    // challenge is still pending (the transaction was rolled back).
    let c = store
        .create_challenge(&challenge("ch", "carol", Some("dave"), false))
        .await
        .unwrap();
    store.touch_player(SERVER, "carol", "carol").await.unwrap();
    let attempt = store
        .accept_challenge(
            c.id,
            2_000,
            &new_game(Some("ch"), "carol", "dave", false, 2_000),
        )
        .await;
    assert!(
        matches!(attempt, Err(StoreError::ChannelBusy)),
        "{attempt:?}"
    );
    assert_eq!(
        store.challenge(c.id).await.unwrap().unwrap().status,
        ChallengeStatus::Pending
    );
    assert_eq!(store.all_game_ids().await.unwrap(), vec![first.id]);

    // Games waiting for their thread (no channel yet) never collide; moving
    // one into a busy channel does.
    let threaded = start_game(store, None, "erin", "frank", false, 3_000).await;
    let other = start_game(store, None, "gina", "hank", false, 3_000).await;
    assert!(matches!(
        store.move_game_to(threaded.id, "ch").await,
        Err(StoreError::ChannelBusy)
    ));
    store.move_game_to(threaded.id, "thread-1").await.unwrap();
    assert_eq!(store.game(threaded.id).await.unwrap().unwrap().version, 1);
    store.move_game_to(other.id, "thread-2").await.unwrap();

    // Once the game ends, the channel takes a new one.
    finish(store, &first, Score::Draw, 4_000).await;
    assert!(store.active_game_in("ch").await.unwrap().is_none());
    assert_eq!(
        store.latest_game_in("ch").await.unwrap().map(|g| g.id),
        Some(first.id)
    );
    let second = store
        .accept_challenge(
            c.id,
            5_000,
            &new_game(Some("ch"), "carol", "dave", false, 5_000),
        )
        .await
        .unwrap();
    assert_eq!(
        store.active_game_in("ch").await.unwrap().map(|g| g.id),
        Some(second.id)
    );
    // A finished game cannot be moved.
    assert!(matches!(
        store.move_game_to(first.id, "thread-3").await,
        Err(StoreError::Conflict)
    ));
}

async fn apply_checks_the_version(store: &Store) {
    let game = start_game(store, Some("ch"), "alice", "bob", false, 1_000).await;
    let applied = store
        .apply(&move_change(game.id, 0, a_move(1, "e2e4", "e4")))
        .await
        .unwrap();
    assert_eq!(applied.version, 1);
    assert!(applied.ratings.is_none());
    // A change computed on version 0 is stale now, and writes nothing.
    let stale = store
        .apply(&move_change(game.id, 0, a_move(2, "e7e5", "e5")))
        .await;
    assert!(matches!(stale, Err(StoreError::Conflict)), "{stale:?}");
    assert_eq!(store.moves(game.id).await.unwrap().len(), 1);
    assert_eq!(store.game(game.id).await.unwrap().unwrap().version, 1);
    // A state-only change (a draw offer) bumps the version too.
    let offer = GameChange {
        new_move: None,
        state: GameState {
            draw_offer: Some("white".to_owned()),
            ..GameState::default()
        },
        ..move_change(game.id, 1, a_move(0, "", ""))
    };
    assert_eq!(store.apply(&offer).await.unwrap().version, 2);
    let read = store.game(game.id).await.unwrap().unwrap();
    assert_eq!(read.state.draw_offer.as_deref(), Some("white"));
    // A finished game takes no more changes.
    finish(store, &game, Score::Draw, 2_000).await;
    let after = store
        .apply(&move_change(game.id, 3, a_move(2, "e7e5", "e5")))
        .await;
    assert!(matches!(after, Err(StoreError::Conflict)), "{after:?}");
    assert_eq!(store.open_game_count().await.unwrap(), 0);
}

/// A game between alice (White) and bob in `channel`, each with a vacation
/// from the given time (alice's first) until 50,000.
async fn game_with_vacations(store: &Store, channel: &str, starts: [i64; 2]) -> GameRecord {
    let game = start_game(store, Some(channel), "alice", "bob", false, 1_000).await;
    for (user, start) in ["alice", "bob"].into_iter().zip(starts) {
        store
            .add_vacation(SERVER, user, start, 50_000)
            .await
            .unwrap();
    }
    game
}

async fn a_move_ends_its_players_vacation(store: &Store) {
    let game = game_with_vacations(store, "ch", [500, 500]).await;
    let moved_by = |user, running, version, m| move_by(game.id, user, running, version, m);
    // A change without a player named leaves vacations alone.
    let applied = store
        .apply(&move_change(game.id, 0, a_move(1, "e2e4", "e4")))
        .await
        .unwrap();
    assert!(!applied.vacation_ended);
    // A caller who missed alice's vacation computed on stale state: refused,
    // nothing written.
    let stale = store
        .apply(&moved_by("alice", false, 1, a_move(2, "e7e5", "e5")))
        .await;
    assert!(matches!(stale, Err(StoreError::Conflict)), "{stale:?}");
    assert_eq!(store.moves(game.id).await.unwrap().len(), 1);
    // alice moves at 10,000: her vacation ends then, in the same commit.
    let applied = store
        .apply(&moved_by("alice", true, 1, a_move(2, "e7e5", "e5")))
        .await
        .unwrap();
    assert!(applied.vacation_ended);
    let alice = store.vacations(SERVER, "alice", 0).await.unwrap();
    assert_eq!(alice.len(), 1);
    assert_eq!(alice[0].ends_ms, 10_000);
    let bob = store.vacations(SERVER, "bob", 0).await.unwrap();
    assert_eq!(bob[0].ends_ms, 50_000, "the opponent's vacation runs on");
    // Ended already: a second move ends nothing, and a caller who still
    // thinks it runs is refused.
    let stale = store
        .apply(&moved_by("alice", true, 2, a_move(3, "g1f3", "Nf3")))
        .await;
    assert!(matches!(stale, Err(StoreError::Conflict)), "{stale:?}");
    let applied = store
        .apply(&moved_by("alice", false, 2, a_move(3, "g1f3", "Nf3")))
        .await
        .unwrap();
    assert!(!applied.vacation_ended);
    // A conflicting change ends nothing (bob's vacation is running).
    let stale = store
        .apply(&moved_by("bob", true, 0, a_move(4, "b8c6", "Nc6")))
        .await;
    assert!(matches!(stale, Err(StoreError::Conflict)), "{stale:?}");
    let bob = store.vacations(SERVER, "bob", 0).await.unwrap();
    assert_eq!(bob[0].ends_ms, 50_000);
}

async fn duplicate_ply_is_rejected(store: &Store) {
    let game = start_game(store, Some("ch"), "alice", "bob", false, 1_000).await;
    store
        .apply(&move_change(game.id, 0, a_move(1, "e2e4", "e4")))
        .await
        .unwrap();
    // Right version, but ply 1 exists: refused, and the version bump of the
    // same transaction is rolled back.
    let dup = store
        .apply(&move_change(game.id, 1, a_move(1, "d2d4", "d4")))
        .await;
    assert!(matches!(dup, Err(StoreError::Conflict)), "{dup:?}");
    let read = store.game(game.id).await.unwrap().unwrap();
    assert_eq!(read.version, 1);
    let moves = store.moves(game.id).await.unwrap();
    assert_eq!(moves.len(), 1);
    assert_eq!(moves[0].uci, "e2e4");
}

async fn rated_ending_settles_both_players(store: &Store) {
    let game = start_game(store, Some("ch"), "alice", "bob", true, 1_000).await;
    let applied = store
        .apply(&GameChange {
            game_id: game.id,
            expected_version: 0,
            new_move: None,
            state: ending(Score::BlackWins, 9_000),
            rating: Some((Score::BlackWins, flat_ten)),
            mover: None,
            at_ms: 9_000,
        })
        .await
        .unwrap();
    let [white, black] = applied.ratings.expect("rated ending");
    assert_eq!(
        (
            white.user_id.as_str(),
            white.before,
            white.delta,
            white.after
        ),
        ("alice", 0, -1000, -1000)
    );
    assert_eq!(
        (
            black.user_id.as_str(),
            black.before,
            black.delta,
            black.after
        ),
        ("bob", 0, 1000, 1000)
    );

    let alice = store.player(SERVER, "alice").await.unwrap().unwrap();
    let bob = store.player(SERVER, "bob").await.unwrap().unwrap();
    assert_eq!(
        (
            alice.points,
            alice.rated_games,
            alice.wins,
            alice.draws,
            alice.losses
        ),
        (-1000, 1, 0, 0, 1)
    );
    assert_eq!(
        (bob.points, bob.rated_games, bob.wins, bob.draws, bob.losses),
        (1000, 1, 1, 0, 0)
    );
    assert_eq!(
        alice.display_name, "alice",
        "settlement keeps the display name"
    );
    assert_eq!(store.points_total(SERVER).await.unwrap(), 0);

    let mut changes = store.game_rating_changes(game.id).await.unwrap();
    changes.sort_by(|a, b| a.user_id.cmp(&b.user_id));
    assert_eq!(changes, vec![white, black]);

    let read = store.game(game.id).await.unwrap().unwrap();
    assert_eq!(read.state.result.as_deref(), Some("0-1"));
    assert_eq!(read.state.ended_ms, Some(9_000));
    assert!(!read.is_active());

    // A draw counts as a game and a draw for both.
    let again = start_game(store, Some("ch"), "alice", "bob", true, 10_000).await;
    finish(store, &again, Score::Draw, 11_000).await;
    let alice = store.player(SERVER, "alice").await.unwrap().unwrap();
    assert_eq!((alice.rated_games, alice.draws), (2, 1));
    assert_eq!(store.points_total(SERVER).await.unwrap(), 0);
}

async fn leaderboard_and_history(store: &Store) {
    // carol beats everyone, bob beats dave; erin never plays a rated game.
    let mut at = 1_000;
    for (white, black, score) in [
        ("carol", "alice", Score::WhiteWins),
        ("bob", "carol", Score::BlackWins),
        ("bob", "dave", Score::WhiteWins),
        ("carol", "dave", Score::WhiteWins),
        ("alice", "erin", Score::Draw),
    ] {
        let rated = black != "erin";
        let game = start_game(store, Some("ch"), white, black, rated, at).await;
        finish(store, &game, score, at + 100).await;
        at += 1_000;
    }
    let board = store.leaderboard(SERVER, 0, 10).await.unwrap();
    let names: Vec<_> = board
        .iter()
        .map(|p| (p.user_id.as_str(), p.points))
        .collect();
    // alice and bob both have 0 points: bob has more rated games.
    assert_eq!(
        names,
        vec![
            ("carol", 3000),
            ("bob", 0),
            ("alice", -1000),
            ("dave", -2000)
        ]
    );
    assert_eq!(store.ladder_size(SERVER).await.unwrap(), 4);
    let page2 = store.leaderboard(SERVER, 2, 10).await.unwrap();
    assert_eq!(
        page2.iter().map(|p| p.user_id.as_str()).collect::<Vec<_>>(),
        vec!["alice", "dave"]
    );
    assert_eq!(store.points_total(SERVER).await.unwrap(), 0);
    assert!(store
        .leaderboard("another-server", 0, 10)
        .await
        .unwrap()
        .is_empty());

    let history = store.rating_history(SERVER, "carol").await.unwrap();
    let afters: Vec<_> = history.iter().map(|c| c.after).collect();
    assert_eq!(afters, vec![1000, 2000, 3000]);
    assert!(history.windows(2).all(|w| w[0].at_ms <= w[1].at_ms));
    assert!(store
        .rating_history(SERVER, "erin")
        .await
        .unwrap()
        .is_empty());
}

async fn games_of_and_pair_counts(store: &Store) {
    let g1 = start_game(store, Some("c1"), "alice", "bob", true, 1_000).await;
    let g2 = start_game(store, Some("c2"), "bob", "alice", true, 2_000).await;
    let g3 = start_game(store, Some("c3"), "alice", "carol", false, 3_000).await;
    finish(store, &g1, Score::WhiteWins, 4_000).await;

    let all: Vec<_> = store
        .games_of(SERVER, "alice", false, 10)
        .await
        .unwrap()
        .iter()
        .map(|g| g.id)
        .collect();
    assert_eq!(all, vec![g3.id, g2.id, g1.id], "newest first");
    let active: Vec<_> = store
        .games_of(SERVER, "alice", true, 10)
        .await
        .unwrap()
        .iter()
        .map(|g| g.id)
        .collect();
    assert_eq!(active, vec![g3.id, g2.id]);
    assert_eq!(
        store
            .games_of(SERVER, "alice", false, 1)
            .await
            .unwrap()
            .len(),
        1
    );
    assert!(store
        .games_of("elsewhere", "alice", false, 10)
        .await
        .unwrap()
        .is_empty());

    assert_eq!(
        store
            .rated_games_between_since(SERVER, "alice", "bob", 0)
            .await
            .unwrap(),
        2
    );
    assert_eq!(
        store
            .rated_games_between_since(SERVER, "bob", "alice", 1_500)
            .await
            .unwrap(),
        1
    );
    assert_eq!(
        store
            .rated_games_between_since(SERVER, "alice", "carol", 0)
            .await
            .unwrap(),
        0
    );
    assert_eq!(store.open_game_count().await.unwrap(), 2);
}

async fn server_settings_round_trip(store: &Store) {
    // The web board's secret: made once, then always the same.
    let secret = store.web_secret().await.unwrap();
    assert_eq!(secret.len(), 64, "32 random bytes in hex");
    assert_eq!(store.web_secret().await.unwrap(), secret);
    let fresh = store.server("s9").await.unwrap();
    assert_eq!(fresh, ServerSettings::defaults("s9"));
    let changed = ServerSettings {
        server_id: "s9".to_owned(),
        default_time_control: "10+5".to_owned(),
        threads: false,
        theme: "blue".to_owned(),
        strict_illegal_moves: true,
        challenge_ttl_ms: 2 * HOUR,
        rated_games_per_pair_daily: 3,
        vacation_days_per_year: 5,
        reminder_hours: vec![48, 2],
        language: Some("zh-CN".to_owned()),
        discord_locale: None,
        notation: Some("letters".to_owned()),
        spectators: false,
        web_pages: WebPages::Link,
        web_slug: Some("abcdefghijklmnopqrstuvwxyz".to_owned()),
        session_hours: 4,
        utc_offset_minutes: 480,
        puzzle_channel: Some("puzzles".to_owned()),
        puzzle_hour: 7,
        puzzle_mining_since_ms: Some(5_000),
    };
    store.save_settings(&changed).await.unwrap();
    assert_eq!(store.server("s9").await.unwrap(), changed);
    // The club pages are found by their slug while they are on, and
    // listed only when public.
    let found = store
        .server_by_slug("abcdefghijklmnopqrstuvwxyz")
        .await
        .unwrap();
    assert_eq!(found.as_ref().map(|s| s.server_id.as_str()), Some("s9"));
    assert!(store
        .server_by_slug("abcdefghijklmnopqrstuvwxy2")
        .await
        .unwrap()
        .is_none());
    assert!(store.public_servers(10).await.unwrap().is_empty());
    let public = ServerSettings {
        web_pages: WebPages::Public,
        ..changed.clone()
    };
    store.save_settings(&public).await.unwrap();
    assert_eq!(
        store.public_servers(10).await.unwrap(),
        vec![public.clone()]
    );
    let off = ServerSettings {
        web_pages: WebPages::Off,
        ..changed.clone()
    };
    store.save_settings(&off).await.unwrap();
    assert!(store
        .server_by_slug("abcdefghijklmnopqrstuvwxyz")
        .await
        .unwrap()
        .is_none());
    assert!(store.public_servers(10).await.unwrap().is_empty());
    store.save_settings(&changed).await.unwrap();
    assert_eq!(
        store.server("s10").await.unwrap(),
        ServerSettings::defaults("s10")
    );

    store.touch_player("s9", "u1", "Old name").await.unwrap();
    store.touch_player("s9", "u1", "New name").await.unwrap();
    let p = store.player("s9", "u1").await.unwrap().unwrap();
    assert_eq!(
        (p.display_name.as_str(), p.points, p.rated_games),
        ("New name", 0, 0)
    );
    assert!(store.player("s9", "nobody").await.unwrap().is_none());
}

async fn languages_and_locales_are_kept(store: &Store) {
    let fresh = store.server("s11").await.unwrap();
    assert_eq!(
        (fresh.language, fresh.discord_locale, fresh.notation),
        (None, None, None)
    );
    store
        .set_discord_locale("s11", Some("zh-CN"))
        .await
        .unwrap();
    let mut settings = store.server("s11").await.unwrap();
    assert_eq!(settings.discord_locale.as_deref(), Some("zh-CN"));
    // Saving the moderators' settings leaves Discord's locale alone.
    settings.language = Some("en".to_owned());
    settings.notation = Some("chinese".to_owned());
    store.save_settings(&settings).await.unwrap();
    store
        .set_discord_locale("s11", Some("en-US"))
        .await
        .unwrap();
    let read = store.server("s11").await.unwrap();
    assert_eq!(read.language.as_deref(), Some("en"));
    assert_eq!(read.notation.as_deref(), Some("chinese"));
    assert_eq!(read.discord_locale.as_deref(), Some("en-US"));

    store.touch_player("s11", "u1", "张伟").await.unwrap();
    assert_eq!(
        store.player("s11", "u1").await.unwrap().unwrap().locale,
        None
    );
    store
        .set_player_locale("s11", "u1", Some("zh-CN"))
        .await
        .unwrap();
    let p = store.player("s11", "u1").await.unwrap().unwrap();
    assert_eq!(
        (p.display_name.as_str(), p.locale.as_deref()),
        ("张伟", Some("zh-CN"))
    );
    // A name change keeps the locale.
    store.touch_player("s11", "u1", "张伟2").await.unwrap();
    let p = store.player("s11", "u1").await.unwrap().unwrap();
    assert_eq!(p.locale.as_deref(), Some("zh-CN"));
}

async fn configured_server_defaults(store: &Store) {
    let config = chessbot::config::Config::load_with(None, |name| match name {
        "CHESSBOT_DEFAULT_TIME_CONTROL" => Some("10 + 5".to_owned()),
        "CHESSBOT_THEME" => Some("Green".to_owned()),
        "CHESSBOT_THREADS" => Some("false".to_owned()),
        "CHESSBOT_CHALLENGE_HOURS" => Some("2".to_owned()),
        _ => None,
    })
    .unwrap();
    let configured = store.clone().with_server_defaults(config.server_defaults());
    let fresh = configured.server("new").await.unwrap();
    assert_eq!(
        (
            fresh.default_time_control.as_str(),
            fresh.theme.as_str(),
            fresh.threads,
            fresh.challenge_ttl_ms
        ),
        ("10+5", "green", false, 2 * HOUR)
    );
    // A server stored before keeps its own settings.
    store.server("old").await.unwrap();
    assert_eq!(
        configured.server("old").await.unwrap(),
        ServerSettings::defaults("old")
    );
}

async fn moves_replay_in_order(store: &Store) {
    let game = start_game(store, Some("ch"), "alice", "bob", false, 1_000).await;
    let line = [
        ("e2e4", "e4"),
        ("e7e5", "e5"),
        ("g1f3", "Nf3"),
        ("b8c6", "Nc6"),
        ("f1b5", "Bb5"),
        ("a7a6", "a6"),
    ];
    let mut version = 0;
    for (i, (uci, san)) in line.iter().enumerate() {
        version = store
            .apply(&move_change(
                game.id,
                version,
                a_move(i as i64 + 1, uci, san),
            ))
            .await
            .unwrap()
            .version;
    }
    let moves = store.moves(game.id).await.unwrap();
    let ucis: Vec<_> = moves.iter().map(|m| m.uci.as_str()).collect();
    assert_eq!(ucis, line.iter().map(|(u, _)| *u).collect::<Vec<_>>());
    assert_eq!(
        moves.iter().map(|m| m.ply).collect::<Vec<_>>(),
        (1..=6).collect::<Vec<_>>()
    );
    assert_eq!(moves[2].san, "Nf3");
    let replayed = Game::replay(None, moves.iter().map(|m| (m.uci.as_str(), m.played_ms))).unwrap();
    assert_eq!(replayed.plies().len(), 6);
}

/// Many connections accept one challenge at once: exactly one game.
async fn concurrent_accepts_start_one_game(store: &Store) {
    store.server(SERVER).await.unwrap();
    let c = store
        .create_challenge(&challenge("ch", "alice", None, false))
        .await
        .unwrap();
    let tasks: Vec<_> = (0..16)
        .map(|i| {
            let store = store.clone();
            let user = format!("user{i}");
            tokio::spawn(async move {
                store
                    .accept_challenge(
                        c.id,
                        2_000,
                        &new_game(Some("ch"), "alice", &user, false, 2_000),
                    )
                    .await
            })
        })
        .collect();
    let mut won = 0;
    for task in tasks {
        match task.await.unwrap() {
            Ok(_) => won += 1,
            Err(StoreError::Conflict) => {}
            Err(e) => panic!("unexpected: {e}"),
        }
    }
    assert_eq!(won, 1);
    assert_eq!(store.all_game_ids().await.unwrap().len(), 1);
}

/// Many connections apply a move on the same version at once: exactly one.
async fn concurrent_moves_apply_once(store: &Store) {
    let game = start_game(store, Some("ch"), "alice", "bob", true, 1_000).await;
    let store = Arc::new(store.clone());
    let mut version = 0;
    for (ply, uci) in ["e2e4", "e7e5", "d1h5", "b8c6", "f1c4", "g8f6", "h5f7"]
        .iter()
        .enumerate()
    {
        let last = *uci == "h5f7";
        let tasks: Vec<_> = (0..8)
            .map(|_| {
                let store = store.clone();
                let change = GameChange {
                    state: if last {
                        ending(Score::WhiteWins, 2_000)
                    } else {
                        GameState::default()
                    },
                    rating: last.then_some((Score::WhiteWins, flat_ten as chessbot::store::Settle)),
                    ..move_change(game.id, version, a_move(ply as i64 + 1, uci, uci))
                };
                tokio::spawn(async move { store.apply(&change).await })
            })
            .collect();
        let mut winners = Vec::new();
        for task in tasks {
            match task.await.unwrap() {
                Ok(applied) => winners.push(applied.version),
                Err(StoreError::Conflict) => {}
                Err(e) => panic!("unexpected: {e}"),
            }
        }
        assert_eq!(winners.len(), 1, "ply {}", ply + 1);
        version = winners[0];
    }
    assert_eq!(store.moves(game.id).await.unwrap().len(), 7);
    assert_eq!(store.game_rating_changes(game.id).await.unwrap().len(), 2);
    let alice = store.player(SERVER, "alice").await.unwrap().unwrap();
    assert_eq!((alice.points, alice.rated_games), (1000, 1));
    assert_eq!(store.points_total(SERVER).await.unwrap(), 0);
}

/// Moves arriving together (on SQLite: one group commit, lined up behind
/// the write gate) each get their own answer: a stale one fails alone and
/// the others commit.
async fn grouped_moves_fail_alone(store: &Store) {
    let mut games = Vec::new();
    for i in 0..4 {
        let channel = format!("group-{i}");
        games.push(start_game(store, Some(&channel), "alice", "bob", false, 1_000).await);
    }
    // The first game moves once, so a change computed on version 0 is stale.
    store
        .apply(&move_change(games[0].id, 0, a_move(1, "e2e4", "e4")))
        .await
        .unwrap();
    let (groups_before, _) = store.group_commit_stats();
    let gate = store.write_gate().await;
    let mut changes = vec![move_change(games[0].id, 0, a_move(2, "e7e5", "e5"))];
    for game in &games[1..] {
        changes.push(move_change(game.id, 0, a_move(1, "d2d4", "d4")));
    }
    let tasks: Vec<_> = changes
        .into_iter()
        .map(|change| {
            let store = store.clone();
            tokio::spawn(async move { store.apply(&change).await })
        })
        .collect();
    if store.backend() == Backend::Sqlite {
        while store.queued_changes() < tasks.len() {
            tokio::task::yield_now().await;
        }
    }
    drop(gate);
    let mut results = Vec::new();
    for task in tasks {
        results.push(task.await.unwrap());
    }
    assert!(matches!(results[0], Err(StoreError::Conflict)), "stale");
    for (result, game) in results[1..].iter().zip(&games[1..]) {
        assert_eq!(result.as_ref().unwrap().version, 1);
        let moves = store.moves(game.id).await.unwrap();
        assert_eq!(moves.len(), 1);
        assert_eq!(moves[0].san, "d4");
        assert_eq!(store.game(game.id).await.unwrap().unwrap().version, 1);
    }
    let first = store.game(games[0].id).await.unwrap().unwrap();
    assert_eq!(first.version, 1);
    assert_eq!(store.moves(games[0].id).await.unwrap().len(), 1);
    if store.backend() == Backend::Sqlite {
        // All five went in one transaction.
        let (groups, _) = store.group_commit_stats();
        assert_eq!(groups, groups_before + 1);
    }
}

async fn analyses_queue_resume_and_keep_evals(store: &Store) {
    use chessbot::store::{AnalysisRecord, AnalysisStatus, StoredEval};
    let game = start_game(store, Some("an-1"), "alice", "engine:3", false, 1_000).await;
    let other = start_game(store, Some("an-2"), "bob", "carol", false, 1_000).await;
    assert_eq!(store.active_computer_games().await.unwrap(), vec![game.id]);
    finish(store, &game, Score::WhiteWins, 2_000).await;
    assert!(store.active_computer_games().await.unwrap().is_empty());
    assert_eq!(store.analysis(game.id).await.unwrap(), None);
    let job = AnalysisRecord {
        game_id: game.id,
        server_id: SERVER.to_owned(),
        channel_id: "an-1".to_owned(),
        requested_by: "alice".to_owned(),
        status: AnalysisStatus::Queued,
        positions: 3,
        created_ms: 3_000,
        finished_ms: None,
    };
    let queued = store.queue_analysis(&job).await.unwrap();
    assert_eq!(queued, job);
    // Asking again changes nothing (someone else asking, too).
    let again = AnalysisRecord {
        requested_by: "bob".to_owned(),
        ..job.clone()
    };
    assert_eq!(store.queue_analysis(&again).await.unwrap(), job);
    store
        .set_analysis_status(game.id, AnalysisStatus::Running, 3_100)
        .await
        .unwrap();
    assert_eq!(
        store.unfinished_analyses().await.unwrap()[0].status,
        AnalysisStatus::Running
    );
    let evals = [
        StoredEval {
            ply: 0,
            cp: Some(20),
            mate: None,
            best_uci: Some("e2e4".to_owned()),
            depth: 14,
        },
        StoredEval {
            ply: 2,
            cp: None,
            mate: Some(-3),
            best_uci: None,
            depth: 12,
        },
        StoredEval {
            ply: 1,
            cp: Some(-35),
            mate: None,
            best_uci: Some("e7e5".to_owned()),
            depth: 14,
        },
    ];
    for e in &evals {
        store.save_eval(game.id, e).await.unwrap();
    }
    // A resumed job writing a position again keeps the first answer.
    let mut twice = evals[0].clone();
    twice.cp = Some(999);
    store.save_eval(game.id, &twice).await.unwrap();
    let stored = store.evals(game.id).await.unwrap();
    assert_eq!(
        stored,
        vec![evals[0].clone(), evals[2].clone(), evals[1].clone()]
    );
    assert!(store.evals(other.id).await.unwrap().is_empty());
    store
        .set_analysis_status(game.id, AnalysisStatus::Failed, 3_200)
        .await
        .unwrap();
    assert!(store.unfinished_analyses().await.unwrap().is_empty());
    // A failed job is queued again by the next request, for its asker.
    let requeued = store.queue_analysis(&again).await.unwrap();
    assert_eq!(requeued.status, AnalysisStatus::Queued);
    assert_eq!(requeued.requested_by, "bob");
    assert_eq!(requeued.finished_ms, None);
    store
        .set_analysis_status(game.id, AnalysisStatus::Done, 3_300)
        .await
        .unwrap();
    let done = store.analysis(game.id).await.unwrap().unwrap();
    assert_eq!(
        (done.status, done.finished_ms),
        (AnalysisStatus::Done, Some(3_300))
    );
    assert!(matches!(
        store
            .set_analysis_status(other.id, AnalysisStatus::Done, 1)
            .await,
        Err(chessbot::store::StoreError::NotFound)
    ));
}

/// A takeback request stands for one version; accepting it removes the
/// moves after the kept ones and bumps the version, once.
async fn takebacks_are_version_checked(store: &Store) {
    let game = start_game(store, Some("tb"), "alice", "bob", false, 1_000).await;
    for (v, (uci, san)) in [("e2e4", "e4"), ("e7e5", "e5"), ("g1f3", "Nf3")]
        .into_iter()
        .enumerate()
    {
        store
            .apply(&move_change(
                game.id,
                v as i64,
                a_move(v as i64 + 1, uci, san),
            ))
            .await
            .unwrap();
    }
    // A request on a stale version, or a decline with none standing.
    assert!(matches!(
        store.request_takeback(game.id, 1, "bob").await,
        Err(StoreError::Conflict)
    ));
    assert!(matches!(
        store.clear_takeback(game.id, 3).await,
        Err(StoreError::Conflict)
    ));
    store.request_takeback(game.id, 3, "bob").await.unwrap();
    let record = store.game(game.id).await.unwrap().unwrap();
    assert_eq!(record.version, 3, "asking does not bump the version");
    assert_eq!(record.takeback_by(), Some("bob"));
    let take = |by: &str, version: i64| TakeBack {
        game_id: game.id,
        expected_version: version,
        requested_by: by.to_owned(),
        keep_plies: 1,
        state: GameState {
            deadline_ms: Some(99_000),
            ..GameState::default()
        },
    };
    // Only the request that stands is answered.
    assert!(matches!(
        store.take_back(&take("alice", 3)).await,
        Err(StoreError::Conflict)
    ));
    assert!(matches!(
        store.take_back(&take("bob", 2)).await,
        Err(StoreError::Conflict)
    ));
    assert_eq!(store.moves(game.id).await.unwrap().len(), 3);
    assert_eq!(store.take_back(&take("bob", 3)).await.unwrap(), 4);
    let record = store.game(game.id).await.unwrap().unwrap();
    assert_eq!(record.version, 4);
    assert_eq!(record.takeback_by(), None);
    assert_eq!(record.state.deadline_ms, Some(99_000));
    let moves = store.moves(game.id).await.unwrap();
    assert_eq!(
        moves.iter().map(|m| m.san.as_str()).collect::<Vec<_>>(),
        ["e4"]
    );
    // The double click.
    assert!(matches!(
        store.take_back(&take("bob", 3)).await,
        Err(StoreError::Conflict)
    ));
    // Play goes on from there: ply 2 again.
    store
        .apply(&move_change(game.id, 4, a_move(2, "c7c5", "c5")))
        .await
        .unwrap();
    // A request lapses when the game changes, without being cleared.
    store.request_takeback(game.id, 5, "alice").await.unwrap();
    store
        .apply(&move_change(game.id, 5, a_move(3, "g1f3", "Nf3")))
        .await
        .unwrap();
    let record = store.game(game.id).await.unwrap().unwrap();
    assert_eq!(record.takeback_by(), None);
    assert!(matches!(
        store
            .take_back(&TakeBack {
                requested_by: "alice".to_owned(),
                expected_version: 6,
                ..take("alice", 6)
            })
            .await,
        Err(StoreError::Conflict)
    ));
    // Declining clears it.
    store.request_takeback(game.id, 6, "bob").await.unwrap();
    store.clear_takeback(game.id, 6).await.unwrap();
    assert_eq!(
        store.game(game.id).await.unwrap().unwrap().takeback_by(),
        None
    );
}

/// A rematch is offered once, then started once, in the finished game's
/// channel; an active game can't have one.
async fn rematches_start_one_game(store: &Store) {
    let game = start_game(store, Some("rm"), "alice", "bob", true, 1_000).await;
    assert!(matches!(
        store.offer_rematch(game.id, "alice").await,
        Err(StoreError::Conflict)
    ));
    finish(store, &game, Score::WhiteWins, 2_000).await;
    store.offer_rematch(game.id, "alice").await.unwrap();
    assert!(matches!(
        store.offer_rematch(game.id, "bob").await,
        Err(StoreError::Conflict)
    ));
    let record = store.game(game.id).await.unwrap().unwrap();
    assert_eq!(record.offers.rematch_by.as_deref(), Some("alice"));
    assert_eq!(record.offers.rematch_game_id, None);
    let swapped = new_game(Some("rm"), "bob", "alice", true, 3_000);
    // Not on behalf of someone who did not offer.
    assert!(matches!(
        store.accept_rematch(game.id, "bob", &swapped).await,
        Err(StoreError::Conflict)
    ));
    assert_eq!(store.all_game_ids().await.unwrap(), [game.id]);
    // Two accepts at once start one game.
    let (a, b) = tokio::join!(
        store.accept_rematch(game.id, "alice", &swapped),
        store.accept_rematch(game.id, "alice", &swapped)
    );
    let started = match (a, b) {
        (Ok(g), Err(StoreError::Conflict)) | (Err(StoreError::Conflict), Ok(g)) => g,
        other => panic!("expected one rematch, got {other:?}"),
    };
    assert_eq!(started.game.white_id, "bob");
    let record = store.game(game.id).await.unwrap().unwrap();
    assert_eq!(record.offers.rematch_game_id, Some(started.id));
    assert_eq!(store.all_game_ids().await.unwrap().len(), 2);
    // A second finished game in a channel that is busy again.
    let other = start_game(store, Some("rm2"), "carol", "dave", false, 1_000).await;
    finish(store, &other, Score::Draw, 2_000).await;
    store.offer_rematch(other.id, "carol").await.unwrap();
    start_game(store, Some("rm2"), "erin", "frank", false, 2_500).await;
    assert!(matches!(
        store
            .accept_rematch(
                other.id,
                "carol",
                &new_game(Some("rm2"), "dave", "carol", false, 3_000)
            )
            .await,
        Err(StoreError::ChannelBusy)
    ));
    let record = store.game(other.id).await.unwrap().unwrap();
    assert_eq!(record.offers.rematch_game_id, None);
}

async fn board_orientation_round_trip(store: &Store) {
    store.touch_player(SERVER, "alice", "alice").await.unwrap();
    assert!(
        !store
            .player(SERVER, "alice")
            .await
            .unwrap()
            .unwrap()
            .board_white
    );
    store.set_board_white(SERVER, "alice", true).await.unwrap();
    assert!(
        store
            .player(SERVER, "alice")
            .await
            .unwrap()
            .unwrap()
            .board_white
    );
    // Read along with a game for play, too.
    store.touch_player(SERVER, "bob", "bob").await.unwrap();
    let game = start_game(store, Some("or"), "alice", "bob", false, 1_000).await;
    let view = store.play_view(game.id, 0).await.unwrap().unwrap();
    assert!(view.players[0].as_ref().unwrap().board_white);
    assert!(!view.players[1].as_ref().unwrap().board_white);
    store.set_board_white(SERVER, "alice", false).await.unwrap();
    assert!(
        !store
            .player(SERVER, "alice")
            .await
            .unwrap()
            .unwrap()
            .board_white
    );
    assert!(matches!(
        store.set_board_white(SERVER, "nobody", true).await,
        Err(StoreError::NotFound)
    ));
}

/// Adjournments (issue 29): an offer, the adjournment (one open at a
/// time), the seal (once), the resumption time and its reminders (each
/// once), the resumption with the sealed move (once, all or nothing, with
/// the settlement if it ends a rated game); and titles.
async fn adjournments_and_titles(store: &Store) {
    let game = start_game(store, Some("adj"), "alice", "bob", true, 1_000).await;
    let v = game.version;
    // An offer, standing at 2 plies; a stale version changes nothing.
    assert!(matches!(
        store.offer_adjournment(game.id, v + 5, "white", 2).await,
        Err(StoreError::Conflict)
    ));
    assert_eq!(store.adjourn_offer(game.id).await.unwrap(), None);
    let v = store
        .offer_adjournment(game.id, v, "white", 2)
        .await
        .unwrap();
    let offer = store.adjourn_offer(game.id).await.unwrap().unwrap();
    assert_eq!((offer.offered_by.as_str(), offer.ply), ("white", 2));
    // Declined: gone; declining again finds nothing.
    let v = store.clear_adjourn_offer(game.id, v).await.unwrap();
    assert_eq!(store.adjourn_offer(game.id).await.unwrap(), None);
    assert!(matches!(
        store.clear_adjourn_offer(game.id, v).await,
        Err(StoreError::Conflict)
    ));
    let v = store.game(game.id).await.unwrap().unwrap().version;
    let v = store
        .offer_adjournment(game.id, v, "black", 2)
        .await
        .unwrap();
    // Adjourned: the offer goes, the deadline is the sealer's flag.
    let new = NewAdjournment {
        ply: 2,
        reason: "agreed".to_owned(),
        adjourned_ms: 5_000,
        sealer: "white".to_owned(),
    };
    let (v, open) = store.adjourn(game.id, v, &new, Some(99_000)).await.unwrap();
    assert_eq!(store.adjourn_offer(game.id).await.unwrap(), None);
    assert_eq!(open.sealed_uci, None);
    assert!(open.is_open());
    let row = store.game(game.id).await.unwrap().unwrap();
    assert_eq!((row.version, row.state.deadline_ms), (v, Some(99_000)));
    // One open adjournment per game.
    assert!(matches!(
        store.adjourn(game.id, v, &new, None).await,
        Err(StoreError::Conflict)
    ));
    assert_eq!(store.game(game.id).await.unwrap().unwrap().version, v);
    // Sealed once: the clocks stop (no deadline).
    let v = store
        .seal_move(game.id, v, open.id, "g1f3", 6_000)
        .await
        .unwrap();
    assert!(matches!(
        store.seal_move(game.id, v, open.id, "b1c3", 6_500).await,
        Err(StoreError::Conflict)
    ));
    let row = store.game(game.id).await.unwrap().unwrap();
    assert_eq!((row.version, row.state.deadline_ms), (v, None));
    let sealed = store.adjournments(game.id).await.unwrap();
    assert_eq!(sealed.len(), 1);
    assert_eq!(sealed[0].sealed_uci.as_deref(), Some("g1f3"));
    assert_eq!(sealed[0].sealed_ms, Some(6_000));
    // Nothing due before a resumption time is set.
    assert!(store
        .resumptions_due_by(i64::MAX, 10)
        .await
        .unwrap()
        .is_empty());
    assert_eq!(store.next_resumption_event(24, 1).await.unwrap(), None);
    let at = 100 * HOUR;
    // A player's proposal waits; the agreed (or set) time clears it.
    let v = store
        .propose_resumption(game.id, v, open.id, "black", at)
        .await
        .unwrap();
    let proposed = &store.adjournments(game.id).await.unwrap()[0];
    assert_eq!(proposed.proposed_by.as_deref(), Some("black"));
    assert_eq!((proposed.proposed_ms, proposed.resume_ms), (Some(at), None));
    assert!(store
        .resumptions_due_by(i64::MAX, 10)
        .await
        .unwrap()
        .is_empty());
    let v = store.set_resumption(game.id, v, open.id, at).await.unwrap();
    let set = &store.adjournments(game.id).await.unwrap()[0];
    assert_eq!(
        (set.proposed_by.as_deref(), set.resume_ms),
        (None, Some(at))
    );
    // Reminders: 24 h before, then 1 h before, each once.
    assert_eq!(
        store.next_resumption_event(24, 1).await.unwrap(),
        Some(at - 24 * HOUR)
    );
    assert!(store
        .resumption_reminders_due(at - 25 * HOUR, 24, 1, 10)
        .await
        .unwrap()
        .is_empty());
    let due = store
        .resumption_reminders_due(at - 24 * HOUR, 24, 1, 10)
        .await
        .unwrap();
    assert_eq!(due.len(), 1);
    assert!(store.mark_resumption_reminder(open.id, 24).await.unwrap());
    assert!(!store.mark_resumption_reminder(open.id, 24).await.unwrap());
    assert!(store
        .resumption_reminders_due(at - 2 * HOUR, 24, 1, 10)
        .await
        .unwrap()
        .is_empty());
    assert_eq!(
        store.next_resumption_event(24, 1).await.unwrap(),
        Some(at - HOUR)
    );
    assert!(store.mark_resumption_reminder(open.id, 1).await.unwrap());
    assert!(!store.mark_resumption_reminder(open.id, 24).await.unwrap());
    assert_eq!(store.next_resumption_event(24, 1).await.unwrap(), Some(at));
    // Due at its time, not before.
    assert!(store
        .resumptions_due_by(at - 1, 10)
        .await
        .unwrap()
        .is_empty());
    assert_eq!(
        store.resumptions_due_by(at, 10).await.unwrap(),
        vec![game.id]
    );
    // Resumed with the sealed move, once; a stale version changes nothing.
    let change = GameChange {
        game_id: game.id,
        expected_version: v,
        new_move: Some(a_move(3, "g1f3", "Nf3")),
        state: GameState {
            deadline_ms: Some(at + HOUR),
            ..GameState::default()
        },
        rating: None,
        mover: None,
        at_ms: at,
    };
    let stale = GameChange {
        expected_version: v - 1,
        ..change.clone()
    };
    assert!(matches!(
        store.resume_adjourned(&stale, open.id).await,
        Err(StoreError::Conflict)
    ));
    assert!(store.adjournments(game.id).await.unwrap()[0].is_open());
    let applied = store.resume_adjourned(&change, open.id).await.unwrap();
    assert_eq!(applied.version, v + 1);
    let closed = store.adjournments(game.id).await.unwrap();
    assert_eq!(closed[0].resumed_ms, Some(at));
    assert!(matches!(
        store
            .resume_adjourned(
                &GameChange {
                    expected_version: v + 1,
                    new_move: Some(a_move(4, "b8c6", "Nc6")),
                    ..change.clone()
                },
                open.id
            )
            .await,
        Err(StoreError::Conflict)
    ));
    assert_eq!(store.moves(game.id).await.unwrap().len(), 1);
    assert!(store
        .resumptions_due_by(i64::MAX, 10)
        .await
        .unwrap()
        .is_empty());
    // A game may be adjourned again; the move path sees that it was.
    let again = NewAdjournment {
        ply: 3,
        reason: "session".to_owned(),
        adjourned_ms: at + 1_000,
        sealer: "black".to_owned(),
    };
    let (_, second) = store.adjourn(game.id, v + 1, &again, None).await.unwrap();
    assert_ne!(second.id, open.id);
    assert_eq!(store.adjournments(game.id).await.unwrap().len(), 2);
    assert!(
        store
            .play_view(game.id, 0)
            .await
            .unwrap()
            .unwrap()
            .adjourned
    );
    let other = start_game(store, Some("adj2"), "carol", "dave", false, 1_000).await;
    assert!(
        !store
            .play_view(other.id, 0)
            .await
            .unwrap()
            .unwrap()
            .adjourned
    );

    // Titles: set, read along with the game, removed; only for players.
    assert_eq!(
        store.player(SERVER, "alice").await.unwrap().unwrap().title,
        None
    );
    store.set_title(SERVER, "alice", Some("GM")).await.unwrap();
    let alice = store.player(SERVER, "alice").await.unwrap().unwrap();
    assert_eq!(alice.title.as_deref(), Some("GM"));
    assert_eq!(alice.titled_name(), "GM alice");
    let view = store.play_view(game.id, 0).await.unwrap().unwrap();
    assert_eq!(view.players[0].as_ref().unwrap().titled_name(), "GM alice");
    assert_eq!(view.players[1].as_ref().unwrap().titled_name(), "bob");
    store.set_title(SERVER, "alice", None).await.unwrap();
    assert_eq!(
        store.player(SERVER, "alice").await.unwrap().unwrap().title,
        None
    );
    assert!(matches!(
        store.set_title(SERVER, "nobody", Some("IM")).await,
        Err(StoreError::NotFound)
    ));
}

/// A Chess960 game keeps its variant and start, and settles on its own
/// ladder: the standard ladder (and its history) does not move.
async fn variant_games_settle_on_their_own_ladder(store: &Store) {
    use chessbot::store::Variant;
    let fen = "qbnnrkbr/pppppppp/8/8/8/8/PPPPPPPP/QBNNRKBR w KQkq - 0 1";
    store.touch_player(SERVER, "vw", "vw").await.unwrap();
    store.touch_player(SERVER, "vb", "vb").await.unwrap();
    let mut c = challenge("c960", "vw", Some("vb"), true);
    c.variant = Variant::Chess960;
    c.start_number = Some(12);
    c.initial_fen = Some(fen.to_owned());
    let c = store.create_challenge(&c).await.unwrap();
    let read = store.challenge(c.id).await.unwrap().unwrap();
    assert_eq!(
        (read.challenge.variant, read.challenge.start_number),
        (Variant::Chess960, Some(12))
    );
    let mut g = new_game(Some("c960"), "vw", "vb", true, 5_000);
    g.variant = read.challenge.variant;
    g.start_number = read.challenge.start_number;
    g.initial_fen = read.challenge.initial_fen.clone();
    let game = store.accept_challenge(c.id, 5_000, &g).await.unwrap();
    let stored = store.game(game.id).await.unwrap().unwrap();
    assert_eq!(stored.game.variant, Variant::Chess960);
    assert_eq!(stored.game.start_number, Some(12));
    assert_eq!(stored.game.initial_fen.as_deref(), Some(fen));
    finish(store, &stored, Score::BlackWins, 6_000).await;
    let standard = store.player(SERVER, "vb").await.unwrap().unwrap();
    assert_eq!((standard.points, standard.rated_games), (0, 0));
    let own = store
        .player_in(SERVER, "vb", Variant::Chess960)
        .await
        .unwrap()
        .unwrap();
    assert_eq!((own.points, own.rated_games, own.wins), (1000, 1, 1));
    assert_eq!(own.display_name, "vb");
    let ladder = store
        .leaderboard_in(SERVER, Variant::Chess960, 0, 10)
        .await
        .unwrap();
    let order: Vec<(&str, i64)> = ladder
        .iter()
        .map(|p| (p.user_id.as_str(), p.points))
        .collect();
    assert_eq!(order, [("vb", 1000), ("vw", -1000)]);
    assert_eq!(
        store
            .ladder_size_in(SERVER, Variant::Chess960)
            .await
            .unwrap(),
        2
    );
    assert_eq!(
        store
            .ladder_size_in(SERVER, Variant::Standard)
            .await
            .unwrap(),
        0
    );
    assert_eq!(
        store
            .points_total_in(SERVER, Variant::Chess960)
            .await
            .unwrap(),
        0
    );
    assert!(store.rating_history(SERVER, "vb").await.unwrap().is_empty());
    let history = store
        .rating_history_in(SERVER, "vb", Variant::Chess960)
        .await
        .unwrap();
    assert_eq!(history.len(), 1);
    let lines = store.variant_records(SERVER, "vw").await.unwrap();
    assert_eq!(lines.len(), 1);
    assert_eq!((lines[0].0, lines[0].1.losses), (Variant::Chess960, 1));
    // A second game on the same ladder adds to it.
    let mut c2 = challenge("c960b", "vb", Some("vw"), true);
    c2.variant = Variant::Chess960;
    let c2 = store.create_challenge(&c2).await.unwrap();
    let mut g2 = new_game(Some("c960b"), "vb", "vw", true, 7_000);
    g2.variant = Variant::Chess960;
    let game2 = store.accept_challenge(c2.id, 7_000, &g2).await.unwrap();
    finish(store, &game2, Score::WhiteWins, 8_000).await;
    let own = store
        .player_in(SERVER, "vb", Variant::Chess960)
        .await
        .unwrap()
        .unwrap();
    assert_eq!((own.points, own.rated_games), (2000, 2));
}

/// A change computed on a play view kept from an earlier read
/// (`Store::apply_checked`) commits only if none of the rows the view was
/// read from has changed since. On PostgreSQL a change to the game row (even
/// one that leaves its version alone), the server's settings, a player's
/// row, a vacation or the game's conditional moves makes it a conflict that
/// writes nothing; read again, the same move commits. A view brought up to
/// date with the commit's stamp is what a read gives. `Store::view_is_current`
/// makes the same check without writing. SQLite's views carry no stamps (one
/// process: the version is the check).
async fn kept_views_are_checked_in_the_commit(store: &Store) {
    let game = start_game(store, Some("kept"), "alice", "bob", false, 1_000).await;
    let view = store.play_view(game.id, 0).await.unwrap().unwrap();
    let Some(check) = view.check.clone() else {
        assert_eq!(store.backend(), Backend::Sqlite);
        return;
    };
    assert_eq!(store.backend(), Backend::Postgres);
    assert!(store.view_is_current(game.id, &check).await.unwrap());
    // Nothing changed: the kept view commits, and the commit's stamp is the
    // one a new read sees.
    let applied = store
        .apply_checked(&move_change(game.id, 0, a_move(1, "e2e4", "e4")), &check)
        .await
        .unwrap();
    let mut check = chessbot::store::ViewCheck {
        game: applied.stamp.clone().expect("a stamp on PostgreSQL"),
        ..check
    };
    let read = store.play_view(game.id, 0).await.unwrap().unwrap();
    assert_eq!(read.check.as_ref(), Some(&check));
    assert_eq!(read.record.version, 1);

    let line = [
        ("e7e5", "e5"),
        ("g1f3", "Nf3"),
        ("b8c6", "Nc6"),
        ("f1b5", "Bb5"),
        ("a7a6", "a6"),
        ("b5a4", "Ba4"),
        ("g8f6", "Nf6"),
    ];
    let mut version = 1;
    for (i, (uci, san)) in line.iter().enumerate() {
        // Someone else changes one thing the view was read from.
        match i {
            0 => {
                let mut settings = store.server(SERVER).await.unwrap();
                settings.theme = if settings.theme == "green" {
                    "brown"
                } else {
                    "green"
                }
                .into();
                store.save_settings(&settings).await.unwrap();
            }
            1 => store.set_board_white(SERVER, "bob", true).await.unwrap(),
            2 => {
                store
                    .add_vacation(SERVER, "bob", 20_000_000, 30_000_000)
                    .await
                    .unwrap();
            }
            3 => {
                let tree = chessbot::store::ConditionalRecord {
                    game_id: game.id,
                    user_id: "bob".into(),
                    base_plies: version,
                    lines: "a7a6".into(),
                    updated_ms: 5_000,
                };
                store.put_conditional(version, &tree).await.unwrap();
            }
            // The other player's row (White's), and a vacation ending.
            4 => store.set_board_white(SERVER, "alice", true).await.unwrap(),
            5 => {
                let ended = store.end_vacation(SERVER, "bob", 25_000_000).await;
                assert!(ended.unwrap(), "bob's vacation was running");
            }
            _ => {
                // The game row itself, its version left alone.
                store.set_next_reminder(game.id, Some(123)).await.unwrap();
            }
        }
        let ply = version + 1;
        // The check without a write (`Store::view_is_current`) sees it too.
        assert!(
            !store.view_is_current(game.id, &check).await.unwrap(),
            "{i}"
        );
        let change = move_change(game.id, version, a_move(ply, uci, san));
        let stale = store.apply_checked(&change, &check).await;
        assert!(matches!(stale, Err(StoreError::Conflict)), "{i}: {stale:?}");
        assert_eq!(store.moves(game.id).await.unwrap().len() as i64, version);
        assert_eq!(store.game(game.id).await.unwrap().unwrap().version, version);
        // Read again: the same move commits on the fresh view.
        let fresh = store.play_view(game.id, 0).await.unwrap().unwrap();
        let fresh = fresh.check.expect("stamps");
        assert_ne!(fresh, check, "{i}: the change shows in the stamps");
        let applied = store.apply_checked(&change, &fresh).await.unwrap();
        version = applied.version;
        check = chessbot::store::ViewCheck {
            game: applied.stamp.expect("a stamp"),
            ..fresh
        };
        assert!(store.view_is_current(game.id, &check).await.unwrap(), "{i}");
    }
    let moves = store.moves(game.id).await.unwrap();
    assert_eq!(
        moves.iter().map(|m| m.ply).collect::<Vec<_>>(),
        (1..=8).collect::<Vec<_>>()
    );
}

/// A move on a kept view by a player on vacation ends the vacation in the
/// same commit, as on a fresh read: the vacation is part of the view (the
/// statement takes the mover's word for it, which the context stamp
/// guarantees). A move by a player with no vacation running leaves the other
/// player's alone.
async fn kept_view_moves_end_the_movers_vacation(store: &Store) {
    let game = game_with_vacations(store, "kept-away", [500, 20_000]).await;
    let view = store.play_view(game.id, 0).await.unwrap().unwrap();
    let Some(check) = view.check.clone() else {
        assert_eq!(store.backend(), Backend::Sqlite);
        return;
    };
    let moved_by = |user, running, version, m| move_by(game.id, user, running, version, m);
    // alice moves at 10,000, during her vacation: it ends then.
    let applied = store
        .apply_checked(&moved_by("alice", true, 0, a_move(1, "e2e4", "e4")), &check)
        .await
        .unwrap();
    assert!(applied.vacation_ended);
    let alice = store.vacations(SERVER, "alice", 0).await.unwrap();
    assert_eq!(alice[0].ends_ms, 10_000);
    // Ending it moved the context stamp: the view kept with the commit's
    // game stamp is stale, and a fresh read is current.
    let kept = chessbot::store::ViewCheck {
        game: applied.stamp.clone().expect("a stamp"),
        ..check
    };
    assert!(!store.view_is_current(game.id, &kept).await.unwrap());
    let fresh = store.play_view(game.id, 0).await.unwrap().unwrap();
    let fresh = fresh.check.expect("stamps");
    // bob's vacation starts at 20,000: at 10,000 it is not running, and his
    // move leaves it as it is.
    let applied = store
        .apply_checked(&moved_by("bob", false, 1, a_move(2, "e7e5", "e5")), &fresh)
        .await
        .unwrap();
    assert!(!applied.vacation_ended);
    let bob = store.vacations(SERVER, "bob", 0).await.unwrap();
    assert_eq!((bob[0].starts_ms, bob[0].ends_ms), (20_000, 50_000));
    assert_eq!(store.moves(game.id).await.unwrap().len(), 2);
}

/// What a process records on its first command from a server and a player
/// (the server's locale, the player's name and locale) writes nothing when
/// it is what is stored already, so kept views of their games stay current
/// (PostgreSQL; another process starting does not make every game read
/// again). A new value is written, and the view is stale.
async fn recording_the_same_again_keeps_views_current(store: &Store) {
    /// What a process records on alice's first command: her name, her
    /// locale and the server's.
    async fn record_alice_in_chinese(store: &Store) {
        store.touch_player(SERVER, "alice", "Alice").await.unwrap();
        store
            .set_player_locale(SERVER, "alice", Some("zh-CN"))
            .await
            .unwrap();
        store
            .set_discord_locale(SERVER, Some("zh-CN"))
            .await
            .unwrap();
    }

    let game = start_game(store, Some("same"), "alice", "bob", false, 1_000).await;
    record_alice_in_chinese(store).await;
    let view = store.play_view(game.id, 0).await.unwrap().unwrap();
    let Some(check) = view.check else {
        assert_eq!(store.backend(), Backend::Sqlite);
        return;
    };
    record_alice_in_chinese(store).await;
    assert!(store.view_is_current(game.id, &check).await.unwrap());
    store
        .touch_player(SERVER, "alice", "Alice Li")
        .await
        .unwrap();
    assert!(!store.view_is_current(game.id, &check).await.unwrap());
    let alice = store.player(SERVER, "alice").await.unwrap().unwrap();
    assert_eq!(
        (alice.display_name.as_str(), alice.locale.as_deref()),
        ("Alice Li", Some("zh-CN"))
    );
}

/// A move with the given deadline and next reminder.
fn timed_move(
    game_id: i64,
    version: i64,
    deadline: Option<i64>,
    reminder: Option<i64>,
) -> GameChange {
    let ply = version + 1;
    let (uci, san) = [
        ("g1f3", "Nf3"),
        ("g8f6", "Nf6"),
        ("f3g1", "Ng1"),
        ("f6g8", "Ng8"),
    ][(version % 4) as usize];
    GameChange {
        state: GameState {
            deadline_ms: deadline,
            next_reminder_ms: reminder,
            ..GameState::default()
        },
        ..move_change(game_id, version, a_move(ply, uci, san))
    }
}

/// The ids the sweeps find by `until`, and the ids they should find (by the
/// games' true deadlines and reminders).
async fn sweeps_at(store: &Store, ids: &[i64], until: i64) -> [(Vec<i64>, Vec<i64>); 2] {
    let mut due: Vec<i64> = store
        .games_due_by(until, 1_000)
        .await
        .unwrap()
        .iter()
        .map(|g| g.id)
        .collect();
    let mut remind: Vec<i64> = store
        .games_to_remind_by(until, 1_000)
        .await
        .unwrap()
        .iter()
        .map(|g| g.id)
        .collect();
    due.sort_unstable();
    remind.sort_unstable();
    let (mut want_due, mut want_remind) = (Vec::new(), Vec::new());
    for &id in ids {
        let g = store.game(id).await.unwrap().unwrap();
        if g.state.result.is_some() {
            continue;
        }
        if g.state.deadline_ms.is_some_and(|d| d <= until) {
            want_due.push(id);
        }
        if g.state.next_reminder_ms.is_some_and(|r| r <= until) {
            want_remind.push(id);
        }
    }
    [(due, want_due), (remind, want_remind)]
}

/// The scheduler's bound (`wake_ms`) is left behind by moves whose deadline
/// is later and lowered by those whose deadline is earlier; whatever its
/// staleness, a sweep finds exactly the games due, and `raise_wakes` brings
/// the stale bounds up to their true value (once).
async fn sweeps_never_miss_a_game_behind_a_stale_bound(store: &Store) {
    const T: i64 = 1_000;
    let a = start_game(store, Some("wake-a"), "alice", "bob", false, T).await;
    let b = start_game(store, Some("wake-b"), "carol", "dave", false, T).await;
    let ids = [a.id, b.id];
    let first = T + 72 * HOUR;
    for until in [T, first - 1, first, first + 1] {
        for (found, want) in sweeps_at(store, &ids, until).await {
            assert_eq!(found, want, "until {until}");
        }
    }

    // A later deadline and a reminder: the bound stays at the old deadline.
    let later = first + 100 * HOUR;
    store
        .apply(&timed_move(a.id, 0, Some(later), Some(later - 24 * HOUR)))
        .await
        .unwrap();
    for until in [first, later - 24 * HOUR, later] {
        for (found, want) in sweeps_at(store, &ids, until).await {
            assert_eq!(found, want, "until {until}");
        }
    }
    // Raising up to `first` raises a's bound (b's is true already), once.
    assert_eq!(store.raise_wakes(first).await.unwrap(), 1);
    assert_eq!(store.raise_wakes(first).await.unwrap(), 0);
    // A bound not yet reached is left alone.
    store
        .apply(&timed_move(a.id, 1, Some(later + HOUR), None))
        .await
        .unwrap();
    assert_eq!(store.raise_wakes(later - 24 * HOUR - 1).await.unwrap(), 0);
    assert_eq!(store.raise_wakes(later - 24 * HOUR).await.unwrap(), 1);

    // An earlier deadline lowers the bound in the move's own statement.
    let soon = T + HOUR;
    store
        .apply(&timed_move(a.id, 2, Some(soon), None))
        .await
        .unwrap();
    let found = store.games_due_by(soon, 10).await.unwrap();
    assert_eq!(found.iter().map(|g| g.id).collect::<Vec<_>>(), vec![a.id]);

    // Deadlines and reminders moving both ways, by moves and by the other
    // writers of those times, with raises at random points: every sweep
    // finds exactly the games due.
    let mut seed: u64 = 0x2400_5eed;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut version = [3, 0];
    for step in 0..60 {
        let i = (next() % 2) as usize;
        let id = ids[i];
        let deadline = (next() % 4 != 0).then(|| T + (next() % 200) as i64 * HOUR);
        let reminder = match (deadline, next() % 3) {
            (Some(d), 0) => Some(d - (next() % 48) as i64 * HOUR),
            _ => None,
        };
        match next() % 4 {
            0 => {
                store
                    .set_deadline(id, version[i], deadline, 0, reminder)
                    .await
                    .unwrap();
            }
            1 => store.set_next_reminder(id, reminder).await.unwrap(),
            _ => {
                store
                    .apply(&timed_move(id, version[i], deadline, reminder))
                    .await
                    .unwrap();
                version[i] += 1;
            }
        }
        if next() % 3 == 0 {
            store
                .raise_wakes(T + (next() % 200) as i64 * HOUR)
                .await
                .unwrap();
        }
        for until in [T, T + (next() % 200) as i64 * HOUR, T + 200 * HOUR] {
            for (found, want) in sweeps_at(store, &ids, until).await {
                assert_eq!(found, want, "step {step}, until {until}");
            }
        }
    }
    // An ending leaves the sweeps, whatever its bound.
    finish(
        store,
        &store.game(b.id).await.unwrap().unwrap(),
        Score::Draw,
        T,
    )
    .await;
    store.raise_wakes(i64::MAX).await.unwrap();
    for (found, want) in sweeps_at(store, &ids, i64::MAX).await {
        assert!(!found.contains(&b.id));
        assert_eq!(found, want);
    }
    assert_eq!(store.raise_wakes(i64::MAX).await.unwrap(), 0);
}

/// On PostgreSQL a move's connection is kept for the next move, without
/// sqlx's test on giving it back (`store/hot.rs`), but only once its
/// statement has finished. Here a move waits on a row another transaction
/// holds and its caller gives up: that connection is not kept, the
/// abandoned statement commits or not as the database decides, and the
/// next move commits on a sound connection. (On SQLite moves go through
/// the group commit, which keeps none.)
async fn a_connection_is_kept_only_after_its_statement_finished(store: &Store) {
    let game = start_game(store, Some("hot"), "alice", "bob", false, 1_000).await;
    store
        .apply(&move_change(game.id, 0, a_move(1, "e2e4", "e4")))
        .await
        .unwrap();
    if store.backend() == Backend::Sqlite {
        assert_eq!(store.kept_connections(), 0);
        return;
    }
    assert_eq!(store.kept_connections(), 1);

    let mut holder = store.pool().begin().await.unwrap();
    sqlx::query("SELECT id FROM games WHERE id = $1 FOR UPDATE")
        .bind(game.id)
        .execute(&mut *holder)
        .await
        .unwrap();
    let second = move_change(game.id, 1, a_move(2, "e7e5", "e5"));
    let waiting = store.apply(&second);
    let gave_up = tokio::time::timeout(std::time::Duration::from_millis(300), waiting).await;
    assert!(gave_up.is_err(), "the move waited on the held row");
    assert_eq!(
        store.kept_connections(),
        0,
        "a half-run statement's connection"
    );
    holder.rollback().await.unwrap();

    // The abandoned statement may have committed once the row was free.
    let mut version = 0;
    for _ in 0..100 {
        version = store.game(game.id).await.unwrap().unwrap().version;
        if version == 2 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    let next = match version {
        2 => move_change(game.id, 2, a_move(3, "g1f3", "Nf3")),
        _ => second,
    };
    let applied = store.apply(&next).await.unwrap();
    assert_eq!(applied.version, version + 1);
    assert_eq!(store.kept_connections(), 1);
    let sans: Vec<String> = store
        .moves(game.id)
        .await
        .unwrap()
        .into_iter()
        .map(|m| m.san)
        .collect();
    assert_eq!(sans.len() as i64, version + 1);
}

/// Connections the server closed meanwhile (a restart, an administrator
/// ending sessions), kept ones included, each cost at most one failed
/// statement: the move that finds one dead writes nothing and says so, the
/// connection is dropped, not kept, and the move goes through once it gets
/// a live one. (Idle ones in the pool are pinged only after a second
/// unused, so right after the restart several may be found dead in turn.)
/// SQLite keeps none.
async fn connections_the_server_closed_are_dropped_not_kept(store: &Store) {
    if store.backend() == Backend::Sqlite {
        return;
    }
    let game = start_game(store, Some("closed"), "alice", "bob", false, 1_000).await;
    store
        .apply(&move_change(game.id, 0, a_move(1, "e2e4", "e4")))
        .await
        .unwrap();
    assert_eq!(store.kept_connections(), 1);
    // Every other session of this database, the kept connection's too.
    sqlx::query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
         WHERE datname = current_database() AND pid <> pg_backend_pid()",
    )
    .execute(store.pool())
    .await
    .unwrap();
    let second = move_change(game.id, 1, a_move(2, "e7e5", "e5"));
    let mut failures = 0;
    while let Err(e) = store.apply(&second).await {
        // A statement the server took before the session ended may have
        // committed although its answer was lost: the retry then finds the
        // version moved on.
        if matches!(e, StoreError::Conflict) && failures > 0 {
            break;
        }
        assert!(matches!(e, StoreError::Database(_)), "{e:?}");
        assert_eq!(store.kept_connections(), 0, "a dead connection is not kept");
        failures += 1;
        // The pool's eight and the four kept: each found dead once at most.
        assert!(failures <= 12, "a dead connection came back");
    }
    assert_eq!(store.moves(game.id).await.unwrap().len(), 2);
    let applied = store
        .apply(&move_change(game.id, 2, a_move(3, "g1f3", "Nf3")))
        .await
        .unwrap();
    assert_eq!(applied.version, 3);
    assert_eq!(store.kept_connections(), 1);
}

/// The rules of the stored data that PostgreSQL's schema leaves to the code
/// (migration 0021, `Store::integrity_faults`): a scheduler bound after the
/// game's deadline is refused (SQLite's check) or reported (PostgreSQL), as
/// is a move whose game does not exist (SQLite's foreign key); a game, which
/// its moves refer to, cannot be deleted.
async fn rules_left_to_the_code_are_refused_or_reported(store: &Store) {
    let game = start_game(store, Some("rules"), "alice", "bob", false, 1_000).await;
    assert!(store.integrity_faults().await.unwrap().is_empty());
    let late = sqlx::query("UPDATE games SET deadline_ms = 5000, wake_ms = 6000 WHERE id = $1")
        .bind(game.id)
        .execute(store.pool())
        .await;
    match store.backend() {
        Backend::Sqlite => {
            let error = late.expect_err("SQLite's check refuses a late bound");
            assert!(error.to_string().contains("CHECK"), "{error}");
        }
        Backend::Postgres => {
            late.unwrap();
            assert_eq!(
                store.integrity_faults().await.unwrap(),
                vec![format!(
                    "game {}: scheduler bound after its deadline or reminder",
                    game.id
                )]
            );
            sqlx::query("UPDATE games SET wake_ms = 5000 WHERE id = $1")
                .bind(game.id)
                .execute(store.pool())
                .await
                .unwrap();
            let deleted = sqlx::query("DELETE FROM games WHERE id = $1")
                .bind(game.id)
                .execute(store.pool())
                .await
                .expect_err("games are never deleted");
            assert!(
                deleted.to_string().contains("games are never deleted"),
                "{deleted}"
            );
        }
    }
    // A move whose game does not exist: refused by a foreign key, or
    // reported.
    let orphan = sqlx::query(
        "INSERT INTO moves (game_id, ply, uci, san, played_ms) VALUES (999999, 1, 'e2e4', 'e4', 0)",
    )
    .execute(store.pool())
    .await;
    if orphan.is_ok() {
        assert_eq!(
            store.integrity_faults().await.unwrap(),
            vec!["game 999999: moves of a game that does not exist".to_owned()]
        );
        sqlx::query("DELETE FROM moves WHERE game_id = 999999")
            .execute(store.pool())
            .await
            .unwrap();
    }
    assert_eq!(store.backend() == Backend::Postgres, orphan.is_ok());
    assert!(store.integrity_faults().await.unwrap().is_empty());
    assert!(store.game(game.id).await.unwrap().is_some());
}

conformance!(
    rules_left_to_the_code_are_refused_or_reported,
    connections_the_server_closed_are_dropped_not_kept,
    a_connection_is_kept_only_after_its_statement_finished,
    sweeps_never_miss_a_game_behind_a_stale_bound,
    kept_views_are_checked_in_the_commit,
    kept_view_moves_end_the_movers_vacation,
    recording_the_same_again_keeps_views_current,
    variant_games_settle_on_their_own_ladder,
    adjournments_and_titles,
    migrations_are_idempotent,
    challenges_are_answered_once,
    accepting_creates_one_game,
    one_active_game_per_channel,
    apply_checks_the_version,
    a_move_ends_its_players_vacation,
    duplicate_ply_is_rejected,
    rated_ending_settles_both_players,
    leaderboard_and_history,
    games_of_and_pair_counts,
    server_settings_round_trip,
    languages_and_locales_are_kept,
    configured_server_defaults,
    moves_replay_in_order,
    concurrent_accepts_start_one_game,
    concurrent_moves_apply_once,
    takebacks_are_version_checked,
    rematches_start_one_game,
    board_orientation_round_trip,
    analyses_queue_resume_and_keep_evals,
    grouped_moves_fail_alone,
);

#[test]
fn test_database_urls_keep_credentials_and_options() {
    use common::with_database;
    assert_eq!(
        with_database("postgres://u@h:5432/test", "x"),
        "postgres://u@h:5432/x"
    );
    assert_eq!(
        with_database("postgres://u:p@h/test?sslmode=disable", "x"),
        "postgres://u:p@h/x?sslmode=disable"
    );
    assert_eq!(with_database("postgres://h", "x"), "postgres://h/x");
}
