//! A leg's `method`: the client's `CreateShipmentMethod` union — a
//! `SimpleShipmentMethod` or `LogisticsSiteMethod` name, or an object told
//! apart by its fields: `vehicle_type` (road), `aircraft_type` or
//! `flight_number` (air), `train_type` (rail), and any of
//! `vessel_imo_number` / `vessel_type` / `vessel_tracking` /
//! `vessel_inference` (sea). Every field of the chosen model is checked;
//! unknown ones are refused.

use serde_json::Value;
use tonne_shipments::{LegMethod, RowError, SeaVessel};

use super::fields::Obj;
use super::vocab;

/// The fields of a road method (`CreateShipmentRoadMethod`).
pub(super) const ROAD: &[&str] = &[
    "vehicle_type",
    "fuel",
    "gradient",
    "situation",
    "emission_standard",
    "refrigerated",
    "truck_license_plate",
    "trailer_license_plate",
    "vin",
    "fuel_consumption",
    "biofuel_share",
];
const SEA: &[&str] = &[
    "vessel_imo_number",
    "vessel_type",
    "vessel_name",
    "voyage_number",
    "refrigerated",
    "trade_lane",
    "vessel_tracking",
    "vessel_inference",
    "fuel_consumption",
    "biofuel_share",
];
const RAIL: &[&str] = &["train_type", "fuel_consumption", "biofuel_share"];
const SEA_KEYS: [&str; 4] = [
    "vessel_imo_number",
    "vessel_type",
    "vessel_tracking",
    "vessel_inference",
];

/// The method at `path`.
pub fn method(path: &str, value: &Value) -> Result<LegMethod, RowError> {
    if let Some(name) = value.as_str() {
        return simple(path, name);
    }
    let Some(map) = value.as_object() else {
        return Err(RowError::new(
            path,
            "must be a method name or a road, air, sea or rail method object",
        ));
    };
    if map.contains_key("vehicle_type") {
        road(path, value)
    } else if map.contains_key("aircraft_type") {
        let o = Obj::new(
            path,
            value,
            "CreateShipmentAircraftTypeMethod",
            &["aircraft_type"],
        )?;
        let t = o.required_choice(
            "aircraft_type",
            vocab::AIRCRAFT_TYPES,
            "CreateShipmentAircraftTypeMethod.aircraft_type",
        )?;
        Ok(LegMethod::AircraftType(t.to_owned()))
    } else if map.contains_key("flight_number") {
        flight(path, value)
    } else if map.contains_key("train_type") {
        let o = Obj::new(path, value, "ShipmentRailMethod", RAIL)?;
        let t = o.required_choice(
            "train_type",
            vocab::TRAIN_TYPES,
            "ShipmentRailMethod.train_type",
        )?;
        fuel_consumption(&o)?;
        o.share("biofuel_share")?;
        Ok(LegMethod::Rail(t.to_owned()))
    } else if SEA_KEYS.iter().any(|k| map.contains_key(*k)) {
        sea(path, value)
    } else {
        Err(RowError::new(
            path,
            "a method object needs vehicle_type (road), aircraft_type or flight_number (air), train_type (rail), or one of vessel_imo_number, vessel_type, vessel_tracking, vessel_inference (sea)",
        ))
    }
}

fn simple(path: &str, name: &str) -> Result<LegMethod, RowError> {
    if vocab::SIMPLE_METHODS.contains(&name) {
        Ok(LegMethod::Simple(name.to_owned()))
    } else if vocab::LOGISTICS_SITES.contains(&name) {
        Ok(LegMethod::LogisticsSite(name.to_owned()))
    } else {
        Err(RowError::new(
            path,
            format!(
                "'{name}' is neither a SimpleShipmentMethod ({}) nor a LogisticsSiteMethod; road and sea legs take a method object",
                vocab::SIMPLE_METHODS.join(", ")
            ),
        ))
    }
}

fn fuel_consumption(o: &Obj<'_>) -> Result<(), RowError> {
    let Some(v) = o.get("fuel_consumption")? else {
        return Ok(());
    };
    let path = o.field("fuel_consumption");
    let f = Obj::new(&path, v, "FuelConsumption", &["amount", "unit"])?;
    f.required_decimal("amount")?;
    f.required_choice("unit", vocab::FUEL_CONSUMPTION_UNITS, "FuelConsumptionUnit")?;
    Ok(())
}

