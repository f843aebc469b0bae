//! Errors of the offset link use cases.

/// Why a link could not be created, read or changed through the API.
#[derive(Debug, thiserror::Error)]
pub enum LinkError {
    /// No link of the account has this id.
    #[error("offset link not found")]
    NotFound,
    /// A field is invalid.
    #[error("{field}: {reason}")]
    Invalid {
        /// The field.
        field: &'static str,
        reason: String,
    },
    /// Fewer than 1 or more than 24 bundles.
    #[error("{0}")]
    BundlesSize(String),
    /// A bundle is unknown, disabled, repeated or not sold in the account's currency.
    #[error("{0}")]
    BundleInvalid(String),
    /// Another link of the account has this name.
    #[error("another offset link of this account is named `{0}`")]
    NameTaken(String),
    /// Storage failed.
    #[error(transparent)]
    Unexpected(#[from] anyhow::Error),
}

/// Why a hosted page could not show a link, price a choice or place an order.
#[derive(Debug, thiserror::Error)]
pub enum CheckoutError {
    /// No such link.
    #[error("this offset link does not exist")]
    NotFound,
    /// The link is switched off or expired.
    #[error("this offset link is no longer available")]
    Gone,
    /// A field of the form is invalid (shown next to the form).
    #[error("{reason}")]
    Invalid {
        /// The form field.
        field: &'static str,
        /// Why, for the customer.
        reason: String,
    },
    /// The email is not on the link's allow-list (which is never revealed).
    #[error("this email address may not use this offset link")]
    EmailNotAllowed,
    /// The card was refused; nothing was placed.
    #[error("{0}")]
    Declined(String),
    /// A limit of the link refused the order; nothing was placed.
    #[error(transparent)]
    Limit(#[from] crate::limits::LimitReached),
    /// Storage or a port failed.
    #[error(transparent)]
    Unexpected(#[from] anyhow::Error),
}
