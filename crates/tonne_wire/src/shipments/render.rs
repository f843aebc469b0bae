//! A stored shipment as the client 3.9.2 `Shipment`: every client field
//! from the row as sent (references, parties, freight cost, metadata, legs
//! with their method, places, load and dates), Tonne's figures from the
//! domain's `ShipmentEmissions`.
//!
//! Units: every emission is kg CO2e as a decimal string (well-to-wheel:
//! `total = wtt + ttw`, per leg, per carriage phase and in total); every
//! `intensity*` field is **grams CO2e per tonne-kilometre** (null when no
//! activity was moved, e.g. client-provided totals); a leg's
//! `emission_factor_intensity` is in the factor's own units
//! (`emission_factor_numerator` per `emission_factor_denominator`, kg CO2e
//! per t*km). Pollutant fields (particles, CO2 alone, NOx, SO2, NMHC) are
//! always null: no openly licensed pollutant factor is wired. `origin_*`
//! come from the first leg's origin, `destination_*` from the last leg's
//! destination, as sent.

mod figures;
mod responses;
mod sent;

use serde_json::{Map, Value};
use time::format_description::well_known::Rfc3339;
use tonne_shipments::{EmissionsSource, LegEmissions, Shipment};

pub use responses::{
    LegEmissionsResponse, ShipmentEmissionsResponse, ShipmentLegResponse, ShipmentResponse,
};
use sent::{text, value};

use super::method::ROAD;

/// The legs' indices in the shipment's order: by `order` when every leg
/// gives one (as the domain sorts them), else as sent.
fn leg_order(legs: &[Value]) -> Vec<usize> {
    let orders: Option<Vec<u64>> = legs
        .iter()
        .map(|l| l.get("order").and_then(Value::as_u64))
        .collect();
    let mut idx: Vec<usize> = (0..legs.len()).collect();
    if let Some(orders) = orders {
        idx.sort_by_key(|i| orders.get(*i).copied().unwrap_or(u64::MAX));
    }
    idx
}

/// The road method's emission standard in the answer's vocabulary
/// (`RoadEmissionStandard`: `euro1`…`euro6`): the Euro 6 steps become
/// `euro6`, the Japanese standards have no counterpart (null).
fn emission_standard(sent: Option<&str>) -> Value {
    match sent {
        Some(s @ ("euro1" | "euro2" | "euro3" | "euro4" | "euro5")) => Value::from(s),
        Some("euro6-ac" | "euro6-de") => Value::from("euro6"),
        _ => Value::Null,
    }
}

/// `ShipmentMethodResponse` from the method as sent.
fn method(sent: Option<&Value>) -> Value {
    let Some(o) = sent.and_then(Value::as_object) else {
        // a method name (simple, or a logistics site) answers as sent
        return sent.cloned().unwrap_or(Value::Null);
    };
    let v = |k: &str| o.get(k).cloned().unwrap_or(Value::Null);
    let mut out = Map::new();
    let mut put = |k: &str, val: Value| {
        out.insert(k.to_owned(), val);
    };
    if o.contains_key("vehicle_type") {
        // as sent, but the emission standard in the response's vocabulary
        for &k in ROAD.iter().filter(|k| **k != "emission_standard") {
            put(k, v(k));
        }
        put(
            "emission_standard",
            emission_standard(o.get("emission_standard").and_then(Value::as_str)),
        );
        for k in [
            "road_type",
            "gross_vehicle_mass_rating",
            "secondary_fuel_consumption",
            "biofuel_type",
            "feedstock_type",
        ] {
            put(k, Value::Null);
        }
    } else if o.contains_key("aircraft_type") {
        put("aircraft_type", v("aircraft_type"));
    } else if o.contains_key("flight_number") {
        for k in ["flight_number", "departure_on", "aircraft_configuration"] {
            put(k, v(k));
        }
    } else if o.contains_key("train_type") {
        for k in ["train_type", "fuel_consumption", "biofuel_share"] {
            put(k, v(k));
        }
        put("biofuel_type", Value::Null);
        put("feedstock_type", Value::Null);
    } else {
        for k in [
            "vessel_imo_number",
            "vessel_type",
            "refrigerated",
            "vessel_name",
            "voyage_number",
            "fuel_consumption",
            "biofuel_share",
        ] {
            put(k, v(k));
        }
        for k in [
            "secondary_fuel_consumption",
            "biofuel_type",
            "feedstock_type",
        ] {
            put(k, Value::Null);
        }
    }
    Value::Object(out)
}

/// `ShipmentLoadResponse` from the load as sent (the one container sent
/// becomes a list of one).
fn load(sent: Option<&Value>) -> Option<Value> {
    let o = sent?.as_object()?;
    let v = |k: &str| o.get(k).cloned().unwrap_or(Value::Null);
    let containers = o.get("containers").and_then(Value::as_object).map(|c| {
        let cv = |k: &str| c.get(k).cloned().unwrap_or(Value::Null);
        serde_json::json!([{
            "number": null,
            "type": cv("type"),
            "teu": cv("teu"),
            "load_type": cv("load_type"),
            "cargo_type": null,
        }])
    });
    Some(serde_json::json!({
        "mass": v("mass"),
        "volume": v("volume"),
        "piece_count": v("piece_count"),
        "chargeable_mass": v("chargeable_mass"),
        "containers": containers.unwrap_or(Value::Null),
    }))
}

