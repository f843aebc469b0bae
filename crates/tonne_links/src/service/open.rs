//! Use case: a visitor opens a link's hosted page (the visit counted by its
//! keyed hash).

use crate::checkout::PublicLink;
use crate::errors::CheckoutError;
use crate::models::VisitorHash;
use crate::ports::StoreError;

use super::OffsetLinks;

impl OffsetLinks {
    pub(super) async fn open(
        &self,
        id: &str,
        visitor: Option<VisitorHash>,
    ) -> Result<PublicLink, CheckoutError> {
        let link = self.public(id).await?;
        if let Some(visitor) = visitor {
            let today = self.clock.now().date();
            self.links
                .record_visit(link.details.link.id, today, &visitor)
                .await
                .map_err(StoreError::unexpected)?;
        }
        Ok(link)
    }
}
