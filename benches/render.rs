//! Board rendering benchmarks (criterion): one PNG board, including
//! encoding, for the start position and a middlegame with last move and
//! check, at 480 and 800 px; a 60-ply GIF replay; and a tournament
//! crosstable of 50 players, 9 rounds and 3 tie-breaks.
//!
//! `cargo bench --bench render` runs criterion. With `RENDER_BENCH_QUICK=1`
//! it instead prints plain medians (used by `bench/render_vs_cairosvg.sh`):
//! `name median_ms bytes`.

use std::{hint::black_box, time::Instant};

use chessbot::render::{
    crosstable_png, CellColour, CellOutcome, CrossCell, CrossRow, Crosstable, Frame, GifFrame,
    GifOptions, PlayerLine, PlayersBar, RenderConfig, Renderer, Theme,
};
use criterion::{BenchmarkId, Criterion};
use shakmaty::{fen::Fen, CastlingMode, Chess, Square};

const MIDDLEGAME: &str = "r1bqk2r/pppp1Bpp/2n2n2/2b1p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 0 4";

fn frames() -> Vec<(&'static str, Frame)> {
    let mid: Chess = Fen::from_ascii(MIDDLEGAME.as_bytes())
        .expect("fen")
        .into_position(CastlingMode::Standard)
        .expect("legal");
    let mut out = Vec::new();
    for (size, sq) in [("480", 60), ("800", 100)] {
        out.push((
            if size == "480" {
                "start480"
            } else {
                "start800"
            },
            Frame {
                square_px: sq,
                ..Frame::from_position(&Chess::default())
            },
        ));
        out.push((
            if size == "480" {
                "middlegame480"
            } else {
                "middlegame800"
            },
            Frame {
                square_px: sq,
                last_move: Some((Square::C4, Square::F7)),
                ..Frame::from_position(&mid)
            },
        ));
    }
    // The players bar with Latin and with Chinese names (issue 15: CJK
    // glyphs come from the fallback font's cache; the board's time with
    // Chinese names should stay within 10 % of the Latin one).
    let bar = |top: &str, top_detail: &str, bottom: &str, bottom_detail: &str| PlayersBar {
        top: PlayerLine {
            name: top.to_owned(),
            detail: top_detail.to_owned(),
        },
        bottom: PlayerLine {
            name: bottom.to_owned(),
            detail: bottom_detail.to_owned(),
        },
    };
    out.push((
        "bar_latin480",
        Frame {
            last_move: Some((Square::C4, Square::F7)),
            players: Some(bar("Zhang Wei", "1512.5", "Li Na", "Level 15")),
            ..Frame::from_position(&mid)
        },
    ));
    out.push((
        "bar_cjk480",
        Frame {
            last_move: Some((Square::C4, Square::F7)),
            players: Some(bar("张伟", "1512.5", "李娜", "15级")),
            ..Frame::from_position(&mid)
        },
    ));
    out
}

/// Kasparov–Topalov, Wijk aan Zee 1999 (a public game record).
const GAME: &str = "1. e4 d6 2. d4 Nf6 3. Nc3 g6 4. Be3 Bg7 5. Qd2 c6 6. f3 b5 7. Nge2 Nbd7 \
8. Bh6 Bxh6 9. Qxh6 Bb7 10. a3 e5 11. O-O-O Qe7 12. Kb1 a6 13. Nc1 O-O-O 14. Nb3 exd4 \
15. Rxd4 c5 16. Rd1 Nb6 17. g3 Kb8 18. Na5 Ba8 19. Bh3 d5 20. Qf4+ Ka7 21. Rhe1 d4 \
22. Nd5 Nbxd5 23. exd5 Qd6 24. Rxd4 cxd4 25. Re7+ Kb6 26. Qxd4+ Kxa5 27. b4+ Ka4 \
28. Qc3 Qxd5 29. Ra7 Bb7 30. Rxb7 Qc4 31. Qxf6 Kxa3 *";

/// The start position and the first 60 plies of [`GAME`].
fn replay_frames() -> Vec<GifFrame> {
    let game = chessbot::render::cli::read_game(GAME.as_bytes()).expect("game");
    game.frames.into_iter().take(61).collect()
}

