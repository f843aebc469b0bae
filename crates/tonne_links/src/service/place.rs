//! Use case: the hosted page places a visitor's order: priced, claimed against
//! the link's day, paid by card when the link asks, then ordered once per token.

use tonne_ordering::{
    CreateOrderError, LinkOrigin, OrderRequest, PaymentMethod, Pricing, Quote, ReadOrderError,
};

use crate::checkout::{Choice, Confirmed, PublicLink};
use crate::errors::CheckoutError;
use crate::models::{Email, VisitorHash};
use crate::ports::{Card, CardOutcome, StoreError};

use super::OffsetLinks;
use super::card_form::{OFFSET_LINK, checkout_key};
use super::hosted::quote_error;

impl OffsetLinks {
    pub(super) async fn place(
        &self,
        id: &str,
        choice: Choice,
        card: Option<Card>,
        token: &str,
        visitor: VisitorHash,
    ) -> Result<Confirmed, CheckoutError> {
        let link = self.public(id).await?;
        let account = link.details.link.account_id;
        let key = checkout_key(OFFSET_LINK, token)?;
        // A repeated submit (double click, reload) answers the order already placed.
        match self.ordering.order_by_idempotency_key(account, &key).await {
            Ok(order) => {
                return Ok(Confirmed {
                    awaiting_payment: link.details.link.require_payment
                        && link.account.mode == tonne_kernel::AccountMode::Live
                        && order.payment_method != PaymentMethod::Card,
                    link,
                    order,
                });
            }
            Err(ReadOrderError::NotFound | ReadOrderError::Invalid { .. }) => {}
            Err(ReadOrderError::Unexpected(e)) => return Err(e.into()),
        }
        let (_, email, pricing) = self.pricing(&link, &choice)?;
        // Priced first, so that the link's limits see the order's mass and cost.
        let quote = self.price(account, &pricing).await?;
        let claim = self.claim(&link.details.link, &quote, visitor).await?;
        let placed = self
            .place_claimed(link, email, pricing, &quote, card, key)
            .await;
        if !matches!(placed, Ok((_, true))) {
            // nothing placed by this request: give its share of the day back
            self.links
                .release(&claim)
                .await
                .map_err(StoreError::unexpected)?;
        }
        placed.map(|(confirmed, _)| confirmed)
    }

    /// The card step and the order, once the link's day granted the claim.
    /// `true` with the order when this request placed it.
    pub(super) async fn place_claimed(
        &self,
        link: PublicLink,
        email: Email,
        pricing: Pricing,
        quote: &Quote,
        card: Option<Card>,
        key: String,
    ) -> Result<(Confirmed, bool), CheckoutError> {
        let account = link.details.link.account_id;
        let mode = link.account.mode;
        let mut awaiting_payment = false;
        let mut payment_method = PaymentMethod::Invoice;
        let mut payment_reference = None;
        if link.details.link.require_payment {
            match self
                .cards
                .authorise(mode, quote.total_cost, card, &key)
                .await?
            {
                CardOutcome::Authorised { reference } => {
                    payment_method = PaymentMethod::Card;
                    payment_reference = reference;
                }
                CardOutcome::Declined { reason } => return Err(CheckoutError::Declined(reason)),
                CardOutcome::AwaitingOperator => awaiting_payment = true,
            }
        }
        let request = OrderRequest {
            pricing,
            idempotency_key: Some(key.clone()),
            metadata: Vec::new(),
            origin: Some(LinkOrigin {
                offset_link_id: link.details.link.id.to_string(),
                email: email.as_str().to_owned(),
            }),
            payment_method,
            payment_reference: payment_reference.clone(),
        };
        let (order, placed) = self.order_paid(account, mode, request).await?;
        Ok((
            Confirmed {
                link,
                order,
                awaiting_payment,
            },
            placed,
        ))
    }

    /// Places `request` (its idempotency key set), and — when it carries a
    /// card authorisation — collects it at once, or gives the hold back if
    /// the order cannot be placed. `true` with the order when this request
    /// placed it; `false` when a concurrent submit of the same page did.
    pub(super) async fn order_paid(
        &self,
        account: tonne_kernel::AccountId,
        mode: tonne_kernel::AccountMode,
        request: OrderRequest,
    ) -> Result<(tonne_ordering::Order, bool), CheckoutError> {
        let key = request.idempotency_key.clone().unwrap_or_default();
        let reference = request.payment_reference.clone();
        let created = self.ordering.create_order(account, mode, request).await;
        if let (Err(e), Some(reference)) = (&created, &reference) {
            // Not placed by this request: the authorisation goes back, unless
            // a concurrent submit of the same checkout placed the order with it.
            if !matches!(e, CreateOrderError::IdempotencyKeyExists) {
                self.cards.release(mode, reference).await?;
            }
        }
        match created {
            Ok(order) if order.payment_reference.is_some() => {
                // Authorised and placed: the card is collected now. On failure
                // the order stays where it is (the ordering domain logs why)
                // and the operator's `advance --to paid` collects it later.
                match self.ordering.collect_authorised(order.id).await {
                    Ok(paid) => Ok((paid, true)),
                    Err(_) => Ok((order, true)),
                }
            }
            Ok(order) => Ok((order, true)),
            // Two submits raced: the other one placed it (and counts it).
            Err(CreateOrderError::IdempotencyKeyExists) => Ok((
                self.ordering
                    .order_by_idempotency_key(account, &key)
                    .await
                    .map_err(|e| CheckoutError::Unexpected(anyhow::anyhow!(e)))?,
                false,
            )),
            Err(CreateOrderError::Quote(e)) => Err(quote_error(e)),
            Err(CreateOrderError::EstimateAlreadyOrdered) => {
                Err(anyhow::anyhow!("a hosted checkout's order named an estimate").into())
            }
        }
    }
}
