//! Running it for a real community (issue 18), through the service on
//! SQLite: flood limits, `/privacy show|forget`, `/settings log`, and
//! backups taken while moves are being committed. Every refusal is checked
//! for its message, for being private, and for leaving every table as it was.

use std::{
    sync::{
        atomic::{AtomicBool, AtomicI64, Ordering},
        Arc,
    },
    time::Duration,
};

use chessbot::{
    clock::{Clock, ManualClock},
    limits::{Limits, Rate},
    render::{RenderConfig, Renderer},
    service::{Actor, Command, Reply, Service, Setting, UserRef},
    store::{GameChange, GameState, MoveRecord, NewChallenge, NewGame, Store},
};
use sqlx::Row;

struct Bed {
    service: Service,
    store: Store,
    _dir: tempfile::TempDir,
}

fn actor(user: &str) -> Actor {
    Actor {
        server: "guild".into(),
        channel: "chess".into(),
        user: user.into(),
        name: format!("{user} the player"),
        locale: None,
        is_moderator: user == "carol",
        server_locale: None,
    }
}

impl Bed {
    async fn new(limits: Limits) -> Bed {
        let dir = tempfile::tempdir().expect("temp dir");
        let url = format!("sqlite:{}", dir.path().join("ops.db").display());
        let store = Store::open(&url).await.expect("store");
        let clock: Arc<dyn Clock> = Arc::new(ManualClock::new(1_796_139_000_000));
        let renderer = Arc::new(Renderer::new(RenderConfig::default()).expect("renderer"));
        let service = Service::new(store.clone(), renderer, clock).with_limits(limits);
        Bed {
            service,
            store,
            _dir: dir,
        }
    }

    async fn run(&self, who: &str, command: Command) -> Reply {
        self.service.handle(&actor(who), command).await
    }

    /// Every row of every table, as text.
    async fn snapshot(&self) -> Vec<String> {
        let tables = sqlx::query(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> '_sqlx_migrations' ORDER BY name",
        )
        .fetch_all(self.store.pool())
        .await
        .expect("tables");
        let mut rows = Vec::new();
        for t in tables {
            let table: String = t.get("name");
            let sql = format!("SELECT * FROM {table} ORDER BY 1");
            for row in sqlx::query(sqlx::AssertSqlSafe(sql))
                .fetch_all(self.store.pool())
                .await
                .expect("rows")
            {
                let cells: Vec<String> = (0..row.len())
                    .map(|i| {
                        row.try_get::<Option<i64>, _>(i)
                            .map(|v| format!("{v:?}"))
                            .or_else(|_| {
                                row.try_get::<Option<String>, _>(i)
                                    .map(|v| format!("{v:?}"))
                            })
                            .unwrap_or_else(|_| "?".into())
                    })
                    .collect();
                rows.push(format!("{table}: {}", cells.join(" | ")));
            }
        }
        rows
    }

    /// `command` must be refused privately with `expected` in the message,
    /// and must change nothing stored.
    async fn refused(&self, who: &str, command: Command, expected: &str) {
        let before = self.snapshot().await;
        let label = format!("{command:?}");
        let reply = self.run(who, command).await;
        assert!(reply.ephemeral, "{label}: not private: {reply:?}");
        assert!(
            reply.text.contains(expected),
            "{label}: expected {expected:?} in {:?}",
            reply.text
        );
        assert_eq!(
            before,
            self.snapshot().await,
            "{label}: stored state changed"
        );
    }
}

fn bob() -> UserRef {
    UserRef {
        id: "bob".into(),
        name: "bob the player".into(),
    }
}

fn challenge_bob() -> Command {
    Command::challenge_as_white(bob())
}

#[tokio::test]
async fn a_flood_is_refused_once_the_burst_is_spent_and_stores_nothing() {
    let bed = Bed::new(Limits {
        commands: Rate::per_minute(3, 1),
        buttons: Rate::per_minute(2, 1),
        ..Limits::off()
    })
    .await;
    for _ in 0..3 {
        let reply = bed.run("mallory", Command::Games).await;
        assert!(!reply.text.contains("Slow down"), "{reply:?}");
    }
    // Over the limit: a challenge would have stored a row; it stores none.
    bed.refused("mallory", challenge_bob(), "Slow down, please")
        .await;
    bed.refused("mallory", Command::Help, "Try again in").await;
    // Buttons have their own bucket; other users are not affected.
    let reply = bed
        .run(
            "mallory",
            Command::Button {
                id: "game:1:resign:0".into(),
            },
        )
        .await;
    assert!(!reply.text.contains("Slow down"), "{reply:?}");
    let reply = bed.run("alice", challenge_bob()).await;
    assert!(
        !reply.ephemeral,
        "alice's challenge goes through: {reply:?}"
    );
    assert!(chessbot::metrics::registry().rate_limited("command") >= 2);
}

