//! Adjourned games (issue 29) beyond the transcripts: the web board while a
//! game is adjourned (shown, moves refused, nothing stored changes), a flag
//! before the move is sealed (a loss on time, or a draw when the opponent
//! cannot mate), and the clocks standing still while adjourned.

use std::sync::Arc;

use chessbot::{
    clock::{Clock, ManualClock},
    i18n::Lang,
    render::{RenderConfig, Renderer},
    service::{Actor, AdjournAction, ColorChoice, Command, Reply, Service, Setting, UserRef},
    store::Store,
};

const HOUR_MS: i64 = 3_600_000;

struct Bed {
    service: Service,
    clock: ManualClock,
    _dir: tempfile::TempDir,
}

fn actor(user: &str) -> Actor {
    Actor {
        server: "guild".into(),
        channel: "lobby".into(),
        user: user.into(),
        name: user.into(),
        locale: None,
        server_locale: None,
        is_moderator: user == "carol",
    }
}

type Answer<'a> = std::pin::Pin<Box<dyn std::future::Future<Output = Reply> + 'a>>;

impl Bed {
    async fn new() -> Bed {
        let dir = tempfile::tempdir().expect("temp dir");
        let url = format!("sqlite:{}", dir.path().join("adjourn.db").display());
        let store = Store::open(&url).await.expect("store");
        let clock = ManualClock::new(1_767_268_800_000);
        let shared: Arc<dyn Clock> = Arc::new(clock.clone());
        let renderer = Arc::new(Renderer::new(RenderConfig::default()).expect("renderer"));
        let bed = Bed {
            service: Service::new(store, renderer, shared),
            clock,
            _dir: dir,
        };
        let threads = Command::Settings {
            changes: vec![Setting::Threads(false)],
        };
        bed.run("carol", threads).await;
        bed
    }

    /// Boxed: a debug build gives every await of a large future its own
    /// stack room.
    fn run<'a>(&'a self, who: &'a str, command: Command) -> Answer<'a> {
        Box::pin(async move { self.service.handle(&actor(who), command).await })
    }

    /// A live classical game alice (White) v bob from `fen`, each side's
    /// first move made; returns its id.
    async fn classical(&self, fen: Option<&str>, moves: [&str; 2]) -> i64 {
        let challenge = Command::Challenge {
            opponent: Some(UserRef {
                id: "bob".into(),
                name: "bob".into(),
            }),
            color: ColorChoice::White,
            rated: Some(fen.is_none()),
            time: Some("40/9000:16/3600".into()),
            fen: fen.map(str::to_owned),
            variant: None,
            position: None,
        };
        let r = self.run("alice", challenge).await;
        assert!(!r.ephemeral, "{}", r.text);
        let r = self.run("bob", Command::Accept { challenge: None }).await;
        assert!(!r.ephemeral, "{}", r.text);
        for (who, m) in ["alice", "bob"].into_iter().zip(moves) {
            let r = self.run(who, mv(m)).await;
            assert!(!r.ephemeral, "{}", r.text);
        }
        self.service
            .game_in_channel("lobby")
            .await
            .expect("read")
            .expect("a game")
    }

    async fn adjourn_now(&self) {
        let r = self
            .run(
                "carol",
                Command::Adjourn {
                    action: AdjournAction::Now,
                },
            )
            .await;
        assert!(!r.ephemeral, "{}", r.text);
    }

    async fn advance(&self, ms: i64) -> Vec<String> {
        self.clock
            .advance(std::time::Duration::from_millis(ms as u64));
        Box::pin(self.service.tick())
            .await
            .into_iter()
            .map(|n| n.reply.text)
            .collect()
    }
}

fn mv(text: &str) -> Command {
    Command::Move {
        text: text.into(),
        claim_draw: false,
    }
}