/// A Swiss crosstable of 50 players after 8 of 9 rounds (the last one
/// pending), 3 tie-breaks, Latin and Chinese names, a withdrawn player and
/// byes: the size `/tournament standings` must answer in under 10 ms.
fn crosstable50() -> Crosstable {
    const SURNAMES: [&str; 10] = [
        "Zhang", "李", "Müller", "王", "Okafor", "陈", "García", "刘", "Novak", "杨",
    ];
    let rows = (0..50usize)
        .map(|i| {
            let cells = (0..9usize)
                .map(|r| {
                    if (i + r) % 23 == 0 {
                        return CrossCell {
                            opponent: String::new(),
                            colour: None,
                            result: "bye".into(),
                            outcome: CellOutcome::Win,
                        };
                    }
                    let (result, outcome) = match (r, (i * 7 + r * 3) % 5) {
                        (8, _) => ("…", CellOutcome::Pending),
                        (_, 0 | 1) => ("1", CellOutcome::Win),
                        (_, 2) => ("½", CellOutcome::Draw),
                        _ => ("0", CellOutcome::Loss),
                    };
                    CrossCell {
                        opponent: ((i + 5 * r + 17) % 50 + 1).to_string(),
                        colour: Some(if (i + r) % 2 == 0 {
                            CellColour::White
                        } else {
                            CellColour::Black
                        }),
                        result: result.into(),
                        outcome,
                    }
                })
                .collect();
            CrossRow {
                place: (i + 1).to_string(),
                name: format!(
                    "{} {}",
                    SURNAMES[i % 10],
                    ["Wei", "娜", "Anna", "芳"][i % 4]
                ),
                level: if i % 3 == 0 {
                    "无级别".into()
                } else {
                    format!("Level {}", i % 30 + 1)
                },
                cells,
                score: format!("{}½", 7 - i / 8),
                tiebreaks: vec![
                    format!("{}¼", 40 - i / 2),
                    format!("{}½", 45 - i / 3),
                    (6 - i / 10).to_string(),
                ],
                withdrawn: i == 41,
            }
        })
        .collect();
    Crosstable {
        title: "Club Swiss — after round 8 of 9".into(),
        place_heading: "#".into(),
        name_heading: "Name".into(),
        level_heading: "Level".into(),
        score_heading: "Pts".into(),
        round_headings: (1..=9).map(|r| r.to_string()).collect(),
        tiebreak_headings: vec!["SB".into(), "BH".into(), "W".into()],
        rows,
        footer: "Tie-breaks in order: Sonneborn–Berger, Buchholz, wins.".into(),
    }
}

/// CPU time of this thread in ms, to tell work from waiting when the
/// machine is shared.
fn thread_cpu_ms() -> Option<f64> {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec for the duration of the call.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    (rc == 0).then(|| ts.tv_sec as f64 * 1e3 + ts.tv_nsec as f64 / 1e6)
}

/// Median CPU ms per run of `f` (falls back to wall time off Linux).
fn median_cpu_ms(mut f: impl FnMut(), runs: usize) -> f64 {
    let mut times: Vec<f64> = (0..runs)
        .map(|_| {
            let (c, t) = (thread_cpu_ms(), Instant::now());
            f();
            match (c, thread_cpu_ms()) {
                (Some(a), Some(b)) => b - a,
                _ => t.elapsed().as_secs_f64() * 1000.0,
            }
        })
        .collect();
    times.sort_by(|a, b| a.total_cmp(b));
    times[runs / 2]
}

fn median_ms(mut f: impl FnMut(), runs: usize) -> f64 {
    let mut times: Vec<f64> = (0..runs)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed().as_secs_f64() * 1000.0
        })
        .collect();
    times.sort_by(|a, b| a.total_cmp(b));
    times[runs / 2]
}