#[tokio::test]
async fn refusals_speak_the_askers_language() {
    let bed = Bed::new(Limits {
        commands: Rate::per_minute(1, 1),
        ..Limits::off()
    })
    .await;
    let zh = Actor {
        locale: Some("zh-CN".into()),
        ..actor("li")
    };
    bed.service.handle(&zh, Command::Games).await;
    let reply = bed.service.handle(&zh, Command::Games).await;
    assert!(reply.ephemeral);
    assert!(reply.text.starts_with("请慢一点"), "{}", reply.text);
    assert!(reply.text.contains("60 秒后再试"), "{}", reply.text);
    let bed = Bed::new(Limits::off()).await;
    let reply = bed
        .service
        .handle(&zh, Command::PrivacyForget { confirmed: false })
        .await;
    assert_eq!(
        reply.text,
        "我没有存储任何关于你的信息，所以没有可删除的内容。"
    );
    let reply = bed
        .service
        .handle(&zh, Command::SettingsLog { page: 1 })
        .await;
    assert!(reply.text.starts_with("只有管理员"), "{}", reply.text);
}

#[tokio::test]
async fn expensive_work_is_limited_per_server() {
    let bed = Bed::new(Limits {
        expensive: Rate::per_minute(1, 1),
        ..Limits::off()
    })
    .await;
    let reply = bed.run("alice", Command::Profile { user: None }).await;
    assert!(!reply.text.contains("many images"), "{reply:?}");
    // Bob is on the same server: the server's allowance is spent.
    bed.run("bob", Command::Games).await;
    bed.refused(
        "bob",
        Command::Pgn { game: None },
        "This server is asking for many images and exports right now",
    )
    .await;
    // Cheap commands are not held back.
    let reply = bed.run("bob", Command::Games).await;
    assert!(!reply.text.contains("many images"), "{reply:?}");
}

#[tokio::test]
async fn privacy_forget_by_a_stranger_stores_nothing() {
    let bed = Bed::new(Limits::off()).await;
    bed.run("alice", Command::Games).await; // the server exists
    bed.refused(
        "stranger",
        Command::PrivacyForget { confirmed: false },
        "I store nothing about you, so there is nothing to erase.",
    )
    .await;
    bed.refused(
        "stranger",
        Command::PrivacyForget { confirmed: true },
        "nothing to erase",
    )
    .await;
    let before = bed.snapshot().await;
    let reply = bed.run("stranger", Command::PrivacyShow).await;
    assert!(reply.ephemeral && reply.text.contains("I store nothing about you"));
    assert_eq!(before, bed.snapshot().await);
}

#[tokio::test]
async fn privacy_show_then_forget_with_confirmation() {
    let bed = Bed::new(Limits::off()).await;
    let reply = bed.run("alice", challenge_bob()).await;
    assert!(!reply.ephemeral, "{reply:?}");
    let shown = bed.run("alice", Command::PrivacyShow).await;
    assert!(shown.ephemeral);
    let file = shown.image.expect("a JSON attachment");
    assert_eq!(file.file_name, "my-chessbot-data.json");
    let json: serde_json::Value = serde_json::from_slice(&file.png).expect("valid JSON");
    assert_eq!(
        json["tables"]["players"][0]["display_name"],
        "alice the player"
    );
    assert_eq!(json["tables"]["challenges"][0]["challenger_id"], "alice");

    // Asking changes nothing; the button does it.
    let before = bed.snapshot().await;
    let ask = bed
        .run("alice", Command::PrivacyForget { confirmed: false })
        .await;
    assert!(
        ask.ephemeral && ask.text.contains("cannot be undone"),
        "{ask:?}"
    );
    assert_eq!(before, bed.snapshot().await);
    let button = ask.buttons.first().expect("a confirmation button");
    let done = bed
        .run(
            "alice",
            Command::Button {
                id: button.id.clone(),
            },
        )
        .await;
    assert!(done.ephemeral && done.text.starts_with("Done"), "{done:?}");
    let left = bed.snapshot().await;
    assert!(
        !left.iter().any(|row| row.contains("alice")),
        "still stored: {left:#?}"
    );
    // Moderators see that an erasure happened, not whose.
    let log = bed.run("carol", Command::SettingsLog { page: 1 }).await;
    assert!(
        log.text.contains("a player's data was erased"),
        "{}",
        log.text
    );
    // A later command starts afresh.
    bed.run("alice", Command::Games).await;
    let me = bed
        .store
        .player("guild", "alice")
        .await
        .unwrap()
        .expect("afresh");
    assert_eq!((me.points, me.rated_games), (0, 0));
}

