//! Use cases: read one link of its owner, and list them.

use tonne_kernel::{AccountId, Cursor, Page, PageRequest};

use crate::errors::LinkError;
use crate::models::LinkDetails;
use crate::ports::StoreError;

use super::OffsetLinks;
use super::support::invalid;

impl OffsetLinks {
    pub(super) async fn get(&self, account: AccountId, id: &str) -> Result<LinkDetails, LinkError> {
        let link = self.owned(account, id).await?;
        Ok(self.details(link).await?)
    }

    pub(super) async fn list(
        &self,
        account: AccountId,
        page: PageRequest<Cursor>,
    ) -> Result<Page<LinkDetails>, LinkError> {
        let links = match self.links.list(account, &page).await {
            Ok(p) => p,
            Err(StoreError::NotFound) => {
                return Err(invalid("after", "names no offset link of this account"));
            }
            Err(e) => return Err(e.unexpected().into()),
        };
        let mut items = Vec::with_capacity(links.items.len());
        for link in links.items {
            items.push(self.details(link).await?);
        }
        Ok(Page {
            items,
            has_more: links.has_more,
        })
    }
}
