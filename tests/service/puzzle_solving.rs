//! Solving puzzles through the service (no engine needed: the puzzles are
//! put in the pool directly): `/puzzle`, answers with `/move`, the bot's
//! replies, a wrong move, the hint, the rating of each attempt, the puzzle
//! ladder and the profile line; and bad input, refused privately with every
//! table left as it was.

use std::sync::Arc;

use chessbot::{
    clock::{Clock, ManualClock},
    render::{RenderConfig, Renderer},
    service::{Actor, Command, Reply, Service},
    store::{NewPuzzle, Store},
};
use sqlx::{sqlite::SqlitePoolOptions, Row};

pub(crate) const SERVER: &str = "guild";
/// 1.Qd8+ Bxd8 2.Re8#.
pub(crate) const MATE_IN_TWO: &str = "r1b2k1r/ppp1bppp/8/1B1Q4/5q2/2P5/PPP2PPP/R3R1K1 w - - 0 1";
/// Black to play: 1...Qa1# (1...Qb1# mates too: any mate is a right
/// answer).
pub(crate) const BLACK_MATES: &str = "6k1/5ppp/8/8/8/8/q4PPP/6K1 b - - 0 1";

const TABLES: [&str; 7] = [
    "servers",
    "players",
    "puzzles",
    "puzzle_attempts",
    "puzzle_players",
    "daily_puzzles",
    "daily_attempts",
];

/// A server whose pool holds [`MATE_IN_TWO`] (#1) and [`BLACK_MATES`] (#2),
/// on a clock tests move (the daily puzzle's tests share it).
pub(crate) struct Bed {
    pub service: Service,
    pub store: Store,
    pub clock: ManualClock,
    renderer: Arc<Renderer>,
    path: std::path::PathBuf,
    _dir: tempfile::TempDir,
}

pub(crate) fn actor(user: &str) -> Actor {
    Actor {
        server: SERVER.into(),
        channel: "chess".into(),
        user: user.into(),
        name: user.into(),
        locale: None,
        server_locale: None,
        is_moderator: false,
    }
}

pub(crate) fn mv(text: &str) -> Command {
    Command::Move {
        text: text.into(),
        claim_draw: false,
    }
}

impl Bed {
    pub async fn new() -> Bed {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("puzzles.db");
        let url = format!("sqlite:{}", path.display());
        let store = Store::open(&url).await.expect("store");
        let clock = ManualClock::new(1_767_268_800_000);
        let shared: Arc<dyn Clock> = Arc::new(clock.clone());
        let renderer = Arc::new(Renderer::new(RenderConfig::default()).expect("renderer"));
        let service = Service::new(store.clone(), renderer.clone(), shared);
        let puzzle = |fen: &str, moves: &[&str], themes: &[&str]| NewPuzzle {
            fen: fen.to_owned(),
            moves: moves.iter().map(|m| (*m).to_owned()).collect(),
            themes: themes.iter().map(|t| (*t).to_owned()).collect(),
            source: "starter".to_owned(),
        };
        store
            .add_puzzles(
                SERVER,
                &[
                    puzzle(MATE_IN_TWO, &["d5d8", "e7d8", "e1e8"], &["mateIn2"]),
                    puzzle(BLACK_MATES, &["a2a1"], &["mateIn1", "endgame"]),
                ],
                1_000,
            )
            .await
            .expect("puzzles");
        Bed {
            service,
            store,
            clock,
            renderer,
            path,
            _dir: dir,
        }
    }

    pub async fn run(&self, who: &str, command: Command) -> Reply {
        self.service.handle(&actor(who), command).await
    }

    /// `command` from `who` as a moderator of the server.
    pub async fn run_mod(&self, who: &str, command: Command) -> Reply {
        let actor = Actor {
            is_moderator: true,
            ..actor(who)
        };
        self.service.handle(&actor, command).await
    }

