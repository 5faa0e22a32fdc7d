//! Indexed (palette) PNG encoding: one byte per pixel, coded by
//! [`super::deflate`] (runs and the row above, fixed Huffman code).
//!
//! A board drawn by [`super::compose`] carries the [`TileLayout`] of its
//! squares. Every row segment that is still exactly its tile's row (nothing
//! drawn over its square, or its bytes compare equal), below the same
//! tile's previous row, is pasted from the bits its [`TileSet`] coded once;
//! everything else (names bars, labels, arrows) is coded as it comes.
//! Measured on the 480 px middlegame board with both players bars (release,
//! this machine, `cargo run --release --example png_options`):
//!
//! | deflate                                   | bytes  | time     |
//! |-------------------------------------------|--------|----------|
//! | zlib-rs level 1, "Up" rows (before)       | 23 638 | 0.19 ms  |
//! | this module, every row coded ([`encode`]) | 25 089 | 0.19 ms  |
//! | this module, tile rows pasted             | 25 088 | 0.08 ms  |

use super::{
    compose::{Canvas, TileLayout},
    deflate::{begin_zlib, end_zlib, BitWriter, RowCoder, Stream},
    palette::Palette,
    tiles::TileSet,
    RenderError,
};

/// Encodes `canvas` with `palette` as an 8-bit indexed PNG, coding every
/// row.
pub fn encode(canvas: &Canvas, palette: &Palette) -> Result<Vec<u8>, RenderError> {
    check(canvas, palette)?;
    let w = canvas.width as usize;
    let coder = RowCoder::new(w + 1);
    let data = zlib_rows(canvas, &coder, |stream, row, above, _| {
        stream.code(row, above);
    });
    Ok(container(canvas, palette, &data))
}

/// Encodes a board drawn with `tiles`, pasting the tile rows it can (see
/// the module docs); the bytes decode to exactly what [`encode`] makes.
pub fn encode_board(canvas: &Canvas, tiles: &TileSet) -> Result<Vec<u8>, RenderError> {
    check(canvas, &tiles.palette)?;
    let sq = tiles.square_px as usize;
    let layout = match &canvas.layout {
        Some(layout) if fits(canvas, layout, sq) => layout,
        _ => return encode(canvas, &tiles.palette),
    };
    let top = layout.top as usize;
    // Whether each column's segment in the row before was exactly its
    // tile's row: only then does a prepared row's "row above" hold.
    let mut pristine = [false; 8];
    let data = zlib_rows(canvas, tiles.row_coder(), |stream, row, above, r| {
        if r < top || r >= top + 8 * sq {
            stream.code(row, above);
            return;
        }
        let (square_row, y) = ((r - top) / sq, (r - top) % sq);
        for (col, was_pristine) in pristine.iter_mut().enumerate() {
            let (start, end) = (col * sq, (col + 1) * sq);
            let square = square_row * 8 + col;
            let tile = layout.tiles[square];
            let segment = &row[start..end];
            // Where nothing was drawn over the tile, its pixels are the
            // tile's; elsewhere they are compared.
            let same = layout.drawn_over & 1 << square == 0
                || same_bytes(segment, tiles.tile_row(tile, y));
            debug_assert!(!same || segment == tiles.tile_row(tile, y));
            if same && (y == 0 || *was_pristine) {
                stream.paste(tiles.prepared_row(tile, y), segment);
            } else {
                stream.code_part(row, above, start, end);
            }
            *was_pristine = same;
        }
    });
    Ok(container(canvas, &tiles.palette, &data))
}

/// Whether `layout` describes a board of `square_px` squares on `canvas`.
fn fits(canvas: &Canvas, layout: &TileLayout, square_px: usize) -> bool {
    canvas.width as usize == 8 * square_px
        && layout.top as usize + 8 * square_px <= canvas.height as usize
}

fn check(canvas: &Canvas, palette: &Palette) -> Result<(), RenderError> {
    let (w, h) = (canvas.width as usize, canvas.height as usize);
    if w == 0 || w + 1 > super::deflate::MAX_DISTANCE || canvas.pixels.len() != w * h {
        return Err(RenderError::Internal("png: bad canvas".into()));
    }
    if palette.is_empty() {
        return Err(RenderError::Internal("png: empty palette".into()));
    }
    Ok(())
}

