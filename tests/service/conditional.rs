//! Conditional moves through the service (issue 19), beyond what the
//! transcripts show: both players' lines answering each other, an answer
//! owed across a crash played at start-up, a vacation left running by an
//! answer, and the lines cleared by a takeback, an accepted draw and a
//! resignation.

use std::sync::Arc;

use chessbot::{
    clock::{Clock, ManualClock},
    render::{RenderConfig, Renderer},
    service::{
        Actor, ColorChoice, Command, ConditionalAction, DrawAction, Reply, Service, Setting,
        TakebackAction, UserRef,
    },
    store::{ConditionalRecord, Store},
};

const CHANNEL: &str = "lobby";

struct Bed {
    service: Service,
    _clock: ManualClock,
    url: String,
    _dir: tempfile::TempDir,
}

fn actor(user: &str) -> Actor {
    Actor {
        server: "guild".into(),
        channel: CHANNEL.into(),
        user: user.into(),
        name: user.into(),
        locale: None,
        server_locale: None,
        is_moderator: user == "carol",
    }
}

fn service_on(store: Store, clock: &ManualClock) -> Service {
    let shared: Arc<dyn Clock> = Arc::new(clock.clone());
    let renderer = Arc::new(Renderer::new(RenderConfig::default()).expect("renderer"));
    Service::new(store, renderer, shared)
}

impl Bed {
    /// alice (White) and bob (Black) in a correspondence game in `lobby`.
    async fn new(rated: bool) -> Bed {
        let dir = tempfile::tempdir().expect("temp dir");
        let url = format!("sqlite:{}", dir.path().join("c.db").display());
        let store = Store::open(&url).await.expect("store");
        let clock = ManualClock::new(1_767_268_800_000);
        let bed = Bed {
            service: service_on(store, &clock),
            _clock: clock,
            url,
            _dir: dir,
        };
        bed.run(
            "carol",
            Command::Settings {
                changes: vec![Setting::Threads(false)],
            },
        )
        .await;
        bed.run(
            "alice",
            Command::Challenge {
                opponent: Some(UserRef {
                    id: "bob".into(),
                    name: "bob".into(),
                }),
                color: ColorChoice::White,
                rated: Some(rated),
                time: Some("3d".into()),
                fen: None,
                variant: None,
                position: None,
            },
        )
        .await;
        let accepted = bed.run("bob", Command::Accept { challenge: None }).await;
        assert!(!accepted.ephemeral, "{accepted:?}");
        bed
    }

    async fn run(&self, who: &str, command: Command) -> Reply {
        self.service.handle(&actor(who), command).await
    }

    async fn play(&self, who: &str, text: &str) -> Reply {
        let reply = self
            .run(
                who,
                Command::Move {
                    text: text.into(),
                    claim_draw: false,
                },
            )
            .await;
        assert!(!reply.ephemeral, "{who} {text}: {}", reply.text);
        reply
    }

    async fn add(&self, who: &str, line: &str) {
        let reply = self
            .run(
                who,
                Command::Conditional {
                    action: ConditionalAction::Add { line: line.into() },
                },
            )
            .await;
        assert!(
            reply.text.starts_with("Conditional line added"),
            "{who} {line}: {}",
            reply.text
        );
    }

    /// The trees stored for the game (used-up ones are removed in the
    /// background, after the reply: waited for here).
    async fn trees(&self) -> usize {
        self.service.background_idle().await;
        self.service
            .store()
            .conditionals_of_game(1)
            .await
            .expect("trees")
            .len()
    }

