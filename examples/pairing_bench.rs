//! How long the FIDE Dutch engine takes to pair one round: 50, 200 and
//! 1,000 players at rounds 1, 5 and 9 of random tournaments (seeded: same
//! figures' inputs every run). Prints the time of each pairing call measured.
//!
//! `cargo run --release --example pairing_bench [-- SIZES…]`, or
//! `… -- --trf FILE` to time the pairing of every round of a tournament file.

use std::time::Instant;

use chessbot::tournament::{
    dutch::pair_round,
    model::{Colour, Entry, Outcome, Player, Tournament},
};
use rand::{Rng, SeedableRng};

fn main() {
    // `-- --trf FILE`: re-pair every round of a tournament file instead.
    let args: Vec<String> = std::env::args().collect();
    if let Some(i) = args.iter().position(|a| a == "--trf") {
        return time_rounds_of(args.get(i + 1).expect("--trf FILE"));
    }
    let sizes: Vec<u32> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let sizes = if sizes.is_empty() {
        vec![50, 200, 1000]
    } else {
        sizes
    };
    println!("players  round  boards  time (ms)");
    for n in sizes {
        let mut rng = rand::rngs::SmallRng::seed_from_u64(u64::from(n));
        let mut t = Tournament {
            total_rounds: Some(11),
            players: (1..=n)
                .map(|pno| Player {
                    pno,
                    name: format!("P{pno}"),
                    rating: 2400 - pno,
                    ..Player::default()
                })
                .collect(),
            ..Tournament::default()
        };
        for round in 1..=9u32 {
            let start = Instant::now();
            let pairs = match pair_round(&t, round) {
                Ok(p) => p,
                Err(e) => {
                    println!("{n:>7}  {round:>5}  error: {e}");
                    break;
                }
            };
            let ms = start.elapsed().as_secs_f64() * 1000.0;
            if [1, 5, 9].contains(&round) {
                println!("{n:>7}  {round:>5}  {:>6}  {ms:>9.1}", pairs.len());
            }
            let idx = round as usize - 1;
            for p in &mut t.players {
                p.rounds.resize(idx + 1, None);
            }
            for pair in pairs {
                match pair.black {
                    None => {
                        t.players[pair.white as usize - 1].rounds[idx] =
                            Some(Entry::bye(Outcome::PairingBye))
                    }
                    Some(b) => {
                        let x: f64 = rng.r#gen();
                        let (w, l) = if x < 0.38 {
                            (Outcome::Win, Outcome::Loss)
                        } else if x < 0.68 {
                            (Outcome::Draw, Outcome::Draw)
                        } else {
                            (Outcome::Loss, Outcome::Win)
                        };
                        t.players[pair.white as usize - 1].rounds[idx] =
                            Some(Entry::game(b, Colour::White, w));
                        t.players[b as usize - 1].rounds[idx] =
                            Some(Entry::game(pair.white, Colour::Black, l));
                    }
                }
            }
        }
    }
}

/// Times the pairing of each round of a TRF file, from the rounds before it
/// (as `chessbot pairing --dutch FILE -c` re-pairs them).
fn time_rounds_of(path: &str) {
    let text = std::fs::read_to_string(path).expect("read the TRF file");
    let t = chessbot::tournament::trf::parse(&text).expect("a valid TRF file");
    println!("round  players  boards  time (ms)");
    for round in 1..=t.paired_rounds() {
        let before = chessbot::tournament::cli::before_round(&t, round);
        let players = chessbot::tournament::dutch::available(&before, round).len();
        let start = Instant::now();
        match pair_round(&before, round) {
            Ok(pairs) => {
                let ms = start.elapsed().as_secs_f64() * 1000.0;
                println!("{round:>5}  {players:>7}  {:>6}  {ms:>9.1}", pairs.len());
            }
            Err(e) => println!("{round:>5}  {players:>7}  error: {e}"),
        }
    }
}
