//! Freight: a shipping leg's part and its 2024 facts (distance method, ends,
//! payload, intensity, stages).

use rust_decimal::Decimal;

use crate::LatLon;
use crate::estimate::{LegFacts, Methodology, RoadFacts, RouteEnd, ShippingLeg};
use crate::explain::{FactorUse, Part, Quantity};
use crate::factors::GasSplit;
use crate::route::{Place, Route};
use crate::shipping::{self, Mode, Shipment};

use super::parts::*;
use super::travel::*;

/// A leg of either kind: a transport leg's or a logistics site's.
pub(super) fn any_shipping_leg(
    e: &shipping::LegEstimate,
    leg: &shipping::Leg,
    trace: &shipping::Traced,
    part: &Part,
) -> ShippingLeg {
    match trace {
        shipping::Traced::Transport(t) => shipping_leg(e, leg, t, part),
        shipping::Traced::Site(h) => ShippingLeg {
            mass: e.mass,
            distance: e.distance,
            methodology: Vec::new(),
            facts: Some(LegFacts {
                distance_method: None,
                raw_distance: e.distance,
                ends: None,
                payload_tonnes: h.tonnes.normalize(),
                // per tonne handled: all well-to-tank [A]
                ttw_kg_per_tkm: Decimal::ZERO,
                wtt_kg_per_tkm: Some(h.site.factor.value().normalize()),
                wtw: part.wtw(),
                quality: Some(h.quality),
                road: None,
            }),
        },
    }
}

/// The part of a leg of either kind.
pub(super) fn any_shipping_part(
    name: &str,
    shipment: &Shipment,
    leg: &shipping::Leg,
    e: &shipping::LegEstimate,
    trace: &shipping::Traced,
    notes: &mut Vec<String>,
) -> Part {
    match trace {
        shipping::Traced::Transport(t) => shipping_part(name, shipment, leg, e, t, notes),
        shipping::Traced::Site(h) => site_part(name, shipment, h, notes),
    }
}

/// A logistics site's part: tonnes handled × the site type's figure, all
/// well-to-tank `[A]`.
fn site_part(
    name: &str,
    shipment: &Shipment,
    h: &shipping::hubs::HubEstimate,
    notes: &mut Vec<String>,
) -> Part {
    let (load, per_teu) = payload(shipment);
    let mut factors = vec![FactorUse::of(&h.site.factor)];
    factors.extend(per_teu);
    if let Some(why) = h.site.stand_in {
        notes.push(format!("{name}: {why}"));
    }
    notes.push(format!(
        "{name}: logistics site {}: {} t × {} kg CO2e/t = {} kg, all well-to-tank (the figure is not split by stage)",
        h.site.name,
        h.tonnes.normalize(),
        h.site.factor.value().normalize(),
        kg(h.mass),
    ));
    let mut p = part(name, h.mass, factors, vec![load]);
    p.wtt = Some(h.wtt);
    p
}

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
        facts: Some(leg_facts(e, leg, trace, part)),
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

