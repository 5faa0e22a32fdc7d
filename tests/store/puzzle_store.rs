//! Puzzles in the store on both backends (SQLite in a temp file,
//! PostgreSQL on `TEST_POSTGRES_URL`): the pool, one attempt per player and
//! puzzle, the rating of an ended attempt (the club scheme, solver against
//! puzzle) and the puzzle ladder.

use chessbot::store::{AttemptStatus, NewPuzzle, Rated, Store, StoreError};

const SERVER: &str = "server-1";
const OTHER: &str = "server-2";

fn puzzle(fen: &str) -> NewPuzzle {
    NewPuzzle {
        fen: fen.to_owned(),
        moves: vec!["a1a8".to_owned()],
        themes: vec!["mateIn1".to_owned(), "endgame".to_owned()],
        source: "starter".to_owned(),
    }
}

const A: &str = "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1";
const B: &str = "k7/8/3K4/8/8/8/8/7R w - - 0 1";

async fn the_pool_and_one_rated_attempt_per_player(store: &Store) {
    assert_eq!(
        store
            .add_puzzles(SERVER, &[puzzle(A), puzzle(B), puzzle(A)], 1_000)
            .await
            .unwrap(),
        2,
        "a position already in the pool is skipped"
    );
    assert_eq!(
        store.add_puzzles(OTHER, &[puzzle(A)], 1_000).await.unwrap(),
        1
    );
    assert_eq!(store.puzzle_count(SERVER).await.unwrap(), 2);
    assert_eq!(store.puzzle_count(OTHER).await.unwrap(), 1);

    // The nearest to 0 points, the older first.
    let first = store
        .puzzle_near(SERVER, "alice", 0, 10_000)
        .await
        .unwrap()
        .expect("a puzzle");
    assert_eq!(first.fen, A);
    assert_eq!(first.moves, ["a1a8"]);
    assert_eq!(first.themes, ["mateIn1", "endgame"]);
    assert_eq!((first.points, first.attempts, first.solved), (0, 0, 0));
    assert_eq!(store.puzzle(first.id).await.unwrap(), Some(first.clone()));

    let attempt = store
        .start_attempt(SERVER, "alice", "Alice", first.id, 2_000)
        .await
        .unwrap();
    assert_eq!(attempt.status, AttemptStatus::Open);
    assert_eq!(
        store.open_attempt(SERVER, "alice").await.unwrap(),
        Some(attempt.clone())
    );
    // One attempt per puzzle, one open at a time.
    let second = store.puzzle_near(SERVER, "alice", 0, 10_000).await.unwrap();
    assert_eq!(second.as_ref().map(|p| p.fen.as_str()), Some(B));
    assert!(matches!(
        store
            .start_attempt(SERVER, "alice", "Alice", second.expect("b").id, 2_100)
            .await,
        Err(StoreError::Conflict)
    ));
    assert!(matches!(
        store
            .start_attempt(SERVER, "alice", "Alice", first.id, 2_100)
            .await,
        Err(StoreError::Conflict)
    ));
    // Progress is checked like a game's version.
    store
        .advance_attempt(first.id, "alice", 0, 2)
        .await
        .unwrap();
    assert!(matches!(
        store.advance_attempt(first.id, "alice", 0, 2).await,
        Err(StoreError::Conflict)
    ));
    assert!(store.mark_hinted(first.id, "alice").await.unwrap());
    assert!(!store.mark_hinted(first.id, "alice").await.unwrap());
    assert!(matches!(
        store
            .finish_attempt(first.id, "alice", 0, true, 3_000)
            .await,
        Err(StoreError::Conflict)
    ));

    // Solved: 0 against 0, the solver wins 10 points.
    let rated = store
        .finish_attempt(first.id, "alice", 2, true, 3_000)
        .await
        .unwrap();
    assert_eq!(
        rated,
        Rated {
            delta: 1000,
            solver_points: 1000,
            puzzle_points: -1000
        }
    );
    let ended = store
        .attempt(first.id, "alice")
        .await
        .unwrap()
        .expect("kept");
    assert_eq!(ended.status, AttemptStatus::Solved);
    assert_eq!((ended.progress, ended.hinted), (2, true));
    assert_eq!((ended.delta, ended.ended_ms), (Some(1000), Some(3_000)));
    assert_eq!(store.open_attempt(SERVER, "alice").await.unwrap(), None);
    assert_eq!(
        store.latest_attempt(SERVER, "alice").await.unwrap(),
        Some(ended.clone())
    );
    assert_eq!(store.latest_attempt(OTHER, "alice").await.unwrap(), None);
    // An answer after the end finds nothing open: nothing changes.
    assert!(matches!(
        store
            .finish_attempt(first.id, "alice", 2, false, 3_500)
            .await,
        Err(StoreError::Conflict)
    ));

    // Failed: bob (0) against the puzzle (−10): the lower side wins,
    // 10 + 10/10 = 11 points from bob.
    store
        .start_attempt(SERVER, "bob", "Bob", first.id, 4_000)
        .await
        .unwrap();
    let rated = store
        .finish_attempt(first.id, "bob", 0, false, 4_100)
        .await
        .unwrap();
    assert_eq!(
        rated,
        Rated {
            delta: -1100,
            solver_points: -1100,
            puzzle_points: 100
        }
    );
    let after = store.puzzle(first.id).await.unwrap().expect("puzzle");
    assert_eq!((after.points, after.attempts, after.solved), (100, 2, 1));
    // The other server's copy is its own.
    let other = store
        .puzzle_near(OTHER, "alice", 0, 0)
        .await
        .unwrap()
        .expect("other pool");
    assert_eq!(other.points, 0);

    // The ladder: most points first; nobody without a rated attempt.
    let carol_puzzle = store
        .puzzle_near(SERVER, "carol", 0, 10_000)
        .await
        .unwrap()
        .expect("b");
    store
        .start_attempt(SERVER, "carol", "Carol", carol_puzzle.id, 5_000)
        .await
        .unwrap();
    let ladder = store.puzzle_ladder(SERVER, 0, 10).await.unwrap();
    let names: Vec<(&str, i64, i64, i64)> = ladder
        .iter()
        .map(|p| (p.display_name.as_str(), p.points, p.attempts, p.solved))
        .collect();
    assert_eq!(names, [("Alice", 1000, 1, 1), ("Bob", -1100, 1, 0)]);
    assert_eq!(store.puzzle_ladder(SERVER, 1, 10).await.unwrap().len(), 1);
    let carol = store
        .puzzle_player(SERVER, "carol")
        .await
        .unwrap()
        .expect("row");
    assert_eq!((carol.points, carol.attempts), (0, 0));
    assert_eq!(store.puzzle_player(OTHER, "carol").await.unwrap(), None);
    // A window that holds nothing: none left at that level.
    assert_eq!(
        store
            .puzzle_near(SERVER, "dave", 50_000, 1_000)
            .await
            .unwrap(),
        None
    );
}

