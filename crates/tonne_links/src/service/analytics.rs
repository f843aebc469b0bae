//! Use case: a link's analytics (visitors, orders, daily figures).

use tonne_kernel::AccountId;

use crate::errors::LinkError;
use crate::models::{Analytics, OffsetLinkId};
use crate::ports::StoreError;

use super::OffsetLinks;

/// Most orders an analytics answer lists (the most recent; `placed_orders` counts all).
pub const MAX_ANALYTICS_ORDERS: u32 = 1_000;

impl OffsetLinks {
    pub(super) async fn analytics(
        &self,
        account: AccountId,
        id: &str,
    ) -> Result<Analytics, LinkError> {
        let link = self.owned(account, id).await?;
        self.analytics_of(link.id).await
    }

    pub(super) async fn analytics_of(&self, id: OffsetLinkId) -> Result<Analytics, LinkError> {
        if self
            .links
            .get(id)
            .await
            .map_err(StoreError::unexpected)?
            .is_none()
        {
            return Err(LinkError::NotFound);
        }
        let (unique_visitors, placed_orders) = self
            .links
            .totals(id)
            .await
            .map_err(StoreError::unexpected)?;
        let orders = self
            .links
            .orders(id, MAX_ANALYTICS_ORDERS)
            .await
            .map_err(StoreError::unexpected)?;
        let daily = self.links.daily(id).await.map_err(StoreError::unexpected)?;
        Ok(Analytics {
            link_id: id,
            unique_visitors,
            placed_orders,
            orders,
            daily,
        })
    }
}