    async fn sans(&self) -> Vec<String> {
        self.service
            .store()
            .moves(1)
            .await
            .expect("moves")
            .into_iter()
            .map(|m| m.san)
            .collect()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn both_players_lines_answer_each_other() {
    let bed = Bed::new(true).await;
    bed.play("alice", "e4").await;
    // bob, on his own turn: he plays c5; if alice answers Nf3 he plays d6.
    bed.add("bob", "c5 Nf3 d6").await;
    // alice, on bob's turn: after c5 she plays Nf3, after d6 she plays d4.
    bed.add("alice", "c5 Nf3 d6 d4").await;
    // bob's own c5 sets off the chain: alice's Nf3, bob's d6, alice's d4.
    let reply = bed.play("bob", "c5").await;
    assert_eq!(
        reply.text,
        "1... c5 — alice's conditional move: 2. Nf3 — bob's conditional move: 2... d6 — \
         alice's conditional move: 3. d4 — bob (Black) to move."
    );
    assert_eq!(bed.sans().await, ["e4", "c5", "Nf3", "d6", "d4"]);
    assert_eq!(bed.trees().await, 0, "both trees are used up");
    // The reply mentions nobody: bob sent it and bob is to move.
    assert!(reply.mentions.is_empty(), "{:?}", reply.mentions);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_answer_owed_across_a_crash_is_played_at_start_up() {
    let bed = Bed::new(false).await;
    bed.play("alice", "e4").await;
    bed.play("bob", "e5").await;
    // As if the bot stopped after committing bob's move and before its
    // answer: alice's tree was written before e5 (one ply back).
    let record = bed.service.store().game(1).await.unwrap().unwrap();
    bed.service
        .store()
        .put_conditional(
            record.version,
            &ConditionalRecord {
                game_id: 1,
                user_id: "alice".into(),
                base_plies: 1,
                lines: "e7e5 g1f3".into(),
                updated_ms: 0,
            },
        )
        .await
        .unwrap();
    bed.service.store().close().await;
    let store = Store::open(&bed.url).await.expect("reopen");
    let restarted = service_on(store, &bed._clock);
    let notices = restarted.startup().await;
    let answer = notices
        .iter()
        .find(|n| n.channel.as_deref() == Some(CHANNEL))
        .expect("the answer is posted in the game's channel");
    assert!(
        answer
            .reply
            .text
            .starts_with("alice's conditional move: 2. Nf3 — bob (Black) to move."),
        "{}",
        answer.reply.text
    );
    assert!(answer.reply.image.is_some(), "with the board");
    let moves = restarted.store().moves(1).await.unwrap();
    assert_eq!(moves.last().map(|m| m.san.as_str()), Some("Nf3"));
    // Only once: a second start-up finds nothing owed.
    let again = restarted.startup().await;
    assert!(again.iter().all(|n| n.channel.as_deref() != Some(CHANNEL)));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_answer_does_not_end_its_players_vacation() {
    let bed = Bed::new(true).await;
    bed.play("alice", "e4").await;
    bed.add("alice", "e5 Nf3").await;
    let away = bed.run("alice", Command::Vacation { days: 3 }).await;
    assert!(!away.ephemeral, "{}", away.text);
    bed.play("bob", "e5").await;
    assert_eq!(bed.sans().await, ["e4", "e5", "Nf3"]);
    let now = bed.service.now_ms();
    let vacations = bed
        .service
        .store()
        .vacations("guild", "alice", now)
        .await
        .unwrap();
    assert!(
        vacations
            .iter()
            .any(|v| v.starts_ms <= now && v.ends_ms > now),
        "alice is still away: {vacations:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_takeback_an_accepted_draw_and_a_resignation_clear_the_lines() {
    // A takeback (casual game).
    let bed = Bed::new(false).await;
    bed.play("alice", "e4").await;
    bed.play("bob", "e5").await;
    bed.play("alice", "Nf3").await;
    bed.add("alice", "Nc6 Bb5").await;
    bed.add("bob", "Nc6 Bb5 a6").await;
    assert_eq!(bed.trees().await, 2);
    bed.run(
        "alice",
        Command::Takeback {
            action: TakebackAction::Request,
        },
    )
    .await;
    let taken = bed
        .run(
            "bob",
            Command::Takeback {
                action: TakebackAction::Accept,
            },
        )
        .await;
    assert!(!taken.ephemeral, "{}", taken.text);
    assert_eq!(bed.trees().await, 0);

    // An accepted draw.
    let bed = Bed::new(true).await;
    bed.play("alice", "e4").await;
    bed.add("alice", "e5 Nf3").await;
    bed.run(
        "alice",
        Command::Draw {
            action: DrawAction::Offer,
        },
    )
    .await;
    bed.run(
        "bob",
        Command::Draw {
            action: DrawAction::Accept,
        },
    )
    .await;
    assert_eq!(bed.trees().await, 0);

    // A resignation.
    let bed = Bed::new(true).await;
    bed.play("alice", "e4").await;
    bed.add("alice", "e5 Nf3").await;
    bed.run("bob", Command::Resign { confirmed: true }).await;
    assert_eq!(bed.trees().await, 0);
}
