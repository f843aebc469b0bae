//! What can go wrong talking to Stripe.

/// A failed Stripe call.
#[derive(Debug, thiserror::Error)]
pub enum StripeError {
    /// The settings are not usable (said at start-up).
    #[error("Stripe settings: {0}")]
    Config(String),
    /// Stripe answered with an error: a declined card (`402`,
    /// `card_declined`), a bad request, a wrong key…
    #[error("Stripe answered {status}: {message}")]
    Api {
        status: u16,
        /// Stripe's error type (`card_error`, `invalid_request_error`, …).
        kind: String,
        /// Stripe's code (`card_declined`, `resource_missing`, …), when given.
        code: Option<String>,
        /// The decline code, for a declined card.
        decline_code: Option<String>,
        /// Stripe's message (safe to show a card holder for `card_error`).
        message: String,
    },
    /// Stripe could not be reached, or did not answer in time: the call may
    /// or may not have happened (retry it with the same idempotency key).
    #[error("Stripe could not be reached: {0}")]
    Transport(String),
    /// Stripe answered something this adapter does not understand.
    #[error("Stripe's answer could not be read: {0}")]
    Decode(String),
}

impl StripeError {
    /// Whether the card was refused (as opposed to Stripe or Tonne failing).
    pub fn is_card_declined(&self) -> bool {
        matches!(self, StripeError::Api { kind, .. } if kind == "card_error")
            || matches!(self, StripeError::Api { code: Some(c), .. } if c == "card_declined")
    }

    /// Whether retrying the same call (same idempotency key) may succeed.
    pub fn is_transient(&self) -> bool {
        match self {
            StripeError::Transport(_) => true,
            StripeError::Api { status, .. } => *status == 429 || *status >= 500,
            _ => false,
        }
    }
}
