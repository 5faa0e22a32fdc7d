//! Tournaments through the service (issue 14), beyond the transcripts:
//!
//! - a random 30-player, 7-round Swiss played to the end through the
//!   service, with a withdrawal and a forfeit, whose exported TRF passes
//!   `chessbot pairing --dutch FILE -c` (every round the bot paired is the
//!   FIDE Dutch pairing);
//! - bad input, each answered privately with nothing stored changing;
//! - a crash between a round's last result and the next pairing: the
//!   restarted bot pairs the round once, even with two processes ticking at
//!   once (on PostgreSQL too when `TEST_POSTGRES_URL` is set).

use crate::common;

use std::{collections::HashMap, sync::Arc};

use chessbot::{
    clock::{Clock, ManualClock},
    render::{RenderConfig, Renderer},
    service::{
        Actor, Command, DrawAction, Reply, Service, TournamentCommand, TournamentOptions, UserRef,
    },
    store::{GameChange, GameState, Store, TournamentStatus},
};
use rand::{rngs::StdRng, Rng, SeedableRng};

const SERVER: &str = "guild";
const LOBBY: &str = "lobby";
const START_MS: i64 = 1_767_268_800_000;

fn service_on(store: Store, clock: &ManualClock) -> Service {
    let shared: Arc<dyn Clock> = Arc::new(clock.clone());
    let renderer = Arc::new(Renderer::new(RenderConfig::default()).expect("renderer"));
    Service::new(store, renderer, shared)
}

/// A service with the game threads the adapter would open.
struct Bed {
    service: Service,
    clock: ManualClock,
    /// Game id → its thread.
    threads: HashMap<i64, String>,
}

impl Bed {
    async fn new(url: &str) -> Bed {
        let store = Store::open(url).await.expect("store");
        let clock = ManualClock::new(START_MS);
        Bed {
            service: service_on(store, &clock),
            clock,
            threads: HashMap::new(),
        }
    }

    fn actor(&self, user: &str, channel: &str) -> Actor {
        Actor {
            server: SERVER.into(),
            channel: channel.into(),
            user: user.into(),
            name: user.into(),
            locale: None,
            server_locale: None,
            is_moderator: user == "mod",
        }
    }

    async fn run_in(&mut self, user: &str, channel: &str, command: Command) -> Reply {
        let reply = self
            .service
            .handle(&self.actor(user, channel), command)
            .await;
        self.settle().await;
        reply
    }

    async fn run(&mut self, user: &str, command: TournamentCommand) -> Reply {
        self.run_in(user, LOBBY, Command::Tournament(command)).await
    }

    /// Lets background steps finish and opens the threads they ask for.
    async fn settle(&mut self) {
        loop {
            self.service.background_idle().await;
            let notices = self.service.take_notices();
            if notices.is_empty() {
                return;
            }
            for n in notices {
                if let Some(thread) = &n.reply.open_thread {
                    let name = format!("thread-{}", thread.game_id);
                    self.service.thread_opened(thread.game_id, &name).await;
                    self.threads.insert(thread.game_id, name);
                }
            }
        }
    }

    /// Plays a game to `result` (`1-0`, `0-1`, `1/2-1/2`) after 1. e4 e5.
    async fn play_out(&mut self, game_id: i64, result: &str) {
        let record = self.service.store().game(game_id).await.unwrap().unwrap();
        let channel = self.threads.get(&game_id).cloned().expect("thread opened");
        let (white, black) = (record.game.white_id.clone(), record.game.black_id.clone());
        for (user, mv) in [(&white, "e4"), (&black, "e5")] {
            let r = self
                .run_in(
                    user,
                    &channel,
                    Command::Move {
                        text: mv.into(),
                        claim_draw: false,
                    },
                )
                .await;
            assert!(!r.ephemeral, "move refused: {}", r.text);
        }
        let steps: Vec<(&String, Command)> = match result {
            "1-0" => vec![(&black, Command::Resign { confirmed: true })],
            "0-1" => vec![(&white, Command::Resign { confirmed: true })],
            _ => vec![
                (
                    &white,
                    Command::Draw {
                        action: DrawAction::Offer,
                    },
                ),
                (
                    &black,
                    Command::Draw {
                        action: DrawAction::Accept,
                    },
                ),
            ],
        };
        for (user, command) in steps {
            let r = self.run_in(user, &channel, command).await;
            assert!(!r.ephemeral, "refused: {}", r.text);
        }
    }