pub(super) fn leg_facts(
    e: &shipping::LegEstimate,
    leg: &shipping::Leg,
    trace: &shipping::LegTrace,
    part: &Part,
) -> LegFacts {
    let m = &trace.measured;
    // per tonne·km: the leg's own kg per tonne over its distance; at zero km,
    // the product of its factors (air: the band's factor)
    let ttw = e.intensity.ttw;
    let wtt = e.intensity.wtt.map(|w| w.round_dp(8));
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
        distance_method: Some(m.method),
        raw_distance: m.raw,
        ends,
        payload_tonnes: trace.tonnes.normalize(),
        ttw_kg_per_tkm: ttw.round_dp(8).normalize(),
        wtt_kg_per_tkm: wtt.map(|w| w.normalize()),
        wtw: part.wtw(),
        quality: Some(trace.quality),
        road: match (&leg.method, trace.road.as_ref().and_then(|r| r.load)) {
            (shipping::Method::Road(m), Some(load)) => Some(Box::new(RoadFacts {
                energy_mj_per_tkm: load.energy_mj_per_tkm.round_dp(6).normalize(),
                capacity_t: load.capacity_t.round_dp(3).normalize(),
                load_factor: load.load_factor.round_dp(4).normalize(),
                empty_runs_factor: load.empty_runs_factor.round_dp(4).normalize(),
                capacity_utilisation: load.capacity_utilisation.round_dp(4).normalize(),
                gradient: m.gradient.clone(),
                situation: m.situation.clone(),
                emission_standard: m.emission_standard.clone(),
            })),
            _ => None,
        },
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
    let mut p = match &trace.aircraft {
        Some(used) => aircraft_part(name, e.mass, used, &how, load),
        None => part(
            name,
            e.mass,
            factors,
            vec![quantity("distance", e.distance.km(), "km", how), load],
        ),
    };
    // well-to-wheel: the factors' product is tank-to-wheel, the well-to-tank
    // row of the leg's factor comes on top and is part of the mass
    if let Some(row) = e.intensity.wtt.and_then(|_| GasSplit::of(e.factor.id)) {
        p.wtt = Some(e.wtt);
        notes.push(format!(
            "{name}: well-to-wheel: {} kg tank-to-wheel + {} kg well-to-tank ({} × {} ÷ {}, DESNZ {})",
            kg(e.ttw),
            kg(e.wtt),
            kg(e.ttw),
            row.wtt.normalize(),
            e.factor.value().normalize(),
            row.wtt_row
        ));
    }
    p
}

fn kg(m: tonne_kernel::Mass) -> Decimal {
    (Decimal::from(m.grams()) / Decimal::from(1000)).normalize()
}

/// A by-fuel leg's part: its fuel's factor per litre first (a blend's is
/// the volume-weighted mix, cited by both rows), each DESNZ row mixed, the
/// litres and the energy density; its well-to-tank mass is part of it.
pub(super) fn fuel_part(
    name: &str,
    leg: &shipping::fuel::FuelLeg,
    e: &shipping::fuel::FuelLegEstimate,
    notes: &mut Vec<String>,
) -> Part {
    use shipping::fuel::LegFuel;
    let components = leg.fuel.components();
    let first = components.first().map(|(r, _)| r.litre);
    let mut factors = Vec::new();
    if components.len() > 1 {
        let rows: Vec<String> = components
            .iter()
            .map(|(r, share)| {
                format!(
                    "{} % {}",
                    (*share * Decimal::from(100)).normalize(),
                    r.litre.row().unwrap_or(r.litre.source)
                )
            })
            .collect();
        factors.push(FactorUse {
            id: format!("FUEL_BLEND:{}", leg.fuel.name()),
            value: e.ttw_per_litre.normalize(),
            unit: "kg CO2e/litres".into(),
            source: first.map_or("", |f| f.publication()).to_owned(),
            row: Some(format!("{} (by volume)", rows.join(" + "))),
            year: Some(2025),
            gases: None,
            catalogue_id: None,
        });
    }
    for (rows, _) in &components {
        factors.push(FactorUse::of(&rows.litre));
        factors.extend(rows.wtt_litre.as_ref().map(FactorUse::of));
    }
    for (rows, _) in &components {
        factors.push(FactorUse::of(&rows.energy));
    }
    match leg.fuel {
        LegFuel::EthanolFromCorn | LegFuel::HvoFromTallow => notes.push(format!(
            "{name}: DESNZ does not split {} by feedstock: {} is used",
            leg.fuel.name(),
            first.map_or("", |f| f.id)
        )),
        _ => {}
    }
    notes.push(format!(
        "{name}: well-to-wheel: {} l × {} kg/l = {} kg tank-to-wheel + {} l × {} kg/l = {} kg well-to-tank",
        leg.litres.normalize(),
        e.ttw_per_litre.normalize(),
        kg(e.ttw),
        leg.litres.normalize(),
        e.wtt_per_litre.normalize(),
        kg(e.wtt),
    ));
    let mut p = part(
        name,
        e.mass,
        factors,
        vec![
            quantity("fuel", leg.litres, "l", "as given"),
            quantity(
                "energy_density",
                e.energy_density,
                "MJ/l",
                "per-litre row ÷ per-energy row of the same fuel (kWh (Net CV) × 3.6 MJ/kWh, GJ × 1,000 MJ/GJ), by volume",
            ),
        ],
    );
    p.wtt = Some(e.wtt);
    p
}
