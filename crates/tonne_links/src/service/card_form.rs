//! Use case: the confirmation page asks for the card the way the account's
//! mode is paid (the processor's script, the test simulator's field, or no
//! card when the operator confirms payment).

use crate::checkout::Checkout;
use crate::errors::CheckoutError;
use crate::ports::CardForm;

use super::OffsetLinks;
use super::support::checkout_invalid;

impl OffsetLinks {
    pub(super) async fn card_form(
        &self,
        checkout: &Checkout,
        token: &str,
    ) -> Result<CardForm, CheckoutError> {
        let link = &checkout.link;
        if !link.details.link.require_payment {
            return Ok(CardForm::Operator);
        }
        let key = checkout_key(OFFSET_LINK, token)?;
        Ok(self
            .cards
            .form(link.account.mode, checkout.quote.total_cost, &key)
            .await?)
    }
}

/// The prefix of an offset-link checkout's keys.
pub(super) const OFFSET_LINK: &str = "offset-link";
/// The prefix of a Lune Pay checkout's keys.
pub(super) const LUNE_PAY: &str = "lune-pay";

/// The name of one checkout (its page's one-time token, after the kind of
/// page): the order's idempotency key and the card processor's.
pub(super) fn checkout_key(kind: &str, token: &str) -> Result<String, CheckoutError> {
    if token.is_empty() || token.len() > 64 || !token.chars().all(|c| c.is_ascii_alphanumeric()) {
        return Err(checkout_invalid(
            "token",
            "the form has expired; start again",
        ));
    }
    Ok(format!("{kind}-{token}"))
}
