//! A shipment's transport legs as iLEAP's TAD (transport activity data):
//! where each leg went, when, how far, carrying what, by which mode — the
//! activity behind its figures, for a receiver who calculates its own.
//!
//! A leg is TAD when both its ends can be named by a town and a country
//! (iLEAP's `Location` requires both; `super::location` says how). Hubs are not transport and have no TAD.
//! Tonne is given dates, not times: a leg departs at the start of its date
//! (else the shipment's, else the day it was uploaded) and arrives at the
//! start of the next leg's later date, else when it departs.

use rust_decimal::Decimal;
use serde::Serialize;
use time::{Date, Time};
use tonne_shipments::{LegDraft, LegMethod, ReportLine, ShipmentLines, TransportMode};

use super::footprint::reference_of;
use super::location::{Place, place};
use super::values::{Distance, distance_of, line_tonnes, text, timestamp};

/// iLEAP's TAD.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Tad {
    pub activity_id: String,
    consignment_ids: Vec<String>,
    distance: Distance,
    #[serde(skip_serializing_if = "Option::is_none")]
    mass: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    load_factor: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    empty_distance_factor: Option<String>,
    origin: Place,
    destination: Place,
    departure_at: String,
    arrival_at: String,
    pub mode: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    packaging_or_tr_eq_type: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    packaging_or_tr_eq_amount: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    temperature_control: Option<&'static str>,
}

/// iLEAP's name of a mode.
pub(crate) fn mode_name(mode: TransportMode) -> &'static str {
    match mode {
        TransportMode::Road => "Road",
        TransportMode::Sea => "Sea",
        TransportMode::Air => "Air",
        TransportMode::Rail => "Rail",
        TransportMode::InlandWaterway => "InlandWaterway",
    }
}

fn day_start(day: Date) -> String {
    timestamp(day.with_time(Time::MIDNIGHT).assume_utc())
}

/// What every TAD of one shipment shares.
struct Shipped<'a> {
    item: &'a ShipmentLines,
    /// The day a leg without a date departs: the shipment's, else its upload day.
    fallback_day: Date,
    reference: String,
    id: String,
}

/// The TADs of a shipment's transport legs, in the row's order, from the
/// leg `from` (0-based) on; each with its leg's 0-based index.
pub(crate) fn tads(item: &ShipmentLines, from: usize) -> Vec<(usize, Tad)> {
    let shipment = &item.shipment;
    let lines_match = item.lines.len() == item.legs.len();
    let shipped = Shipped {
        item,
        fallback_day: shipment
            .facets
            .shipment_date
            .unwrap_or_else(|| shipment.created_at.date()),
        reference: reference_of(item),
        id: shipment.id.as_uuid().hyphenated().to_string(),
    };
    let mut tonnes: Option<Decimal> = None;
    let mut out = Vec::new();
    for (i, leg) in item.legs.iter().enumerate() {
        if let Some(t) = leg.load.tonnes {
            tonnes = Some(t);
        }
        if i < from {
            continue;
        }
        let line = if lines_match { item.lines.get(i) } else { None };
        if let Some(tad) = tad_of(&shipped, i, leg, line, tonnes) {
            out.push((i, tad));
        }
    }
    out
}

/// A transport leg's TAD; `None` for a hub (no mode) or an end that cannot be named.
fn tad_of(
    s: &Shipped<'_>,
    i: usize,
    leg: &LegDraft,
    line: Option<&ReportLine>,
    tonnes: Option<Decimal>,
) -> Option<Tad> {
    let mode = leg.method.mode()?;
    let origin = place(leg.origin.as_ref()?)?;
    let destination = place(leg.destination.as_ref()?)?;
    let distance = match (line, leg.distance_km) {
        (Some(line), _) if line.distance_km > Decimal::ZERO => distance_of(line),
        (_, Some(km)) => Distance::Actual(text(km)),
        _ => return None,
    };
    let departs = leg.date.unwrap_or(s.fallback_day);
    let arrives = s
        .item
        .legs
        .iter()
        .skip(i + 1)
        .find_map(|l| l.date)
        .filter(|d| *d > departs)
        .unwrap_or(departs);
    let mass = line
        .and_then(line_tonnes)
        .or(tonnes)
        .filter(|t| *t > Decimal::ZERO)
        .map(|t| text(t * Decimal::ONE_THOUSAND));
    let containers = leg
        .load
        .teu
        .filter(|t| t.fract().is_zero() && *t > Decimal::ZERO)
        .and_then(|t| u64::try_from(t).ok());
    let position = leg.order.or_else(|| u32::try_from(i + 1).ok()).unwrap_or(0);
    Some(Tad {
        activity_id: format!("{}-{position}", s.id),
        consignment_ids: vec![s.reference.clone()],
        distance,
        mass,
        load_factor: leg.load_factor.map(text),
        empty_distance_factor: leg.empty_run_factor.map(text),
        origin,
        destination,
        departure_at: day_start(departs),
        arrival_at: day_start(arrives),
        mode: mode_name(mode),
        packaging_or_tr_eq_type: containers.map(|_| "Container-TEU"),
        packaging_or_tr_eq_amount: containers,
        temperature_control: matches!(
            leg.method,
            LegMethod::Road {
                refrigerated: true,
                ..
            }
        )
        .then_some("refrigerated"),
    })
}
