//! An account's logo: its id, its two image formats, and the stored image.

use time::OffsetDateTime;
use tonne_kernel::AccountId;

tonne_kernel::define_id!(
    /// Identifies one uploaded logo (a new id per upload, so its URL never serves stale bytes).
    LogoId
);

/// The two image formats a logo is stored in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LogoFormat {
    /// PNG.
    Png,
    /// JPEG.
    Jpeg,
}

impl LogoFormat {
    /// The media type it is served with (also its storage spelling).
    pub fn content_type(self) -> &'static str {
        match self {
            LogoFormat::Png => "image/png",
            LogoFormat::Jpeg => "image/jpeg",
        }
    }
    /// Parses the media type.
    pub fn parse(value: &str) -> Option<Self> {
        match value {
            "image/png" => Some(LogoFormat::Png),
            "image/jpeg" => Some(LogoFormat::Jpeg),
            _ => None,
        }
    }
}

/// A logo image already decoded and re-encoded by an adapter (never the uploaded bytes).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EncodedLogo {
    /// Its format.
    pub format: LogoFormat,
    /// The re-encoded bytes.
    pub bytes: Vec<u8>,
}

/// A stored logo.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Logo {
    /// Its id (the last segment of its URL).
    pub id: LogoId,
    /// The account it belongs to.
    pub account_id: AccountId,
    /// The image.
    pub image: EncodedLogo,
    /// Upload time.
    pub created_at: OffsetDateTime,
}
