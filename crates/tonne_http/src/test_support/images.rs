//! Images for the logo tests: this crate's re-encoding and the API's uploads.

use std::io::Cursor;

use image::{DynamicImage, ImageFormat, Rgb, RgbImage, Rgba, RgbaImage};

/// `image` encoded as `format`.
fn encoded(image: DynamicImage, format: ImageFormat) -> Vec<u8> {
    let mut out = Cursor::new(Vec::new());
    image
        .write_to(&mut out, format)
        .unwrap_or_else(|e| panic!("encoding a test image: {e}"));
    out.into_inner()
}

/// A green PNG of `width`×`height` pixels.
pub fn png(width: u32, height: u32) -> Vec<u8> {
    let image = RgbaImage::from_pixel(width, height, Rgba([0, 120, 60, 255]));
    encoded(image.into(), ImageFormat::Png)
}

/// A red JPEG of `width`×`height` pixels.
pub fn jpeg(width: u32, height: u32) -> Vec<u8> {
    let image = RgbImage::from_pixel(width, height, Rgb([200, 30, 30]));
    encoded(image.into(), ImageFormat::Jpeg)
}

/// The CRC-32 of a PNG chunk (ISO 3309, as the PNG specification uses).
fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = 0xFFFF_FFFF_u32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

/// A valid PNG (correct CRCs) whose header declares `side`×`side` pixels but
/// whose data is that of a 1×1 image: a decompression bomb's header.
pub fn bomb(side: u32) -> Vec<u8> {
    let mut bomb = png(1, 1);
    // IHDR: length (8..12), type (12..16), width and height (16..24), CRC at 29..33.
    let size = side.to_be_bytes();
    bomb.splice(16..20, size);
    bomb.splice(20..24, size);
    let header = bomb
        .get(12..29)
        .unwrap_or_else(|| panic!("a PNG has an IHDR"));
    let crc = crc32(header).to_be_bytes();
    bomb.splice(29..33, crc);
    bomb
}
