//! Indexed (palette) PNG encoding: one byte per pixel, so encoding costs a
//! fraction of what RGBA would.

use super::{compose::Canvas, palette::Palette, RenderError};

/// Encodes `canvas` with `palette` as an 8-bit indexed PNG.
pub fn encode(canvas: &Canvas, palette: &Palette) -> Result<Vec<u8>, RenderError> {
    let mut out = Vec::with_capacity(canvas.pixels.len() / 8);
    {
        let mut encoder = png::Encoder::new(&mut out, canvas.width, canvas.height);
        encoder.set_color(png::ColorType::Indexed);
        encoder.set_depth(png::BitDepth::Eight);
        encoder.set_palette(palette.rgb_bytes());
        encoder.set_compression(png::Compression::Fast);
        encoder.set_filter(png::FilterType::Sub);
        let mut writer = encoder
            .write_header()
            .map_err(|e| RenderError::Internal(format!("png: {e}")))?;
        writer
            .write_image_data(&canvas.pixels)
            .map_err(|e| RenderError::Internal(format!("png: {e}")))?;
        writer
            .finish()
            .map_err(|e| RenderError::Internal(format!("png: {e}")))?;
    }
    Ok(out)
}
