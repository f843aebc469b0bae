//! Set-up the crate's tests share.

use rust_decimal::Decimal;

use crate::model::{LegDraft, LegMethod, Load};
use crate::vocabulary::Carriage;

/// A leg of `km` kilometres carrying `tonnes` (or what the leg before carries).
pub(crate) fn leg(carriage: Carriage, method: LegMethod, km: i64, tonnes: Option<i64>) -> LegDraft {
    LegDraft {
        order: None,
        carriage,
        method,
        origin: None,
        destination: None,
        distance_km: Some(Decimal::from(km)),
        load: Load {
            tonnes: tonnes.map(Decimal::from),
            teu: None,
        },
        load_factor: None,
        empty_run_factor: None,
        date: None,
        client_emissions: None,
    }
}
