//! Freight: a shipping leg's part and its 2024 facts (distance method, ends,
//! payload, intensity, stages).

use rust_decimal::Decimal;

use crate::LatLon;
use crate::estimate::{LegFacts, Methodology, RouteEnd, ShippingLeg};
use crate::explanation::{FactorUse, Part, Quantity};
use crate::factors::Factor;
use crate::route::{Place, Route};
use crate::shipping::{self, Mode, Shipment};

use super::parts::*;
use super::travel::*;

pub(super) fn shipping_leg(
    e: &shipping::LegEstimate,
    leg: &shipping::Leg,
    trace: &shipping::LegTrace,
    part: &Part,
) -> ShippingLeg {
    ShippingLeg {
        mass: e.mass,
        distance: e.distance,
        methodology: e
            .methodology
            .iter()
            .filter_map(|m| Methodology::parse(m))
            .collect(),
        facts: Some(leg_facts(leg, trace, part)),
    }
}

/// A place as the route shows it: what was sent, and where it was located.
pub(super) fn route_end(p: &Place, at: LatLon) -> RouteEnd {
    let degrees = |v: f64| Decimal::from_f64_retain(v).unwrap_or_default().round_dp(6);
    RouteEnd {
        label: match p {
            Place::Coordinates(_) => format!("{}, {}", degrees(at.lat()), degrees(at.lon())),
            Place::Airport(code) => format!("airport {code}"),
            Place::Seaport(code) => format!("seaport {code}"),
            Place::Address { city, country_code } => format!("{city}, {country_code}"),
        },
        lat: degrees(at.lat()),
        lon: degrees(at.lon()),
    }
}

pub(super) fn leg_facts(leg: &shipping::Leg, trace: &shipping::LegTrace, part: &Part) -> LegFacts {
    let m = &trace.measured;
    let km = m.distance.km();
    // per tonne·km: the leg's own kg per tonne over its distance; at zero km,
    // the product of its factors (air: the band's factor)
    let ttw = if km.is_zero() {
        trace.factors.iter().map(Factor::value).product::<Decimal>()
    } else {
        trace.kg_per_tonne / km
    };
    let primary = trace.factors.first();
    let wtt = primary
        .and_then(|f| Some((f.value(), crate::factors::GasSplit::of(f.id)?)))
        .filter(|(v, _)| !v.is_zero())
        .map(|(v, g)| (ttw * g.wtt / v).round_dp(8));
    let ends = match (&leg.route, m.ends) {
        (
            Route::Between {
                source,
                destination,
            },
            Some((a, b)),
        ) => Some([route_end(source, a), route_end(destination, b)]),
        _ => None,
    };
    LegFacts {
        distance_method: m.method,
        raw_distance: m.raw,
        ends,
        payload_tonnes: trace.tonnes.normalize(),
        ttw_kg_per_tkm: ttw.round_dp(8).normalize(),
        wtt_kg_per_tkm: wtt.map(|w| w.normalize()),
        wtw: part.wtw(),
        quality: Some(trace.quality),
    }
}

pub(super) fn payload(shipment: &Shipment) -> (Quantity, Option<FactorUse>) {
    let tonnes = shipment.tonnes();
    match shipment {
        Shipment::Mass(_) => (quantity("payload", tonnes, "t", "as given"), None),
        Shipment::Containers { mass: Some(_), .. } => (
            quantity("payload", tonnes, "t", "the containers' mass as given"),
            None,
        ),
        Shipment::Containers { teu, cargo, .. } => (
            quantity(
                "payload",
                tonnes,
                "t",
                format!("{} TEU × tonnes per TEU of the cargo type", teu.normalize()),
            ),
            Some(FactorUse::of(&cargo.tonnes_per_teu())),
        ),
    }
}

pub(super) fn shipping_part(
    name: &str,
    shipment: &Shipment,
    leg: &shipping::Leg,
    e: &shipping::LegEstimate,
    trace: &shipping::LegTrace,
    notes: &mut Vec<String>,
) -> Part {
    let mut factors: Vec<FactorUse> = trace.factors.iter().map(FactorUse::of).collect();
    let (load, per_teu) = payload(shipment);
    factors.extend(per_teu);
    let how = match (&leg.route, trace.mode) {
        (Route::Distance(_), _) => "as given".to_owned(),
        (Route::Between { .. }, Mode::Road | Mode::Rail | Mode::InlandWaterway) => {
            let (how, detour) = surface_how(&leg.route);
            factors.extend(detour);
            how
        }
        (
            Route::Between {
                source,
                destination,
            },
            Mode::Air,
        ) => format!(
            "great-circle between {} and {}",
            place_name(source),
            place_name(destination)
        ),
        (
            Route::Between {
                source,
                destination,
            },
            Mode::Sea,
        ) => format!(
            "over the maritime network between {} and {} (each snapped to its nearest seaport)",
            place_name(source),
            place_name(destination)
        ),
    };
    for m in &e.methodology {
        notes.push(format!("{name}: {m}"));
    }
    if let Some(why) = &trace.stand_in {
        notes.push(format!("{name}: {why}"));
    }
    match &trace.aircraft {
        Some(used) => aircraft_part(name, e.mass, used, &how, load),
        None => part(
            name,
            e.mass,
            factors,
            vec![quantity("distance", e.distance.km(), "km", how), load],
        ),
    }
}