#[tokio::test]
async fn settings_changes_are_logged_and_only_moderators_read_the_log() {
    let bed = Bed::new(Limits::off()).await;
    let reply = bed
        .run(
            "carol",
            Command::Settings {
                changes: vec![Setting::Theme("blue".into()), Setting::ChallengeHours(48)],
            },
        )
        .await;
    assert!(reply.text.starts_with("Settings changed"), "{reply:?}");
    let log = bed.run("carol", Command::SettingsLog { page: 1 }).await;
    assert!(log.ephemeral);
    assert!(log.text.contains("Audit log, page 1 of 1"), "{}", log.text);
    assert!(
        log.text
            .contains("carol the player changed `theme`: brown → blue"),
        "{}",
        log.text
    );
    assert!(
        log.text.contains("`challenge_hours`: 24 → 48"),
        "{}",
        log.text
    );
    assert!(log.text.contains("2026-12-01 15:30 UTC"), "{}", log.text);
    // (Bob's first command records him, as any member's does.)
    bed.run("bob", Command::Games).await;
    bed.refused(
        "bob",
        Command::SettingsLog { page: 1 },
        "Only moderators (Manage Server) can read this server's audit log.",
    )
    .await;
    bed.refused(
        "carol",
        Command::SettingsLog { page: 2 },
        "There is no page 2: the audit log has 1 page.",
    )
    .await;
    bed.refused(
        "carol",
        Command::SettingsLog { page: 0 },
        "`page` starts at 1.",
    )
    .await;
    // A refused change writes no log entry.
    bed.refused(
        "carol",
        Command::Settings {
            changes: vec![Setting::ChallengeHours(0)],
        },
        "`challenge_hours` must be between 1 and 336.",
    )
    .await;
}

#[tokio::test]
async fn a_backup_to_a_bad_path_names_the_path() {
    let bed = Bed::new(Limits::off()).await;
    let dir = tempfile::tempdir().expect("dir");
    let missing = dir.path().join("no-such-folder").join("b.db");
    let e = bed.store.backup_to(&missing).await.expect_err("refused");
    assert!(
        e.to_string().contains(&missing.display().to_string()),
        "{e}"
    );
    let taken = dir.path().join("taken.db");
    std::fs::write(&taken, b"keep me").expect("write");
    let e = bed.store.backup_to(&taken).await.expect_err("refused");
    assert!(e.to_string().contains(&taken.display().to_string()), "{e}");
    assert!(e.to_string().contains("already there"), "{e}");
    assert_eq!(std::fs::read(&taken).expect("read"), b"keep me");
    // A folder we may not write into (not as root, who may write anywhere).
    if is_root() {
        return;
    }
    let locked = dir.path().join("locked");
    std::fs::create_dir(&locked).expect("mkdir");
    let mut perms = std::fs::metadata(&locked).expect("meta").permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o500);
    std::fs::set_permissions(&locked, perms).expect("chmod");
    let target = locked.join("b.db");
    let e = bed.store.backup_to(&target).await.expect_err("refused");
    assert!(e.to_string().contains(&target.display().to_string()), "{e}");
}

fn is_root() -> bool {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("Uid:"))
                .map(|l| l.split_whitespace().nth(1) == Some("0"))
        })
        .unwrap_or(false)
}