/// The daily puzzle: a day is posted once (a second post of it is a
/// conflict), posting the next closes it and expires its open attempts,
/// and an attempt starts only on an open day with a puzzle.
async fn a_daily_puzzle_is_posted_once_and_closed_by_the_next(store: &Store) {
    use chessbot::store::{DailyStartError, DailyStatus};
    store
        .add_puzzles(SERVER, &[puzzle(A), puzzle(B)], 1_000)
        .await
        .unwrap();
    let first = store.pick_daily_puzzle(SERVER).await.unwrap().expect("one");
    assert_eq!(first.fen, A);
    assert!(store
        .post_daily(SERVER, 10, Some(first.id), "ch", 2_000)
        .await
        .unwrap()
        .is_empty());
    assert!(matches!(
        store
            .post_daily(SERVER, 10, Some(first.id), "ch", 2_001)
            .await,
        Err(StoreError::Conflict)
    ));
    // A daily puzzle is never picked again, nor given by `/puzzle`.
    let next = store.pick_daily_puzzle(SERVER).await.unwrap().expect("one");
    assert_eq!(next.fen, B);
    assert_eq!(
        store
            .puzzle_near(SERVER, "alice", 0, 10_000)
            .await
            .unwrap()
            .map(|p| p.fen),
        Some(B.to_owned())
    );
    store
        .start_daily_attempt(SERVER, 10, "alice", "Alice", 2_100)
        .await
        .unwrap();
    store
        .start_daily_attempt(SERVER, 10, "bob", "Bob", 2_100)
        .await
        .unwrap();
    assert!(matches!(
        store
            .start_daily_attempt(SERVER, 10, "bob", "Bob", 2_100)
            .await,
        Err(DailyStartError::Conflict)
    ));
    store
        .advance_daily_attempt(SERVER, 10, "alice", 0, 2)
        .await
        .unwrap();
    store
        .finish_daily_attempt(SERVER, 10, "alice", 2, true, 2_200)
        .await
        .unwrap();
    let closed = store
        .post_daily(SERVER, 11, Some(next.id), "ch", 3_000)
        .await
        .unwrap();
    assert_eq!(closed.len(), 1);
    assert_eq!((closed[0].day, closed[0].closed_ms), (10, Some(3_000)));
    let bob = store
        .daily_attempt(SERVER, 10, "bob")
        .await
        .unwrap()
        .unwrap();
    assert_eq!(bob.status, DailyStatus::Expired);
    assert!(matches!(
        store
            .finish_daily_attempt(SERVER, 10, "bob", 0, true, 3_100)
            .await,
        Err(StoreError::Conflict)
    ));
    assert!(matches!(
        store
            .start_daily_attempt(SERVER, 10, "carol", "Carol", 3_100)
            .await,
        Err(DailyStartError::Closed)
    ));
    assert_eq!(store.latest_daily(SERVER).await.unwrap().unwrap().day, 11);
    let (posted, solved) = store.daily_days(SERVER, "alice").await.unwrap();
    assert_eq!((posted.len(), solved), (2, vec![10]));
    // The server shows among those with a daily puzzle once it has a
    // channel.
    let mut settings = store.server(SERVER).await.unwrap();
    assert!(store.servers_with_daily().await.unwrap().is_empty());
    settings.puzzle_channel = Some("ch".to_owned());
    store.save_settings(&settings).await.unwrap();
    assert_eq!(store.servers_with_daily().await.unwrap().len(), 1);
    assert_eq!(store.mining_counts(SERVER).await.unwrap(), (0, 0));
}

conformance!(
    the_pool_and_one_rated_attempt_per_player,
    a_daily_puzzle_is_posted_once_and_closed_by_the_next
);
