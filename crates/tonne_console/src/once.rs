//! Every console form acts once: a form that changes something carries a
//! one-time key (`once`, made by `views::once_key` when the page is drawn); the first POST with it
//! claims the key, and a repeat — a double click, a reload of the answer, the
//! browser's resend — finds it taken and is answered with the page the first
//! one led to, changing nothing. An action that did not happen (a problem in
//! the form, the store down) gives the key back, so that the corrected form
//! can be sent again.

use crate::ConsoleState;
use tonne_accounts::users::FormKey;

use crate::error::ConsoleError;

/// The key a form sent, claimed.
pub(super) enum Claim {
    /// The first submission (or a form without a key: an old page, a script).
    First(Option<FormKey>),
    /// This form acted already.
    Repeat,
}

/// Claims the form's key; `Err` is the answer when the store is down.
pub(super) async fn claim(state: &ConsoleState, sent: Option<&str>) -> Result<Claim, ConsoleError> {
    let Some(key) = sent.and_then(FormKey::parse) else {
        return Ok(Claim::First(None));
    };
    match state.users.claim_form(&key).await {
        Ok(true) => Ok(Claim::First(Some(key))),
        Ok(false) => Ok(Claim::Repeat),
        Err(e) => Err(ConsoleError::unavailable(e)),
    }
}

/// Gives the key back: the form's action did not happen.
pub(super) async fn release(state: &ConsoleState, claim: &Claim) {
    if let Claim::First(Some(key)) = claim
        && let Err(e) = state.users.release_form(key).await
    {
        tracing::warn!(error = %e, "console: a form's key could not be given back");
    }
}
