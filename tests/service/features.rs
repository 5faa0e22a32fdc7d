//! What lichess and chess.com players expect (issue 16, part B), through
//! the service: several pending challenges by number, rematches, takebacks
//! in casual games, replays, board orientation and `/games`. Every refusal
//! is checked for its message, for being private, and for leaving every
//! stored table exactly as it was.

use std::sync::Arc;

use chessbot::{
    clock::{Clock, ManualClock},
    render::{RenderConfig, Renderer},
    service::{
        buttons::{ButtonAction, GameButton},
        Actor, ColorChoice, Command, Reply, Service, Setting, TakebackAction, UserRef,
    },
    store::Store,
};
use sqlx::{sqlite::SqlitePoolOptions, Row};

const TABLES: [&str; 6] = [
    "servers",
    "players",
    "challenges",
    "games",
    "moves",
    "rating_changes",
];

struct Bed {
    service: Service,
    path: std::path::PathBuf,
    _dir: tempfile::TempDir,
}

fn actor(user: &str, channel: &str) -> Actor {
    Actor {
        server: "guild".into(),
        channel: channel.into(),
        user: user.into(),
        name: user.into(),
        locale: None,
        is_moderator: user == "carol",
        server_locale: None,
    }
}

fn user(name: &str) -> UserRef {
    UserRef {
        id: name.into(),
        name: name.into(),
    }
}

fn mv(text: &str) -> Command {
    Command::Move {
        text: text.into(),
        claim_draw: false,
    }
}

fn challenge(opponent: &str, rated: bool) -> Command {
    Command::Challenge {
        opponent: Some(user(opponent)),
        color: ColorChoice::White,
        rated: Some(rated),
        time: None,
        fen: None,
        variant: None,
        position: None,
    }
}

fn button(game: i64, action: GameButton, version: i64) -> Command {
    Command::Button {
        id: ButtonAction::Game {
            id: game,
            action,
            version,
        }
        .id(),
    }
}

fn takeback(action: TakebackAction) -> Command {
    Command::Takeback { action }
}

impl Bed {
    async fn new() -> Bed {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("features.db");
        let store = Store::open(&format!("sqlite:{}", path.display()))
            .await
            .expect("store");
        let clock = ManualClock::new(1_767_268_800_000);
        let shared: Arc<dyn Clock> = Arc::new(clock);
        let renderer = Arc::new(Renderer::new(RenderConfig::default()).expect("renderer"));
        let bed = Bed {
            service: Service::new(store, renderer, shared),
            path,
            _dir: dir,
        };
        for who in ["alice", "bob", "carol", "dave"] {
            bed.run(who, "lobby", Command::Help).await;
        }
        // Games stay in the channel of their challenge.
        bed.run(
            "carol",
            "lobby",
            Command::Settings {
                changes: vec![Setting::Threads(false)],
            },
        )
        .await;
        bed
    }

    async fn run(&self, who: &str, channel: &str, command: Command) -> Reply {
        self.service.handle(&actor(who, channel), command).await
    }

    /// Runs a command that must succeed publicly.
    async fn ok(&self, who: &str, channel: &str, command: Command) -> Reply {
        let label = format!("{command:?}");
        let reply = self.run(who, channel, command).await;
        assert!(!reply.ephemeral, "{label}: refused: {}", reply.text);
        reply
    }

