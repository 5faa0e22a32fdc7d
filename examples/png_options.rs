//! Compares deflate settings for board PNGs: the table at the top of
//! `src/render/png.rs` comes from this.
//!
//! `cargo run --release --example png_options` renders the 480 px
//! middlegame board with both players bars, applies the "Up" filter the
//! encoder uses, and prints compressed size and median time of each
//! compressor on the same bytes.

use std::{io::Write, time::Instant};

use chessbot::render::{
    png::{encode, encode_board},
    Frame, PlayerLine, PlayersBar, RenderConfig, Renderer,
};
use shakmaty::{fen::Fen, CastlingMode, Chess, Square};

const MIDDLEGAME: &str = "r1bqk2r/pppp1Bpp/2n2n2/2b1p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 0 4";
const RUNS: usize = 300;

fn main() -> anyhow::Result<()> {
    let renderer = Renderer::new(RenderConfig::default())?;
    let position: Chess =
        Fen::from_ascii(MIDDLEGAME.as_bytes())?.into_position(CastlingMode::Standard)?;
    let mut frame = Frame::from_position(&position);
    frame.last_move = Some((Square::C4, Square::F7));
    let line = |name: &str, detail: &str| PlayerLine {
        name: name.into(),
        detail: detail.into(),
    };
    frame.players = Some(PlayersBar {
        top: line("bob", "1520"),
        bottom: line("alice", "-10?"),
    });
    let (canvas, _) = renderer.render_canvas(&frame)?;
    let filtered = up_filtered(&canvas.pixels, canvas.width as usize);

    println!("{} filtered bytes; median of {RUNS} runs", filtered.len());
    for level in [1u8, 2] {
        report(&format!("miniz_oxide level {level}"), || {
            miniz_oxide::deflate::compress_to_vec_zlib(&filtered, level)
        });
    }
    for level in [1u32, 2] {
        report(&format!("zlib-rs level {level}"), || {
            let mut z =
                flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::new(level));
            z.write_all(&filtered).expect("in memory");
            z.finish().expect("in memory")
        });
    }
    report("fdeflate", || {
        let mut c = fdeflate::Compressor::new(Vec::new()).expect("in memory");
        c.write_data(&filtered).expect("in memory");
        c.finish().expect("in memory")
    });
    let (canvas, tiles) = renderer.render_canvas(&frame)?;
    report("png::encode (rows)", || {
        encode(&canvas, &tiles.palette).expect("png")
    });
    report("png::encode_board", || {
        encode_board(&canvas, &tiles).expect("png")
    });
    report("compose (with bars)", || {
        renderer.render_canvas(&frame).expect("canvas").0.pixels
    });
    report("render_png (with bars)", || {
        renderer.render_png(&frame).expect("png")
    });
    let bare = Frame {
        players: None,
        ..frame.clone()
    };
    report("render_png (no bars)", || {
        renderer.render_png(&bare).expect("png")
    });
    Ok(())
}

/// Rows with filter type 2 ("Up"), as `render::png` writes them.
fn up_filtered(pixels: &[u8], width: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(pixels.len() + pixels.len() / width);
    let zeros = vec![0u8; width];
    let mut above: &[u8] = &zeros;
    for line in pixels.chunks_exact(width) {
        out.push(2);
        out.extend(line.iter().zip(above).map(|(&c, &u)| c.wrapping_sub(u)));
        above = line;
    }
    out
}

fn report(name: &str, compress: impl Fn() -> Vec<u8>) {
    let mut times: Vec<f64> = (0..RUNS)
        .map(|_| {
            let started = Instant::now();
            std::hint::black_box(compress());
            started.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    times.sort_by(f64::total_cmp);
    println!(
        "{name:22} {:>7} bytes  {:.3} ms",
        compress().len(),
        times[RUNS / 2]
    );
}
