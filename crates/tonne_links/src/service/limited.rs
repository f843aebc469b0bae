//! Use case step: an order within its link's limits — the per-order rule, then
//! the day's claim, counted by the store atomically with its check.

use tonne_ordering::Quote;

use super::OffsetLinks;
use crate::claims::{Claim, ClaimOutcome};
use crate::errors::CheckoutError;
use crate::models::{OffsetLink, VisitorHash};
use crate::ports::StoreError;

impl OffsetLinks {
    /// Checks the priced order against the link's per-order limits, then claims
    /// its share of the link's and the visitor's day. The claim is to be
    /// released when the order is not placed after all.
    pub(super) async fn claim(
        &self,
        link: &OffsetLink,
        quote: &Quote,
        visitor: VisitorHash,
    ) -> Result<Claim, CheckoutError> {
        link.limits.check_order(quote.quantity, quote.total_cost)?;
        let day = self.clock.now().date();
        let claim = link.limits.claim(link.id, day, visitor, quote.quantity);
        match self
            .links
            .claim(&claim)
            .await
            .map_err(StoreError::unexpected)?
        {
            ClaimOutcome::Granted => Ok(claim),
            ClaimOutcome::Refused(reached) => Err(reached.into()),
        }
    }
}
