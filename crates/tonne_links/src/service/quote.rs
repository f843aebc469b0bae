//! Use case: the hosted page prices a visitor's choice within the link's limits.

use crate::checkout::{Checkout, Choice};
use crate::errors::CheckoutError;

use super::OffsetLinks;

impl OffsetLinks {
    pub(super) async fn quote(&self, id: &str, choice: Choice) -> Result<Checkout, CheckoutError> {
        let link = self.public(id).await?;
        let (bundle, email, pricing) = self.pricing(&link, &choice)?;
        let quote = self.price(link.details.link.account_id, &pricing).await?;
        link.details
            .link
            .limits
            .check_order(quote.quantity, quote.total_cost)?;
        Ok(Checkout {
            link,
            bundle,
            email,
            quote,
        })
    }
}
