//! Uploaded logos: decoded and re-encoded with the `image` crate (PNG and JPEG
//! only) before anything is stored, so that what Tonne serves is always an image
//! it produced itself, without the upload's metadata or any trailing bytes.

use std::io::Cursor;

use image::{ImageFormat, ImageReader, Limits};
use tonne_accounts::{EncodedLogo, LogoFormat};

/// Largest accepted upload, in bytes (413 above).
pub const MAX_LOGO_BYTES: usize = 1024 * 1024;

/// Largest accepted width and height, in pixels.
pub const MAX_LOGO_SIDE: u32 = 4096;

/// Most memory the decoder may allocate: a 4096×4096 RGBA image and a little more.
const MAX_DECODE_ALLOC: u64 = 80 * 1024 * 1024;

/// JPEG quality of re-encoded JPEG logos.
const JPEG_QUALITY: u8 = 90;

/// Why an upload is not a logo Tonne accepts.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LogoImageError {
    /// Not a PNG or JPEG, or one that does not decode (truncated, corrupt).
    #[error("logo: {0}")]
    Unsupported(String),
    /// A PNG or JPEG whose declared dimensions exceed the bound (or whose decoding
    /// would need more memory than allowed: a decompression bomb).
    #[error("logo: larger than {MAX_LOGO_SIDE}×{MAX_LOGO_SIDE} pixels ({0})")]
    TooLarge(String),
    /// More bytes than [`MAX_LOGO_BYTES`].
    #[error("logo: larger than the {MAX_LOGO_BYTES}-byte limit")]
    Oversize,
}

/// Decodes a PNG or JPEG within the limits and re-encodes it in the same format.
///
/// ```
/// use tonne_http::logo_image::{reencode, LogoImageError};
/// assert!(matches!(reencode(b"hello"), Err(LogoImageError::Unsupported(_))));
/// ```
pub fn reencode(bytes: &[u8]) -> Result<EncodedLogo, LogoImageError> {
    if bytes.len() > MAX_LOGO_BYTES {
        return Err(LogoImageError::Oversize);
    }
    let mut reader = ImageReader::new(Cursor::new(bytes))
        .with_guessed_format()
        .map_err(|e| LogoImageError::Unsupported(e.to_string()))?;
    let format = match reader.format() {
        Some(ImageFormat::Png) => LogoFormat::Png,
        Some(ImageFormat::Jpeg) => LogoFormat::Jpeg,
        Some(other) => {
            return Err(LogoImageError::Unsupported(format!(
                "{other:?} images are not accepted; send a PNG or a JPEG"
            )));
        }
        None => {
            return Err(LogoImageError::Unsupported(
                "not a PNG or JPEG image".to_owned(),
            ));
        }
    };
    let mut limits = Limits::default();
    limits.max_image_width = Some(MAX_LOGO_SIDE);
    limits.max_image_height = Some(MAX_LOGO_SIDE);
    limits.max_alloc = Some(MAX_DECODE_ALLOC);
    reader.limits(limits);
    let decoded = reader.decode().map_err(|e| match e {
        image::ImageError::Limits(limit) => LogoImageError::TooLarge(limit.to_string()),
        other => LogoImageError::Unsupported(format!("the image does not decode: {other}")),
    })?;
    let mut out = Cursor::new(Vec::new());
    let encoded = match format {
        LogoFormat::Png => decoded.write_to(&mut out, ImageFormat::Png),
        LogoFormat::Jpeg => {
            let encoder =
                image::codecs::jpeg::JpegEncoder::new_with_quality(&mut out, JPEG_QUALITY);
            // JPEG has no alpha channel: a decoded JPEG never has one, but be explicit.
            decoded.to_rgb8().write_with_encoder(encoder)
        }
    };
    encoded.map_err(|e| LogoImageError::Unsupported(format!("cannot re-encode: {e}")))?;
    Ok(EncodedLogo {
        format,
        bytes: out.into_inner(),
    })
}

/// A stored logo as 8-bit RGB pixels, row by row (`width`, `height`, bytes), for
/// the PDF certificate; transparent pixels are laid on white. `None` when the
/// stored bytes do not decode (they always should: Tonne encoded them).
pub fn rgb_pixels(logo: &EncodedLogo) -> Option<(usize, usize, Vec<u8>)> {
    let format = match logo.format {
        LogoFormat::Png => ImageFormat::Png,
        LogoFormat::Jpeg => ImageFormat::Jpeg,
    };
    let mut reader = ImageReader::with_format(Cursor::new(&logo.bytes), format);
    let mut limits = Limits::default();
    limits.max_image_width = Some(MAX_LOGO_SIDE);
    limits.max_image_height = Some(MAX_LOGO_SIDE);
    limits.max_alloc = Some(MAX_DECODE_ALLOC);
    reader.limits(limits);
    let rgba = reader.decode().ok()?.to_rgba8();
    let (width, height) = rgba.dimensions();
    let mut rgb = Vec::with_capacity(rgba.as_raw().len() / 4 * 3);
    for pixel in rgba.pixels() {
        let [r, g, b, a] = pixel.0;
        let over_white = |c: u8| {
            let (c, a) = (u16::from(c), u16::from(a));
            u8::try_from((c * a + 255 * (255 - a)) / 255).unwrap_or(u8::MAX)
        };
        rgb.extend([over_white(r), over_white(g), over_white(b)]);
    }
    Some((
        usize::try_from(width).ok()?,
        usize::try_from(height).ok()?,
        rgb,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::images::{bomb, jpeg, png};

    #[test]
    fn a_png_is_reencoded_as_a_png() {
        let logo = reencode(&png(8, 4)).unwrap();
        assert_eq!(logo.format, LogoFormat::Png);
        let back = image::load_from_memory(&logo.bytes).unwrap();
        assert_eq!((back.width(), back.height()), (8, 4));
    }

    #[test]
    fn a_jpeg_is_reencoded_as_a_jpeg() {
        let logo = reencode(&jpeg(5, 5)).unwrap();
        assert_eq!(logo.format, LogoFormat::Jpeg);
        assert!(logo.bytes.starts_with(&[0xFF, 0xD8]));
    }

    #[test]
    fn text_and_truncated_files_are_unsupported() {
        assert!(matches!(
            reencode(b"just some text"),
            Err(LogoImageError::Unsupported(_))
        ));
        let whole = png(64, 64);
        let truncated = &whole[..whole.len() / 2];
        assert!(matches!(
            reencode(truncated),
            Err(LogoImageError::Unsupported(_))
        ));
    }

    #[test]
    fn a_bomb_is_refused_before_decoding() {
        // 100000×100000 pixels: tens of gigabytes decoded.
        let bomb = bomb(100_000);
        assert!(matches!(reencode(&bomb), Err(LogoImageError::TooLarge(_))));
        assert!(matches!(
            reencode(&png(MAX_LOGO_SIDE + 1, 1)),
            Err(LogoImageError::TooLarge(_))
        ));
    }

    #[test]
    fn oversize_uploads_are_refused_unread() {
        let big = vec![0_u8; MAX_LOGO_BYTES + 1];
        assert!(matches!(reencode(&big), Err(LogoImageError::Oversize)));
    }
}
