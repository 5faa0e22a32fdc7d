//! Indexed (palette) PNG encoding: one byte per pixel, so encoding costs a
//! fraction of what RGBA would.
//!
//! The file is written directly (signature, `IHDR`, `PLTE`, `IDAT`, `IEND`)
//! to pick the filter and deflate settings that suit boards. Measured on the
//! 480 px middlegame board with both players bars (release, this machine,
//! `cargo run --release --example png_options`):
//!
//! | rows  | deflate                | bytes  | time     |
//! |-------|------------------------|--------|----------|
//! | up    | miniz_oxide level 1    | 21 916 | 0.66 ms  |
//! | up    | miniz_oxide level 2    | 19 120 | 1.50 ms  |
//! | up    | zlib-rs level 1        | 23 638 | 0.30 ms  |
//! | up    | zlib-rs level 2        | 19 350 | 0.49 ms  |
//! | up    | fdeflate               | 32 473 | 0.16 ms  |
//!
//! "Up" turns the many repeated rows of a board into zeros; zlib-rs at
//! level 1 keeps the board under 25 KB in a third of a millisecond.

use super::{compose::Canvas, palette::Palette, RenderError};

/// How hard to compress.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Compression {
    /// About 22 KB for a 480 px board, ~0.3 ms (zlib-rs level 1; the default).
    #[default]
    Small,
    /// About 30 KB for a 480 px board, ~0.1 ms (fdeflate).
    Fastest,
}

/// Encodes `canvas` with `palette` as an 8-bit indexed PNG.
pub fn encode(canvas: &Canvas, palette: &Palette) -> Result<Vec<u8>, RenderError> {
    encode_with(canvas, palette, Compression::default())
}

/// [`encode`] with a chosen compression.
pub fn encode_with(
    canvas: &Canvas,
    palette: &Palette,
    compression: Compression,
) -> Result<Vec<u8>, RenderError> {
    let (w, h) = (canvas.width as usize, canvas.height as usize);
    if w == 0 || canvas.pixels.len() != w * h || palette.is_empty() {
        return Err(RenderError::Internal("png: bad canvas".into()));
    }
    // Filter type 2 ("Up") on every row; the first row's "above" is zeros.
    let mut filtered = Vec::with_capacity((w + 1) * h);
    let mut above: &[u8] = &vec![0u8; w];
    for line in canvas.pixels.chunks_exact(w) {
        filtered.push(2);
        filtered.extend(line.iter().zip(above).map(|(&c, &u)| c.wrapping_sub(u)));
        above = line;
    }
    let data = match compression {
        Compression::Small => {
            use std::io::Write;
            let io = |e: std::io::Error| RenderError::Internal(format!("png: {e}"));
            let mut z = flate2::write::ZlibEncoder::new(
                Vec::with_capacity(filtered.len() / 8),
                flate2::Compression::fast(),
            );
            z.write_all(&filtered).map_err(io)?;
            z.finish().map_err(io)?
        }
        Compression::Fastest => {
            let io = |e: std::io::Error| RenderError::Internal(format!("png: {e}"));
            let mut c =
                fdeflate::Compressor::new(Vec::with_capacity(filtered.len() / 8)).map_err(io)?;
            c.write_data(&filtered).map_err(io)?;
            c.finish().map_err(io)?
        }
    };

    let mut out = Vec::with_capacity(data.len() + 1024);
    out.extend_from_slice(b"\x89PNG\r\n\x1a\n");
    let mut ihdr = Vec::with_capacity(13);
    ihdr.extend_from_slice(&canvas.width.to_be_bytes());
    ihdr.extend_from_slice(&canvas.height.to_be_bytes());
    // Bit depth 8, colour type 3 (indexed), deflate, adaptive filters, no interlace.
    ihdr.extend_from_slice(&[8, 3, 0, 0, 0]);
    chunk(&mut out, b"IHDR", &ihdr);
    chunk(&mut out, b"PLTE", &palette.rgb_bytes());
    chunk(&mut out, b"IDAT", &data);
    chunk(&mut out, b"IEND", &[]);
    Ok(out)
}

fn chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    // Chunks here are far below 2^31 bytes (a 2048 px board is 4 MiB raw).
    out.extend_from_slice(&(data.len() as u32).to_be_bytes());
    out.extend_from_slice(kind);
    out.extend_from_slice(data);
    let mut crc = crc32fast::Hasher::new();
    crc.update(kind);
    crc.update(data);
    out.extend_from_slice(&crc.finalize().to_be_bytes());
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::{Frame, RenderConfig, Renderer};

    #[test]
    fn both_compressions_decode_to_the_same_pixels() {
        let r = Renderer::new(RenderConfig::default()).expect("renderer");
        let frame = Frame {
            square_px: 37,
            ..Frame::from_position(&shakmaty::Chess::default())
        };
        let (canvas, tiles) = r.render_canvas(&frame).expect("canvas");
        for compression in [Compression::Small, Compression::Fastest] {
            let bytes = encode_with(&canvas, &tiles.palette, compression).expect("png");
            let mut reader = png::Decoder::new(&bytes[..]).read_info().expect("header");
            let mut buf = vec![0; reader.output_buffer_size()];
            let info = reader.next_frame(&mut buf).expect("data");
            assert_eq!((info.width, info.height), (296, 296));
            assert_eq!(info.color_type, png::ColorType::Indexed);
            assert_eq!(
                &buf[..info.buffer_size()],
                &canvas.pixels[..],
                "{compression:?}"
            );
        }
    }
}
