//! Bad input gets a clear answer and changes nothing: every refusal here is
//! checked for its message, for being private to the asker, and for leaving
//! every stored table exactly as it was. (A user's first command registers
//! their name on the server; the users here have all been seen before.)

use std::sync::Arc;

use chessbot::{
    clock::{Clock, ManualClock},
    render::{RenderConfig, Renderer},
    service::{
        Actor, AdjournAction, ColorChoice, Command, ConditionalAction, DrawAction, Reply, Service,
        Setting, TakebackAction, UserRef,
    },
    store::Store,
};
use sqlx::{sqlite::SqlitePoolOptions, Row};

const TABLES: [&str; 14] = [
    "adjournments",
    "adjourn_offers",
    "audit_log",
    "conditional_moves",
    "servers",
    "players",
    "challenges",
    "games",
    "moves",
    "rating_changes",
    "variant_ratings",
    "vacations",
    "reminders_sent",
    "dm_summaries",
];

type Answer<'a, T> = std::pin::Pin<Box<dyn std::future::Future<Output = T> + 'a>>;

struct Bed {
    service: Service,
    clock: ManualClock,
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
        server_locale: None,
        is_moderator: user == "carol",
    }
}

fn user(name: &str) -> UserRef {
    UserRef {
        id: name.into(),
        name: name.into(),
    }
}

impl Bed {
    async fn new() -> Bed {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("bad.db");
        let store = Store::open(&format!("sqlite:{}", path.display()))
            .await
            .expect("store");
        let clock = ManualClock::new(1_767_268_800_000);
        let shared: Arc<dyn Clock> = Arc::new(clock.clone());
        let renderer = Arc::new(Renderer::new(RenderConfig::default()).expect("renderer"));
        let service = Service::new(store, renderer, shared);
        Bed {
            service,
            clock,
            path,
            _dir: dir,
        }
    }

    /// Runs a command. Boxed, as [`Bed::refused`]: a test awaits these at
    /// many places, and a debug build gives each place stack room for the
    /// whole future unless it is on the heap.
    fn run<'a>(&'a self, who: &'a str, channel: &'a str, command: Command) -> Answer<'a, Reply> {
        Box::pin(async move { self.service.handle(&actor(who, channel), command).await })
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
    fn refused<'a>(
        &'a self,
        who: &'a str,
        channel: &'a str,
        command: Command,
        expected: &'a str,
    ) -> Answer<'a, ()> {
        Box::pin(self.refused_now(who, channel, command, expected))
    }

    async fn refused_now(&self, who: &str, channel: &str, command: Command, expected: &str) {
        let before = self.snapshot().await;
        let label = format!("{command:?}");
        let reply = self.run(who, channel, command).await;
        assert!(
            reply.ephemeral,
            "{label}: refusal should be private: {reply:?}"
        );
        assert!(
            reply.text.contains(expected),
            "{label}: expected a message containing {expected:?}, got {:?}",
            reply.text
        );
        assert!(
            reply.text.chars().count() < 600,
            "{label}: message too long"
        );
        assert_eq!(
            before,
            self.snapshot().await,
            "{label}: stored state changed"
        );
    }
}

fn mv(text: &str) -> Command {
    Command::Move {
        text: text.into(),
        claim_draw: false,
    }
}

