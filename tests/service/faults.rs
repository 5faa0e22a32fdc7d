//! Fault and race tests on the real service over a SQLite file:
//!
//! - the database turns read-only, or the disk fills up, at the moment of a
//!   move: the player gets the apology, the game is unchanged, and the bot
//!   plays on once the database is writable again;
//! - many identical actions at once (the same move, the same button, the
//!   same accept, from one process or two) take effect exactly once.
//!
//! (The PostgreSQL two-process race lives with the store conformance tests.)

use std::sync::Arc;

use rand::{rngs::SmallRng, seq::SliceRandom, SeedableRng};
use shakmaty::{san::San, Chess, Color, Position};

use chessbot::{
    clock::{Clock, ManualClock},
    render::{RenderConfig, Renderer},
    service::{Actor, Command, DrawAction, Reply, Service, UserRef},
    store::Store,
};

const APOLOGY: &str = "Sorry, something went wrong on my side and nothing was changed.";
/// Identical actions fired at once.
const CLICKS: usize = 24;

fn actor(user: &str, channel: &str) -> Actor {
    Actor {
        server: "s".to_owned(),
        channel: channel.to_owned(),
        user: user.to_owned(),
        name: user.to_owned(),
        locale: None,
        server_locale: None,
        is_moderator: true,
    }
}

fn mv(text: &str) -> Command {
    Command::Move {
        text: text.to_owned(),
        claim_draw: false,
    }
}

struct Bench {
    _dir: tempfile::TempDir,
    url: String,
    renderer: Arc<Renderer>,
    clock: ManualClock,
}

impl Bench {
    fn new() -> Bench {
        let dir = tempfile::tempdir().expect("temp dir");
        let url = format!("sqlite:{}", dir.path().join("faults.db").display());
        Bench {
            _dir: dir,
            url,
            renderer: Arc::new(Renderer::new(RenderConfig::default()).expect("renderer")),
            clock: ManualClock::new(1_767_268_800_000),
        }
    }

    /// A bot process (its own pool, locks and cache) on the shared file.
    async fn service(&self) -> Service {
        let store = Store::open(&self.url).await.expect("store");
        let clock: Arc<dyn Clock> = Arc::new(self.clock.clone());
        Service::new(store, self.renderer.clone(), clock)
    }
}

/// Threads off, then `white` challenges `black` in `channel` (rated).
async fn challenge(service: &Service, channel: &str) -> Reply {
    service
        .handle(
            &actor("admin", channel),
            Command::Settings {
                changes: vec![chessbot::service::Setting::Threads(false)],
            },
        )
        .await;
    service
        .handle(
            &actor("white", channel),
            Command::challenge_as_white(UserRef {
                id: "black".to_owned(),
                name: "black".to_owned(),
            }),
        )
        .await
}

async fn start_game(service: &Service, channel: &str) -> i64 {
    challenge(service, channel).await;
    let reply = service
        .handle(
            &actor("black", channel),
            Command::Accept { challenge: None },
        )
        .await;
    assert!(reply.image.is_some(), "accept: {}", reply.text);
    service
        .store()
        .active_game_in(channel)
        .await
        .expect("query")
        .expect("game started")
        .id
}

/// Sets a pragma on every connection of the store's pool (SQLite keeps
/// these per connection).
async fn pragma_everywhere(store: &Store, pragma: &str) {
    let mut held = Vec::new();
    for _ in 0..4 {
        let mut conn = store.pool().acquire().await.expect("connection");
        sqlx::query(sqlx::AssertSqlSafe(pragma.to_owned()))
            .execute(&mut *conn)
            .await
            .expect("pragma");
        held.push(conn);
    }
}

