//! Client-provided figures taken as sent: a leg's, or the whole shipment's,
//! split into well-to-tank and tank-to-wheel as far as the client said.

use rust_decimal::Decimal;
use tonne_kernel::Mass;

use crate::emissions::{LegEmissions, ShipmentEmissions, Totals};
use crate::model::ClientEmissions;
use crate::vocabulary::EmissionsSource;

fn grams(kg: Decimal) -> Mass {
    Mass::from_grams(
        (kg * Decimal::from(1000))
            .round()
            .try_into()
            .unwrap_or(i64::MAX),
    )
}

/// The client's split, or its total as unknown-stage tank-to-wheel.
fn split(e: &ClientEmissions) -> (Mass, Mass) {
    let total = grams(e.total_kg);
    match (e.wtt_kg.map(grams), e.ttw_kg.map(grams)) {
        (Some(wtt), _) => (wtt, Mass::from_grams(total.grams() - wtt.grams())),
        (None, Some(ttw)) => (Mass::from_grams(total.grams() - ttw.grams()), ttw),
        (None, None) => (Mass::from_grams(0), total),
    }
}

pub(super) fn manual_leg(e: &ClientEmissions) -> LegEmissions {
    let (wtt, ttw) = split(e);
    LegEmissions {
        wtt,
        ttw,
        distance_km: e.distance_km,
        activity: Decimal::ZERO,
        factor: None,
        grade: None,
        flagged: false,
        notes: vec!["client_provided".to_owned()],
    }
}

pub(super) fn manual_total(legs: usize, e: &ClientEmissions) -> ShipmentEmissions {
    let (wtt, ttw) = split(e);
    ShipmentEmissions {
        source: EmissionsSource::Manual,
        legs: vec![None; legs],
        phases: None,
        total: Totals {
            wtt,
            ttw,
            activity: Decimal::ZERO,
        },
        distance_km: e.distance_km,
        flagged: false,
    }
}