fn road(path: &str, value: &Value) -> Result<LegMethod, RowError> {
    let o = Obj::new(path, value, "CreateShipmentRoadMethod", ROAD)?;
    let vehicle = o.required_text("vehicle_type")?;
    if vehicle != "truck" {
        super::fields::vocab(
            &o.field("vehicle_type"),
            vehicle,
            vocab::ROAD_VEHICLE_TYPES,
            "RoadVehicleType",
        )
        .map_err(|e| RowError::new(e.field, format!("{} or truck", e.message)))?;
    }
    let fuel = o.required_choice("fuel", vocab::ROAD_FUELS, "CreateShipmentRoadFuel")?;
    o.choice("gradient", vocab::ROAD_GRADIENTS, "RoadGradient")?;
    o.choice("situation", vocab::ROAD_SITUATIONS, "RoadSituation")?;
    o.choice(
        "emission_standard",
        vocab::ROAD_EMISSION_STANDARDS,
        "CreateShipmentRoadEmissionStandard",
    )?;
    let refrigerated = o.boolean("refrigerated")?.unwrap_or(false);
    for f in ["truck_license_plate", "trailer_license_plate", "vin"] {
        o.text(f)?;
    }
    fuel_consumption(&o)?;
    o.share("biofuel_share")?;
    Ok(LegMethod::Road {
        vehicle_type: vehicle.to_owned(),
        fuel: fuel.to_owned(),
        refrigerated,
    })
}

/// `BA123`, `BAW123A`: a 2–3 character airline designator, then 1–4 digits
/// and an optional letter.
fn is_flight_number(s: &str) -> bool {
    let digits_at = s
        .char_indices()
        .skip(2)
        .find(|(_, c)| c.is_ascii_digit())
        .map(|(i, _)| i);
    let Some(at) = digits_at.filter(|at| (2..=3).contains(at)) else {
        return false;
    };
    let (airline, rest) = s.split_at(at);
    let rest = rest
        .strip_suffix(|c: char| c.is_ascii_alphabetic())
        .unwrap_or(rest);
    airline.chars().all(|c| c.is_ascii_alphanumeric())
        && airline.chars().any(|c| c.is_ascii_alphabetic())
        && (1..=4).contains(&rest.len())
        && rest.chars().all(|c| c.is_ascii_digit())
}

fn flight(path: &str, value: &Value) -> Result<LegMethod, RowError> {
    let o = Obj::new(
        path,
        value,
        "CreateShipmentFlightNumberMethod",
        &["flight_number", "departure_on", "aircraft_configuration"],
    )?;
    let number = o.required_text("flight_number")?;
    if !is_flight_number(number) {
        return Err(RowError::new(
            o.field("flight_number"),
            "must be an IATA or ICAO flight number such as BA117 or BAW117",
        ));
    }
    o.required_date("departure_on")?;
    o.choice(
        "aircraft_configuration",
        vocab::AIRCRAFT_CONFIGURATIONS,
        "AircraftConfiguration",
    )?;
    Ok(LegMethod::FlightNumber(number.to_ascii_uppercase()))
}

