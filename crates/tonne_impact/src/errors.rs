//! What the impact use cases refuse.

use tonne_kernel::StoreError;

use crate::range::RangeError;

/// Why analytics were not answered.
#[derive(Debug, thiserror::Error)]
pub enum AnalyticsError {
    /// The time range (`time_range_invalid`).
    #[error(transparent)]
    Range(#[from] RangeError),
    /// No such account, or its external pages are not public (a public
    /// route's answer: which of the two is not told).
    #[error("no account with public external pages has this id")]
    NotPublic,
    /// Storage failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Why a sustainability page was not written or shown.
#[derive(Debug, thiserror::Error)]
pub enum PageError {
    /// A field breaks a rule (`validation_error`).
    #[error("{field}: {reason}")]
    Invalid {
        /// The field.
        field: &'static str,
        /// The rule.
        reason: &'static str,
    },
    /// Another page of the same mode has the slug
    /// (`sustainability_page_slug_not_unique`).
    #[error("slug: another sustainability page has this slug")]
    SlugTaken,
    /// The account already has a page (`sustainability_page_exists`).
    #[error("this account already has a sustainability page")]
    Exists,
    /// No such page, or it is not shown (disabled, or the account's external
    /// pages are hidden).
    #[error("sustainability page not found")]
    NotFound,
    /// Storage failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// What a page write can meet in storage.
#[derive(Debug, thiserror::Error)]
pub enum PageWriteError {
    /// The unique slug index refused it.
    #[error("slug taken")]
    SlugTaken,
    /// The account has a page (create), or has none (update).
    #[error("the account's page exists (create) or is missing (update)")]
    Conflict,
    /// Anything else.
    #[error(transparent)]
    Store(#[from] StoreError),
}