/// The zlib stream of the canvas rows, each behind filter byte 0 ("None");
/// `code_row(stream, row, row above, row number)` codes each row's pixels.
fn zlib_rows(
    canvas: &Canvas,
    coder: &RowCoder,
    mut code_row: impl FnMut(&mut Stream<'_, BitWriter>, &[u8], Option<&[u8]>, usize),
) -> Vec<u8> {
    let w = canvas.width as usize;
    let mut out = BitWriter::new(Vec::with_capacity(canvas.pixels.len() / 8 + 1024));
    begin_zlib(&mut out);
    let mut adler = simd_adler32::Adler32::new();
    let mut stream = Stream::new(coder, &mut out);
    let mut above = None;
    for (r, row) in canvas.pixels.chunks_exact(w).enumerate() {
        // Filter byte 0 under filter byte 0 repeats the row above.
        if r == 0 {
            stream.literal(0);
        } else {
            stream.repeat_byte(0);
        }
        code_row(&mut stream, row, above, r);
        adler = adler_after_zero(adler);
        adler.write(row);
        above = Some(row);
    }
    stream.flush();
    end_zlib(out, adler.finish())
}

/// The Adler-32 state after one more zero byte: `a` stays, `b` gains `a`
/// (cheaper than hashing a one-byte slice per row).
fn adler_after_zero(adler: simd_adler32::Adler32) -> simd_adler32::Adler32 {
    let sum = adler.finish();
    let (a, b) = (sum & 0xffff, sum >> 16);
    simd_adler32::Adler32::from_checksum(((b + a) % 65_521) << 16 | a)
}

/// Whether two equally long segments hold the same bytes, compared eight at
/// a time inline (a call to `memcmp` per 60-byte segment cost more).
#[inline]
fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let (mut x, mut y) = (a.chunks_exact(8), b.chunks_exact(8));
    let words_equal = x.by_ref().zip(y.by_ref()).all(|(p, q)| {
        u64::from_ne_bytes(p.try_into().unwrap_or_default())
            == u64::from_ne_bytes(q.try_into().unwrap_or_default())
    });
    words_equal && x.remainder() == y.remainder()
}

/// Signature, `IHDR`, `PLTE`, `IDAT` holding `data`, `IEND`.
fn container(canvas: &Canvas, palette: &Palette, data: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(data.len() + 1024);
    out.extend_from_slice(b"\x89PNG\r\n\x1a\n");
    let mut ihdr = Vec::with_capacity(13);
    ihdr.extend_from_slice(&canvas.width.to_be_bytes());
    ihdr.extend_from_slice(&canvas.height.to_be_bytes());
    // Bit depth 8, colour type 3 (indexed), deflate, adaptive filters, no interlace.
    ihdr.extend_from_slice(&[8, 3, 0, 0, 0]);
    chunk(&mut out, b"IHDR", &ihdr);
    chunk(&mut out, b"PLTE", &palette.rgb_bytes());
    chunk(&mut out, b"IDAT", data);
    chunk(&mut out, b"IEND", &[]);
    out
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
    use crate::render::{Arrow, Frame, PlayerLine, PlayersBar, RenderConfig, Renderer};
    use shakmaty::{Position, Square};

    fn decode(bytes: &[u8]) -> (u32, u32, Vec<u8>) {
        let mut reader = ::png::Decoder::new(std::io::Cursor::new(bytes))
            .read_info()
            .expect("header");
        let mut buf = vec![0; reader.output_buffer_size().expect("a decodable size")];
        let info = reader.next_frame(&mut buf).expect("data");
        assert_eq!(info.color_type, ::png::ColorType::Indexed);
        buf.truncate(info.buffer_size());
        (info.width, info.height, buf)
    }

    /// Boards along a random game, with every overlay the renderer has,
    /// at several sizes: both encoders decode to the canvas exactly.
    #[test]
    fn both_encoders_decode_to_the_canvas() {
        let r = Renderer::new(RenderConfig::default()).expect("renderer");
        let mut position = shakmaty::Chess::default();
        let mut seed = 7u64;
        for ply in 0..40 {
            let moves = position.legal_moves();
            if moves.is_empty() {
                break;
            }
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let mv = moves[(seed >> 33) as usize % moves.len()];
            position.play_unchecked(mv);
            let mut frame = Frame::from_position(&position);
            frame.square_px = [60, 37, 16, 100][ply % 4];
            frame.orientation = position.turn();
            frame.last_move = Some((mv.from().unwrap_or(mv.to()), mv.to()));
            if ply % 3 == 0 {
                frame.players = Some(PlayersBar {
                    top: PlayerLine {
                        name: "alice".into(),
                        detail: "107.5".into(),
                    },
                    bottom: PlayerLine {
                        name: "bob the builder".into(),
                        detail: "3:02".into(),
                    },
                });
            }
            if ply % 5 == 0 {
                frame.arrows = vec![Arrow {
                    from: Square::E2,
                    to: Square::E4,
                }];
                frame.marks = vec![Square::D5];
            }
            let (canvas, tiles) = r.render_canvas(&frame).expect("canvas");
            assert!(canvas.layout.is_some());
            for bytes in [
                encode(&canvas, &tiles.palette).expect("png"),
                encode_board(&canvas, &tiles).expect("png"),
            ] {
                let (w, h, pixels) = decode(&bytes);
                assert_eq!((w, h), (canvas.width, canvas.height));
                assert_eq!(pixels, canvas.pixels, "ply {ply}");
            }
        }
    }

    #[test]
    fn squares_drawn_over_are_compared_not_trusted() {
        let r = Renderer::new(RenderConfig::default()).expect("renderer");
        let frame = Frame::from_position(&shakmaty::Chess::default());
        let (mut canvas, tiles) = r.render_canvas(&frame).expect("canvas");
        // Scribble over every square after it was drawn, and say so.
        for (i, px) in canvas.pixels.iter_mut().enumerate().step_by(97) {
            *px = (i % 200) as u8;
        }
        if let Some(layout) = &mut canvas.layout {
            layout.drawn_over = u64::MAX;
        }
        let (_, _, pixels) = decode(&encode_board(&canvas, &tiles).expect("png"));
        assert_eq!(pixels, canvas.pixels);
    }
}