    /// A new bot on the same database and clock, as after a restart.
    pub fn restarted(&self) -> Service {
        let shared: Arc<dyn Clock> = Arc::new(self.clock.clone());
        Service::new(self.store.clone(), self.renderer.clone(), shared)
    }

    pub async fn snapshot(&self) -> Vec<String> {
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

    /// `command` must be refused privately with `expected` in the message,
    /// changing no table.
    pub async fn refused(&self, who: &str, command: Command, expected: &str) {
        let before = self.snapshot().await;
        let label = format!("{command:?}");
        let reply = self.run(who, command).await;
        assert!(reply.ephemeral, "{label}: private: {reply:?}");
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

#[tokio::test]
async fn solving_a_puzzle_with_the_bots_reply_rates_it() {
    let bed = Bed::new().await;
    let shown = bed.run("alice", Command::Puzzle).await;
    assert!(shown.ephemeral, "a puzzle is the asker's own");
    assert!(
        shown.text.contains("White to play and win."),
        "{}",
        shown.text
    );
    assert!(
        shown.text.contains("Puzzle #1 (0 points)"),
        "{}",
        shown.text
    );
    let card = shown.card.as_ref().expect("card");
    assert_eq!(card.fields, [("FEN".to_owned(), MATE_IN_TWO.to_owned())]);
    let image = shown.image.as_ref().expect("board");
    assert!(image.png.starts_with(b"\x89PNG"));
    assert_eq!(shown.buttons[0].id, "puzzle:1:hint");
    // `/puzzle` again shows the same attempt.
    let again = bed.run("alice", Command::Puzzle).await;
    assert!(
        again.text.contains("You are solving puzzle #1"),
        "{}",
        again.text
    );

    // The hint: the piece to move.
    let hint = bed
        .run(
            "alice",
            Command::Button {
                id: "puzzle:1:hint".into(),
            },
        )
        .await;
    assert_eq!(hint.text, "Hint: move the queen on d5.");
    assert!(hint.ephemeral);

    let right = bed.run("alice", mv("Qd8+")).await;
    assert!(
        right.text.contains("Qd8+ is right. The reply: Bxd8."),
        "{}",
        right.text
    );
    assert_eq!(
        right.card.as_ref().expect("card").fields[0].1,
        "r1bb1k1r/ppp2ppp/8/1B6/5q2/2P5/PPP2PPP/R3R1K1 w - - 0 2"
    );
    let solved = bed.run("alice", mv("Re8#")).await;
    assert!(solved.text.contains("Re8# — solved!"), "{}", solved.text);
    assert!(
        solved
            .text
            .contains("Puzzle points: 0 → 10 (+10), Unranked."),
        "{}",
        solved.text
    );
    assert!(solved.text.contains("Themes: mate in 2"), "{}", solved.text);
    let puzzle = bed.store.puzzle(1).await.unwrap().expect("puzzle");
    assert_eq!(
        (puzzle.points, puzzle.attempts, puzzle.solved),
        (-1000, 1, 1)
    );
    let attempt = bed.store.attempt(1, "alice").await.unwrap().expect("kept");
    assert!(attempt.hinted);

    // The puzzle ladder and the profile.
    let ladder = bed
        .run("alice", Command::PuzzleLeaderboard { page: 1 })
        .await;
    assert_eq!(
        ladder.text,
        "Puzzle ladder (page 1)\n1. alice — 10? points, Unranked — 1/1 solved"
    );
    let profile = bed.run("alice", Command::Profile { user: None }).await;
    let fields = &profile.card.as_ref().expect("card").fields;
    assert!(
        fields.contains(&(
            "Puzzles".to_owned(),
            "10? points, Unranked — 1/1 solved".to_owned()
        )),
        "{fields:?}"
    );
}

#[tokio::test]
async fn a_wrong_move_ends_the_attempt_and_shows_the_solution() {
    let bed = Bed::new().await;
    bed.run("bob", Command::Puzzle).await;
    let wrong = bed.run("bob", mv("Qxf7+")).await;
    assert!(wrong.ephemeral);
    assert!(
        wrong
            .text
            .contains("Qxf7+ is not the move. The attempt is over."),
        "{}",
        wrong.text
    );
    assert!(
        wrong.text.contains("The solution: 1. Qd8+ Bxd8 2. Re8#"),
        "{}",
        wrong.text
    );
    assert!(
        wrong
            .text
            .contains("Puzzle points: 0 → -10 (-10), Unranked."),
        "{}",
        wrong.text
    );
    assert!(wrong.image.is_some(), "the solution's board");
    let puzzle = bed.store.puzzle(1).await.unwrap().expect("puzzle");
    assert_eq!(
        (puzzle.points, puzzle.attempts, puzzle.solved),
        (1000, 1, 0)
    );
    // The next `/puzzle` is another one: one attempt per puzzle. Black to
    // play, the board from Black's side.
    let next = bed.run("bob", Command::Puzzle).await;
    assert!(next.text.contains("Puzzle #2"), "{}", next.text);
    assert!(
        next.text.contains("Black to play and win."),
        "{}",
        next.text
    );
    let solved = bed.run("bob", mv("Qa1#")).await;
    assert!(solved.text.contains("solved"), "{}", solved.text);
}

#[tokio::test]
async fn bad_input_is_refused_privately_and_stores_nothing() {
    let bed = Bed::new().await;
    // Seen once, so later refusals leave even the players' table alone.
    bed.run("carol", Command::Games).await;
    // No attempt open, none ended: `/move` is about games.
    bed.refused("carol", mv("e4"), "no game").await;
    bed.refused(
        "carol",
        Command::Button {
            id: "puzzle:1:hint".into(),
        },
        "That puzzle attempt is over",
    )
    .await;
    bed.refused("carol", Command::PuzzleLeaderboard { page: 2 }, "no page 2")
        .await;

    bed.run("carol", Command::Puzzle).await;
    // Unreadable and illegal answers are said, not rated.
    bed.refused("carol", mv("zz9"), "zz9").await;
    bed.refused("carol", mv("Ke2"), "Ke2").await;
    // A hint for another puzzle than the open one.
    bed.refused(
        "carol",
        Command::Button {
            id: "puzzle:2:hint".into(),
        },
        "That puzzle attempt is over",
    )
    .await;
    bed.run("carol", mv("Qxf7+")).await;
    // An answer after the attempt ended.
    bed.refused("carol", mv("Re8#"), "That puzzle attempt is over")
        .await;
    bed.refused(
        "carol",
        Command::Button {
            id: "puzzle:1:hint".into(),
        },
        "That puzzle attempt is over",
    )
    .await;
    // Puzzle 2 is 0 points away from carol's −10: solve it, then none is
    // left near her points.
    bed.run("carol", Command::Puzzle).await;
    bed.run("carol", mv("Qa1#")).await;
    bed.refused(
        "carol",
        Command::Puzzle,
        "No puzzle is left near your puzzle points",
    )
    .await;
}

/// A player with a puzzle open who also plays a game in the channel: their
/// `/move` there is about the game, and the game's refusal (out of turn, an
/// illegal move) is what they hear; the puzzle waits, and is answered from
/// another channel.
#[tokio::test]
async fn a_move_in_ones_own_game_goes_to_the_game_not_the_puzzle() {
    use chessbot::service::{Setting, UserRef};
    let bed = Bed::new().await;
    bed.run_mod(
        "mod",
        Command::Settings {
            changes: vec![Setting::Threads(false)],
        },
    )
    .await;
    let challenge = bed
        .run(
            "carol",
            Command::challenge_as_white(UserRef {
                id: "dave".into(),
                name: "dave".into(),
            }),
        )
        .await;
    assert!(!challenge.buttons.is_empty(), "{}", challenge.text);
    let accepted = bed.run("dave", Command::Accept { challenge: None }).await;
    assert!(accepted.image.is_some(), "{}", accepted.text);
    let shown = bed.run("carol", Command::Puzzle).await;
    assert!(shown.text.contains("Puzzle #1"), "{}", shown.text);

    // The game's move, not an answer to the puzzle.
    let moved = bed.run("carol", mv("e4")).await;
    assert!(moved.image.is_some(), "{}", moved.text);
    let game = bed
        .store
        .active_game_in("chess")
        .await
        .unwrap()
        .expect("the game");
    assert_eq!(bed.store.moves(game.id).await.unwrap().len(), 1);
    // Out of turn: the game's refusal, nothing stored.
    bed.refused("carol", mv("d4"), "dave").await;
    // The puzzle's answer is out of turn in the game too: the game's
    // refusal again, and the attempt stays open.
    bed.refused("carol", mv("Qd8+"), "dave").await;
    assert_eq!(bed.store.moves(game.id).await.unwrap().len(), 1);

    // Someone watching the game, with a puzzle open: the game is not
    // theirs, so their move there answers the puzzle and the game is left
    // alone.
    let shown = bed.run("erin", Command::Puzzle).await;
    assert!(shown.text.contains("Puzzle #1"), "{}", shown.text);
    let answered = bed.run("erin", mv("Qd8+")).await;
    assert!(
        answered.text.contains("Qd8+ is right. The reply: Bxd8."),
        "{}",
        answered.text
    );
    assert_eq!(bed.store.moves(game.id).await.unwrap().len(), 1);

    // Elsewhere the same move answers the puzzle.
    let elsewhere = Actor {
        channel: "lobby".into(),
        ..actor("carol")
    };
    let answered = bed.service.handle(&elsewhere, mv("Qd8+")).await;
    assert!(
        answered.text.contains("Qd8+ is right. The reply: Bxd8."),
        "{}",
        answered.text
    );
}

#[tokio::test]
async fn in_chinese() {
    let bed = Bed::new().await;
    let mut zhang = actor("zhang");
    zhang.locale = Some("zh-CN".into());
    let shown = bed.service.handle(&zhang, Command::Puzzle).await;
    assert!(shown.text.contains("白方走，取胜。"), "{}", shown.text);
    let right = bed.service.handle(&zhang, mv("后d8+")).await;
    assert!(
        right.text.contains("后d8+ 正确。对方应着：象xd8。"),
        "{}",
        right.text
    );
    let solved = bed.service.handle(&zhang, mv("车e8#")).await;
    assert!(solved.text.contains("车e8# —— 解出！"), "{}", solved.text);
    assert!(solved.text.contains("主题：两步杀"), "{}", solved.text);
}

#[tokio::test]
async fn a_new_server_gets_the_starter_set_on_its_first_puzzle() {
    let dir = tempfile::tempdir().expect("temp dir");
    let url = format!("sqlite:{}", dir.path().join("new.db").display());
    let store = Store::open(&url).await.expect("store");
    let clock: Arc<dyn Clock> = Arc::new(ManualClock::new(1_767_268_800_000));
    let renderer = Arc::new(Renderer::new(RenderConfig::default()).expect("renderer"));
    let service = Service::new(store.clone(), renderer, clock);
    let starter = chessbot::puzzle::starter::read(chessbot::puzzle::starter::STARTER)
        .expect("the starter set reads");
    assert!(starter.len() >= 30, "{} starter puzzles", starter.len());
    assert_eq!(store.puzzle_count(SERVER).await.unwrap(), 0);
    let shown = service.handle(&actor("alice"), Command::Puzzle).await;
    assert!(shown.text.contains("Puzzle #1"), "{}", shown.text);
    assert_eq!(
        store.puzzle_count(SERVER).await.unwrap(),
        starter.len() as i64
    );
    let first = store.puzzle(1).await.unwrap().expect("puzzle 1");
    assert_eq!(first.source, "starter");
    assert_eq!(
        shown.card.as_ref().expect("card").fields[0].1,
        starter[0].fen
    );
}