    /// Every row of every table, as text, in a stable order.
    async fn snapshot(&self) -> Vec<String> {
        let pool = SqlitePoolOptions::new()
            .max_connections(1)
            .connect(&format!("sqlite:{}", self.path.display()))
            .await
            .expect("snapshot connection");
        let mut rows = Vec::new();
        for table in TABLES {
            let sql = format!("SELECT * FROM {table} ORDER BY 1, 2");
            for row in sqlx::query(sqlx::AssertSqlSafe(sql))
                .fetch_all(&pool)
                .await
                .expect("table readable")
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
        pool.close().await;
        rows
    }

    /// Runs `command`, which must be refused privately with a message that
    /// contains `expected`, and must leave every table unchanged.
    async fn refused(&self, who: &str, channel: &str, command: Command, expected: &str) {
        let before = self.snapshot().await;
        let label = format!("{command:?}");
        let reply = self.run(who, channel, command).await;
        assert!(reply.ephemeral, "{label}: should be private: {reply:?}");
        assert!(
            reply.text.contains(expected),
            "{label}: expected a message containing {expected:?}, got {:?}",
            reply.text
        );
        assert_eq!(
            before,
            self.snapshot().await,
            "{label}: stored state changed"
        );
    }

    async fn version(&self, game: i64) -> i64 {
        self.service
            .store()
            .game(game)
            .await
            .expect("read")
            .expect("game")
            .version
    }

    async fn sans(&self, game: i64) -> Vec<String> {
        self.service
            .store()
            .moves(game)
            .await
            .expect("moves")
            .into_iter()
            .map(|m| m.san)
            .collect()
    }
}

/// Starts a game alice (White) vs bob in `channel`; returns its id.
async fn start(bed: &Bed, channel: &str, rated: bool) -> i64 {
    bed.ok("alice", channel, challenge("bob", rated)).await;
    let reply = bed
        .ok("bob", channel, Command::Accept { challenge: None })
        .await;

    reply
        .buttons
        .iter()
        .find_map(|b| match ButtonAction::parse(&b.id) {
            Some(ButtonAction::Game { id, .. }) => Some(id),
            _ => None,
        })
        .expect("the board has game buttons")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn several_challenges_are_told_apart_by_number() {
    let bed = Bed::new().await;
    let first = bed.ok("alice", "lobby", challenge("bob", true)).await;
    assert!(first.text.contains("Challenge #1."), "{}", first.text);
    bed.ok("carol", "lobby", challenge("bob", false)).await;
    // Two wait for bob: a bare /accept says which, and takes neither.
    bed.refused(
        "bob",
        "lobby",
        Command::Accept { challenge: None },
        "#1 from alice to bob: rated, 3 days per move",
    )
    .await;
    bed.refused(
        "bob",
        "lobby",
        Command::Decline { challenge: None },
        "#2 from carol to bob: unrated",
    )
    .await;
    // Autocomplete offers the same two; the challengers see only their own
    // to cancel.
    let offered = bed
        .service
        .challenge_suggestions(&actor("bob", "lobby"), false, "", 25)
        .await;
    assert_eq!(
        offered.iter().map(|(_, id)| *id).collect::<Vec<_>>(),
        [2, 1]
    );
    let typed = bed
        .service
        .challenge_suggestions(&actor("bob", "lobby"), false, "carol", 25)
        .await;
    assert_eq!(typed.len(), 1);
    assert_eq!(typed[0].1, 2);
    let own = bed
        .service
        .challenge_suggestions(&actor("alice", "lobby"), true, "", 25)
        .await;
    assert_eq!(own.iter().map(|(_, id)| *id).collect::<Vec<_>>(), [1]);
    assert!(bed
        .service
        .challenge_suggestions(&actor("dave", "lobby"), false, "", 25)
        .await
        .is_empty());
    // Someone else's challenge, by number.
    bed.refused(
        "dave",
        "lobby",
        Command::Accept { challenge: Some(1) },
        "That challenge is for bob",
    )
    .await;
    let declined = bed
        .ok("bob", "lobby", Command::Decline { challenge: Some(2) })
        .await;
    assert_eq!(declined.text, "bob declined challenge #2 from carol.");
    bed.refused(
        "bob",
        "lobby",
        Command::Decline { challenge: Some(2) },
        "That challenge was declined.",
    )
    .await;
    bed.ok("alice", "lobby", challenge("dave", false)).await;
    bed.refused(
        "alice",
        "lobby",
        Command::Cancel { challenge: None },
        "Several challenges wait here",
    )
    .await;
    let cancelled = bed
        .ok("alice", "lobby", Command::Cancel { challenge: Some(3) })
        .await;
    assert_eq!(
        cancelled.text,
        "alice cancelled challenge #3 from alice to dave: unrated, 3 days per move."
    );
    let accepted = bed
        .ok("bob", "lobby", Command::Accept { challenge: None })
        .await;
    assert!(
        accepted.text.starts_with("bob accepted challenge #1!"),
        "{}",
        accepted.text
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn takebacks_in_casual_games_only() {
    let bed = Bed::new().await;
    let game = start(&bed, "casual", false).await;
    bed.refused(
        "alice",
        "casual",
        takeback(TakebackAction::Request),
        "no move to take back",
    )
    .await;
    bed.ok("alice", "casual", mv("e4")).await;
    bed.ok("bob", "casual", mv("e5")).await;
    bed.ok("alice", "casual", mv("Nf3")).await;
    let version = bed.version(game).await;
    // Buttons carry the plies of the board they were shown with.
    let shown = bed.sans(game).await.len() as i64;
    // Not a player; nothing to answer yet.
    bed.refused(
        "carol",
        "casual",
        takeback(TakebackAction::Request),
        "You are not playing in this game.",
    )
    .await;
    bed.refused(
        "bob",
        "casual",
        takeback(TakebackAction::Accept),
        "no takeback request",
    )
    .await;
    // Bob asks: White has replied, so e5 and Nf3 go.
    let asked = bed
        .ok("bob", "casual", button(game, GameButton::Takeback, shown))
        .await;
    assert_eq!(
        asked.text,
        "bob asks to take back the move e5 and the reply Nf3. alice, do you agree?"
    );
    assert_eq!(asked.mentions, ["alice"]);
    // Asking doesn't stale the board: its version is unchanged.
    assert_eq!(bed.version(game).await, version);
    bed.refused(
        "bob",
        "casual",
        takeback(TakebackAction::Request),
        "already asked",
    )
    .await;
    bed.refused(
        "bob",
        "casual",
        button(game, GameButton::TakebackAccept, shown),
        "your own request",
    )
    .await;
    bed.refused(
        "alice",
        "casual",
        takeback(TakebackAction::Request),
        "bob has asked for a takeback",
    )
    .await;
    let accepted = bed
        .ok(
            "alice",
            "casual",
            button(game, GameButton::TakebackAccept, shown),
        )
        .await;
    assert!(
        accepted
            .text
            .starts_with("alice accepted the takeback: the move e5 and the reply Nf3 taken back. bob (Black) to move."),
        "{}",
        accepted.text
    );
    assert_eq!(bed.sans(game).await, ["e4"]);
    assert_eq!(bed.version(game).await, version + 1);
    // The double click finds the game moved on.
    bed.refused(
        "alice",
        "casual",
        button(game, GameButton::TakebackAccept, shown),
        "moved on",
    )
    .await;
    // Bob plays another move; alice asks, bob declines: the move stands.
    bed.ok("bob", "casual", mv("c5")).await;
    // Buttons carry the plies of the board they were shown with.
    let shown = bed.sans(game).await.len() as i64;
    let asked = bed
        .ok("alice", "casual", takeback(TakebackAction::Request))
        .await;
    assert_eq!(
        asked.text,
        "alice asks to take back the move e4 and the reply c5. bob, do you agree?"
    );
    let declined = bed
        .ok(
            "bob",
            "casual",
            button(game, GameButton::TakebackDecline, shown),
        )
        .await;
    assert_eq!(
        declined.text,
        "bob declined the takeback. The move stands; play on!"
    );
    assert_eq!(bed.sans(game).await, ["e4", "c5"]);
    bed.refused(
        "bob",
        "casual",
        button(game, GameButton::TakebackDecline, shown),
        "no takeback request",
    )
    .await;
    // A request lapses when the game moves on.
    bed.ok("alice", "casual", takeback(TakebackAction::Request))
        .await;
    bed.ok("alice", "casual", mv("Nf3")).await;
    bed.refused(
        "bob",
        "casual",
        takeback(TakebackAction::Accept),
        "no takeback request",
    )
    .await;

    // Rated games: never.
    let rated = start(&bed, "rated", true).await;
    bed.ok("alice", "rated", mv("d4")).await;
    bed.refused(
        "alice",
        "rated",
        takeback(TakebackAction::Request),
        "casual games only",
    )
    .await;
    bed.refused(
        "alice",
        "rated",
        button(
            rated,
            GameButton::Takeback,
            bed.sans(rated).await.len() as i64,
        ),
        "this game is rated",
    )
    .await;
    // No Takeback button on rated boards; there is one on casual boards.
    let board = bed.ok("alice", "rated", Command::Board).await;
    assert!(board.buttons.iter().all(|b| b.label != "Takeback"));
    let board = bed.ok("alice", "casual", Command::Board).await;
    assert!(board.buttons.iter().any(|b| b.label == "Takeback"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rematch_needs_both_players() {
    let bed = Bed::new().await;
    let game = start(&bed, "room", false).await;
    let version = bed.version(game).await;
    // Not while the game runs.
    bed.refused(
        "alice",
        "room",
        button(game, GameButton::Rematch, version),
        "still in progress",
    )
    .await;
    bed.ok("alice", "room", mv("f3")).await;
    bed.ok("bob", "room", mv("e5")).await;
    bed.ok("alice", "room", mv("g4")).await;
    let mate = bed.ok("bob", "room", mv("Qh4#")).await;
    let rematch_button = mate
        .buttons
        .iter()
        .find(|b| b.label == "Rematch")
        .expect("a finished board offers a rematch")
        .id
        .clone();
    let click = || Command::Button {
        id: rematch_button.clone(),
    };
    bed.refused(
        "carol",
        "room",
        click(),
        "Only the two players of that game",
    )
    .await;
    let offered = bed.ok("bob", "room", click()).await;
    assert_eq!(
        offered.text,
        "bob offers a rematch with colours swapped. alice, click Rematch to play it."
    );
    assert_eq!(offered.mentions, ["alice"]);
    bed.refused("bob", "room", click(), "already offered a rematch")
        .await;
    let started = bed.ok("alice", "room", click()).await;
    assert!(
        started
            .text
            .starts_with("alice accepted the rematch: game #2, bob (White) vs alice (Black). bob (White) to move."),
        "{}",
        started.text
    );
    let record = bed
        .service
        .store()
        .game(2)
        .await
        .expect("read")
        .expect("game 2");
    assert_eq!(
        (record.game.white_id.as_str(), record.game.black_id.as_str()),
        ("bob", "alice")
    );
    assert!(!record.game.rated);
    assert_eq!(record.game.channel_id.as_deref(), Some("room"));
    // Double clicks.
    bed.refused("alice", "room", click(), "already started: game #2")
        .await;
    bed.refused("bob", "room", click(), "already started: game #2")
        .await;
    // The rematch is a game like any other.
    bed.ok("bob", "room", mv("e4")).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn replays_and_orientation() {
    let bed = Bed::new().await;
    bed.refused(
        "alice",
        "empty",
        Command::Replay { game: None },
        "no game in this channel",
    )
    .await;
    bed.refused(
        "alice",
        "empty",
        Command::Replay { game: Some(99) },
        "can't find game #99",
    )
    .await;
    let game = start(&bed, "room", false).await;
    for (who, m) in [("alice", "e4"), ("bob", "e5"), ("alice", "Qh5")] {
        bed.ok(who, "room", mv(m)).await;
    }
    let replay = bed
        .ok("carol", "lobby", Command::Replay { game: Some(game) })
        .await;
    assert_eq!(
        replay.text,
        "Replay of game #1: alice (White) vs bob (Black), in progress."
    );
    let image = replay.image.expect("a GIF");
    assert_eq!(image.file_name, "replay-1.gif");
    assert!(image.png.starts_with(b"GIF89a"));
    let frames = image.png.windows(2).filter(|w| w == b"\x21\xf9").count();
    assert!(frames >= 4, "one frame per position: {frames}");

    // Bob to move: his board is drawn from Black's side, unless he pins White.
    let black_view = bed.ok("bob", "room", Command::Board).await;
    let reply = bed
        .run("bob", "room", Command::BoardOrientation { white: true })
        .await;
    assert!(reply.ephemeral);
    assert!(reply.text.contains("White at the bottom"), "{}", reply.text);
    let white_view = bed.ok("bob", "room", Command::Board).await;
    assert_ne!(
        black_view.image.expect("board").png,
        white_view.image.as_ref().expect("board").png
    );
    let player = bed
        .service
        .store()
        .player("guild", "bob")
        .await
        .expect("read")
        .expect("bob");
    assert!(player.board_white);
    bed.run("bob", "room", Command::BoardOrientation { white: false })
        .await;
    let auto = bed.ok("bob", "room", Command::Board).await;
    assert_ne!(
        auto.image.expect("board").png,
        white_view.image.expect("board").png
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_show_time_left_and_link_their_channel() {
    let bed = Bed::new().await;
    start(&bed, "room", false).await;
    bed.ok("alice", "room", mv("e4")).await;
    let games = bed.run("alice", "lobby", Command::Games).await;
    assert!(games.ephemeral);
    assert_eq!(
        games.text,
        "Your games in progress:\n#1 vs bob in <#room>: their move, move 1 · B00 King's Pawn Game · 3 d 0 h left"
    );
    bed.ok("carol", "live", {
        Command::Challenge {
            opponent: Some(user("dave")),
            color: ColorChoice::White,
            rated: Some(false),
            time: Some("5+3".into()),
            fen: None,
            variant: None,
            position: None,
        }
    })
    .await;
    bed.ok("dave", "live", Command::Accept { challenge: None })
        .await;
    let games = bed.run("dave", "lobby", Command::Games).await;
    assert_eq!(
        games.text,
        "Your games in progress:\n#2 vs carol in <#live>: their move, move 1 · your clock 0:05:00, theirs 0:05:00"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn refusals_speak_the_askers_language() {
    let bed = Bed::new().await;
    start(&bed, "rated", true).await;
    bed.ok("alice", "rated", mv("e4")).await;
    let before = bed.snapshot().await;
    let chinese = Actor {
        locale: Some("zh-CN".into()),
        ..actor("alice", "rated")
    };
    let reply = bed
        .service
        .handle(&chinese, takeback(TakebackAction::Request))
        .await;
    assert!(reply.ephemeral);
    assert_eq!(
        reply.text,
        "只有不计积分的友谊对局才能悔棋：这盘棋计积分，落子无悔。"
    );
    let reply = bed
        .service
        .handle(&chinese, Command::Replay { game: Some(42) })
        .await;
    assert_eq!(reply.text, "本服务器上找不到第42局。");
    let reply = bed
        .service
        .handle(&chinese, Command::BoardOrientation { white: true })
        .await;
    assert_eq!(
        reply.text,
        "轮到你走棋时（以及你的回放中），棋盘将固定白方在下。"
    );
    // Only the orientation changed.
    let after = bed.snapshot().await;
    let changed: Vec<_> = after.iter().filter(|r| !before.contains(r)).collect();
    assert_eq!(changed.len(), 1, "{changed:?}");
    assert!(changed[0].starts_with("players:"), "{changed:?}");
}

/// A Chess960 game's rematch keeps its variant and start (colours
/// swapped), its replay is a GIF from its start, and its PGN reads back
/// through `/show` as Chess960; a PGN of a variant not played here is
/// refused by name.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chess960_rematch_replay_and_pasted_pgn() {
    let bed = Bed::new().await;
    bed.ok(
        "alice",
        "room",
        Command::Challenge {
            opponent: Some(user("bob")),
            color: ColorChoice::White,
            rated: Some(false),
            time: None,
            fen: None,
            variant: Some("chess960".into()),
            position: Some(12),
        },
    )
    .await;
    bed.ok("bob", "room", Command::Accept { challenge: None })
        .await;
    for (who, m) in [
        ("alice", "f3"),
        ("bob", "f6"),
        ("alice", "Bf2"),
        ("bob", "Bf7"),
        ("alice", "O-O"),
        ("bob", "O-O"),
    ] {
        bed.ok(who, "room", mv(m)).await;
    }
    let over = bed
        .ok("bob", "room", Command::Resign { confirmed: true })
        .await;
    let replay = bed
        .ok("alice", "room", Command::Replay { game: Some(1) })
        .await;
    let gif = &replay.image.as_ref().expect("a replay").png;
    assert!(gif.starts_with(b"GIF8"), "a GIF");
    let rematch = over
        .buttons
        .iter()
        .find(|b| b.label == "Rematch")
        .expect("a rematch button")
        .id
        .clone();
    bed.ok(
        "bob",
        "room",
        Command::Button {
            id: rematch.clone(),
        },
    )
    .await;
    bed.ok("alice", "room", Command::Button { id: rematch })
        .await;
    let again = bed.service.store().game(2).await.unwrap().unwrap().game;
    assert_eq!(
        (again.variant, again.start_number, again.white_id.as_str()),
        (chessbot::chess::Variant::Chess960, Some(12), "bob")
    );
    assert_eq!(
        again.initial_fen.as_deref(),
        Some("qbnnrkbr/pppppppp/8/8/8/8/PPPPPPPP/QBNNRKBR w KQkq - 0 1")
    );
    let pgn = bed
        .ok("alice", "room", Command::Pgn { game: Some(1) })
        .await;
    let text = pgn
        .files
        .iter()
        .find(|f| f.file_name.ends_with(".pgn"))
        .map(|f| String::from_utf8(f.bytes.clone()).unwrap())
        .expect("a PGN");
    let shown = bed
        .ok(
            "carol",
            "lobby",
            Command::Show {
                fen: None,
                pgn: Some(text.clone()),
            },
        )
        .await;
    assert!(shown.text.contains("3 moves"), "{}", shown.text);
    assert!(
        !shown.text.contains("Opening"),
        "no opening off 518: {}",
        shown.text
    );
    bed.refused(
        "carol",
        "lobby",
        Command::Show {
            fen: None,
            pgn: Some(text.replace("Chess960", "Bughouse")),
        },
        "The PGN is a game of Bughouse, which is not played here",
    )
    .await;
}
