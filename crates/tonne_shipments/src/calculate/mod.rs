//! A checked row's emissions: each leg through Tonne's freight engine
//! (`tonne_estimation::shipping`), well-to-wheel, summed by carriage phase.
//! Client-provided figures are taken as sent.

use rust_decimal::Decimal;
use tonne_estimation::EstimateError;
use tonne_estimation::shipping::{self, Leg, hubs};

use crate::emissions::{FactorInfo, LegEmissions, ShipmentEmissions};
use crate::errors::RowError;
use crate::model::{LegDraft, LegMethod, Load, ShipmentDraft};
use crate::vocabulary::EmissionsSource;

mod engine_leg;
mod manual;

use engine_leg::{method, payload, route};
use manual::{manual_leg, manual_total};

pub use engine_leg::{ROAD_FUEL_FALLBACK, VESSEL_INFERENCE_FALLBACK};

/// The emissions of a checked row ([`ShipmentDraft::check`]).
///
/// Shipment-level client figures win (source `manual`); otherwise every leg
/// is calculated unless the client sent its figures. A leg without a load
/// carries the previous leg's (the goods do not change on the way).
pub fn emissions(draft: &ShipmentDraft) -> Result<ShipmentEmissions, RowError> {
    if let Some(e) = &draft.client_emissions {
        return Ok(manual_total(draft.legs.len(), e));
    }
    let mut load: Option<Load> = None;
    let mut legs = Vec::with_capacity(draft.legs.len());
    let mut all_manual = true;
    for (i, leg) in draft.legs.iter().enumerate() {
        if leg.load.is_known() {
            load = Some(leg.load);
        }
        let emissions = match &leg.client_emissions {
            Some(e) => Some(manual_leg(e)),
            None => {
                all_manual = false;
                calculate_leg(i, leg, load)?
            }
        };
        legs.push((leg.carriage, emissions));
    }
    let source = if all_manual {
        EmissionsSource::Manual
    } else {
        EmissionsSource::Calculated
    };
    Ok(ShipmentEmissions::of_legs(source, legs))
}

fn estimate_error(i: usize, e: EstimateError) -> RowError {
    let text = e.to_string();
    match text.split_once(": ") {
        Some((field, message)) if field.starts_with("legs[") => RowError::new(field, message),
        _ => RowError::new(format!("legs[{i}]"), text),
    }
}

/// A logistics site (hub): the tonnes handled × the site type's GLEC v3
/// default intensity, all well-to-tank `[A]`; no distance and no transport
/// activity (a hub moves the goods nowhere), the factor per tonne.
fn site_leg(i: usize, name: &str, load: Option<Load>) -> Result<LegEmissions, RowError> {
    let shipment = payload(i, load)?;
    let h = hubs::hub(&format!("legs[{i}].method"), &shipment, name)
        .map_err(|e| estimate_error(i, e))?;
    let notes: Vec<String> = h.site.stand_in.iter().map(|s| (*s).to_owned()).collect();
    Ok(LegEmissions {
        wtt: h.wtt,
        ttw: h.ttw,
        distance_km: Decimal::ZERO,
        activity: Decimal::ZERO,
        factor: Some(FactorInfo {
            id: h.site.factor.id.to_owned(),
            description: format!("logistics site: {}", h.site.name),
            source: h.site.factor.source.to_owned(),
            region: "GLO".to_owned(),
            year: h.site.factor.year(),
            intensity: h.site.factor.value().normalize(),
            numerator: "kg CO2e".to_owned(),
            denominator: "t".to_owned(),
        }),
        grade: Some(h.quality.score.as_str().to_owned()),
        flagged: !notes.is_empty(),
        notes,
    })
}

fn calculate_leg(
    i: usize,
    leg: &LegDraft,
    load: Option<Load>,
) -> Result<Option<LegEmissions>, RowError> {
    if let LegMethod::LogisticsSite(name) = &leg.method {
        return site_leg(i, name, load).map(Some);
    }
    let (method, mut notes) = method(leg);
    let shipment = payload(i, load)?;
    let route = route(i, leg)?;
    let f = shipping::freight_leg(&format!("legs[{i}]"), &shipment, &Leg { route, method })
        .map_err(|e| estimate_error(i, e))?;
    notes.extend(f.notes.iter().copied());
    let mut notes: Vec<String> = notes.into_iter().map(str::to_owned).collect();
    if let Some(s) = &f.stand_in {
        notes.push(s.clone());
    }
    let activity = f.tonnes * f.distance.km();
    let total = f.total();
    let factor = f.factor.map(|factor| FactorInfo {
        id: factor.id.to_owned(),
        description: factor
            .row()
            .map(str::to_owned)
            .unwrap_or_else(|| factor.source.to_owned()),
        source: factor.publication().to_owned(),
        region: if factor.row().is_some() { "GBR" } else { "GLO" }.to_owned(),
        year: factor.year(),
        intensity: if activity.is_zero() {
            Decimal::ZERO
        } else {
            (Decimal::from(total.grams()) / Decimal::from(1000) / activity)
                .round_dp(8)
                .normalize()
        },
        numerator: "kg CO2e".to_owned(),
        denominator: "t*km".to_owned(),
    });
    Ok(Some(LegEmissions {
        wtt: f.wtt,
        ttw: f.ttw,
        distance_km: f.distance.km().round_dp(3).normalize(),
        activity: activity.round_dp(6).normalize(),
        factor,
        grade: Some(f.grade.to_owned()),
        flagged: !notes.is_empty(),
        notes,
    }))
}

#[cfg(test)]
mod tests;
