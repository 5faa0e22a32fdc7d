//! Data deletion and the audit log on both backends (SQLite in a temp file,
//! PostgreSQL on `TEST_POSTGRES_URL`): after `forget_user`, a scan of every
//! column of every table finds neither the person's id nor their name; the
//! games they played stay for their opponents; a later visit starts afresh.

use chessbot::store::{
    AuditEntry, Backend, Forget, GameChange, GameRecord, GameState, NewChallenge, NewGame,
    NewPuzzle, Score, Store, DELETED_PLAYER,
};
use sqlx::Row;

const SERVER: &str = "server-1";
const OTHER_SERVER: &str = "server-2";
const HOUR: i64 = 3_600_000;
/// Distinctive values: a hit in the scan can only be them.
const ALICE: &str = "user-7730021946";
const ALICE_NAME: &str = "Zebulon Quux";
const BOB: &str = "user-5510";
const CAROL: &str = "user-6620";

fn challenge(channel: &str, from: &str, to: &str, rated: bool) -> NewChallenge {
    NewChallenge {
        server_id: SERVER.to_owned(),
        channel_id: channel.to_owned(),
        challenger_id: from.to_owned(),
        opponent_id: Some(to.to_owned()),
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

async fn start_game(
    store: &Store,
    channel: &str,
    white: &str,
    black: &str,
    rated: bool,
) -> GameRecord {
    let c = store
        .create_challenge(&challenge(channel, white, black, rated))
        .await
        .unwrap();
    let game = NewGame {
        server_id: SERVER.to_owned(),
        home_channel_id: "home".to_owned(),
        channel_id: Some(channel.to_owned()),
        white_id: white.to_owned(),
        black_id: black.to_owned(),
        rated,
        time_control: "3d".to_owned(),
        initial_fen: None,
        variant: chessbot::store::Variant::Standard,
        start_number: None,
        deadline_ms: Some(2_000 + 72 * HOUR),
        created_ms: 2_000,
    };
    store.accept_challenge(c.id, 2_000, &game).await.unwrap()
}

fn flat_ten(_white: i64, _black: i64, score: Score) -> (i64, i64) {
    match score {
        Score::WhiteWins => (1000, -1000),
        Score::BlackWins => (-1000, 1000),
        Score::Draw => (0, 0),
    }
}

async fn finish(store: &Store, game: &GameRecord, score: Score, at: i64) {
    let current = store.game(game.id).await.unwrap().unwrap();
    let result = match score {
        Score::WhiteWins => "1-0",
        Score::BlackWins => "0-1",
        Score::Draw => "1/2-1/2",
    };
    store
        .apply(&GameChange {
            game_id: game.id,
            expected_version: current.version,
            new_move: None,
            state: GameState {
                result: Some(result.to_owned()),
                termination: Some("resignation".to_owned()),
                ended_ms: Some(at),
                ..GameState::default()
            },
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

/// Every (table, column) of the database, views left out.
async fn columns(store: &Store) -> Vec<(String, String)> {
    let mut out = Vec::new();
    match store.backend() {
        Backend::Sqlite => {
            let tables = sqlx::query(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'",
            )
            .fetch_all(store.pool())
            .await
            .unwrap();
            for t in tables {
                let table: String = t.get("name");
                let cols = sqlx::query("SELECT name FROM pragma_table_info($1)")
                    .bind(table.clone())
                    .fetch_all(store.pool())
                    .await
                    .unwrap();
                for c in cols {
                    out.push((table.clone(), c.get::<String, _>("name")));
                }
            }
        }
        Backend::Postgres => {
            let rows = sqlx::query(
                "SELECT CAST(c.table_name AS TEXT) AS t, CAST(c.column_name AS TEXT) AS c \
                 FROM information_schema.columns c JOIN information_schema.tables t \
                 ON t.table_schema = c.table_schema AND t.table_name = c.table_name \
                 WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE'",
            )
            .fetch_all(store.pool())
            .await
            .unwrap();
            for r in rows {
                out.push((r.get("t"), r.get("c")));
            }
        }
    }
    out
}

/// `table.column` of every cell that contains one of `needles`.
async fn scan(store: &Store, needles: &[&str]) -> Vec<String> {
    let columns = columns(store).await;
    assert!(
        columns.len() > 40,
        "the scan must see the whole schema: {columns:?}"
    );
    let mut hits = Vec::new();
    for (table, column) in columns {
        for needle in needles {
            let sql = format!(
                "SELECT COUNT(*) AS n FROM \"{table}\" WHERE CAST(\"{column}\" AS TEXT) LIKE $1"
            );
            let n: i64 = sqlx::query(sqlx::AssertSqlSafe(sql))
                .bind(format!("%{needle}%"))
                .fetch_one(store.pool())
                .await
                .unwrap()
                .get("n");
            if n > 0 {
                hits.push(format!("{table}.{column} holds {needle:?} ({n} rows)"));
            }
        }
    }
    hits
}

async fn forget_erases_the_id_and_name_everywhere(store: &Store) {
    for (server, user, name) in [
        (SERVER, ALICE, ALICE_NAME),
        (SERVER, BOB, "Bob"),
        (SERVER, CAROL, "Carol"),
        (OTHER_SERVER, ALICE, ALICE_NAME),
    ] {
        store.touch_player(server, user, name).await.unwrap();
    }
    let rated = start_game(store, "c1", ALICE, BOB, true).await;
    finish(store, &rated, Score::WhiteWins, 3_000).await;
    let casual = start_game(store, "c2", BOB, ALICE, false).await;
    finish(store, &casual, Score::Draw, 4_000).await;
    store
        .create_challenge(&challenge("c3", ALICE, CAROL, true))
        .await
        .unwrap();
    store
        .add_vacation(SERVER, ALICE, 5_000, 6_000)
        .await
        .unwrap();
    store.claim_dm_summary(SERVER, ALICE, 20_000).await.unwrap();
    store
        .record_audit(&AuditEntry {
            server_id: SERVER.to_owned(),
            actor_id: ALICE.to_owned(),
            actor_name: ALICE_NAME.to_owned(),
            action: "setting".to_owned(),
            subject: "theme".to_owned(),
            old_value: Some("brown".to_owned()),
            new_value: Some("blue".to_owned()),
            at_ms: 7_000,
        })
        .await
        .unwrap();
    // A rated puzzle attempt and an open one.
    store
        .add_puzzles(
            SERVER,
            &[
                NewPuzzle {
                    fen: "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1".to_owned(),
                    moves: vec!["a1a8".to_owned()],
                    themes: vec!["mateIn1".to_owned()],
                    source: "starter".to_owned(),
                },
                NewPuzzle {
                    fen: "k7/8/3K4/8/8/8/8/7R w - - 0 1".to_owned(),
                    moves: vec!["d6c7".to_owned(), "a8a7".to_owned(), "h1a1".to_owned()],
                    themes: vec!["mateIn2".to_owned()],
                    source: "starter".to_owned(),
                },
            ],
            7_100,
        )
        .await
        .unwrap();
    let solved = store
        .puzzle_near(SERVER, ALICE, 0, 100_000)
        .await
        .unwrap()
        .expect("puzzle");
    store
        .start_attempt(SERVER, ALICE, ALICE_NAME, solved.id, 7_200)
        .await
        .unwrap();
    store
        .finish_attempt(solved.id, ALICE, 0, true, 7_300)
        .await
        .unwrap();
    let open = store
        .puzzle_near(SERVER, ALICE, 0, 100_000)
        .await
        .unwrap()
        .expect("puzzle");
    store
        .start_attempt(SERVER, ALICE, ALICE_NAME, open.id, 7_400)
        .await
        .unwrap();
    // A game in progress holds the erasure back: nothing changes.
    let running = start_game(store, "c4", CAROL, ALICE, true).await;
    let before = scan(store, &[ALICE, ALICE_NAME]).await;
    assert!(
        before.len() >= 8,
        "the scan finds the data first: {before:?}"
    );
    let export = store.personal_data(ALICE).await.unwrap().expect("data");
    assert!(export.to_string().contains(ALICE_NAME), "{export}");
    assert_eq!(export["players"].as_array().map(Vec::len), Some(2));
    assert_eq!(export["puzzle_attempts"].as_array().map(Vec::len), Some(2));
    assert_eq!(export["puzzle_players"].as_array().map(Vec::len), Some(1));
    assert_eq!(
        store.forget_user(ALICE, 8_000).await.unwrap(),
        Forget::ActiveGames(1)
    );
    assert_eq!(scan(store, &[ALICE, ALICE_NAME]).await, before);
    finish(store, &running, Score::Draw, 8_500).await;

    let done = store.forget_user(ALICE, 9_000).await.unwrap();
    let Forget::Done { servers, rows } = done else {
        panic!("expected the erasure to run: {done:?}");
    };
    assert_eq!(servers, vec![SERVER.to_owned(), OTHER_SERVER.to_owned()]);
    assert!(rows >= 10, "{rows} rows");
    let left = scan(store, &[ALICE, ALICE_NAME]).await;
    assert!(left.is_empty(), "still stored: {left:?}");

    // The opponents keep their games and their own rating history.
    let kept = store.game(rated.id).await.unwrap().expect("game kept");
    assert_eq!(kept.game.white_id, DELETED_PLAYER);
    assert_eq!(kept.game.black_id, BOB);
    assert_eq!(kept.state.result.as_deref(), Some("1-0"));
    let changes = store.game_rating_changes(rated.id).await.unwrap();
    assert_eq!(changes.len(), 1);
    assert_eq!(changes[0].user_id, BOB);
    let bob = store.player(SERVER, BOB).await.unwrap().expect("bob");
    assert_eq!((bob.points, bob.rated_games), (-1000, 1));
    // The erasure is in both servers' audit logs, the earlier entry by the
    // person anonymised.
    let log = store.audit_log(SERVER, 0, 10).await.unwrap();
    assert_eq!(log[0].action, "privacy-forget");
    assert_eq!(log[1].actor_id, DELETED_PLAYER);
    assert_eq!(log[1].actor_name, DELETED_PLAYER);
    assert_eq!(store.audit_log_len(OTHER_SERVER).await.unwrap(), 1);
    // The puzzle keeps the points it lost; Alice's attempts and puzzle
    // points are gone, so the puzzle is hers to try afresh.
    let kept = store.puzzle(solved.id).await.unwrap().expect("puzzle kept");
    assert_eq!((kept.points, kept.attempts), (-1000, 1));
    assert_eq!(store.open_attempt(SERVER, ALICE).await.unwrap(), None);
    assert_eq!(store.puzzle_player(SERVER, ALICE).await.unwrap(), None);
    assert!(store.puzzle_ladder(SERVER, 0, 10).await.unwrap().is_empty());

    // Nothing left to show or erase; a later visit starts afresh.
    assert_eq!(store.personal_data(ALICE).await.unwrap(), None);
    assert_eq!(
        store.forget_user(ALICE, 10_000).await.unwrap(),
        Forget::NothingStored
    );
    store.touch_player(SERVER, ALICE, ALICE_NAME).await.unwrap();
    let fresh = store.player(SERVER, ALICE).await.unwrap().expect("fresh");
    assert_eq!((fresh.points, fresh.rated_games, fresh.wins), (0, 0, 0));
    assert!(store
        .rating_history(SERVER, ALICE)
        .await
        .unwrap()
        .is_empty());
}

async fn audit_log_is_written_with_the_settings(store: &Store) {
    let mut settings = store.server(SERVER).await.unwrap();
    let old = settings.clone();
    settings.theme = "blue".to_owned();
    settings.challenge_ttl_ms = 48 * HOUR;
    let entries: Vec<AuditEntry> = [("theme", "brown", "blue"), ("challenge_hours", "24", "48")]
        .iter()
        .enumerate()
        .map(|(i, (subject, a, b))| AuditEntry {
            server_id: SERVER.to_owned(),
            actor_id: CAROL.to_owned(),
            actor_name: "Carol".to_owned(),
            action: "setting".to_owned(),
            subject: (*subject).to_owned(),
            old_value: Some((*a).to_owned()),
            new_value: Some((*b).to_owned()),
            at_ms: 1_000 + i as i64,
        })
        .collect();
    store
        .save_settings_logged(&settings, &entries)
        .await
        .unwrap();
    assert_eq!(store.server(SERVER).await.unwrap(), settings);
    assert_ne!(settings, old);
    assert_eq!(store.audit_log_len(SERVER).await.unwrap(), 2);
    assert_eq!(store.audit_log_len(OTHER_SERVER).await.unwrap(), 0);
    // Newest first, paged.
    let page = store.audit_log(SERVER, 0, 1).await.unwrap();
    assert_eq!(page, vec![entries[1].clone()]);
    let page = store.audit_log(SERVER, 1, 1).await.unwrap();
    assert_eq!(page, vec![entries[0].clone()]);
    assert!(store.audit_log(SERVER, 2, 1).await.unwrap().is_empty());
}

conformance!(
    forget_erases_the_id_and_name_everywhere,
    audit_log_is_written_with_the_settings,
);
