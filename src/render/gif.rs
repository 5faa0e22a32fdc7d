//! GIF replays: one frame per ply on a shared palette; after the first
//! frame only the rectangle that changed is encoded, with unchanged pixels
//! inside it set to the transparent index (long runs LZW packs well).

use super::{
    compose::Canvas,
    palette::{Palette, TRANSPARENT},
    RenderError,
};

/// Writes frames one by one into an in-memory GIF.
pub struct GifWriter {
    encoder: gif::Encoder<Vec<u8>>,
    previous: Option<Canvas>,
}

fn gif_err(e: impl std::fmt::Display) -> RenderError {
    RenderError::Internal(format!("gif: {e}"))
}

/// GIF delays are in hundredths of a second.
fn delay_cs(ms: u32) -> u16 {
    u16::try_from(ms.div_ceil(10)).unwrap_or(u16::MAX)
}

impl GifWriter {
    /// Starts a looping GIF of `width`×`height` with `palette` as the global
    /// colour table.
    pub fn new(width: u32, height: u32, palette: &Palette) -> Result<GifWriter, RenderError> {
        let w = u16::try_from(width).map_err(gif_err)?;
        let h = u16::try_from(height).map_err(gif_err)?;
        let mut encoder =
            gif::Encoder::new(Vec::new(), w, h, &palette.rgb_bytes_256()).map_err(gif_err)?;
        encoder.set_repeat(gif::Repeat::Infinite).map_err(gif_err)?;
        Ok(GifWriter {
            encoder,
            previous: None,
        })
    }

    /// Appends `canvas`, shown for `delay_ms`.
    pub fn push(&mut self, canvas: &Canvas, delay_ms: u32) -> Result<(), RenderError> {
        let delay = delay_cs(delay_ms);
        let mut frame = match &self.previous {
            None => gif::Frame {
                width: u16::try_from(canvas.width).map_err(gif_err)?,
                height: u16::try_from(canvas.height).map_err(gif_err)?,
                buffer: std::borrow::Cow::Borrowed(&canvas.pixels),
                ..gif::Frame::default()
            },
            Some(prev) => diff_frame(prev, canvas)?,
        };
        frame.delay = delay;
        frame.dispose = gif::DisposalMethod::Keep;
        self.encoder.write_frame(&frame).map_err(gif_err)?;
        drop(frame);
        match &mut self.previous {
            Some(prev) => prev.clone_from(canvas),
            None => self.previous = Some(canvas.clone()),
        }
        Ok(())
    }

    /// Finishes the file and returns its bytes.
    pub fn finish(self) -> Result<Vec<u8>, RenderError> {
        self.encoder.into_inner().map_err(gif_err)
    }
}

/// The smallest rectangle holding every changed pixel, unchanged ones made
/// transparent; a single transparent pixel if nothing changed.
fn diff_frame(prev: &Canvas, next: &Canvas) -> Result<gif::Frame<'static>, RenderError> {
    let w = next.width as usize;
    let (mut x0, mut y0, mut x1, mut y1) = (usize::MAX, usize::MAX, 0, 0);
    for (y, (a, b)) in prev
        .pixels
        .chunks_exact(w)
        .zip(next.pixels.chunks_exact(w))
        .enumerate()
    {
        if a == b {
            continue;
        }
        let first = a.iter().zip(b).position(|(p, q)| p != q).unwrap_or(0);
        let last = a.iter().zip(b).rposition(|(p, q)| p != q).unwrap_or(w - 1);
        x0 = x0.min(first);
        x1 = x1.max(last + 1);
        y0 = y0.min(y);
        y1 = y + 1;
    }
    if x0 == usize::MAX {
        return Ok(gif::Frame {
            width: 1,
            height: 1,
            transparent: Some(TRANSPARENT),
            buffer: std::borrow::Cow::Owned(vec![TRANSPARENT]),
            ..gif::Frame::default()
        });
    }
    let mut buffer = Vec::with_capacity((x1 - x0) * (y1 - y0));
    for y in y0..y1 {
        let a = &prev.pixels[y * w + x0..y * w + x1];
        let b = &next.pixels[y * w + x0..y * w + x1];
        buffer.extend(
            a.iter()
                .zip(b)
                .map(|(&p, &q)| if p == q { TRANSPARENT } else { q }),
        );
    }
    let to16 = |v: usize| u16::try_from(v).map_err(gif_err);
    Ok(gif::Frame {
        left: to16(x0)?,
        top: to16(y0)?,
        width: to16(x1 - x0)?,
        height: to16(y1 - y0)?,
        transparent: Some(TRANSPARENT),
        buffer: std::borrow::Cow::Owned(buffer),
        ..gif::Frame::default()
    })
}