fn quick(renderer: &Renderer) {
    // One-off costs: start-up (pieces + default tiles) and a new tile set.
    let ms = median_ms(
        || drop(black_box(Renderer::standalone(RenderConfig::default()))),
        5,
    );
    println!("startup {ms:.4} 0");
    for sq in [60, 100] {
        // A fresh renderer each time so the tile set is really built.
        let mut times: Vec<f64> = (0..3)
            .map(|_| {
                let r = Renderer::standalone(RenderConfig::default()).expect("renderer");
                let t = Instant::now();
                black_box(r.tiles(Theme::all()[1], sq).expect("tiles"));
                t.elapsed().as_secs_f64() * 1000.0
            })
            .collect();
        times.sort_by(|a, b| a.total_cmp(b));
        let ms = times[1];
        println!("tileset{} {ms:.4} 0", sq * 8);
    }
    for (name, frame) in frames() {
        let bytes = renderer.render_png(&frame).expect("png").len();
        let ms = median_ms(|| drop(black_box(renderer.render_png(&frame))), 2000);
        println!("{name} {ms:.4} {bytes}");
        let cpu = median_cpu_ms(|| drop(black_box(renderer.render_png(&frame))), 2000);
        println!("{name}_cpu {cpu:.4} {bytes}");
    }
    let replay = replay_frames();
    let options = GifOptions::default();
    let bytes = renderer.render_gif(&options, &replay).expect("gif").len();
    let ms = median_ms(
        || drop(black_box(renderer.render_gif(&options, &replay))),
        30,
    );
    println!("gif{}ply480 {ms:.4} {bytes}", replay.len() - 1);
    let cpu = median_cpu_ms(
        || drop(black_box(renderer.render_gif(&options, &replay))),
        30,
    );
    println!("gif{}ply480_cpu {cpu:.4} {bytes}", replay.len() - 1);
    let table = crosstable50();
    let bytes = crosstable_png(&table).expect("crosstable").len();
    let ms = median_ms(|| drop(black_box(crosstable_png(&table))), 200);
    println!("crosstable50 {ms:.4} {bytes}");
    let cpu = median_cpu_ms(|| drop(black_box(crosstable_png(&table))), 200);
    println!("crosstable50_cpu {cpu:.4} {bytes}");
    if std::env::var_os("RENDER_BENCH_DETAIL").is_some() {
        let canvases = |replay: &[GifFrame]| -> Vec<_> {
            replay
                .iter()
                .map(|f| {
                    let frame = Frame {
                        last_move: f.last_move,
                        check: f.check,
                        ..Frame::from_board(f.board.clone())
                    };
                    renderer.render_canvas(&frame).expect("canvas").0
                })
                .collect()
        };
        let ms = median_ms(|| drop(black_box(canvases(&replay))), 30);
        let cs = canvases(&replay);
        let mut area = 0;
        for w in cs.windows(2) {
            let rows: Vec<usize> = (0..480)
                .filter(|&y| w[0].pixels[y * 480..][..480] != w[1].pixels[y * 480..][..480])
                .collect();
            let cols: Vec<usize> = (0..480)
                .filter(|&x| (0..480).any(|y| w[0].pixels[y * 480 + x] != w[1].pixels[y * 480 + x]))
                .collect();
            if let (Some(y0), Some(y1), Some(x0), Some(x1)) =
                (rows.first(), rows.last(), cols.first(), cols.last())
            {
                area += (y1 - y0 + 1) * (x1 - x0 + 1);
            }
        }
        println!("compose_only {ms:.4} bbox_area_total={area} (full frame 230400)");
        let frame = &frames()[1].1;
        let one = median_ms(|| drop(black_box(renderer.render_canvas(frame))), 2000);
        let (canvas, tiles) = renderer.render_canvas(frame).expect("canvas");
        let enc = median_ms(
            || {
                drop(black_box(chessbot::render::png::encode(
                    &canvas,
                    &tiles.palette,
                )))
            },
            2000,
        );
        let mut w = chessbot::render::gif::GifWriter::new(480, 480, &tiles.palette).expect("gif");
        let lzw = median_ms(|| drop(black_box(w.push(&canvas, 10))), 50);
        println!("compose_one {one:.4} png_encode {enc:.4} gif_full_frame {lzw:.4}");
    }
}

fn main() {
    let renderer = Renderer::new(RenderConfig::default()).expect("renderer");
    // Build the 800 px tiles before timing (done once per process).
    for (_, frame) in frames() {
        renderer.render_png(&frame).expect("warm up");
    }
    if std::env::var_os("RENDER_BENCH_QUICK").is_some() {
        quick(&renderer);
        return;
    }
    let mut c = Criterion::default().configure_from_args();
    {
        let mut group = c.benchmark_group("png");
        for (name, frame) in frames() {
            let bytes = renderer.render_png(&frame).expect("png").len();
            println!("{name}: {bytes} bytes");
            group.bench_with_input(BenchmarkId::from_parameter(name), &frame, |b, frame| {
                b.iter(|| renderer.render_png(black_box(frame)).expect("png"))
            });
        }
        group.finish();
    }
    {
        let replay = replay_frames();
        let options = GifOptions::default();
        let bytes = renderer.render_gif(&options, &replay).expect("gif").len();
        println!("gif {} plies: {bytes} bytes", replay.len() - 1);
        let mut group = c.benchmark_group("gif");
        group.sample_size(20);
        group.bench_function(format!("{}ply480", replay.len() - 1), |b| {
            b.iter(|| {
                renderer
                    .render_gif(&options, black_box(&replay))
                    .expect("gif")
            })
        });
        group.finish();
    }
    {
        let table = crosstable50();
        let bytes = crosstable_png(&table).expect("crosstable").len();
        println!("crosstable50: {bytes} bytes");
        let mut group = c.benchmark_group("crosstable");
        group.bench_function("50x9", |b| {
            b.iter(|| crosstable_png(black_box(&table)).expect("crosstable"))
        });
        group.finish();
    }
    c.final_summary();
}
