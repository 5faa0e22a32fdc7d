//! What a conditional answer costs (issue 19), through the service on a
//! SQLite file, one command at a time: Black's `/move` in games without
//! conditional moves, against the same `/move` when White has a line that
//! answers it (the answer is validated, committed and drawn before the one
//! reply goes out, so that command does two moves' work).
//!
//! `cargo run --release --example conditional_cost [games]`
use std::{sync::Arc, time::Instant};

use chessbot::{
    clock::{Clock, ManualClock},
    render::{RenderConfig, Renderer},
    service::{Actor, ColorChoice, Command, ConditionalAction, Service, Setting, UserRef},
    store::Store,
};

fn actor(user: &str, channel: &str) -> Actor {
    Actor {
        server: "s".into(),
        channel: channel.into(),
        user: user.into(),
        name: user.into(),
        locale: None,
        server_locale: None,
        is_moderator: true,
    }
}

fn mv(text: &str) -> Command {
    Command::Move {
        text: text.into(),
        claim_draw: false,
    }
}

/// White's and Black's moves of a knight dance: 12 plies, no repetition
/// that ends the game.
const DANCE: [(&str, &str); 6] = [
    ("Nf3", "Nf6"),
    ("Ng1", "Ng8"),
    ("Nc3", "Nc6"),
    ("Nb1", "Nb8"),
    ("Nf3", "Nf6"),
    ("Ng1", "Ng8"),
];

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let games: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(100);
    let dir = tempfile::tempdir()?;
    let store = Store::open(&format!("sqlite:{}/x.db", dir.path().display())).await?;
    let clock: Arc<dyn Clock> = Arc::new(ManualClock::new(1_767_268_800_000));
    let service = Service::new(
        store,
        Arc::new(Renderer::new(RenderConfig::default())?),
        clock,
    );
    service
        .handle(
            &actor("mod", "lobby"),
            Command::Settings {
                changes: vec![Setting::Threads(false)],
            },
        )
        .await;
    let mut plain = Vec::new();
    let mut answered = Vec::new();
    for g in 0..2 * games {
        let channel = format!("c{g}");
        let (white, black) = (format!("w{g}"), format!("b{g}"));
        service
            .handle(
                &actor(&white, &channel),
                Command::Challenge {
                    opponent: Some(UserRef {
                        id: black.clone(),
                        name: black.clone(),
                    }),
                    color: ColorChoice::White,
                    rated: Some(false),
                    time: Some("3d".into()),
                    fen: None,
                    variant: None,
                    position: None,
                },
            )
            .await;
        service
            .handle(
                &actor(&black, &channel),
                Command::Accept { challenge: None },
            )
            .await;
        let conditional = g % 2 == 1;
        for (i, (w, b)) in DANCE.iter().enumerate() {
            if i == 0 || !conditional {
                let r = service.handle(&actor(&white, &channel), mv(w)).await;
                anyhow::ensure!(!r.ephemeral, "{w}: {}", r.text);
            }
            if conditional {
                // White's answer to Black's move: the next White move.
                let Some((next, _)) = DANCE.get(i + 1) else {
                    break;
                };
                let line = Command::Conditional {
                    action: ConditionalAction::Add {
                        line: format!("{b} {next}"),
                    },
                };
                let r = service.handle(&actor(&white, &channel), line).await;
                anyhow::ensure!(r.text.starts_with("Conditional line added"), "{}", r.text);
            }
            let started = Instant::now();
            let r = service.handle(&actor(&black, &channel), mv(b)).await;
            let took = started.elapsed().as_secs_f64() * 1000.0;
            anyhow::ensure!(!r.ephemeral, "{b}: {}", r.text);
            if conditional {
                anyhow::ensure!(r.text.contains("conditional move"), "{}", r.text);
                answered.push(took);
            } else {
                plain.push(took);
            }
        }
    }
    let stats = |name: &str, v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        let at = |q: f64| v[((v.len() - 1) as f64 * q).round() as usize];
        println!(
            "{name}: {} commands, median {:.3} ms, p99 {:.3} ms",
            v.len(),
            at(0.5),
            at(0.99)
        );
    };
    stats("Black's /move, no conditional moves", &mut plain);
    stats(
        "Black's /move answered by White's conditional move",
        &mut answered,
    );
    Ok(())
}
