//! Use case: Lune Pay's page checks the platform's request — the account, the
//! bundle on sale in its currency, the tonnes, the return address on one of
//! the account's allowed origins, the label and reference — and prices it.

use rust_decimal::Decimal;
use tonne_kernel::{AccountId, Mass, MassUnit};
use tonne_ordering::{CatalogueError, MassRequest, Pricing, SelectionEntry};

use crate::errors::CheckoutError;
use crate::pay::{MAX_EXTERNAL_ID, MAX_REDIRECT_LABEL, PayCheckout, PayRequest, origin_of};
use crate::ports::StoreError;

use super::OffsetLinks;
use super::support::checkout_invalid;

/// A short text the platform passes through: trimmed, bounded, no control
/// characters; empty is none.
fn passed_text(
    raw: Option<&str>,
    field: &'static str,
    max: usize,
) -> Result<Option<String>, CheckoutError> {
    let Some(text) = raw.map(str::trim).filter(|t| !t.is_empty()) else {
        return Ok(None);
    };
    if text.chars().count() > max || text.chars().any(char::is_control) {
        return Err(checkout_invalid(
            field,
            format!("`{field}` must be at most {max} characters, without control characters"),
        ));
    }
    Ok(Some(text.to_owned()))
}

impl OffsetLinks {
    pub(super) async fn pay_page(
        &self,
        account: &str,
        request: PayRequest,
    ) -> Result<PayCheckout, CheckoutError> {
        let account_id: AccountId = account.parse().map_err(|_| CheckoutError::NotFound)?;
        let profile = self
            .accounts
            .profile(account_id)
            .await
            .map_err(StoreError::unexpected)?
            .ok_or(CheckoutError::NotFound)?;
        // where the buyer goes back to: never anywhere the account did not allow
        let origin = origin_of(&request.redirect_url)
            .map_err(|why| checkout_invalid("redirect_url", format!("the return address {why}")))?;
        let allowed = self
            .links
            .pay_origins(account_id)
            .await
            .map_err(StoreError::unexpected)?;
        if !allowed.contains(&origin) {
            return Err(checkout_invalid(
                "redirect_url",
                format!(
                    "the return address is not on {origin}, or that origin is not one this account allows"
                ),
            ));
        }
        let redirect_label = passed_text(
            request.redirect_label.as_deref(),
            "redirect_label",
            MAX_REDIRECT_LABEL,
        )?;
        let external_id = passed_text(
            request.external_id.as_deref(),
            "external_id",
            MAX_EXTERNAL_ID,
        )?;
        let bundle = match self.ordering.bundle(request.bundle_id.trim()).await {
            Ok(b) if !b.bundle.disabled => b,
            Ok(_) | Err(CatalogueError::NotFound | CatalogueError::Invalid { .. }) => {
                return Err(checkout_invalid("bundle_id", "no such bundle is on sale"));
            }
            Err(CatalogueError::Unexpected(e)) => return Err(e.into()),
        };
        if self
            .ordering
            .display_price(&bundle.bundle, profile.currency)
            .is_none()
        {
            return Err(checkout_invalid(
                "bundle_id",
                format!("this bundle is not sold in {}", profile.currency.code()),
            ));
        }
        let raw = request.quantity.trim();
        let tonnes: Decimal = raw
            .parse()
            .map_err(|_| checkout_invalid("quantity", "`quantity` must be tonnes, such as 1.5"))?;
        if tonnes <= Decimal::ZERO || tonnes > self.settings.max_tonnes {
            return Err(checkout_invalid(
                "quantity",
                format!(
                    "`quantity` must be more than 0 and at most {} t",
                    self.settings.max_tonnes
                ),
            ));
        }
        let mass = Mass::parse(raw, MassUnit::T)
            .map_err(|e| checkout_invalid("quantity", format!("`quantity` is not valid: {e}")))?;
        let pricing = Pricing::Mass(MassRequest::Split {
            mass,
            selection: Some(vec![SelectionEntry {
                bundle_id: bundle.bundle.id.to_string(),
                percentage: None,
            }]),
            trunc: None,
        });
        let quote = self.price(account_id, &pricing).await?;
        Ok(PayCheckout {
            account_id,
            account: profile,
            bundle,
            quote,
            request: PayRequest {
                quantity: raw.to_owned(),
                bundle_id: request.bundle_id.trim().to_owned(),
                redirect_url: request.redirect_url.trim().to_owned(),
                redirect_label,
                external_id,
            },
        })
    }
}