/// Moves are committed by four writers while a backup is taken: every move
/// acknowledged before the backup started is in it, in order, and the copy
/// passes SQLite's integrity check.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_backup_taken_under_load_holds_every_acknowledged_move() {
    let bed = Bed::new(Limits::off()).await;
    let store = bed.store.clone();
    let mut games = Vec::new();
    for i in 0..4 {
        let (white, black) = (format!("w{i}"), format!("b{i}"));
        store.touch_player("guild", &white, &white).await.unwrap();
        store.touch_player("guild", &black, &black).await.unwrap();
        let c = store
            .create_challenge(&NewChallenge {
                server_id: "guild".into(),
                channel_id: format!("c{i}"),
                challenger_id: white.clone(),
                opponent_id: Some(black.clone()),
                color: "white".into(),
                rated: false,
                time_control: "3d".into(),
                initial_fen: None,
                variant: chessbot::store::Variant::Standard,
                start_number: None,
                created_ms: 1_000,
                expires_ms: 100_000_000,
            })
            .await
            .unwrap();
        let game = NewGame {
            server_id: "guild".into(),
            home_channel_id: "home".into(),
            channel_id: Some(format!("c{i}")),
            white_id: white,
            black_id: black,
            rated: false,
            time_control: "3d".into(),
            initial_fen: None,
            variant: chessbot::store::Variant::Standard,
            start_number: None,
            deadline_ms: None,
            created_ms: 2_000,
        };
        games.push(store.accept_challenge(c.id, 2_000, &game).await.unwrap().id);
    }
    let mut start_versions = Vec::new();
    for &id in &games {
        start_versions.push(store.game(id).await.unwrap().unwrap().version);
    }
    let stop = Arc::new(AtomicBool::new(false));
    let acked: Arc<Vec<AtomicI64>> = Arc::new((0..4).map(|_| AtomicI64::new(0)).collect());
    let mut writers = Vec::new();
    for (i, &game_id) in games.iter().enumerate() {
        let (store, stop, acked) = (store.clone(), stop.clone(), acked.clone());
        writers.push(tokio::spawn(async move {
            let mut version = store.game(game_id).await.unwrap().unwrap().version;
            let mut ply = 0;
            while !stop.load(Ordering::Relaxed) {
                ply += 1;
                store
                    .apply(&GameChange {
                        game_id,
                        expected_version: version,
                        new_move: Some(MoveRecord {
                            ply,
                            uci: "e2e4".into(),
                            san: format!("m{ply}"),
                            played_ms: 3_000 + ply,
                        }),
                        state: GameState::default(),
                        rating: None,
                        mover: None,
                        at_ms: 3_000 + ply,
                    })
                    .await
                    .unwrap();
                version += 1;
                // Acknowledged: the commit returned.
                acked[i].store(ply, Ordering::SeqCst);
            }
        }));
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    let before: Vec<i64> = acked.iter().map(|a| a.load(Ordering::SeqCst)).collect();
    let dir = tempfile::tempdir().expect("dir");
    let path = dir.path().join("backup.db");
    bed.store.backup_to(&path).await.expect("backup");
    tokio::time::sleep(Duration::from_millis(100)).await;
    stop.store(true, Ordering::Relaxed);
    for w in writers {
        w.await.unwrap();
    }
    assert!(
        before.iter().all(|&n| n > 0),
        "the load was running: {before:?}"
    );

    let restored = Store::connect(&format!("sqlite:{}", path.display()))
        .await
        .expect("the backup opens");
    let check: String = sqlx::query("PRAGMA integrity_check")
        .fetch_one(restored.pool())
        .await
        .unwrap()
        .get(0);
    assert_eq!(check, "ok");
    let mut total = 0;
    for (i, &game_id) in games.iter().enumerate() {
        let moves = restored.moves(game_id).await.unwrap();
        let plies: Vec<i64> = moves.iter().map(|m| m.ply).collect();
        assert!(
            plies.len() as i64 >= before[i],
            "game {game_id}: {} moves in the backup, {} acknowledged before it",
            plies.len(),
            before[i]
        );
        assert_eq!(plies, (1..=plies.len() as i64).collect::<Vec<_>>());
        let record = restored.game(game_id).await.unwrap().unwrap();
        assert_eq!(
            record.version - start_versions[i],
            plies.len() as i64,
            "the game row and its moves are from the same moment"
        );
        total += plies.len();
    }
    eprintln!("backup under load: {total} moves in the copy, {before:?} acknowledged before it");
    restored.close().await;
}