fn sea(path: &str, value: &Value) -> Result<LegMethod, RowError> {
    let o = Obj::new(path, value, "CreateShipmentSeaMethod", SEA)?;
    let imo = o.text("vessel_imo_number")?;
    if let Some(imo) = imo
        && (imo.len() != 7 || !imo.bytes().all(|b| b.is_ascii_digit()))
    {
        return Err(RowError::new(
            o.field("vessel_imo_number"),
            "must be the 7-digit IMO number without the IMO prefix",
        ));
    }
    let vessel_type = o.string("vessel_type")?;
    if let Some(t) = vessel_type
        && t != "container_ship"
    {
        super::fields::vocab(
            &o.field("vessel_type"),
            t,
            vocab::SEA_VESSEL_TYPES,
            "SimpleSeaShippingMethod",
        )
        .map_err(|e| RowError::new(e.field, format!("{} or container_ship", e.message)))?;
    }
    for f in ["vessel_name", "voyage_number"] {
        o.text(f)?;
    }
    let refrigerated = o.boolean("refrigerated")?.unwrap_or(false);
    let trade_lane = o
        .choice("trade_lane", vocab::TRADE_LANES, "TradeLane")?
        .map(str::to_owned);
    let tracking = match o.get("vessel_tracking")? {
        None => false,
        Some(v) => {
            let path = o.field("vessel_tracking");
            let t = Obj::new(
                &path,
                v,
                "vessel_tracking",
                &["departure_on", "arrival_on", "mmsi_number"],
            )?;
            t.required_date("departure_on")?;
            t.required_date("arrival_on")?;
            if let Some(m) = t.text("mmsi_number")?
                && (m.len() != 9 || !m.bytes().all(|b| b.is_ascii_digit()))
            {
                return Err(RowError::new(
                    t.field("mmsi_number"),
                    "must be a 9-digit MMSI number",
                ));
            }
            true
        }
    };
    let inference = match o.get("vessel_inference")? {
        None => false,
        Some(v) => {
            let path = o.field("vessel_inference");
            let i = Obj::new(
                &path,
                v,
                "vessel_inference",
                &["departure_on", "arrival_on", "carrier_name"],
            )?;
            i.required_date("departure_on")?;
            i.required_date("arrival_on")?;
            i.required_choice(
                "carrier_name",
                vocab::CARRIERS,
                "CreateShipmentSeaMethod.carrier_name",
            )?;
            true
        }
    };
    fuel_consumption(&o)?;
    o.share("biofuel_share")?;
    // the contract's priority: IMO, then inference, then tracking, then type
    let vessel = if let Some(imo) = imo {
        SeaVessel::Imo {
            imo: imo.to_owned(),
            refrigerated,
            trade_lane,
        }
    } else if inference || tracking {
        SeaVessel::Inferred {
            refrigerated,
            trade_lane,
        }
    } else {
        match vessel_type {
            Some("container_ship") => SeaVessel::Container {
                refrigerated,
                trade_lane,
            },
            Some(t) => SeaVessel::Typed(t.to_owned()),
            None => {
                return Err(RowError::new(
                    path,
                    "needs one of vessel_imo_number, vessel_type, vessel_tracking or vessel_inference",
                ));
            }
        }
    };
    Ok(LegMethod::Sea(vessel))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use serde_json::json;

    use super::*;

    fn m(v: Value) -> Result<LegMethod, RowError> {
        method("legs[1].method", &v)
    }

    #[test]
    fn simple_names_and_logistics_sites() {
        for name in vocab::SIMPLE_METHODS {
            assert_eq!(m(json!(name)).unwrap(), LegMethod::Simple((*name).into()));
        }
        assert_eq!(
            m(json!("warehouse_chilled")).unwrap(),
            LegMethod::LogisticsSite("warehouse_chilled".into())
        );
        let e = m(json!("truck")).unwrap_err();
        assert_eq!(e.field, "legs[1].method");
        assert!(e.message.contains("SimpleShipmentMethod"), "{e}");
    }

    #[test]
    fn road_with_truck_or_a_vehicle_type_and_its_fuel() {
        assert_eq!(
            m(json!({"vehicle_type": "truck", "fuel": "diesel"})).unwrap(),
            LegMethod::Road {
                vehicle_type: "truck".into(),
                fuel: "diesel".into(),
                refrigerated: false
            }
        );
        let full = json!({
            "vehicle_type": "truck_articulated_40t", "fuel": "lng", "gradient": "hilly",
            "situation": "motorway_rural_freeflow", "emission_standard": "euro6-ac",
            "refrigerated": true, "truck_license_plate": "AB-12", "vin": "V1",
            "fuel_consumption": {"amount": "30", "unit": "l"}, "biofuel_share": null
        });
        assert!(matches!(
            m(full).unwrap(),
            LegMethod::Road {
                refrigerated: true,
                ..
            }
        ));
    }

    #[test]
    fn a_bad_road_enum_names_its_field() {
        let e = m(json!({"vehicle_type": "lorry", "fuel": "diesel"})).unwrap_err();
        assert_eq!(e.field, "legs[1].method.vehicle_type");
        assert!(e.message.ends_with("or truck"), "{e}");
        let e = m(json!({"vehicle_type": "truck", "fuel": "99_diesel_1_biodiesel"})).unwrap_err();
        assert_eq!(e.field, "legs[1].method.fuel");
        let e = m(json!({"vehicle_type": "truck"})).unwrap_err();
        assert_eq!(
            (e.field.as_str(), e.message.as_str()),
            ("legs[1].method.fuel", "is required")
        );
        let e = m(json!({"vehicle_type": "truck", "fuel": "diesel", "emission_standard": "euro6"}))
            .unwrap_err();
        assert_eq!(e.field, "legs[1].method.emission_standard");
        let e = m(json!({"vehicle_type": "truck", "fuel": "diesel", "fuel_consumption": {"amount": "3", "unit": "bbl"}}))
            .unwrap_err();
        assert_eq!(e.field, "legs[1].method.fuel_consumption.unit");
        let e = m(json!({"vehicle_type": "truck", "fuel": "diesel", "wheels": 18})).unwrap_err();
        assert_eq!(e.field, "legs[1].method.wheels");
    }

    #[test]
    fn aircraft_types_and_flight_numbers() {
        assert_eq!(
            m(json!({"aircraft_type": "B77L"})).unwrap(),
            LegMethod::AircraftType("B77L".into())
        );
        assert_eq!(
            m(json!({"aircraft_type": "C172"})).unwrap_err().field,
            "legs[1].method.aircraft_type"
        );
        assert_eq!(
            m(json!({"flight_number": "ba117", "departure_on": "2026-01-02", "aircraft_configuration": "cargo_plane"}))
                .unwrap(),
            LegMethod::FlightNumber("BA117".into())
        );
        assert_eq!(
            m(json!({"flight_number": "117", "departure_on": "2026-01-02"}))
                .unwrap_err()
                .field,
            "legs[1].method.flight_number"
        );
        assert_eq!(
            m(json!({"flight_number": "BA117"})).unwrap_err().field,
            "legs[1].method.departure_on"
        );
        assert!(is_flight_number("BAW117A"));
        assert!(!is_flight_number("BA12345"));
        assert!(!is_flight_number("BA"));
        assert!(is_flight_number("9W117"));
    }

    #[test]
    fn sea_follows_the_contract_priority() {
        let both = json!({
            "vessel_imo_number": "9321483", "vessel_type": "container_ship",
            "vessel_inference": {"departure_on": "2026-01-01", "arrival_on": "2026-02-01", "carrier_name": "MAERSK"}
        });
        assert!(matches!(
            m(both).unwrap(),
            LegMethod::Sea(SeaVessel::Imo { .. })
        ));
        let inferred = json!({
            "vessel_type": "container_ship",
            "vessel_tracking": {"departure_on": "2026-01-01", "arrival_on": "2026-02-01"},
            "vessel_inference": {"departure_on": "2026-01-01", "arrival_on": "2026-02-01", "carrier_name": "HAMBURG SÜD"}
        });
        assert!(matches!(
            m(inferred).unwrap(),
            LegMethod::Sea(SeaVessel::Inferred { .. })
        ));
        let tracked = json!({"vessel_tracking": {"departure_on": "2026-01-01", "arrival_on": "2026-02-01", "mmsi_number": "211234560"}});
        assert!(matches!(
            m(tracked).unwrap(),
            LegMethod::Sea(SeaVessel::Inferred { .. })
        ));
        assert_eq!(
            m(json!({"vessel_type": "container_ship", "refrigerated": true, "trade_lane": "aggregated_transpacific"}))
                .unwrap(),
            LegMethod::Sea(SeaVessel::Container {
                refrigerated: true,
                trade_lane: Some("aggregated_transpacific".into())
            })
        );
        assert_eq!(
            m(json!({"vessel_type": "sea_oil_tanker_80dwkt_hfo"})).unwrap(),
            LegMethod::Sea(SeaVessel::Typed("sea_oil_tanker_80dwkt_hfo".into()))
        );
    }

    #[test]
    fn sea_errors_name_their_field() {
        assert_eq!(
            m(json!({"vessel_type": "tanker"})).unwrap_err().field,
            "legs[1].method.vessel_type"
        );
        assert_eq!(
            m(json!({"vessel_imo_number": "IMO9321483"}))
                .unwrap_err()
                .field,
            "legs[1].method.vessel_imo_number"
        );
        assert_eq!(
            m(json!({"vessel_inference": {"departure_on": "2026-01-01", "arrival_on": "2026-02-01", "carrier_name": "ACME"}}))
                .unwrap_err()
                .field,
            "legs[1].method.vessel_inference.carrier_name"
        );
        assert_eq!(
            m(json!({"vessel_type": "container_ship", "trade_lane": "atlantis"}))
                .unwrap_err()
                .field,
            "legs[1].method.trade_lane"
        );
    }

    #[test]
    fn rail_by_train_type() {
        assert_eq!(
            m(json!({"train_type": "electric_freight_train", "fuel_consumption": {"amount": "12", "unit": "kwh"}}))
                .unwrap(),
            LegMethod::Rail("electric_freight_train".into())
        );
        assert_eq!(
            m(json!({"train_type": "maglev"})).unwrap_err().field,
            "legs[1].method.train_type"
        );
        assert_eq!(
            m(json!({"train_type": "diesel_freight_train", "biofuel_share": "1.5"}))
                .unwrap_err()
                .field,
            "legs[1].method.biofuel_share"
        );
    }

    #[test]
    fn an_object_of_no_kind_is_refused() {
        let e = m(json!({"mode": "road"})).unwrap_err();
        assert_eq!(e.field, "legs[1].method");
        assert_eq!(m(json!(3)).unwrap_err().field, "legs[1].method");
    }
}
