//! A shipping estimate's legs in the typed format: distance, mass and
//! methodology, and the 2024 facts (distance method, ends, payload,
//! intensities, data quality, the road load model) where Tonne kept them.

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use tonne_estimation::Distance;
use tonne_estimation::estimate::{LegFacts, RoadFacts, RouteEnd, ShippingLeg};
use tonne_estimation::explain::Wtw;
use tonne_estimation::shipping::{DataQuality, DistanceMethod, Grade};
use tonne_kernel::Mass;

use super::values::methodology;

#[derive(Debug, Serialize, Deserialize)]
pub(super) struct LegV2 {
    mass_g: i64,
    distance_km: Decimal,
    methodology: Vec<String>,
    /// Absent from rows written before Tonne kept the 2024 facts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    facts: Option<FactsV2>,
}

#[derive(Debug, Serialize, Deserialize)]
struct FactsV2 {
    /// `null` for a logistics site (no distance; intensities per tonne).
    distance_method: Option<String>,
    raw_km: Decimal,
    ends: Option<[EndV2; 2]>,
    payload_t: Decimal,
    ttw_kg_per_tkm: Decimal,
    wtt_kg_per_tkm: Option<Decimal>,
    /// Well-to-tank, tank-to-wheel, unknown.
    wtw_g: [i64; 3],
    /// Score, emission factor, route (or null), shipment grades; absent from
    /// rows written before Tonne graded legs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    quality: Option<(String, String, Option<String>, String)>,
    /// The road method's load model; absent for other methods.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    road: Option<RoadV2>,
}

#[derive(Debug, Serialize, Deserialize)]
struct RoadV2 {
    energy_mj_per_tkm: Decimal,
    capacity_t: Decimal,
    load_factor: Decimal,
    empty_runs_factor: Decimal,
    capacity_utilisation: Decimal,
    gradient: Option<String>,
    situation: Option<String>,
    emission_standard: Option<String>,
}

#[derive(Debug, Serialize, Deserialize)]
struct EndV2 {
    label: String,
    lat: Decimal,
    lon: Decimal,
}

pub(super) fn leg_v2(l: &ShippingLeg) -> LegV2 {
    LegV2 {
        mass_g: l.mass.grams(),
        distance_km: l.distance.km(),
        methodology: l
            .methodology
            .iter()
            .map(|m| m.as_str().to_owned())
            .collect(),
        facts: l.facts.as_ref().map(|f| FactsV2 {
            distance_method: f.distance_method.map(|m| m.as_str().to_owned()),
            raw_km: f.raw_distance.km(),
            ends: f.ends.as_ref().map(|ends| {
                ends.clone().map(|e| EndV2 {
                    label: e.label,
                    lat: e.lat,
                    lon: e.lon,
                })
            }),
            payload_t: f.payload_tonnes,
            ttw_kg_per_tkm: f.ttw_kg_per_tkm,
            wtt_kg_per_tkm: f.wtt_kg_per_tkm,
            wtw_g: [f.wtw.wtt, f.wtw.ttw, f.wtw.unknown].map(|m| m.grams()),
            quality: f.quality.map(|q| {
                (
                    q.score.as_str().to_owned(),
                    q.emission_factor.as_str().to_owned(),
                    q.route.map(|r| r.as_str().to_owned()),
                    q.shipment.as_str().to_owned(),
                )
            }),
            road: f.road.as_ref().map(|r| RoadV2 {
                energy_mj_per_tkm: r.energy_mj_per_tkm,
                capacity_t: r.capacity_t,
                load_factor: r.load_factor,
                empty_runs_factor: r.empty_runs_factor,
                capacity_utilisation: r.capacity_utilisation,
                gradient: r.gradient.clone(),
                situation: r.situation.clone(),
                emission_standard: r.emission_standard.clone(),
            }),
        }),
    }
}

fn facts(f: FactsV2) -> Option<LegFacts> {
    let [wtt, ttw, unknown] = f.wtw_g.map(Mass::from_grams);
    Some(LegFacts {
        distance_method: match f.distance_method {
            Some(m) => Some(DistanceMethod::parse(&m)?),
            None => None,
        },
        raw_distance: Distance::from_km(f.raw_km),
        ends: f.ends.map(|ends| {
            ends.map(|e| RouteEnd {
                label: e.label,
                lat: e.lat,
                lon: e.lon,
            })
        }),
        payload_tonnes: f.payload_t,
        ttw_kg_per_tkm: f.ttw_kg_per_tkm,
        wtt_kg_per_tkm: f.wtt_kg_per_tkm,
        wtw: Wtw { wtt, ttw, unknown },
        quality: f.quality.and_then(|(score, factor, route, shipment)| {
            Some(DataQuality {
                score: Grade::parse(&score)?,
                emission_factor: Grade::parse(&factor)?,
                route: match route {
                    Some(r) => Some(Grade::parse(&r)?),
                    None => None,
                },
                shipment: Grade::parse(&shipment)?,
            })
        }),
        road: f.road.map(|r| {
            Box::new(RoadFacts {
                energy_mj_per_tkm: r.energy_mj_per_tkm,
                capacity_t: r.capacity_t,
                load_factor: r.load_factor,
                empty_runs_factor: r.empty_runs_factor,
                capacity_utilisation: r.capacity_utilisation,
                gradient: r.gradient,
                situation: r.situation,
                emission_standard: r.emission_standard,
            })
        }),
    })
}

pub(super) fn leg(l: LegV2) -> ShippingLeg {
    ShippingLeg {
        mass: Mass::from_grams(l.mass_g),
        distance: Distance::from_km(l.distance_km),
        methodology: methodology(l.methodology.iter().map(String::as_str)),
        facts: l.facts.and_then(facts),
    }
}