fn challenge(opponent: Option<&str>, time: Option<&str>) -> Command {
    Command::Challenge {
        opponent: opponent.map(user),
        color: ColorChoice::White,
        rated: Some(true),
        time: time.map(str::to_owned),
        fen: None,
        variant: None,
        position: None,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_refusal_is_clear_and_changes_nothing() {
    let bed = Bed::new().await;
    let huge = "x".repeat(10 * 1024);
    // Everyone has been seen once, in a game-less channel.
    for who in ["alice", "bob", "carol", "dave"] {
        bed.run(who, "lobby", Command::Help).await;
    }
    bed.run(
        "carol",
        "lobby",
        Command::Settings {
            changes: vec![Setting::Threads(false)],
        },
    )
    .await;

    // No game here.
    bed.refused("alice", "lobby", mv("e4"), "no game in progress")
        .await;
    bed.refused("alice", "lobby", Command::Board, "no game in this channel")
        .await;
    // Challenges.
    bed.refused(
        "alice",
        "lobby",
        challenge(Some("alice"), None),
        "can't challenge yourself",
    )
    .await;
    for (time, why) in [
        ("0+0", "no time"),
        ("999d", "1, 2, 3, 5, 7, 10 or 14"),
        ("40/abc", "abc"),
        // Controls no one can play (issue 16): the limit is stated.
        ("1/1", "at least 5 seconds per move"),
        ("40/1", "at least 5 seconds per move"),
        ("40/100:16/3600", "at least 5 seconds per move"),
    ] {
        bed.refused("alice", "lobby", challenge(Some("bob"), Some(time)), why)
            .await;
    }
    bed.refused(
        "alice",
        "lobby",
        challenge(Some("bob"), Some(&huge)),
        "too long",
    )
    .await;
    bed.refused(
        "alice",
        "lobby",
        Command::Challenge {
            opponent: Some(user("bob")),
            color: ColorChoice::White,
            rated: None,
            time: None,
            fen: Some("not a fen".into()),
            variant: None,
            position: None,
        },
        "`fen`",
    )
    .await;
    // A game from a set position is never rated (issue 16).
    bed.refused(
        "alice",
        "lobby",
        Command::Challenge {
            opponent: Some(user("bob")),
            color: ColorChoice::White,
            rated: Some(true),
            time: None,
            fen: Some("6k1/5ppp/8/8/8/8/5PPP/3Q2K1 w - - 0 1".into()),
            variant: None,
            position: None,
        },
        "unrated",
    )
    .await;
    bed.refused(
        "bob",
        "lobby",
        Command::Accept { challenge: None },
        "no challenge for you",
    )
    .await;

    // A real challenge, then wrong answers to it.
    let posted = bed
        .run("alice", "lobby", challenge(Some("bob"), Some("1d")))
        .await;
    assert!(!posted.ephemeral, "{posted:?}");
    let id = posted.buttons[0].id.clone();
    bed.refused(
        "alice",
        "lobby",
        challenge(Some("bob"), None),
        "already have a challenge",
    )
    .await;
    bed.refused(
        "carol",
        "lobby",
        Command::Button { id: id.clone() },
        "for bob, not for you",
    )
    .await;
    bed.refused(
        "alice",
        "lobby",
        Command::Button { id: id.clone() },
        "own challenge",
    )
    .await;
    bed.refused(
        "carol",
        "lobby",
        Command::Decline { challenge: Some(1) },
        "Only the challenged",
    )
    .await;
    bed.refused(
        "bob",
        "lobby",
        Command::Cancel { challenge: Some(1) },
        "Only the challenger",
    )
    .await;
    bed.refused(
        "bob",
        "lobby",
        Command::Button {
            id: "game:1:explode:0".into(),
        },
        "not one of mine",
    )
    .await;
    bed.refused(
        "bob",
        "lobby",
        Command::Button { id: huge.clone() },
        "not one of mine",
    )
    .await;

    // An expired challenge cannot be accepted.
    bed.clock.advance(std::time::Duration::from_secs(25 * 3600));
    bed.refused(
        "bob",
        "lobby",
        Command::Button { id: id.clone() },
        "expired",
    )
    .await;

    // A game, then bad moves and actions in it.
    let posted = bed
        .run("alice", "lobby", challenge(Some("bob"), Some("3d")))
        .await;
    let accepted = bed
        .run(
            "bob",
            "lobby",
            Command::Button {
                id: posted.buttons[0].id.clone(),
            },
        )
        .await;
    assert!(accepted.text.contains("accepted"), "{accepted:?}");
    bed.refused(
        "alice",
        "lobby",
        challenge(Some("dave"), None),
        "game is in progress",
    )
    .await;
    bed.refused("bob", "lobby", mv("e5"), "not your turn").await;
    // In another channel: pointed to the game's channel (issue 16).
    bed.refused(
        "alice",
        "hall",
        mv("e4"),
        "Your game with bob is in <#lobby>",
    )
    .await;
    bed.refused("carol", "lobby", mv("e4"), "not playing").await;
    bed.refused("alice", "lobby", mv("xyz"), "can't read").await;
    bed.refused("alice", "lobby", mv(""), "Type a move").await;
    bed.refused("alice", "lobby", mv("Ke2"), "not legal").await;
    bed.refused("alice", "lobby", mv(&huge), "too long").await;
    bed.refused(
        "alice",
        "lobby",
        Command::Draw {
            action: DrawAction::Claim,
        },
        "no draw to claim",
    )
    .await;
    bed.refused(
        "alice",
        "lobby",
        Command::Draw {
            action: DrawAction::Accept,
        },
        "no draw offer",
    )
    .await;
    bed.refused(
        "carol",
        "lobby",
        Command::Resign { confirmed: true },
        "not playing",
    )
    .await;
    bed.refused("dave", "lobby", Command::Abort, "not playing")
        .await;
    bed.refused(
        "bob",
        "lobby",
        Command::Vacation { days: 400 },
        "between 1 and 14",
    )
    .await;
    bed.refused(
        "bob",
        "lobby",
        Command::Vacation { days: 0 },
        "not on vacation",
    )
    .await;
    assert!(!bed.run("alice", "lobby", mv("e4")).await.ephemeral);
    assert!(!bed.run("bob", "lobby", mv("e5")).await.ephemeral);
    bed.refused("bob", "lobby", Command::Abort, "only be aborted before")
        .await;
    bed.refused(
        "alice",
        "lobby",
        Command::Button {
            id: "game:1:give-time:3".into(),
        },
        "while your opponent is to move",
    )
    .await;
    bed.refused(
        "carol",
        "lobby",
        Command::Button {
            id: "game:1:give-time:3".into(),
        },
        "not playing",
    )
    .await;

    // Settings: moderators only, and values checked.
    bed.refused(
        "alice",
        "lobby",
        Command::Settings {
            changes: vec![Setting::Theme("blue".into())],
        },
        "Only moderators",
    )
    .await;
    bed.refused(
        "carol",
        "lobby",
        Command::Settings {
            changes: vec![Setting::Theme("purple".into())],
        },
        "unknown theme",
    )
    .await;
    bed.refused(
        "carol",
        "lobby",
        Command::Settings {
            changes: vec![Setting::DefaultTime(huge.clone())],
        },
        "`time`",
    )
    .await;
    bed.refused(
        "carol",
        "lobby",
        Command::Leaderboard {
            page: 0,
            variant: None,
        },
        "between 1 and",
    )
    .await;

    // Finished games refuse more.
    assert!(
        !bed.run("alice", "lobby", Command::Resign { confirmed: true })
            .await
            .ephemeral
    );
    for command in [
        Command::Resign { confirmed: true },
        Command::Draw {
            action: DrawAction::Offer,
        },
        Command::Abort,
        mv("Nf3"),
    ] {
        bed.refused("alice", "lobby", command, "is over").await;
    }
}

fn conditional(line: &str) -> Command {
    Command::Conditional {
        action: ConditionalAction::Add { line: line.into() },
    }
}

/// `/conditional` (issue 19): every refusal says why and stores nothing.
fn challenge_in(variant: Option<&str>, position: Option<i64>, fen: Option<&str>) -> Command {
    Command::Challenge {
        opponent: Some(user("bob")),
        color: ColorChoice::White,
        rated: None,
        time: None,
        fen: fen.map(str::to_owned),
        variant: variant.map(str::to_owned),
        position,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn variant_refusals_are_clear_and_change_nothing() {
    let bed = Bed::new().await;
    for who in ["alice", "bob"] {
        bed.run(who, "lobby", Command::Help).await;
    }
    for (command, why) in [
        (
            challenge_in(Some("shogi"), None, None),
            "`shogi` is not a variant played here. Choose one of: standard, chess960, \
             crazyhouse, atomic, antichess, kingofthehill, threecheck, horde, racingkings",
        ),
        (
            // A start number is Chess960's alone.
            challenge_in(Some("crazyhouse"), Some(12), None),
            "for Chess960 only",
        ),
        (
            // White in check: legal in standard chess, never in Racing Kings.
            challenge_in(
                Some("racingkings"),
                None,
                Some("8/8/8/8/8/8/r6K/k7 w - - 0 1"),
            ),
            "`fen`: That position cannot be played: it breaks a rule of the game's variant.",
        ),
        (
            // Horde's White has no king.
            challenge_in(
                Some("horde"),
                None,
                Some("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
            ),
            "`fen`: That position cannot be played: it breaks a rule of the game's variant.",
        ),
        (
            // A pocket that does not read.
            challenge_in(
                Some("crazyhouse"),
                None,
                Some("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Xz] w KQkq - 0 1"),
            ),
            "`fen`: The board (field 1 of the FEN, `rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR?Xz?`) cannot be read",
        ),
        (challenge_in(Some(&"x".repeat(500)), None, None), "too long"),
        (
            challenge_in(Some("chess960"), Some(960), None),
            "numbered 0 to 959; 960 is not",
        ),
        (
            challenge_in(Some("chess960"), Some(-1), None),
            "numbered 0 to 959; -1 is not",
        ),
        (challenge_in(None, Some(12), None), "for Chess960 only"),
        (
            challenge_in(Some("standard"), Some(518), None),
            "for Chess960 only",
        ),
        (
            challenge_in(
                Some("chess960"),
                Some(12),
                Some("4k3/8/8/8/8/8/8/4K2R w K - 0 1"),
            ),
            "not both",
        ),
        (
            // Castling rights no Chess960 position can have.
            challenge_in(
                Some("chess960"),
                None,
                Some("4k3/8/8/8/8/8/8/4K3 w K - 0 1"),
            ),
            "`fen`: That position cannot be played: a castling right names a king or rook that \
             is not on its starting square.",
        ),
        (
            Command::Leaderboard {
                page: 1,
                variant: Some("bughouse".to_owned()),
            },
            "`bughouse` is not a variant played here",
        ),
    ] {
        bed.refused("alice", "lobby", command, why).await;
    }
    // A good one is stored with its variant and start, then accepted.
    let reply = bed
        .run(
            "alice",
            "lobby",
            challenge_in(Some("chess960"), Some(0), None),
        )
        .await;
    assert!(
        reply.text.contains("Chess960, start position 0"),
        "{}",
        reply.text
    );
}

/// Drops: one in standard chess, one of a piece not in hand, one onto a
/// taken square, a pawn onto the last rank: each refused privately, saying
/// why, and nothing stored.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn impossible_drops_are_refused_and_change_nothing() {
    let bed = Bed::new().await;
    for who in ["alice", "bob", "carol", "dave"] {
        bed.run(who, "lobby", Command::Help).await;
    }
    bed.run(
        "carol",
        "lobby",
        Command::Settings {
            changes: vec![Setting::Threads(false)],
        },
    )
    .await;
    // Standard chess: no drops at all.
    bed.run("alice", "lobby", challenge(Some("bob"), Some("3d")))
        .await;
    bed.run("bob", "lobby", Command::Accept { challenge: None })
        .await;
    for text in ["N@f3", "@e4", "P@e4", "马@f3"] {
        bed.refused(
            "alice",
            "lobby",
            mv(text),
            "pieces are dropped only in crazyhouse",
        )
        .await;
    }
    // Crazyhouse: 1. e4 d5 2. exd5 leaves White a pawn in hand.
    let reply = bed
        .run("carol", "hall", {
            let mut c = challenge_in(Some("crazyhouse"), None, None);
            if let Command::Challenge { opponent, .. } = &mut c {
                *opponent = Some(user("dave"));
            }
            c
        })
        .await;
    assert!(reply.text.contains("Variant: Crazyhouse"), "{}", reply.text);
    bed.run("dave", "hall", Command::Accept { challenge: None })
        .await;
    for text in ["e4", "d5", "exd5", "Nf6"] {
        let who = if ["e4", "exd5"].contains(&text) {
            "carol"
        } else {
            "dave"
        };
        assert!(!bed.run(who, "hall", mv(text)).await.ephemeral, "{text}");
    }
    for (text, why) in [
        ("N@f3", "you have no knight in hand to drop"),
        ("@d2", "d2 is taken"),
        ("P@g8", "a pawn is never dropped on the first or last rank"),
    ] {
        bed.refused("carol", "hall", mv(text), why).await;
    }
    assert!(!bed.run("carol", "hall", mv("@e4")).await.ephemeral);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn conditional_refusals_are_clear_and_change_nothing() {
    let bed = Bed::new().await;
    for who in ["alice", "bob", "carol", "dave"] {
        bed.run(who, "lobby", Command::Help).await;
    }
    bed.run(
        "carol",
        "lobby",
        Command::Settings {
            changes: vec![Setting::Threads(false)],
        },
    )
    .await;
    let list = || Command::Conditional {
        action: ConditionalAction::List,
    };
    let clear = || Command::Conditional {
        action: ConditionalAction::Clear,
    };

    // No game in the channel.
    for command in [conditional("e5 Nf3"), list(), clear()] {
        bed.refused("alice", "lobby", command, "no game in progress")
            .await;
    }

    // A correspondence game: alice (White) has played e4, Black to move.
    bed.run("alice", "lobby", challenge(Some("bob"), Some("3d")))
        .await;
    bed.run("bob", "lobby", Command::Accept { challenge: None })
        .await;
    assert!(!bed.run("alice", "lobby", mv("e4")).await.ephemeral);

    // Not a player of it.
    for command in [conditional("e5 Nf3"), list(), clear()] {
        bed.refused("carol", "lobby", command, "not playing").await;
    }
    // Nonsense, empty lines, over-long lines (the limit is stated).
    bed.refused(
        "alice",
        "lobby",
        conditional("hello world"),
        "The first move of the line does not fit: I can't read `hello`",
    )
    .await;
    bed.refused("alice", "lobby", conditional("1. 2..."), "no moves")
        .await;
    let two_hundred = ["Nf6 Nf3 Ng8 Ng1"; 50].join(" ");
    bed.refused(
        "alice",
        "lobby",
        conditional(&two_hundred),
        "200 moves; a line may have at most 40",
    )
    .await;
    bed.refused(
        "alice",
        "lobby",
        conditional(&"x".repeat(10 * 1024)),
        "too long",
    )
    .await;
    // An illegal line: the first bad move and why, as `/move` says it.
    bed.refused(
        "alice",
        "lobby",
        conditional("e5 Nf3 Nc6 Ke3"),
        "Move 4 of the line (after 1... e5 2. Nf3 Nc6) does not fit: `Ke3` is not legal here",
    )
    .await;
    bed.refused(
        "alice",
        "lobby",
        conditional("e5 Nf3 Nc6"),
        "ends with your opponent's move Nc6",
    )
    .await;
    // Nothing to clear.
    bed.refused("alice", "lobby", clear(), "no conditional moves")
        .await;

    // A stored line, then one that answers the same move differently.
    let added = bed
        .run("alice", "lobby", conditional("e5 Nf3 Nc6 Bb5"))
        .await;
    assert!(added.ephemeral, "{added:?}");
    assert!(
        added
            .text
            .starts_with("Conditional line added: 1... e5 2. Nf3 Nc6 3. Bb5."),
        "{}",
        added.text
    );
    bed.refused(
        "alice",
        "lobby",
        conditional("e5 Nf3 Nc6 Bc4"),
        "after 1... e5 2. Nf3 Nc6 you answer Bb5, and this line says Bc4",
    )
    .await;
    bed.refused(
        "alice",
        "lobby",
        conditional("e5 Nc3"),
        "after 1... e5 you answer Nf3, and this line says Nc3",
    )
    .await;
    // The opponent cannot see or clear another player's lines.
    let theirs = bed.run("bob", "lobby", list()).await;
    assert!(theirs.ephemeral);
    assert!(
        theirs.text.starts_with("You have no conditional moves"),
        "{}",
        theirs.text
    );
    bed.refused("bob", "lobby", clear(), "no conditional moves")
        .await;

    // A live game refuses them, with the reason.
    bed.run("carol", "live", challenge(Some("dave"), Some("10+5")))
        .await;
    bed.run("dave", "live", Command::Accept { challenge: None })
        .await;
    for command in [conditional("e4 e5"), list(), clear()] {
        bed.refused("carol", "live", command, "this one is live (10 min + 5 s")
            .await;
    }

    // A finished game: nothing more, and its lines went with it.
    assert!(
        !bed.run("bob", "lobby", Command::Resign { confirmed: true })
            .await
            .ephemeral
    );
    assert!(bed
        .snapshot()
        .await
        .iter()
        .all(|r| !r.starts_with("conditional_moves")));
    for command in [conditional("e5 Nf3"), list(), clear()] {
        bed.refused("alice", "lobby", command, "is over").await;
    }
}

fn adjourn(action: AdjournAction) -> Command {
    Command::Adjourn { action }
}

fn seal(text: Option<&str>) -> Command {
    Command::Seal {
        text: text.map(str::to_owned),
    }
}

fn title(who: &str, title: &str) -> Command {
    Command::Title {
        user: user(who),
        title: title.into(),
    }
}

/// Adjourned games and titles (issue 29): every refusal says why and
/// changes nothing stored; the sealed move is shown to nobody but its
/// sealer.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn adjournment_and_title_refusals_are_clear_and_change_nothing() {
    adjournment_and_title_refusals().await;
}

async fn adjournment_and_title_refusals() {
    // In stages: one async body with every step would need a stack frame
    // larger than a debug build's test thread has.
    let bed = Bed::new().await;
    Box::pin(titles_and_games_never_adjourned(&bed)).await;
    Box::pin(before_the_adjournment(&bed)).await;
    Box::pin(while_adjourned(&bed)).await;
    Box::pin(the_sealed_move_stays_sealed(&bed)).await;
}

async fn titles_and_games_never_adjourned(bed: &Bed) {
    for who in ["alice", "bob", "carol", "dave"] {
        bed.run(who, "lobby", Command::Help).await;
    }
    bed.run(
        "carol",
        "lobby",
        Command::Settings {
            changes: vec![Setting::Threads(false)],
        },
    )
    .await;

    // Titles: moderators only, and only the seed's five (or none).
    bed.refused("alice", "lobby", title("bob", "GM"), "Only moderators")
        .await;
    bed.refused("carol", "lobby", title("bob", "CM"), "not a title I know")
        .await;
    bed.refused(
        "carol",
        "lobby",
        title("bob", "grandmaster!"),
        "GM, IM, FM, WGM, WIM",
    )
    .await;
    bed.refused("carol", "lobby", title("engine:1", "GM"), "no title")
        .await;

    // No game here.
    bed.refused(
        "alice",
        "lobby",
        adjourn(AdjournAction::Offer),
        "no game in progress",
    )
    .await;
    bed.refused("alice", "lobby", seal(Some("e5")), "no game in progress")
        .await;

    // A correspondence game is never adjourned.
    bed.run("alice", "lobby", challenge(Some("bob"), Some("3d")))
        .await;
    bed.run("bob", "lobby", Command::Accept { challenge: None })
        .await;
    assert!(!bed.run("alice", "lobby", mv("e4")).await.ephemeral);
    assert!(!bed.run("bob", "lobby", mv("e5")).await.ephemeral);
    bed.refused(
        "alice",
        "lobby",
        adjourn(AdjournAction::Offer),
        "Only live games",
    )
    .await;
    bed.run("alice", "lobby", Command::Resign { confirmed: true })
        .await;
}

async fn before_the_adjournment(bed: &Bed) {
    // A live classical game, not started: no adjournment yet.
    bed.run(
        "alice",
        "lobby",
        challenge(Some("bob"), Some("40/9000:16/3600")),
    )
    .await;
    bed.run("bob", "lobby", Command::Accept { challenge: None })
        .await;
    bed.refused(
        "alice",
        "lobby",
        adjourn(AdjournAction::Offer),
        "first move",
    )
    .await;
    assert!(!bed.run("alice", "lobby", mv("e4")).await.ephemeral);
    assert!(!bed.run("bob", "lobby", mv("e5")).await.ephemeral);
    // Not adjourned: nothing to seal, nothing to accept, no resumption.
    bed.refused("alice", "lobby", seal(Some("Nf3")), "not adjourned")
        .await;
    bed.refused(
        "bob",
        "lobby",
        adjourn(AdjournAction::Accept),
        "Nobody has offered",
    )
    .await;
    bed.refused(
        "bob",
        "lobby",
        adjourn(AdjournAction::Decline),
        "Nobody has offered",
    )
    .await;
    // The arbiter's verbs are the moderators'.
    bed.refused(
        "alice",
        "lobby",
        adjourn(AdjournAction::Now),
        "Only moderators",
    )
    .await;
    bed.refused(
        "bob",
        "lobby",
        adjourn(AdjournAction::Resume {
            when: "2026-01-02 20:00".into(),
        }),
        "not adjourned",
    )
    .await;
    bed.refused(
        "carol",
        "lobby",
        adjourn(AdjournAction::Resume {
            when: "2026-01-02 20:00".into(),
        }),
        "not adjourned",
    )
    .await;
    // A spectator cannot offer.
    bed.refused(
        "dave",
        "lobby",
        adjourn(AdjournAction::Offer),
        "not playing",
    )
    .await;

    // alice offers; her second offer and her own answer are refused.
    assert!(
        !bed.run("alice", "lobby", adjourn(AdjournAction::Offer))
            .await
            .ephemeral
    );
    bed.refused(
        "alice",
        "lobby",
        adjourn(AdjournAction::Offer),
        "offered to adjourn already",
    )
    .await;
    bed.refused(
        "alice",
        "lobby",
        adjourn(AdjournAction::Accept),
        "your own offer",
    )
    .await;
    // bob agrees: adjourned, alice (White, to move) seals.
    assert!(
        !bed.run("bob", "lobby", adjourn(AdjournAction::Accept))
            .await
            .ephemeral
    );
    bed.refused(
        "carol",
        "lobby",
        adjourn(AdjournAction::Now),
        "adjourned already",
    )
    .await;
    bed.refused(
        "bob",
        "lobby",
        adjourn(AdjournAction::Offer),
        "adjourned already",
    )
    .await;
}

async fn while_adjourned(bed: &Bed) {
    // Moves, claims and takebacks while adjourned.
    bed.refused("alice", "lobby", mv("Nf3"), "seal your move")
        .await;
    bed.refused("bob", "lobby", mv("Nf6"), "no moves until play resumes")
        .await;
    bed.refused(
        "alice",
        "lobby",
        Command::Draw {
            action: DrawAction::Claim,
        },
        "adjourned",
    )
    .await;
    bed.refused(
        "alice",
        "lobby",
        Command::Takeback {
            action: TakebackAction::Request,
        },
        "no takebacks",
    )
    .await;
    // Sealing out of turn, an illegal or unreadable move, the sealed move
    // asked for before it is sealed.
    bed.refused(
        "bob",
        "lobby",
        seal(Some("Nf6")),
        "seals the move of this adjournment",
    )
    .await;
    bed.refused("dave", "lobby", seal(Some("Nf3")), "not playing")
        .await;
    bed.refused("alice", "lobby", seal(Some("Ke3")), "Ke3")
        .await;
    bed.refused("alice", "lobby", seal(Some("hello")), "hello")
        .await;
    bed.refused("alice", "lobby", seal(None), "not sealed your move yet")
        .await;
    let huge = "x".repeat(500);
    bed.refused("alice", "lobby", seal(Some(&huge)), "too long")
        .await;
}

async fn the_sealed_move_stays_sealed(bed: &Bed) {
    // alice seals Nf3: only she is told which.
    let sealed = bed.run("alice", "lobby", seal(Some("Nf3"))).await;
    assert!(sealed.ephemeral, "{sealed:?}");
    assert!(sealed.text.contains("Nf3"), "{}", sealed.text);
    // Sealing twice, and anyone else asking for the sealed move.
    bed.refused("alice", "lobby", seal(Some("Nc3")), "sealed already")
        .await;
    bed.refused("bob", "lobby", seal(None), "nobody but the sealer")
        .await;
    bed.refused("carol", "lobby", seal(None), "nobody but the sealer")
        .await;
    bed.refused("dave", "lobby", seal(None), "nobody but the sealer")
        .await;
    // Nothing anyone can read shows it: the board, the PGN, the games list.
    for (who, command) in [
        ("bob", Command::Board),
        ("carol", Command::Board),
        ("bob", Command::Pgn { game: None }),
        ("carol", Command::Pgn { game: None }),
        ("bob", Command::Games),
    ] {
        let reply = bed.run(who, "lobby", command).await;
        let mut all = reply.text.clone();
        if let Some(card) = &reply.card {
            for (name, value) in &card.fields {
                all.push_str(name);
                all.push_str(value);
            }
        }
        for file in &reply.files {
            all.push_str(&String::from_utf8_lossy(&file.bytes));
        }
        assert!(!all.contains("Nf3"), "{who} sees the sealed move: {all}");
    }
    // Resumption times: unreadable, impossible, past.
    let resume = |when: &str| adjourn(AdjournAction::Resume { when: when.into() });
    // Players propose a time and agree by giving the same one; a spectator
    // has no say, and a player repeating their own proposal is told so.
    bed.refused("dave", "lobby", resume("2026-01-02 20:00"), "not playing")
        .await;
    bed.refused("bob", "lobby", resume("yesterday"), "YYYY-MM-DD HH:MM")
        .await;
    bed.refused("bob", "lobby", resume("2026-01-01 08:00"), "has passed")
        .await;
    let proposed = bed.run("bob", "lobby", resume("2026-01-02 20:00")).await;
    assert!(!proposed.ephemeral, "{}", proposed.text);
    assert!(
        proposed.text.contains("proposes to resume"),
        "{}",
        proposed.text
    );
    bed.refused(
        "bob",
        "lobby",
        resume("2026-01-02 20:00"),
        "proposed that time already",
    )
    .await;
    bed.refused("carol", "lobby", resume("tomorrow"), "YYYY-MM-DD HH:MM")
        .await;
    bed.refused(
        "carol",
        "lobby",
        resume("2026-02-30 20:00"),
        "YYYY-MM-DD HH:MM",
    )
    .await;
    bed.refused("carol", "lobby", resume("2026-01-01 11:00"), "has passed")
        .await;
    // The clock reads 2026-01-01 12:00 UTC: noon itself has passed too.
    bed.refused("carol", "lobby", resume("2026-01-01 12:00"), "has passed")
        .await;
}

/// `/analyze pgn:…` (a pasted game): every PGN it cannot use is refused
/// before any engine is asked, and nothing is stored.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pasted_analysis_refusals_are_clear_and_change_nothing() {
    let bed = Bed::new().await;
    bed.run("alice", "lobby", Command::Help).await;
    let analyze = |game: Option<i64>, pgn: &str| Command::Analyze {
        game,
        pgn: Some(pgn.to_owned()),
    };
    bed.refused(
        "alice",
        "lobby",
        analyze(None, "1. e4 e5 2. Ke3 Nc6"),
        "2. Ke3",
    )
    .await;
    bed.refused(
        "alice",
        "lobby",
        analyze(None, "1. e4 e5 2. banana"),
        "banana",
    )
    .await;
    bed.refused(
        "alice",
        "lobby",
        analyze(None, "[Event \"Nothing\"]\n\n*"),
        "no moves",
    )
    .await;
    bed.refused(
        "alice",
        "lobby",
        analyze(Some(1), "1. e4 e5"),
        "Give one of `game:`",
    )
    .await;
    let huge = format!("1. e4 e5 {{{}}}", "x".repeat(40 * 1024));
    bed.refused(
        "alice",
        "lobby",
        analyze(None, &huge),
        "I read at most 32768",
    )
    .await;
    // A legal, readable game, but this bed has no engine.
    bed.refused(
        "alice",
        "lobby",
        analyze(None, "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0"),
        "No chess engine is installed",
    )
    .await;
}
