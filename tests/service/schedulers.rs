//! Two schedulers on one database (two bot processes) fire each deadline
//! and send each reminder exactly once, however their ticks interleave.
//! Runs on SQLite and, with `TEST_POSTGRES_URL`, on PostgreSQL.

use crate::common;

use std::{sync::Arc, time::Duration};

use chessbot::{
    clock::{Clock, ManualClock},
    render::{RenderConfig, Renderer},
    service::{Actor, ColorChoice, Command, Notice, Service, UserRef},
    store::{ServerSettings, Store},
};
use common::TestDb;

const SERVER: &str = "guild";
const GAMES: usize = 6;

fn actor(user: &str, channel: &str) -> Actor {
    Actor {
        server: SERVER.into(),
        channel: channel.into(),
        user: user.into(),
        name: user.into(),
        locale: None,
        server_locale: None,
        is_moderator: false,
    }
}

async fn two_schedulers(url: &str, clock: &ManualClock) -> [Service; 2] {
    let renderer = Arc::new(Renderer::new(RenderConfig::default()).expect("renderer"));
    let a = Store::open(url).await.expect("store a");
    let b = Store::open(url).await.expect("store b");
    let mut settings = ServerSettings::defaults(SERVER);
    a.server(SERVER).await.expect("server");
    settings.threads = false;
    a.save_settings(&settings).await.expect("settings");
    [a, b].map(|store| {
        let clock: Arc<dyn Clock> = Arc::new(clock.clone());
        Service::new(store, renderer.clone(), clock)
    })
}

/// Both processes tick `rounds` times at once; all notices, in any order.
async fn tick_together(services: &[Service; 2], rounds: usize) -> Vec<Notice> {
    let mut all = Vec::new();
    for _ in 0..rounds {
        let (a, b) = tokio::join!(services[0].tick(), services[1].tick());
        all.extend(a);
        all.extend(b);
    }
    all
}

async fn deadlines_fire_once(url: &str) {
    let clock = ManualClock::new(1_767_268_800_000);
    let services = two_schedulers(url, &clock).await;
    // Games in channels c0..c5, alternating started (e4 e5) and unstarted.
    for i in 0..GAMES {
        let channel = format!("c{i}");
        let (white, black) = (format!("w{i}"), format!("b{i}"));
        let posted = services[0]
            .handle(
                &actor(&white, &channel),
                Command::Challenge {
                    opponent: Some(UserRef {
                        id: black.clone(),
                        name: black.clone(),
                    }),
                    color: ColorChoice::White,
                    rated: Some(true),
                    time: Some("1d".into()),
                    fen: None,
                    variant: None,
                    position: None,
                },
            )
            .await;
        let accept = Command::Button {
            id: posted.buttons[0].id.clone(),
        };
        assert!(
            !services[1]
                .handle(&actor(&black, &channel), accept)
                .await
                .ephemeral
        );
        if i % 2 == 0 {
            for (who, text) in [(&white, "e4"), (&black, "e5")] {
                let reply = services[i % 2]
                    .handle(
                        &actor(who, &channel),
                        Command::Move {
                            text: text.into(),
                            claim_draw: false,
                        },
                    )
                    .await;
                assert!(!reply.ephemeral, "{reply:?}");
            }
        }
    }

    // 23.5 h later: the 1-hour reminder of every game is due, once.
    clock.advance(Duration::from_secs(23 * 3600 + 1800));
    let reminders = tick_together(&services, 3).await;
    assert_eq!(reminders.len(), GAMES, "{reminders:#?}");
    for i in 0..GAMES {
        let channel = format!("c{i}");
        let here = reminders
            .iter()
            .filter(|n| n.channel.as_deref() == Some(channel.as_str()))
            .count();
        assert_eq!(here, 1, "reminders in {channel}");
    }

    // Past every deadline: each game ends exactly once.
    clock.advance(Duration::from_secs(3600));
    let endings = tick_together(&services, 3).await;
    assert_eq!(endings.len(), GAMES, "{endings:#?}");
    let store = services[0].store();
    for i in 0..GAMES {
        let game = store
            .latest_game_in(&format!("c{i}"))
            .await
            .expect("game")
            .expect("exists");
        let expected = if i % 2 == 0 {
            ("0-1", "timeout")
        } else {
            ("*", "aborted")
        };
        assert_eq!(
            (
                game.state.result.as_deref(),
                game.state.termination.as_deref()
            ),
            (Some(expected.0), Some(expected.1)),
            "game in c{i}"
        );
        let changes = store.game_rating_changes(game.id).await.expect("changes");
        assert_eq!(changes.len(), if i % 2 == 0 { 2 } else { 0 }, "c{i}");
    }
    assert_eq!(store.points_total(SERVER).await.expect("total"), 0);
    assert!(tick_together(&services, 2).await.is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_two_schedulers_fire_each_deadline_once() {
    let db = TestDb::sqlite();
    deadlines_fire_once(&db.url).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_two_schedulers_fire_each_deadline_once() {
    if let Some(db) = TestDb::postgres("two_schedulers_fire_each_deadline_once").await {
        deadlines_fire_once(&db.url).await;
    }
}
