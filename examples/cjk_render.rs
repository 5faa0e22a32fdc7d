//! What drawing Chinese names costs a board image, side by side in one run:
//! Latin names (DejaVu only), Chinese names from the bundled CJK subset, and
//! Chinese names from the system's Noto Sans CJK (when installed).
//!
//! `cargo run --release --example cjk_render [-- /path/to/NotoSansCJK.ttc]`
//!
//! The CJK font chain is chosen once per process (`render::fonts`), so each
//! case runs in a child process of this example: `CHESSBOT_CJK_FONT` names
//! the system font for one and an unreadable path for the other (the chain is
//! then the bundled font alone). Each child renders the 480 px middlegame
//! with both players bars `RUNS` times after a warm-up and prints the median
//! and 99th percentile, and the time from a fresh renderer to its first image
//! (when the fonts are loaded).

use std::{process::Command, time::Instant};

use chessbot::render::{Frame, PlayerLine, PlayersBar, RenderConfig, Renderer};
use shakmaty::{fen::Fen, CastlingMode, Chess};

const MIDDLEGAME: &str = "r1bqk2r/pppp1Bpp/2n2n2/2b1p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 0 4";
const RUNS: usize = 300;
const SYSTEM_FONT: &str = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc";
/// Set in a child: which names to draw.
const CHILD: &str = "CJK_RENDER_CHILD";

fn main() -> anyhow::Result<()> {
    if let Ok(names) = std::env::var(CHILD) {
        return child(&names);
    }
    let system = std::env::args()
        .nth(1)
        .unwrap_or_else(|| SYSTEM_FONT.to_owned());
    let me = std::env::current_exe()?;
    let run = |names: &str, font: &str| -> anyhow::Result<String> {
        let out = Command::new(&me)
            .env(CHILD, names)
            .env("CHESSBOT_CJK_FONT", font)
            .output()?;
        anyhow::ensure!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        Ok(String::from_utf8_lossy(&out.stdout).trim().to_owned())
    };
    println!("480 px board with both players bars; {RUNS} renders per case (PNG included)");
    println!(
        "{:<44} {:>8} {:>8} {:>14}",
        "case", "p50 ms", "p99 ms", "first image ms"
    );
    println!(
        "{:<44} {}",
        "Latin names (alice / bob)",
        run("latin", "/nonexistent")?
    );
    println!(
        "{:<44} {}",
        "张伟 / 李娜, bundled subset only",
        run("cjk", "/nonexistent")?
    );
    if std::path::Path::new(&system).exists() {
        println!(
            "{:<44} {}",
            "张伟 / 李娜, system Noto Sans CJK",
            run("cjk", &system)?
        );
    } else {
        println!("(no {system}: the system-font case needs fonts-noto-cjk)");
    }
    let bundled = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/assets/fonts/ChessbotCJKSC-Regular.otf"
    );
    println!(
        "bundled font embedded in the binary: {} bytes",
        std::fs::metadata(bundled)?.len()
    );
    Ok(())
}

fn child(names: &str) -> anyhow::Result<()> {
    let started = Instant::now();
    let renderer = Renderer::new(RenderConfig::default())?;
    let position: Chess =
        Fen::from_ascii(MIDDLEGAME.as_bytes())?.into_position(CastlingMode::Standard)?;
    let mut frame = Frame::from_position(&position);
    let [top, top_detail, bottom, bottom_detail] = match names {
        "cjk" => ["张伟", "1级 2950", "李娜", "3级 2710"],
        _ => ["bob", "Level 1 2950", "alice", "Level 3 2710"],
    };
    let line = |name: &str, detail: &str| PlayerLine {
        name: name.into(),
        detail: detail.into(),
    };
    frame.players = Some(PlayersBar {
        top: line(top, top_detail),
        bottom: line(bottom, bottom_detail),
    });
    // The first image loads the fonts (the system's are looked up then).
    renderer.render_png(&frame)?;
    let first = started.elapsed().as_secs_f64() * 1e3;
    for _ in 0..20 {
        renderer.render_png(&frame)?;
    }
    let mut times: Vec<f64> = (0..RUNS)
        .map(|_| {
            let at = Instant::now();
            renderer
                .render_png(&frame)
                .map(|_| at.elapsed().as_secs_f64() * 1e3)
        })
        .collect::<Result<_, _>>()?;
    times.sort_by(f64::total_cmp);
    let p = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
    println!("{:>8.3} {:>8.3} {:>14.1}", p(0.5), p(0.99), first);
    Ok(())
}