/// `ShipmentLegDatesResponse` from the dates as sent.
fn dates(sent: Option<&Value>) -> Option<Value> {
    let o = sent?.as_object()?;
    let v = |k: &str| o.get(k).cloned().unwrap_or(Value::Null);
    Some(serde_json::json!({"etd": v("etd"), "eta": v("eta"), "atd": v("atd"), "ata": v("ata")}))
}

fn leg(sent: &Value, emissions: Option<&LegEmissions>) -> ShipmentLegResponse {
    let empty = Map::new();
    let o = sent.as_object().unwrap_or(&empty);
    let client = o.get("emissions").and_then(Value::as_object);
    ShipmentLegResponse {
        leg_id: text(o, "leg_id"),
        order: o.get("order").and_then(Value::as_u64),
        method: method(o.get("method")),
        carriage: text(o, "carriage"),
        origin: value(o, "origin"),
        destination: value(o, "destination"),
        distance: value(o, "distance"),
        carrier_name: text(o, "carrier_name"),
        scac_code: text(o, "scac_code"),
        master_waybill: text(o, "master_waybill"),
        transit_corridor: text(o, "transit_corridor"),
        restricted_transit_corridors: o
            .get("restricted_transit_corridors")
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(Value::as_str)
                    .map(str::to_owned)
                    .collect()
            }),
        load: load(o.get("load")),
        load_factor: text(o, "load_factor"),
        empty_run_factor: text(o, "empty_run_factor"),
        passenger_utilisation: text(o, "passenger_utilisation"),
        dates: dates(o.get("dates")),
        emissions: emissions.map(|e| {
            let mut r = LegEmissionsResponse::of(e, client);
            fuel_used(&mut r, o.get("method"));
            r
        }),
    }
}

/// A leg given by the fuel it burnt (`method.fuel_consumption`): its litres
/// as `fuel_consumption_l` (`l` as sent; `gal` as US gallons, 3.785411784 l
/// each), its energy as `primary_energy_mj` when sent in `kwh` (× 3.6); a
/// mass of fuel (`kg`) has no volume without the fuel's density: null.
/// Figures the client sent for the leg win.
fn fuel_used(r: &mut LegEmissionsResponse, method: Option<&Value>) {
    let Some(f) = method
        .and_then(|m| m.get("fuel_consumption"))
        .and_then(Value::as_object)
    else {
        return;
    };
    let Some(amount) = f
        .get("amount")
        .and_then(Value::as_str)
        .and_then(|a| a.parse::<rust_decimal::Decimal>().ok())
    else {
        return;
    };
    let text = |d: rust_decimal::Decimal| d.round_dp(6).normalize().to_string();
    match f.get("unit").and_then(Value::as_str) {
        Some("l") if r.fuel_consumption_l.is_none() => r.fuel_consumption_l = Some(text(amount)),
        Some("gal") if r.fuel_consumption_l.is_none() => {
            r.fuel_consumption_l = Some(text(amount * rust_decimal::Decimal::new(3_785_411_784, 9)))
        }
        Some("kwh") if r.primary_energy_mj.is_none() => {
            r.primary_energy_mj = Some(text(amount * rust_decimal::Decimal::new(36, 1)))
        }
        _ => {}
    }
}

/// A stored shipment as the client's `Shipment`.
pub fn render(s: &Shipment) -> ShipmentResponse {
    let row: Value = serde_json::from_str(&s.row).unwrap_or(Value::Null);
    let empty = Map::new();
    let o = row.as_object().unwrap_or(&empty);
    let sent_legs: &[Value] = o
        .get("legs")
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice);
    let ordered: Vec<&Value> = leg_order(sent_legs)
        .into_iter()
        .filter_map(|i| sent_legs.get(i))
        .collect();
    let e = s.emissions.as_ref();
    let legs = ordered
        .iter()
        .enumerate()
        .map(|(i, l)| {
            let figures = e.and_then(|e| e.legs.get(i)).and_then(Option::as_ref);
            leg(l, figures)
        })
        .collect();
    ShipmentResponse {
        emissions: ShipmentEmissionsResponse::of(
            e,
            ordered.first().copied(),
            ordered.last().copied(),
        ),
        id: s.id.to_string(),
        shipment_id: text(o, "shipment_id").unwrap_or_default(),
        supplier_id: s.supplier.id.clone(),
        supplier_name: s.supplier.name.clone(),
        shipper_id: Some(s.shipper.id.clone()),
        shipper_name: Some(s.shipper.name.clone()),
        metadata: value(o, "metadata"),
        tags: None,
        service_level: text(o, "service_level"),
        incoterm: text(o, "incoterm"),
        contract_type: text(o, "contract_type"),
        hazardous_cargo: o.get("hazardous_cargo").and_then(Value::as_bool),
        booking_reference: text(o, "booking_reference"),
        house_waybill: text(o, "house_waybill"),
        reference_id_po: text(o, "reference_id_po"),
        consignee_id: text(o, "consignee_id"),
        consignee_name: text(o, "consignee_name"),
        consignor_id: text(o, "consignor_id"),
        consignor_name: text(o, "consignor_name"),
        freight_paying_party: text(o, "freight_paying_party"),
        legal_entity: text(o, "legal_entity"),
        freight_cost: value(o, "freight_cost"),
        shipper_contract_emission_scope: text(o, "shipper_contract_emission_scope"),
        emissions_source: e.map(|e| {
            match e.source {
                EmissionsSource::Calculated => "lune",
                EmissionsSource::Manual => "manual",
            }
            .to_owned()
        }),
        legs,
        created_at: s.created_at.format(&Rfc3339).unwrap_or_default(),
    }
}

#[cfg(test)]
mod tests;
