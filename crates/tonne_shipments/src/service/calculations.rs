//! Calculations queued for the shipments a filter selects (at most
//! [`MAX_CALCULATION`]), stored with their job; `calculating` walks them.

use tonne_kernel::{AccountId, BoundedWriteError};

use super::Shipments;
use crate::batch::{MAX_CALCULATION, NewCalculation, ShipmentFilter};
use crate::errors::CalculateError;
use crate::ids::CalculationId;

pub(super) async fn queue(
    s: &Shipments,
    account: AccountId,
    filter: ShipmentFilter,
) -> Result<Vec<CalculationId>, CalculateError> {
    let n = s.repo.count(account, &filter, MAX_CALCULATION).await?;
    if n > MAX_CALCULATION {
        return Err(CalculateError::TooMany {
            max: MAX_CALCULATION,
        });
    }
    let id = CalculationId::generate(s.ids.as_ref());
    let calculation = NewCalculation {
        id,
        account_id: account,
        filter,
        created_at: s.clock.now(),
    };
    match super::quotas::insert_calculation(s, &calculation).await {
        Ok(()) => {}
        Err(BoundedWriteError::Exceeded(e)) => return Err(CalculateError::Quota(e)),
        Err(BoundedWriteError::Store(e)) => return Err(CalculateError::Store(e)),
    }
    Ok(vec![id])
}