/// The stored moves (SAN) and version of a game.
async fn snapshot(store: &Store, game: i64) -> (Vec<String>, i64) {
    let moves = store.moves(game).await.expect("moves");
    let version = store
        .game(game)
        .await
        .expect("game")
        .expect("exists")
        .version;
    (moves.into_iter().map(|m| m.san).collect(), version)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn read_only_database_gets_an_apology_and_changes_nothing() {
    let bench = Bench::new();
    let service = bench.service().await;
    let game = start_game(&service, "c").await;
    let e4 = service.handle(&actor("white", "c"), mv("e4")).await;
    assert!(e4.image.is_some(), "{}", e4.text);
    let before = snapshot(service.store(), game).await;

    pragma_everywhere(service.store(), "PRAGMA query_only = ON").await;
    let refused = service.handle(&actor("black", "c"), mv("e5")).await;
    assert!(refused.text.starts_with(APOLOGY), "{}", refused.text);
    assert!(refused.ephemeral && refused.image.is_none());
    assert_eq!(snapshot(service.store(), game).await, before);
    // Reading still works while writing does not.
    let board = service.handle(&actor("black", "c"), Command::Board).await;
    assert!(board.image.is_some(), "{}", board.text);

    pragma_everywhere(service.store(), "PRAGMA query_only = OFF").await;
    let e5 = service.handle(&actor("black", "c"), mv("e5")).await;
    assert!(e5.image.is_some(), "after recovery: {}", e5.text);
    assert_eq!(snapshot(service.store(), game).await.0, ["e4", "e5"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn full_disk_gets_an_apology_and_changes_nothing() {
    let bench = Bench::new();
    let service = bench.service().await;
    let game = start_game(&service, "c").await;
    // The database may not grow by a single page: the first move that needs
    // a new page fails as it would on a full disk (SQLITE_FULL).
    let row = sqlx::query("PRAGMA page_count")
        .fetch_one(service.store().pool())
        .await
        .expect("page count");
    let pages: i64 = sqlx::Row::get(&row, 0);
    pragma_everywhere(service.store(), &format!("PRAGMA max_page_count = {pages}")).await;

    // Random legal moves that do not end the game, until one needs a page.
    let mut rng = SmallRng::seed_from_u64(7);
    let mut position = Chess::default();
    let mut failed = None;
    let mut last_position = None;
    for i in 0..2_000 {
        let (user, san, next) = pick_move(&position, &mut rng);
        let before = snapshot(service.store(), game).await;
        let reply = service.handle(&actor(user, "c"), mv(&san)).await;
        if reply.text.starts_with(APOLOGY) {
            assert_eq!(snapshot(service.store(), game).await, before);
            failed = Some((user, san));
            last_position = Some(next);
            break;
        }
        assert!(reply.image.is_some(), "move {i} {san}: {}", reply.text);
        assert!(!reply.text.contains("Game over"), "move {i} ended the game");
        position = next;
    }
    let Some((user, san)) = failed else {
        panic!("the database never filled up");
    };
    pragma_everywhere(service.store(), "PRAGMA max_page_count = 1073741823").await;
    let reply = service.execute(&actor(user, "c"), mv(&san)).await;
    let reply = reply.unwrap_or_else(|e| panic!("after freeing space: {e}"));
    assert!(reply.image.is_some(), "after freeing space: {}", reply.text);
    // Every pooled connection writes again (a failed transaction once left
    // its connection unable to begin another: see `Store::connect`).
    position = last_position.expect("the failing move's position");
    for i in 0..12 {
        let (user, san, next) = pick_move(&position, &mut rng);
        let reply = service.execute(&actor(user, "c"), mv(&san)).await;
        let reply = reply.unwrap_or_else(|e| panic!("move {i} after recovery: {e}"));
        assert!(
            reply.image.is_some(),
            "move {i} after recovery: {}",
            reply.text
        );
        position = next;
    }
}

/// A random legal move that does not end the game: (mover, SAN, position after).
fn pick_move(position: &Chess, rng: &mut SmallRng) -> (&'static str, String, Chess) {
    let user = match position.turn() {
        Color::White => "white",
        Color::Black => "black",
    };
    let mut moves = position.legal_moves();
    moves.shuffle(rng);
    for m in moves {
        let mut next = position.clone();
        next.play_unchecked(m);
        if !next.is_game_over() {
            return (user, San::from_move(position, m).to_string(), next);
        }
    }
    panic!("every move ends the game in {position:?}");
}

/// Fires `CLICKS` copies of `command` by `user` at once, spread over
/// `services` (one per simulated process); returns the replies.
async fn all_at_once(
    services: &[Service],
    user: &str,
    channel: &str,
    command: Command,
) -> Vec<Reply> {
    let barrier = Arc::new(tokio::sync::Barrier::new(CLICKS));
    let tasks: Vec<_> = (0..CLICKS)
        .map(|i| {
            let service = services[i % services.len()].clone();
            let (actor, command, barrier) =
                (actor(user, channel), command.clone(), barrier.clone());
            tokio::spawn(async move {
                barrier.wait().await;
                service.handle(&actor, command).await
            })
        })
        .collect();
    let mut replies = Vec::new();
    for task in tasks {
        replies.push(task.await.expect("task"));
    }
    replies
}

fn accepted(replies: &[Reply]) -> usize {
    replies.iter().filter(|r| r.image.is_some()).count()
}

fn assert_no_apology(replies: &[Reply]) {
    for r in replies {
        assert!(
            !r.text.starts_with(APOLOGY),
            "a racing action failed: {}",
            r.text
        );
    }
}

async fn races(processes: usize) {
    let bench = Bench::new();
    let mut services = Vec::new();
    for _ in 0..processes {
        services.push(bench.service().await);
    }
    let store = services[0].store().clone();

    // The same accept: one game.
    let offered = challenge(&services[0], "c").await;
    assert!(!offered.buttons.is_empty(), "{}", offered.text);
    let replies = all_at_once(&services, "black", "c", Command::Accept { challenge: None }).await;
    assert_no_apology(&replies);
    assert_eq!(accepted(&replies), 1, "one accept starts the game");
    assert_eq!(store.all_game_ids().await.expect("ids").len(), 1);
    let game = store
        .active_game_in("c")
        .await
        .expect("q")
        .expect("game")
        .id;

    // The same move: played once.
    let replies = all_at_once(&services, "white", "c", mv("e4")).await;
    assert_no_apology(&replies);
    assert_eq!(accepted(&replies), 1, "one e4");
    assert_eq!(snapshot(&store, game).await.0, ["e4"]);

    // The same draw offer: made once; then the same "Accept draw" button,
    // clicked by the opponent many times: the game ends once, rated once.
    let replies = all_at_once(
        &services,
        "white",
        "c",
        Command::Draw {
            action: DrawAction::Offer,
        },
    )
    .await;
    assert_no_apology(&replies);
    let offers: Vec<_> = replies.iter().filter(|r| !r.buttons.is_empty()).collect();
    assert_eq!(offers.len(), 1, "one draw offer");
    let accept_button = offers[0]
        .buttons
        .iter()
        .find(|b| b.label == "Accept draw")
        .expect("accept button")
        .id
        .clone();
    let replies = all_at_once(
        &services,
        "black",
        "c",
        Command::Button { id: accept_button },
    )
    .await;
    assert_no_apology(&replies);
    assert_eq!(accepted(&replies), 1, "the draw is accepted once");
    let changes = store.game_rating_changes(game).await.expect("changes");
    assert_eq!(changes.len(), 2, "one rating change per player");
    let player = store.player("s", "white").await.expect("q").expect("white");
    assert_eq!(player.rated_games, 1);
    assert_eq!(store.points_total("s").await.expect("total"), 0);

    // The same resignation button on a new game: one result.
    let game = start_game(&services[0], "c").await;
    let ask = services[0]
        .handle(&actor("white", "c"), Command::Resign { confirmed: false })
        .await;
    let confirm = ask.buttons[0].id.clone();
    let replies = all_at_once(&services, "white", "c", Command::Button { id: confirm }).await;
    assert_no_apology(&replies);
    assert_eq!(accepted(&replies), 1, "one resignation");
    assert_eq!(
        store
            .game_rating_changes(game)
            .await
            .expect("changes")
            .len(),
        2
    );
    let player = store.player("s", "white").await.expect("q").expect("white");
    assert_eq!(player.rated_games, 2);
    assert_eq!(store.points_total("s").await.expect("total"), 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn identical_actions_at_once_apply_once() {
    races(1).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn identical_actions_from_two_processes_apply_once() {
    races(2).await;
}
