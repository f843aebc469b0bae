//! Use case: Lune Pay's payment — the request checked and priced again, the
//! card authorised, the order placed by mass once per page (its one-time
//! token is the idempotency key), collected, and given a temporary id the
//! buyer carries back to the platform.

use tonne_ordering::{
    MassRequest, OrderRequest, PaymentMethod, Pricing, ReadOrderError, SelectionEntry,
};

use crate::errors::CheckoutError;
use crate::pay::{Paid, PayCheckout, PayRequest, return_address};
use crate::ports::{Card, CardForm, CardOutcome, StoreError};

use super::OffsetLinks;
use super::card_form::{LUNE_PAY, checkout_key};
use super::support::checkout_invalid;

/// Why a live account without a card processor cannot use Lune Pay.
fn no_processor() -> CheckoutError {
    checkout_invalid(
        "account",
        "card payments are not set up for this account; go back to the site that sent you",
    )
}

impl OffsetLinks {
    pub(super) async fn pay_card_form(
        &self,
        checkout: &PayCheckout,
        token: &str,
    ) -> Result<CardForm, CheckoutError> {
        let key = checkout_key(LUNE_PAY, token)?;
        let form = self
            .cards
            .form(checkout.account.mode, checkout.quote.total_cost, &key)
            .await?;
        if form == CardForm::Operator {
            return Err(no_processor());
        }
        Ok(form)
    }

    pub(super) async fn pay(
        &self,
        account: &str,
        request: PayRequest,
        card: Option<Card>,
        token: &str,
    ) -> Result<Paid, CheckoutError> {
        let key = checkout_key(LUNE_PAY, token)?;
        let checkout = self.pay_page(account, request).await?;
        let account = checkout.account_id;
        // a repeated submit answers the payment already made
        let order = match self.ordering.order_by_idempotency_key(account, &key).await {
            Ok(order) => order,
            Err(ReadOrderError::NotFound | ReadOrderError::Invalid { .. }) => {
                self.pay_and_place(&checkout, card, &key).await?
            }
            Err(ReadOrderError::Unexpected(e)) => return Err(e.into()),
        };
        let temporary_id = self
            .links
            .record_temporary_id(uuid::Uuid::new_v4(), order.id, self.clock.now())
            .await
            .map_err(StoreError::unexpected)?;
        let redirect = return_address(
            &checkout.request.redirect_url,
            checkout.request.external_id.as_deref(),
            temporary_id,
        )
        .map_err(|why| anyhow::anyhow!("a checked return address did not parse: {why}"))?;
        Ok(Paid { order, redirect })
    }

    async fn pay_and_place(
        &self,
        checkout: &PayCheckout,
        card: Option<Card>,
        key: &str,
    ) -> Result<tonne_ordering::Order, CheckoutError> {
        let mode = checkout.account.mode;
        let reference = match self
            .cards
            .authorise(mode, checkout.quote.total_cost, card, key)
            .await?
        {
            CardOutcome::Authorised { reference } => reference,
            CardOutcome::Declined { reason } => return Err(CheckoutError::Declined(reason)),
            CardOutcome::AwaitingOperator => return Err(no_processor()),
        };
        let request = OrderRequest {
            pricing: Pricing::Mass(MassRequest::Split {
                mass: checkout.quote.quantity,
                selection: Some(vec![SelectionEntry {
                    bundle_id: checkout.bundle.bundle.id.to_string(),
                    percentage: None,
                }]),
                trunc: None,
            }),
            idempotency_key: Some(key.to_owned()),
            metadata: checkout
                .request
                .external_id
                .iter()
                .map(|id| ("external_id".to_owned(), id.clone()))
                .collect(),
            origin: None,
            payment_method: PaymentMethod::Card,
            payment_reference: reference.clone(),
        };
        self.order_paid(checkout.account_id, mode, request)
            .await
            .map(|(order, _)| order)
    }
}