    /// Games of tournament `id` still pending.
    async fn pending(&self, id: i64) -> Vec<i64> {
        self.service
            .store()
            .tournament_games(id)
            .await
            .unwrap()
            .iter()
            .filter(|b| b.result.is_none())
            .filter_map(|b| b.game_id)
            .collect()
    }

    /// What is stored about every tournament of the server.
    async fn snapshot(&self) -> String {
        let store = self.service.store();
        let mut out = String::new();
        for t in store.tournaments_of(SERVER, false, 100).await.unwrap() {
            out += &format!("{t:?}\n{:?}\n", store.entrants(t.id).await.unwrap());
            out += &format!("{:?}\n", store.tournament_games(t.id).await.unwrap());
        }
        out += &format!("games: {}", store.open_game_count().await.unwrap());
        out
    }
}

fn create(name: &str) -> TournamentOptions {
    TournamentOptions {
        name: name.into(),
        ..TournamentOptions::default()
    }
}

fn named(id: i64) -> Option<String> {
    Some(format!("#{id}"))
}

fn user(name: &str) -> UserRef {
    UserRef {
        id: name.into(),
        name: name.into(),
    }
}

async fn created_id(bed: &Bed) -> i64 {
    bed.service
        .store()
        .tournaments_of(SERVER, false, 1)
        .await
        .unwrap()[0]
        .id
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_random_swiss_is_paired_as_the_dutch_checker_expects() {
    let db = common::TestDb::sqlite();
    let mut bed = Bed::new(&db.url).await;
    let mut rng = StdRng::seed_from_u64(14);
    let r = bed
        .run(
            "mod",
            TournamentCommand::Create(TournamentOptions {
                rounds: Some(7),
                rated: Some(false),
                ..create("Random Swiss")
            }),
        )
        .await;
    assert!(!r.ephemeral, "{}", r.text);
    let id = created_id(&bed).await;
    for i in 1..=30 {
        let r = bed
            .run(
                &format!("p{i:02}"),
                TournamentCommand::Join { tournament: None },
            )
            .await;
        assert!(!r.ephemeral, "{}", r.text);
    }
    let r = bed
        .run("mod", TournamentCommand::Start { tournament: None })
        .await;
    assert!(!r.ephemeral, "{}", r.text);
    for round in 1..=7 {
        let record = bed.service.store().tournament(id).await.unwrap().unwrap();
        assert_eq!(record.current_round, round, "round {round} paired");
        if round == 3 {
            // A withdrawal: p07's game of this round is lost by forfeit.
            let r = bed
                .run("p07", TournamentCommand::Withdraw { tournament: None })
                .await;
            assert!(!r.ephemeral, "{}", r.text);
        }
        let games = bed.pending(id).await;
        for (k, game) in games.iter().enumerate() {
            if round == 5 && k == 0 {
                // A forfeit set by a moderator before any move.
                let record = bed.service.store().game(*game).await.unwrap().unwrap();
                let r = bed
                    .run(
                        "mod",
                        TournamentCommand::Result {
                            tournament: named(id),
                            player: user(&record.game.white_id),
                            result: "forfeit-loss".into(),
                            round: None,
                            correct: false,
                        },
                    )
                    .await;
                assert!(!r.ephemeral, "{}", r.text);
                continue;
            }
            let result = ["1-0", "0-1", "1/2-1/2"][rng.gen_range(0..3)];
            bed.play_out(*game, result).await;
        }
    }
    let record = bed.service.store().tournament(id).await.unwrap().unwrap();
    assert_eq!(record.status, TournamentStatus::Finished);
    // p07 was never paired after round 3.
    let boards = bed.service.store().tournament_games(id).await.unwrap();
    assert!(boards
        .iter()
        .filter(|b| b.round > 3)
        .all(|b| b.white_id != "p07" && b.black_id.as_deref() != Some("p07")));
    let standings = bed
        .run(
            "p01",
            TournamentCommand::Standings {
                tournament: named(id),
            },
        )
        .await;
    assert!(standings.image.is_some(), "the crosstable image");
    let export = bed
        .run(
            "p01",
            TournamentCommand::Export {
                tournament: named(id),
            },
        )
        .await;
    let trf = export
        .files
        .iter()
        .find(|f| f.file_name.ends_with(".trf"))
        .expect("a TRF attachment");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("swiss.trf");
    std::fs::write(&path, &trf.bytes).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_chessbot"))
        .args(["pairing", "--dutch"])
        .arg(&path)
        .arg("-c")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "the checker disagrees:\n{text}");
    assert!(text.contains("0 of 7 rounds differ"), "{text}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_input_is_refused_and_changes_nothing() {
    let db = common::TestDb::sqlite();
    let mut bed = Bed::new(&db.url).await;
    bed.run(
        "mod",
        TournamentCommand::Create(TournamentOptions {
            max_players: Some(3),
            ..create("Small")
        }),
    )
    .await;
    let id = created_id(&bed).await;
    bed.run("alice", TournamentCommand::Join { tournament: None })
        .await;
    let cases: Vec<(&str, TournamentCommand, &str)> = vec![
        (
            "bob",
            TournamentCommand::Create(create("Mine")),
            "Only moderators",
        ),
        (
            "bob",
            TournamentCommand::Start { tournament: None },
            "Only moderators",
        ),
        (
            "alice",
            TournamentCommand::Join { tournament: None },
            "already in Small",
        ),
        (
            "mod",
            TournamentCommand::Start { tournament: None },
            "needs at least 2 players",
        ),
        (
            "bob",
            TournamentCommand::Withdraw { tournament: None },
            "not in Small",
        ),
        (
            "mod",
            TournamentCommand::Create(TournamentOptions {
                rounds: Some(0),
                ..create("Zero")
            }),
            "`rounds` must be between 1 and 30",
        ),
        (
            "mod",
            TournamentCommand::Create(TournamentOptions {
                max_players: Some(1),
                ..create("One")
            }),
            "`max_players` must be between 2",
        ),
        (
            "mod",
            TournamentCommand::Create(TournamentOptions {
                format: Some("ladder".into()),
                ..create("Bogus")
            }),
            "`format` must be",
        ),
        (
            "mod",
            TournamentCommand::Create(TournamentOptions {
                format: Some("team".into()),
                teams: Some("Red: a b; Blue:".into()),
                ..create("Teams")
            }),
            "Blue has no players",
        ),
        (
            "mod",
            TournamentCommand::Create(TournamentOptions {
                tiebreaks: Some("sb,luck".into()),
                ..create("Luck")
            }),
            "Unknown tie-break “luck”",
        ),
        (
            "mod",
            TournamentCommand::Create(create("Small")),
            "already open or running",
        ),
        (
            "mod",
            TournamentCommand::Create(create(&"x".repeat(61))),
            "at most 60 characters",
        ),
        (
            "alice",
            TournamentCommand::Info {
                tournament: Some("#999".into()),
            },
            "no tournament #999",
        ),
    ];
    for (who, command, expected) in cases {
        let before = bed.snapshot().await;
        let reply = bed.run(who, command.clone()).await;
        assert!(
            reply.ephemeral,
            "{command:?} answered publicly: {}",
            reply.text
        );
        assert!(
            reply.text.contains(expected),
            "{command:?}: expected “{expected}” in “{}”",
            reply.text
        );
        assert_eq!(
            bed.snapshot().await,
            before,
            "{command:?} changed the store"
        );
    }
    // Full: a third player fits, a fourth does not.
    bed.run("bob", TournamentCommand::Join { tournament: None })
        .await;
    bed.run("carol", TournamentCommand::Join { tournament: None })
        .await;
    let before = bed.snapshot().await;
    let full = bed
        .run("dave", TournamentCommand::Join { tournament: None })
        .await;
    assert!(
        full.ephemeral && full.text.contains("is full (3 players)"),
        "{}",
        full.text
    );
    assert_eq!(bed.snapshot().await, before);
    // Started: no joining, no leaving (withdraw is named), no second start.
    bed.run("mod", TournamentCommand::Start { tournament: None })
        .await;
    let started: Vec<(&str, TournamentCommand, &str)> = vec![
        (
            "dave",
            TournamentCommand::Join { tournament: None },
            "has started",
        ),
        (
            "alice",
            TournamentCommand::Leave { tournament: None },
            "/tournament withdraw",
        ),
        (
            "mod",
            TournamentCommand::Start { tournament: None },
            "already started",
        ),
    ];
    for (who, command, expected) in started {
        let before = bed.snapshot().await;
        let reply = bed.run(who, command.clone()).await;
        assert!(
            reply.ephemeral && reply.text.contains(expected),
            "{command:?}: {}",
            reply.text
        );
        assert_eq!(
            bed.snapshot().await,
            before,
            "{command:?} changed the store"
        );
    }
    // A result for a board that has one.
    let game = bed.pending(id).await[0];
    let record = bed.service.store().game(game).await.unwrap().unwrap();
    bed.play_out(game, "1-0").await;
    let before = bed.snapshot().await;
    let again = bed
        .run(
            "mod",
            TournamentCommand::Result {
                tournament: None,
                player: user(&record.game.white_id),
                result: "loss".into(),
                round: Some(1),
                correct: false,
            },
        )
        .await;
    assert!(
        again.ephemeral && again.text.contains("already has a result (1-0)"),
        "{}",
        again.text
    );
    assert_eq!(bed.snapshot().await, before);
    // Aborting a tournament game is refused.
    let other = bed.pending(id).await;
    if let Some(game) = other.first() {
        let record = bed.service.store().game(*game).await.unwrap().unwrap();
        let channel = bed.threads[game].clone();
        let before = bed.snapshot().await;
        let abort = bed
            .run_in(&record.game.white_id, &channel, Command::Abort)
            .await;
        assert!(
            abort.ephemeral && abort.text.contains("cannot be aborted"),
            "{}",
            abort.text
        );
        assert_eq!(bed.snapshot().await, before);
    }
}

/// A crash after a round's last game ended, before the next round was
/// paired: at the restart the round is paired, once, even by two
/// processes at once.
async fn restart_pairs_the_next_round_once(url: &str) {
    let mut bed = Bed::new(url).await;
    bed.run(
        "mod",
        TournamentCommand::Create(TournamentOptions {
            rounds: Some(3),
            ..create("Restart Swiss")
        }),
    )
    .await;
    let id = created_id(&bed).await;
    for p in ["ann", "ben", "cat", "dan"] {
        bed.run(p, TournamentCommand::Join { tournament: None })
            .await;
    }
    bed.run("mod", TournamentCommand::Start { tournament: None })
        .await;
    let games = bed.pending(id).await;
    assert_eq!(games.len(), 2);
    bed.play_out(games[0], "1-0").await;
    // The last game ends in the database, and the process dies before it
    // pairs round 2 (no service sees the ending).
    let store = bed.service.store().clone();
    let record = store.game(games[1]).await.unwrap().unwrap();
    store
        .apply(&GameChange {
            game_id: games[1],
            expected_version: record.version,
            new_move: None,
            state: GameState {
                result: Some("0-1".into()),
                termination: Some("resignation".into()),
                ended_ms: Some(START_MS),
                ..GameState::default()
            },
            rating: None,
            mover: None,
            at_ms: START_MS,
        })
        .await
        .unwrap();
    assert_eq!(
        store.tournament(id).await.unwrap().unwrap().current_round,
        1
    );
    drop(bed);
    // Two processes come up on the same database and tick together.
    let one = service_on(
        Store::open(url).await.unwrap(),
        &ManualClock::new(START_MS + 1),
    );
    let two = service_on(
        Store::open(url).await.unwrap(),
        &ManualClock::new(START_MS + 1),
    );
    let (a, b) = tokio::join!(one.tick(), two.tick());
    let announced = a
        .iter()
        .chain(&b)
        .filter(|n| n.reply.text.contains("round 2 of 3"))
        .count();
    assert_eq!(announced, 1, "round 2 announced once");
    one.tick().await;
    let boards = one.store().tournament_games(id).await.unwrap();
    assert_eq!(boards.iter().filter(|b| b.round == 2).count(), 2);
    assert_eq!(
        one.store()
            .tournament(id)
            .await
            .unwrap()
            .unwrap()
            .current_round,
        2
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn restart_pairs_once_sqlite() {
    let db = common::TestDb::sqlite();
    restart_pairs_the_next_round_once(&db.url).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn restart_pairs_once_postgres() {
    let Some(db) = common::TestDb::postgres("restart_pairs_once_postgres").await else {
        return;
    };
    restart_pairs_the_next_round_once(&db.url).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_start_time_starts_it_and_a_late_first_move_forfeits() {
    let db = common::TestDb::sqlite();
    let mut bed = Bed::new(&db.url).await;
    bed.run(
        "mod",
        TournamentCommand::Create(TournamentOptions {
            format: Some("roundrobin".into()),
            start: Some("2h".into()),
            first_move: Some("1h".into()),
            ..create("Timed")
        }),
    )
    .await;
    let id = created_id(&bed).await;
    for p in ["ann", "ben"] {
        bed.run(p, TournamentCommand::Join { tournament: None })
            .await;
    }
    bed.clock.advance(std::time::Duration::from_secs(2 * 3600));
    let notices = bed.service.tick().await;
    assert!(notices.iter().any(|n| n.reply.text.contains("has started")));
    let record = bed.service.store().tournament(id).await.unwrap().unwrap();
    assert_eq!(record.status, TournamentStatus::Running);
    // Nobody moves within the hour: White loses by forfeit and the round
    // robin (one game) is over.
    bed.clock.advance(std::time::Duration::from_secs(3601));
    bed.service.tick().await;
    bed.settle().await;
    bed.service.tick().await;
    let boards = bed.service.store().tournament_games(id).await.unwrap();
    assert_eq!(boards[0].result.as_deref(), Some("-+"));
    let record = bed.service.store().tournament(id).await.unwrap().unwrap();
    assert_eq!(record.status, TournamentStatus::Finished);
}

/// Titles (issue 29) on a tournament's tables and in its exports: `GM p1`
/// on pairings, standings and the crosstable's names; the TRF keeps the
/// name and the title in their own fields; the PGN has `WhiteTitle` /
/// `BlackTitle`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn titles_show_on_tables_and_in_exports() {
    let db = common::TestDb::sqlite();
    let mut bed = Bed::new(&db.url).await;
    let r = bed
        .run(
            "mod",
            TournamentCommand::Create(TournamentOptions {
                format: Some("roundrobin".into()),
                rated: Some(false),
                ..create("Titled")
            }),
        )
        .await;
    assert!(!r.ephemeral, "{}", r.text);
    let id = created_id(&bed).await;
    for p in ["p1", "p2", "p3", "p4"] {
        bed.run(p, TournamentCommand::Join { tournament: None })
            .await;
    }
    for (who, title) in [("p1", "GM"), ("p2", "女子国际大师")] {
        let r = bed
            .run_in(
                "mod",
                LOBBY,
                Command::Title {
                    user: user(who),
                    title: title.into(),
                },
            )
            .await;
        assert!(!r.ephemeral, "{}", r.text);
    }
    bed.run("mod", TournamentCommand::Start { tournament: None })
        .await;
    let pairings = bed
        .run(
            "p3",
            TournamentCommand::Pairings {
                tournament: named(id),
                round: Some(1),
            },
        )
        .await;
    assert!(pairings.text.contains("GM p1"), "{}", pairings.text);
    assert!(pairings.text.contains("WIM p2"), "{}", pairings.text);
    for game in bed.pending(id).await {
        bed.play_out(game, "1-0").await;
    }
    let standings = bed
        .run(
            "p3",
            TournamentCommand::Standings {
                tournament: named(id),
            },
        )
        .await;
    assert!(standings.text.contains("GM p1"), "{}", standings.text);
    let export = bed
        .run(
            "p3",
            TournamentCommand::Export {
                tournament: named(id),
            },
        )
        .await;
    let file = |ext: &str| {
        let f = export
            .files
            .iter()
            .find(|f| f.file_name.ends_with(ext))
            .unwrap_or_else(|| panic!("a {ext} attachment"));
        String::from_utf8(f.bytes.clone()).expect("text")
    };
    let trf = file(".trf");
    let p1 = trf
        .lines()
        .find(|l| l.starts_with("001") && l.contains("p1"))
        .unwrap_or_else(|| panic!("p1's line in\n{trf}"));
    // Columns 11-13 hold the title; the name (columns 15-47) stays bare.
    assert_eq!(p1.get(10..13).map(str::trim), Some("GM"), "{p1}");
    assert_eq!(p1.get(14..47).map(str::trim), Some("p1"), "{p1}");
    let p3 = trf
        .lines()
        .find(|l| l.starts_with("001") && l.contains("p3"))
        .expect("p3's line");
    assert_eq!(p3.get(10..13).map(str::trim), Some(""), "{p3}");
    let parsed = chessbot::tournament::trf::parse(&trf).expect("the TRF reads back");
    let titles: Vec<&str> = parsed.players.iter().map(|p| p.title.as_str()).collect();
    assert!(
        titles.contains(&"GM") && titles.contains(&"WIM"),
        "{titles:?}"
    );
    let pgn = file(".pgn");
    assert!(
        pgn.contains("[WhiteTitle \"GM\"]") || pgn.contains("[BlackTitle \"GM\"]"),
        "{pgn}"
    );
    assert!(
        pgn.contains("[WhiteTitle \"WIM\"]") || pgn.contains("[BlackTitle \"WIM\"]"),
        "{pgn}"
    );
    assert!(!pgn.contains("GM p1"), "names stay bare in PGN: {pgn}");
}

/// A live round adjourns as any live game does (issue 29): the round and
/// its standings wait for the adjourned game, which ends the tournament
/// when it ends; the exported PGN records the adjournment.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_live_round_waits_for_its_adjourned_game() {
    let db = common::TestDb::sqlite();
    let mut bed = Bed::new(&db.url).await;
    let r = bed
        .run(
            "mod",
            TournamentCommand::Create(TournamentOptions {
                format: Some("roundrobin".into()),
                time: Some("40/9000:16/3600".into()),
                rated: Some(false),
                ..create("Classical")
            }),
        )
        .await;
    assert!(!r.ephemeral, "{}", r.text);
    let id = created_id(&bed).await;
    for p in ["p1", "p2"] {
        bed.run(p, TournamentCommand::Join { tournament: None })
            .await;
    }
    bed.run("mod", TournamentCommand::Start { tournament: None })
        .await;
    let [game] = bed.pending(id).await[..] else {
        panic!("one game");
    };
    let record = bed.service.store().game(game).await.unwrap().unwrap();
    let channel = bed.threads.get(&game).cloned().expect("thread opened");
    let (white, black) = (record.game.white_id.clone(), record.game.black_id.clone());
    for (user, mv) in [(&white, "d4"), (&black, "Nf6")] {
        let r = bed
            .run_in(
                user,
                &channel,
                Command::Move {
                    text: mv.into(),
                    claim_draw: false,
                },
            )
            .await;
        assert!(!r.ephemeral, "{}", r.text);
    }
    let adjourn = Command::Adjourn {
        action: chessbot::service::AdjournAction::Now,
    };
    let r = bed.run_in("mod", &channel, adjourn).await;
    assert!(!r.ephemeral, "{}", r.text);
    let seal = Command::Seal {
        text: Some("c4".into()),
    };
    assert!(bed.run_in(&white, &channel, seal).await.ephemeral);
    // A day later the round still waits: nothing finished, nothing scored.
    bed.clock.advance(std::time::Duration::from_secs(24 * 3600));
    bed.service.tick().await;
    bed.settle().await;
    let t = bed.service.store().tournament(id).await.unwrap().unwrap();
    assert_eq!(t.status, TournamentStatus::Running);
    assert_eq!(bed.pending(id).await, vec![game]);
    let standings = bed
        .run(
            "p1",
            TournamentCommand::Standings {
                tournament: named(id),
            },
        )
        .await;
    assert!(!standings.ephemeral, "{}", standings.text);
    // Black resigns the adjourned game: the tournament ends, and its PGN
    // says where the game was adjourned (the sealed move never played).
    let r = bed
        .run_in(&black, &channel, Command::Resign { confirmed: true })
        .await;
    assert!(!r.ephemeral, "{}", r.text);
    let t = bed.service.store().tournament(id).await.unwrap().unwrap();
    assert_eq!(t.status, TournamentStatus::Finished);
    let export = bed
        .run(
            "p1",
            TournamentCommand::Export {
                tournament: named(id),
            },
        )
        .await;
    let pgn = export
        .files
        .iter()
        .find(|f| f.file_name.ends_with(".pgn"))
        .map(|f| String::from_utf8_lossy(&f.bytes).into_owned())
        .expect("a PGN");
    assert!(pgn.contains("{ Adjourned by the arbiter"), "{pgn}");
    assert!(
        !pgn.contains("c4"),
        "the sealed move is not in the game: {pgn}"
    );
}

/// `count` players (`{prefix}1`, …) join tournament `id`, which then
/// starts: the start's reply.
async fn join_and_start(bed: &mut Bed, id: i64, prefix: &str, count: usize) -> Reply {
    for i in 1..=count {
        let r = bed
            .run(
                &format!("{prefix}{i}"),
                TournamentCommand::Join {
                    tournament: named(id),
                },
            )
            .await;
        assert!(!r.ephemeral, "{}", r.text);
    }
    let r = bed
        .run(
            "mod",
            TournamentCommand::Start {
                tournament: named(id),
            },
        )
        .await;
    assert!(!r.ephemeral, "{}", r.text);
    r
}

/// The games of tournament `id` by round: (round, variant, start number,
/// start FEN) of each game.
async fn starts_by_round(
    bed: &Bed,
    id: i64,
) -> Vec<(i64, chessbot::chess::Variant, Option<u16>, Option<String>)> {
    let mut out = Vec::new();
    for board in bed.service.store().tournament_games(id).await.unwrap() {
        let Some(game) = board.game_id else { continue };
        let g = bed.service.store().game(game).await.unwrap().unwrap().game;
        out.push((board.round, g.variant, g.start_number, g.initial_fen));
    }
    out
}

/// Chess960 events: every board of a round starts from one position,
/// drawn by lot when the round is paired and recorded, announced with the
/// round; a Swiss's next round draws again, a round robin's rounds each
/// have theirs.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chess960_rounds_share_one_recorded_start() {
    use chessbot::chess::{chess960, Variant};
    let db = common::TestDb::sqlite();
    let mut bed = Bed::new(&db.url).await;
    let r = bed
        .run(
            "mod",
            TournamentCommand::Create(TournamentOptions {
                rounds: Some(2),
                rated: Some(false),
                variant: Some("chess960".into()),
                ..create("Fischer Swiss")
            }),
        )
        .await;
    assert!(!r.ephemeral, "{}", r.text);
    assert!(r.text.contains("Every game is Chess960"), "{}", r.text);
    let id = created_id(&bed).await;
    let r = join_and_start(&mut bed, id, "p", 6).await;
    let recorded = bed.service.store().round_starts(id).await.unwrap();
    assert_eq!(recorded.len(), 1, "round 1 drawn");
    let (_, first) = recorded[0];
    assert!(
        r.text
            .contains(&format!("Round 1: Chess960, start position {first}")),
        "{}",
        r.text
    );
    let games = starts_by_round(&bed, id).await;
    assert_eq!(games.len(), 3);
    for (round, variant, number, fen) in &games {
        assert_eq!(
            (*round, *variant, *number),
            (1, Variant::Chess960, Some(first))
        );
        assert_eq!(fen.as_deref(), chess960::start_fen(first).as_deref());
    }
    for game in bed.pending(id).await {
        bed.play_out(game, "1-0").await;
    }
    let recorded = bed.service.store().round_starts(id).await.unwrap();
    assert_eq!(recorded.len(), 2, "round 2 drawn: {recorded:?}");
    let second = recorded[1].1;
    let round_two: Vec<_> = starts_by_round(&bed, id)
        .await
        .into_iter()
        .filter(|g| g.0 == 2)
        .collect();
    assert_eq!(round_two.len(), 3);
    assert!(round_two
        .iter()
        .all(|g| g.1 == Variant::Chess960 && g.2 == Some(second)));

    // A round robin paired all at once: each round its own start.
    let r = bed
        .run(
            "mod",
            TournamentCommand::Create(TournamentOptions {
                format: Some("roundrobin".into()),
                rated: Some(false),
                variant: Some("chess960".into()),
                ..create("Fischer Round Robin")
            }),
        )
        .await;
    assert!(!r.ephemeral, "{}", r.text);
    let rr = created_id(&bed).await;
    join_and_start(&mut bed, rr, "q", 4).await;
    let recorded = bed.service.store().round_starts(rr).await.unwrap();
    assert_eq!(recorded.len(), 3, "{recorded:?}");
    for (round, variant, number, _) in starts_by_round(&bed, rr).await {
        let drawn = recorded.iter().find(|(r, _)| *r == round).map(|(_, n)| *n);
        assert_eq!((variant, number), (Variant::Chess960, drawn));
    }
    // An unknown variant is refused and nothing is stored.
    let before = bed.snapshot().await;
    let r = bed
        .run(
            "mod",
            TournamentCommand::Create(TournamentOptions {
                variant: Some("shogi".into()),
                ..create("Shogi Cup")
            }),
        )
        .await;
    assert!(
        r.ephemeral && r.text.contains("`shogi` is not a variant"),
        "{}",
        r.text
    );
    assert_eq!(before, bed.snapshot().await);
    // lichess's other variants: every board from the variant's own start,
    // nothing drawn by lot.
    let r = bed
        .run(
            "mod",
            TournamentCommand::Create(TournamentOptions {
                variant: Some("horde".into()),
                ..create("Horde Cup")
            }),
        )
        .await;
    assert!(
        !r.ephemeral
            && r.text
                .contains("Every game is Horde, from its usual start."),
        "{}",
        r.text
    );
}