fn seal(text: &str) -> Command {
    Command::Seal {
        text: Some(text.into()),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_web_board_shows_an_adjourned_game_and_refuses_its_moves() {
    let bed = Bed::new().await;
    let id = bed.classical(None, ["e4", "e5"]).await;
    let before = bed
        .service
        .live_view(id, Some("alice"), Lang::En)
        .await
        .unwrap()
        .unwrap();
    assert!(!before.dests.is_empty(), "alice may move before");
    bed.adjourn_now().await;
    let view_of = |who: &'static str| {
        let service = bed.service.clone();
        async move {
            service
                .live_view(id, Some(who), Lang::En)
                .await
                .unwrap()
                .unwrap()
        }
    };
    // bob's page shows the game adjourned and offers no moves.
    let view = view_of("bob").await;
    assert!(view.status.contains("Adjourned"), "{}", view.status);
    assert!(view.dests.is_empty(), "no moves offered while adjourned");
    assert!(!view.can.takeback && !view.can.draw_claim);
    assert!(view.can.resign && view.can.draw_offer, "{:?}", view.can);
    // A move from bob's board is refused privately and changes nothing.
    let record = bed.service.store().game(id).await.unwrap().unwrap();
    let r = bed
        .run(
            "bob",
            Command::BoardMove {
                game: id,
                ply: view.ply,
                text: "g8f6".into(),
            },
        )
        .await;
    assert!(r.ephemeral, "{r:?}");
    assert!(r.text.contains("no moves until play resumes"), "{}", r.text);
    assert_eq!(record, bed.service.store().game(id).await.unwrap().unwrap());
    // alice, the sealer, seals on her board: her move is sealed, not played.
    let view = view_of("alice").await;
    assert!(view.status.contains("to seal it"), "{}", view.status);
    assert!(!view.dests.is_empty(), "the sealer's board takes the move");
    let r = bed
        .run(
            "alice",
            Command::BoardMove {
                game: id,
                ply: view.ply,
                text: "g1f3".into(),
            },
        )
        .await;
    assert!(r.ephemeral, "{r:?}");
    assert!(r.text.contains("You sealed Nf3"), "{}", r.text);
    assert_eq!(bed.service.store().moves(id).await.unwrap().len(), 2);
    let mine = view_of("alice").await;
    assert!(mine.status.contains("Nf3"), "{}", mine.status);
    assert!(mine.dests.is_empty(), "sealed once");
    for who in ["bob", "carol"] {
        let theirs = view_of(who).await;
        assert!(
            !format!("{theirs:?}").contains("Nf3"),
            "{who} sees the sealed move: {theirs:?}"
        );
    }
    // Sealed and resumed: the page offers moves again, to bob.
    let r = bed
        .run(
            "carol",
            Command::Adjourn {
                action: AdjournAction::Resume {
                    when: "2026-01-02 09:00".into(),
                },
            },
        )
        .await;
    assert!(!r.ephemeral, "{}", r.text);
    let said = bed.advance(24 * HOUR_MS).await.join("\n");
    assert!(said.contains("the sealed move was 2. Nf3"), "{said}");
    let view = bed
        .service
        .live_view(id, Some("bob"), Lang::En)
        .await
        .unwrap()
        .unwrap();
    assert!(!view.dests.is_empty(), "bob may move after the resumption");
    assert!(!view.status.contains("Adjourned"), "{}", view.status);
    // The clocks stood still while the game was adjourned: alice's shows
    // what she had at the seal, bob's runs from the resumption.
    let clock = view.clock.expect("a live clock");
    assert_eq!(clock.white_ms, 9_000_000);
    assert!(clock.black_ms > 9_000_000 - HOUR_MS, "{clock:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flag_before_the_seal_loses_unless_the_opponent_cannot_mate() {
    // alice (White) has king and queen, bob a lone king: if alice's flag
    // falls before she seals, bob cannot mate, so it is a draw.
    let bed = Bed::new().await;
    let id = bed
        .classical(Some("4k3/8/8/8/8/8/8/3QK3 w - - 0 1"), ["Qd2", "Kf7"])
        .await;
    bed.adjourn_now().await;
    let said = bed.advance(2 * HOUR_MS).await;
    assert!(said.is_empty(), "not yet: {said:?}");
    let said = bed.advance(31 * 60_000).await.join("\n");
    assert!(said.contains("ran out of time"), "{said}");
    let record = bed.service.store().game(id).await.unwrap().unwrap();
    assert_eq!(record.state.result.as_deref(), Some("1/2-1/2"));
    // The same with material on both sides: a loss on time.
    let id = bed.classical(None, ["d4", "d5"]).await;
    bed.adjourn_now().await;
    let said = bed.advance(3 * HOUR_MS).await.join("\n");
    assert!(said.contains("ran out of time"), "{said}");
    let record = bed.service.store().game(id).await.unwrap().unwrap();
    assert_eq!(record.state.result.as_deref(), Some("0-1"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sealed_game_waits_however_long_it_takes() {
    let bed = Bed::new().await;
    let id = bed.classical(None, ["c4", "e5"]).await;
    bed.adjourn_now().await;
    assert!(bed.run("alice", seal("Nc3")).await.ephemeral);
    let told: Vec<String> = bed
        .service
        .take_notices()
        .into_iter()
        .map(|n| n.reply.text)
        .collect();
    assert_eq!(told.len(), 1, "{told:?}");
    assert!(
        told[0].contains("has sealed the move") && !told[0].contains("Nc3"),
        "{told:?}"
    );
    // No deadline while sealed and no resumption set: a week passes.
    let said = bed.advance(7 * 24 * HOUR_MS).await;
    assert!(said.is_empty(), "{said:?}");
    let record = bed.service.store().game(id).await.unwrap().unwrap();
    assert!(record.is_active());
    assert_eq!(record.state.deadline_ms, None);
    assert_eq!(bed.service.next_event_ms().await, None);
    // Resigning while adjourned ends it; the sealed move is never played.
    let r = bed.run("bob", Command::Resign { confirmed: true }).await;
    assert!(!r.ephemeral, "{}", r.text);
    assert!(!r.text.contains("Nc3"), "{}", r.text);
    let moves = bed.service.store().moves(id).await.unwrap();
    assert_eq!(moves.len(), 2);
    let record = bed.service.store().game(id).await.unwrap().unwrap();
    assert_eq!(record.state.result.as_deref(), Some("1-0"));
    assert!(bed
        .service
        .store()
        .resumptions_due_by(i64::MAX, 10)
        .await
        .unwrap()
        .is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_after_the_session_is_over_meets_the_adjournment() {
    let bed = Bed::new().await;
    let hours = Command::Settings {
        changes: vec![Setting::SessionHours(1)],
    };
    assert!(!bed.run("carol", hours).await.ephemeral);
    // One move an hour: each move completes a control, so the session's end
    // adjourns the game as soon as it comes.
    let challenge = Command::Challenge {
        opponent: Some(UserRef {
            id: "bob".into(),
            name: "bob".into(),
        }),
        color: ColorChoice::White,
        rated: Some(false),
        time: Some("1/3600:1/3600".into()),
        fen: None,
        variant: None,
        position: None,
    };
    bed.run("alice", challenge).await;
    bed.run("bob", Command::Accept { challenge: None }).await;
    assert!(!bed.run("alice", mv("e4")).await.ephemeral);
    assert!(!bed.run("bob", mv("e5")).await.ephemeral);
    let id = bed.service.game_in_channel("lobby").await.unwrap().unwrap();
    // The session's hour passes before the scheduler looks: alice's move
    // finds the game adjourned, and the thread hears so.
    bed.clock.advance(std::time::Duration::from_secs(3_660));
    let r = bed.run("alice", mv("Nf3")).await;
    assert!(r.ephemeral, "{r:?}");
    assert!(r.text.contains("seal your move"), "{}", r.text);
    let told: Vec<String> = bed
        .service
        .take_notices()
        .into_iter()
        .map(|n| n.reply.text)
        .collect();
    assert!(
        told.iter()
            .any(|t| t.contains("The session of 1 h is over")),
        "{told:?}"
    );
    assert_eq!(bed.service.store().moves(id).await.unwrap().len(), 2);
    let adjournments = bed.service.store().adjournments(id).await.unwrap();
    assert_eq!(adjournments.len(), 1);
    assert_eq!(adjournments[0].reason, "session");
    assert_eq!(adjournments[0].sealer, "white");

    // A classical game whose players are mid-control when the session ends
    // plays on; the deadline moves on to the flag.
    let resign = Command::Resign { confirmed: true };
    assert!(!bed.run("bob", resign).await.ephemeral);
    let id = bed.classical(None, ["e4", "c5"]).await;
    bed.clock.advance(std::time::Duration::from_secs(3_660));
    let r = bed.run("alice", mv("Nf3")).await;
    assert!(!r.ephemeral, "{}", r.text);
    assert!(bed
        .service
        .store()
        .adjournments(id)
        .await
        .unwrap()
        .is_empty());
    let record = bed.service.store().game(id).await.unwrap().unwrap();
    assert!(record.state.deadline_ms.unwrap() > bed.service.now_ms() + HOUR_MS);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_players_agree_on_the_resumption() {
    let bed = Bed::new().await;
    let id = bed.classical(None, ["e4", "e5"]).await;
    let offer = |action| Command::Adjourn { action };
    assert!(!bed.run("bob", offer(AdjournAction::Offer)).await.ephemeral);
    assert!(
        !bed.run("alice", offer(AdjournAction::Accept))
            .await
            .ephemeral
    );
    assert!(bed.run("alice", seal("Nf3")).await.ephemeral);
    let resume = |when: &str| offer(AdjournAction::Resume { when: when.into() });
    // alice proposes; bob proposes another time; alice agrees to bob's.
    let r = bed.run("alice", resume("2026-01-02 19:00")).await;
    assert!(r.text.contains("proposes to resume"), "{}", r.text);
    assert!(r.mentions.contains(&"bob".to_owned()));
    let r = bed.run("bob", resume("2026-01-02 20:00")).await;
    assert!(r.text.contains("proposes to resume"), "{}", r.text);
    let open = &bed.service.store().adjournments(id).await.unwrap()[0];
    assert_eq!(open.resume_ms, None, "nothing agreed yet");
    assert_eq!(open.proposed_by.as_deref(), Some("black"));
    let r = bed.run("alice", resume("2026-01-02 20:00")).await;
    assert!(r.text.contains("resumes at 2026-01-02 20:00"), "{}", r.text);
    let open = &bed.service.store().adjournments(id).await.unwrap()[0];
    assert_eq!(open.resume_ms, Some(1_767_268_800_000 + 32 * HOUR_MS));
    assert_eq!(open.proposed_by, None);
    let said = bed.advance(33 * HOUR_MS).await.join("\n");
    assert!(said.contains("the sealed move was 2. Nf3"), "{said}");
}
