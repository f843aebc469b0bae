//! Use cases: an account's allowed Lune Pay return origins, and a payment
//! read back by its temporary id within 15 minutes.

use tonne_kernel::AccountId;
use tonne_ordering::{Order, ReadOrderError};

use crate::errors::{CheckoutError, LinkError};
use crate::pay::{MAX_PAY_ORIGINS, TEMPORARY_ID_VALIDITY, parse_origin};
use crate::ports::StoreError;

use super::OffsetLinks;
use super::support::invalid;

impl OffsetLinks {
    pub(super) async fn pay_origins(&self, account: AccountId) -> Result<Vec<String>, LinkError> {
        Ok(self
            .links
            .pay_origins(account)
            .await
            .map_err(StoreError::unexpected)?)
    }

    pub(super) async fn set_pay_origins(
        &self,
        account: AccountId,
        origins: Vec<String>,
    ) -> Result<Vec<String>, LinkError> {
        if origins.len() > MAX_PAY_ORIGINS {
            return Err(invalid(
                "origins",
                format!("at most {MAX_PAY_ORIGINS} origins"),
            ));
        }
        let mut checked = Vec::with_capacity(origins.len());
        for raw in &origins {
            let origin = parse_origin(raw).map_err(|why| invalid("origins", why))?;
            if !checked.contains(&origin) {
                checked.push(origin);
            }
        }
        checked.sort();
        self.links
            .set_pay_origins(account, &checked)
            .await
            .map_err(StoreError::unexpected)?;
        Ok(checked)
    }

    pub(super) async fn payment(
        &self,
        temporary_id: uuid::Uuid,
    ) -> Result<Option<Order>, CheckoutError> {
        let since = self.clock.now() - TEMPORARY_ID_VALIDITY;
        let Some(order) = self
            .links
            .order_by_temporary_id(temporary_id, since)
            .await
            .map_err(StoreError::unexpected)?
        else {
            return Ok(None);
        };
        match self.ordering.order(&order.to_string()).await {
            Ok(order) => Ok(Some(order)),
            Err(ReadOrderError::NotFound | ReadOrderError::Invalid { .. }) => Ok(None),
            Err(ReadOrderError::Unexpected(e)) => Err(e.into()),
        }
    }
}
