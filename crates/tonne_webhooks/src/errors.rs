//! The errors the webhook use cases answer, one per use case family.

use tonne_kernel::StoreError;

/// A field of a request that failed validation, and why. Adapters name the field
/// (`url`, `account_ids[2]`) in their error.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{field}: {reason}")]
pub struct InvalidField {
    /// The field's wire name or path.
    pub field: String,
    /// What is wrong with it.
    pub reason: String,
}

impl InvalidField {
    pub(crate) fn new(field: impl Into<String>, reason: impl Into<String>) -> Self {
        Self {
            field: field.into(),
            reason: reason.into(),
        }
    }
}

/// Why a webhook could not be created.
#[derive(Debug, thiserror::Error)]
pub enum CreateWebhookError {
    /// A field is invalid (URL rules, unknown or foreign account ids).
    #[error(transparent)]
    Invalid(#[from] InvalidField),
    /// The organisation already has the most webhooks allowed in this mode.
    #[error("this organisation already has {limit} webhooks in this mode, the most allowed")]
    LimitReached {
        /// The bound.
        limit: usize,
    },
    /// Storage failed.
    #[error(transparent)]
    Unexpected(#[from] anyhow::Error),
}

/// Why a webhook could not be updated.
#[derive(Debug, thiserror::Error)]
pub enum UpdateWebhookError {
    /// A field is invalid.
    #[error(transparent)]
    Invalid(#[from] InvalidField),
    /// No webhook of the caller's organisation and mode has this id.
    #[error("no webhook has this id")]
    NotFound,
    /// Storage failed.
    #[error(transparent)]
    Unexpected(#[from] anyhow::Error),
}

/// Why webhooks could not be listed.
#[derive(Debug, thiserror::Error)]
pub enum ListWebhooksError {
    /// A filter is invalid.
    #[error(transparent)]
    Invalid(#[from] InvalidField),
    /// Storage failed.
    #[error(transparent)]
    Unexpected(#[from] anyhow::Error),
}

/// Why a webhook could not be read, deleted or rotated.
#[derive(Debug, thiserror::Error)]
pub enum WebhookError {
    /// No webhook of the caller's organisation and mode has this id.
    #[error("no webhook has this id")]
    NotFound,
    /// Storage failed.
    #[error(transparent)]
    Unexpected(#[from] anyhow::Error),
}

/// Why an operator command on a webhook failed.
#[derive(Debug, thiserror::Error)]
pub enum AdminWebhookError {
    /// No webhook has this id.
    #[error("no webhook has this id")]
    WebhookNotFound,
    /// The webhook has no delivery stream for that account (it does not cover it, or
    /// the account has no events yet).
    #[error("the webhook has no delivery stream for that account")]
    StreamNotFound,
    /// An argument is invalid.
    #[error(transparent)]
    Invalid(#[from] InvalidField),
    /// Storage failed.
    #[error(transparent)]
    Unexpected(#[from] anyhow::Error),
}

/// Errors of [`crate::ports::WebhookRepository::insert`].
#[derive(Debug, thiserror::Error)]
pub enum InsertWebhookError {
    /// The owner already has `limit` webhooks.
    #[error("webhook limit reached")]
    LimitReached,
    /// Anything else.
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Why a recovery (re-sending a webhook's events since a time) could not start.
#[derive(Debug, thiserror::Error)]
pub enum RecoverError {
    /// No webhook of the caller's organisation and mode has this id.
    #[error("no webhook has this id")]
    NotFound,
    /// `since` or `account_id` is invalid.
    #[error(transparent)]
    Invalid(#[from] InvalidField),
    /// Storage failed.
    #[error(transparent)]
    Unexpected(#[from] anyhow::Error),
}

/// Why a test event could not be sent (a receiver's failure is not an error:
/// it is the answer, in [`crate::TestDelivery`]).
#[derive(Debug, thiserror::Error)]
pub enum TestEventError {
    /// No webhook of the caller's organisation and mode has this id.
    #[error("no webhook has this id")]
    NotFound,
    /// The account is not one the webhook sends events for.
    #[error(transparent)]
    Invalid(#[from] InvalidField),
    /// Storage failed.
    #[error(transparent)]
    Unexpected(#[from] anyhow::Error),
}
