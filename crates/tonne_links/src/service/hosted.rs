//! The steps the hosted checkout's use cases share: the public link, the
//! visitor's choice checked and priced through the ordering domain.

use rust_decimal::Decimal;
use tonne_kernel::{AccountId, Mass, MassUnit};
use tonne_ordering::{
    BundleView, MassRequest, Pricing, Quote, QuoteError, SelectionEntry, ValueRequest,
};

use crate::checkout::{Amount, Choice, PublicLink};
use crate::errors::CheckoutError;
use crate::models::{Email, LinkStatus, OffsetLinkId};
use crate::ports::StoreError;

use super::OffsetLinks;
use super::support::checkout_invalid;

impl OffsetLinks {
    pub(super) async fn public(&self, id: &str) -> Result<PublicLink, CheckoutError> {
        let id: OffsetLinkId = id.parse().map_err(|_| CheckoutError::NotFound)?;
        let link = self
            .links
            .get(id)
            .await
            .map_err(StoreError::unexpected)?
            .ok_or(CheckoutError::NotFound)?;
        if link.status(self.clock.now()) == LinkStatus::Disabled {
            return Err(CheckoutError::Gone);
        }
        let account = self.profile(link.account_id).await?;
        let details = self.details(link).await?;
        let prices = details
            .bundles
            .iter()
            .map(|b| {
                self.ordering
                    .display_price(&b.bundle, account.currency)
                    .map(|(_, with_commission)| with_commission)
            })
            .collect();
        Ok(PublicLink {
            details,
            account,
            prices,
        })
    }

    /// The validated choice as an ordering request.
    pub(super) fn pricing(
        &self,
        link: &PublicLink,
        choice: &Choice,
    ) -> Result<(BundleView, Email, Pricing), CheckoutError> {
        let l = &link.details.link;
        let bundle = link
            .details
            .bundles
            .iter()
            .find(|b| b.bundle.id.to_string() == choice.bundle_id && l.offers(b.bundle.id))
            .cloned()
            .ok_or_else(|| checkout_invalid("bundle", "choose one of the bundles offered"))?;
        let email = Email::parse(&choice.email)
            .ok_or_else(|| checkout_invalid("email", "enter a valid email address"))?;
        if !l.allows(&email) {
            return Err(CheckoutError::EmailNotAllowed);
        }
        let selection = Some(vec![SelectionEntry {
            bundle_id: bundle.bundle.id.to_string(),
            percentage: None,
        }]);
        let currency = link.account.currency;
        let pricing = match (&l.value, &choice.amount) {
            (Some(fixed), _) => Pricing::Value(ValueRequest {
                value: fixed.to_decimal_string(),
                selection,
                trunc: None,
            }),
            (None, Some(Amount::Money(raw))) => {
                let raw = raw.trim();
                within(
                    raw,
                    self.settings.max_value,
                    "an amount such as 25.00",
                    "amount",
                    currency.code(),
                )?;
                Pricing::Value(ValueRequest {
                    value: raw.to_owned(),
                    selection,
                    trunc: None,
                })
            }
            (None, Some(Amount::Tonnes(raw))) => {
                let raw = raw.trim();
                within(
                    raw,
                    self.settings.max_tonnes,
                    "a mass such as 1.5",
                    "mass",
                    "t",
                )?;
                let mass = Mass::parse(raw, MassUnit::T).map_err(|e| {
                    checkout_invalid("amount", format!("the mass is not valid: {e}"))
                })?;
                Pricing::Mass(MassRequest::Split {
                    mass,
                    selection,
                    trunc: None,
                })
            }
            (None, None) => return Err(checkout_invalid("amount", "enter an amount")),
        };
        Ok((bundle, email, pricing))
    }

    pub(super) async fn price(
        &self,
        account: AccountId,
        pricing: &Pricing,
    ) -> Result<Quote, CheckoutError> {
        let result = match pricing {
            Pricing::Value(v) => self.ordering.quote_by_value(account, v.clone()).await,
            Pricing::Mass(m) => self.ordering.quote_by_mass(account, m.clone()).await,
            Pricing::Estimate { .. } => {
                return Err(anyhow::anyhow!("offset links do not order estimates").into());
            }
        };
        result.map_err(quote_error)
    }
}

/// Checks a typed amount: a number, above zero, at most `max` (the customer's wording).
pub(super) fn within(
    raw: &str,
    max: Decimal,
    example: &str,
    noun: &str,
    unit: &str,
) -> Result<(), CheckoutError> {
    let value: Decimal = raw
        .parse()
        .map_err(|_| checkout_invalid("amount", format!("enter {example}")))?;
    if value <= Decimal::ZERO {
        return Err(checkout_invalid(
            "amount",
            format!("the {noun} must be more than zero"),
        ));
    }
    if value > max {
        return Err(checkout_invalid(
            "amount",
            format!("the {noun} may be at most {max} {unit}"),
        ));
    }
    Ok(())
}

pub(super) fn quote_error(e: QuoteError) -> CheckoutError {
    match e {
        QuoteError::QuantityInvalid(why) => checkout_invalid("amount", why),
        QuoteError::BundleInvalid(why) => checkout_invalid("bundle", why),
        QuoteError::RatiosInvalid(why) | QuoteError::RatiosFormat(why) => {
            CheckoutError::Unexpected(anyhow::anyhow!("a one-bundle selection was refused: {why}"))
        }
        QuoteError::Invalid { field, reason } => checkout_invalid(field, reason),
        QuoteError::Unexpected(e) => CheckoutError::Unexpected(e),
    }
}
