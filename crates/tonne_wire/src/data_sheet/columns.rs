//! The columns a data sheet may have: the documented list ([`COLUMNS`]), the
//! vocabulary each one accepts, whether it belongs to the shipment or to each
//! leg, and how one value is checked and written into the row.

use std::str::FromStr as _;

use rust_decimal::Decimal;
use serde_json::Value;

// the contract's vocabularies, kept once (tonne_wire::shipments::vocab)
pub(super) use crate::shipments::vocab::{
    CARRIAGES, CONTRACT_TYPES, INCOTERMS, LOGISTICS_SITES, MASS_UNITS, ROAD_FUELS as FUELS,
    SERVICE_LEVELS, SIMPLE_METHODS as SIMPLE, TRAIN_TYPES, VEHICLE_TYPES,
};

/// What a column holds.
#[derive(Debug, Clone, Copy)]
pub(super) enum Kind {
    Text,
    /// A decimal ≥ 0.
    Amount,
    /// A decimal > 0.
    Positive,
    /// An integer ≥ 1.
    Order,
    Bool,
    OneOf(&'static [&'static str]),
    /// `YYYY-MM-DD`.
    Date,
    /// `YYYY-MM-DD` or an RFC 3339 date-time.
    DateOrTime,
    Latitude,
    Longitude,
    /// Three capital letters.
    Currency,
}

/// Whether a column belongs to the shipment or to each leg.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Level {
    Shipment,
    Leg,
}

pub(super) const MODES: &[&str] = &["road", "sea", "air", "rail", "logistics_site"];

pub(super) const AIR_SIMPLE: &[&str] = &["plane", "passenger_plane", "cargo_plane"];

pub(super) const RAIL_SIMPLE: &[&str] = &["diesel_freight_train", "electric_freight_train", "rail"];

pub(super) const AIRCRAFT_CONFIGURATIONS: &[&str] = &["plane", "cargo_plane", "passenger_plane"];

/// Every column: name, level, kind, and what it means (the template's and
/// the documentation's words).
pub const COLUMNS: &[(&str, &str)] = &[
    (
        "shipment_id",
        "your shipment's id; consecutive lines with the same id are one shipment",
    ),
    (
        "target_internal_id",
        "your id of the counterparty (the supplier)",
    ),
    ("target_internal_name", "the counterparty's name"),
    ("service_level", "express, economy or priority"),
    (
        "incoterm",
        "exw, fca, cpt, cip, dap, dpu, ddp, fas, fob, cfr or cif",
    ),
    ("contract_type", "spot, contract or tender"),
    ("hazardous_cargo", "true or false"),
    ("booking_reference", "text"),
    ("house_waybill", "text"),
    ("reference_id_po", "purchase order reference"),
    ("consignee_id", "text"),
    ("consignee_name", "text"),
    ("consignor_id", "text"),
    ("consignor_name", "text"),
    ("freight_paying_party", "text"),
    ("legal_entity", "text"),
    ("shipper_contract_emission_scope", "text"),
    (
        "freight_cost_amount",
        "a decimal, with freight_cost_currency",
    ),
    ("freight_cost_currency", "ISO 4217 code (EUR, USD, …)"),
    (
        "shipment_emissions_total_kg",
        "emissions you calculated for the whole shipment, kg CO2e (with shipment_emissions_distance_km)",
    ),
    (
        "shipment_emissions_wtt_kg",
        "its well-to-tank part, kg CO2e",
    ),
    (
        "shipment_emissions_ttw_kg",
        "its tank-to-wheel part, kg CO2e",
    ),
    (
        "shipment_emissions_distance_km",
        "the shipment's distance, km",
    ),
    (
        "metadata.KEY",
        "any number of columns: metadata KEY = the value",
    ),
    ("leg_id", "your id of the leg"),
    (
        "leg_order",
        "1, 2, …: the leg's place in the journey (all legs of a shipment or none)",
    ),
    ("carriage", "pre, main or on (required)"),
    (
        "mode",
        "road, sea, air, rail or logistics_site (required): which method columns apply",
    ),
    (
        "vehicle_type",
        "road: truck, truck_generic_van, truck_rigid_7_5t … truck_articulated_72t (required)",
    ),
    (
        "fuel",
        "road: gasoline, diesel, ethanol_from_corn, hvo_from_tallow, lpg, cng or lng (required)",
    ),
    ("refrigerated", "road or sea: true or false"),
    ("vessel_imo_number", "sea: the vessel's IMO number"),
    (
        "vessel_type",
        "sea: container_ship or a simple sea method (sea_bulk_carrier_10dwkt_hfo, …)",
    ),
    ("vessel_name", "sea: text"),
    ("voyage_number", "sea: text"),
    (
        "trade_lane",
        "sea: a trade lane (aggregated_transpacific, …)",
    ),
    (
        "aircraft_type",
        "air: an ICAO aircraft type (B77L, A332, …)",
    ),
    ("flight_number", "air: a flight number, with departure_on"),
    ("departure_on", "air: the flight's date, YYYY-MM-DD"),
    (
        "aircraft_configuration",
        "air: plane, cargo_plane or passenger_plane",
    ),
    (
        "train_type",
        "rail: diesel_freight_train or electric_freight_train",
    ),
    (
        "simple_method",
        "air: plane, passenger_plane or cargo_plane; rail: diesel_freight_train, electric_freight_train or rail",
    ),
    (
        "logistics_site",
        "logistics_site: warehouse_ambient, maritime_container_terminal, … (required)",
    ),
    ("origin_locode", "UN/LOCODE (NLRTM, …)"),
    ("origin_airport_code", "IATA or ICAO airport code"),
    ("origin_street_line1", "address"),
    ("origin_street_line2", "address"),
    ("origin_postcode", "address"),
    ("origin_city", "address (with origin_country_code)"),
    (
        "origin_country_code",
        "address: ISO 3166-1 alpha-3 (DEU, …)",
    ),
    ("origin_latitude", "coordinates, with origin_longitude"),
    ("origin_longitude", "coordinates, with origin_latitude"),
    (
        "origin_unknown_code",
        "a location code that is none of the above",
    ),
    ("destination_…", "the same ten columns for the destination"),
    ("distance_km", "the leg's distance, km"),
    ("carrier_name", "text"),
    ("scac_code", "text"),
    ("master_waybill", "text"),
    (
        "load_factor",
        "road: the share of the vehicle's capacity used, above 0 and at most 1",
    ),
    (
        "empty_run_factor",
        "road: the share of distance run empty, from 0 and below 1",
    ),
    ("mass", "the cargo's mass, with mass_unit"),
    ("mass_unit", "g, kg or t"),
    ("teu", "containers, in TEU"),
    (
        "etd",
        "estimated departure: YYYY-MM-DD or an RFC 3339 date-time",
    ),
    ("eta", "estimated arrival"),
    ("atd", "actual departure"),
    ("ata", "actual arrival"),
    (
        "leg_emissions_total_kg",
        "emissions you calculated for the leg, kg CO2e (with leg_emissions_distance_km)",
    ),
    ("leg_emissions_wtt_kg", "its well-to-tank part, kg CO2e"),
    ("leg_emissions_ttw_kg", "its tank-to-wheel part, kg CO2e"),
    ("leg_emissions_distance_km", "the leg's distance, km"),
];

/// The shipment's columns read as plain values (`(column, field, kind)`).
pub(super) const SHIPMENT_FIELDS: &[(&str, &str, Kind)] = &[
    ("shipment_id", "shipment_id", Kind::Text),
    ("target_internal_id", "target_internal_id", Kind::Text),
    ("target_internal_name", "target_internal_name", Kind::Text),
    (
        "service_level",
        "service_level",
        Kind::OneOf(SERVICE_LEVELS),
    ),
    ("incoterm", "incoterm", Kind::OneOf(INCOTERMS)),
    (
        "contract_type",
        "contract_type",
        Kind::OneOf(CONTRACT_TYPES),
    ),
    ("hazardous_cargo", "hazardous_cargo", Kind::Bool),
    ("booking_reference", "booking_reference", Kind::Text),
    ("house_waybill", "house_waybill", Kind::Text),
    ("reference_id_po", "reference_id_po", Kind::Text),
    ("consignee_id", "consignee_id", Kind::Text),
    ("consignee_name", "consignee_name", Kind::Text),
    ("consignor_id", "consignor_id", Kind::Text),
    ("consignor_name", "consignor_name", Kind::Text),
    ("freight_paying_party", "freight_paying_party", Kind::Text),
    ("legal_entity", "legal_entity", Kind::Text),
    (
        "shipper_contract_emission_scope",
        "shipper_contract_emission_scope",
        Kind::Text,
    ),
];

/// The shipment's columns of nested fields.
pub(super) const SHIPMENT_NESTED: &[(&str, Kind)] = &[
    ("freight_cost_amount", Kind::Amount),
    ("freight_cost_currency", Kind::Currency),
    ("shipment_emissions_total_kg", Kind::Amount),
    ("shipment_emissions_wtt_kg", Kind::Amount),
    ("shipment_emissions_ttw_kg", Kind::Amount),
    ("shipment_emissions_distance_km", Kind::Amount),
];

/// A leg's plain columns (`(column, field, kind)`).
pub(super) const LEG_FIELDS: &[(&str, &str, Kind)] = &[
    ("leg_id", "leg_id", Kind::Text),
    ("leg_order", "order", Kind::Order),
    ("carriage", "carriage", Kind::OneOf(CARRIAGES)),
    ("carrier_name", "carrier_name", Kind::Text),
    ("scac_code", "scac_code", Kind::Text),
    ("master_waybill", "master_waybill", Kind::Text),
    ("load_factor", "load_factor", Kind::Amount),
    ("empty_run_factor", "empty_run_factor", Kind::Amount),
];

/// A leg's method columns: which modes they apply to, and their kind.
pub(super) const METHOD_COLUMNS: &[(&str, &[&str], Kind)] = &[
    ("vehicle_type", &["road"], Kind::OneOf(VEHICLE_TYPES)),
    ("fuel", &["road"], Kind::OneOf(FUELS)),
    ("refrigerated", &["road", "sea"], Kind::Bool),
    ("vessel_imo_number", &["sea"], Kind::Text),
    ("vessel_type", &["sea"], Kind::Text),
    ("vessel_name", &["sea"], Kind::Text),
    ("voyage_number", &["sea"], Kind::Text),
    ("trade_lane", &["sea"], Kind::Text),
    ("aircraft_type", &["air"], Kind::Text),
    ("flight_number", &["air"], Kind::Text),
    ("departure_on", &["air"], Kind::Date),
    (
        "aircraft_configuration",
        &["air"],
        Kind::OneOf(AIRCRAFT_CONFIGURATIONS),
    ),
    ("train_type", &["rail"], Kind::OneOf(TRAIN_TYPES)),
    ("simple_method", &["air", "rail"], Kind::OneOf(SIMPLE)),
    (
        "logistics_site",
        &["logistics_site"],
        Kind::OneOf(LOGISTICS_SITES),
    ),
];

/// A location's columns after `origin_` / `destination_`.
pub(super) const LOCATION_PARTS: &[(&str, Kind)] = &[
    ("locode", Kind::Text),
    ("airport_code", Kind::Text),
    ("street_line1", Kind::Text),
    ("street_line2", Kind::Text),
    ("postcode", Kind::Text),
    ("city", Kind::Text),
    ("country_code", Kind::Text),
    ("latitude", Kind::Latitude),
    ("longitude", Kind::Longitude),
    ("unknown_code", Kind::Text),
];

/// A leg's other columns.
pub(super) const LEG_NESTED: &[(&str, Kind)] = &[
    ("mode", Kind::OneOf(MODES)),
    ("distance_km", Kind::Positive),
    ("mass", Kind::Positive),
    ("mass_unit", Kind::OneOf(MASS_UNITS)),
    ("teu", Kind::Positive),
    ("etd", Kind::DateOrTime),
    ("eta", Kind::DateOrTime),
    ("atd", Kind::DateOrTime),
    ("ata", Kind::DateOrTime),
    ("leg_emissions_total_kg", Kind::Amount),
    ("leg_emissions_wtt_kg", Kind::Amount),
    ("leg_emissions_ttw_kg", Kind::Amount),
    ("leg_emissions_distance_km", Kind::Amount),
];

/// A known column's level and kind; `metadata.KEY` columns are the shipment's text.
/// A cell as a JSON number when it reads as one, else as the string sent
/// (the row decoder then names the field).
pub(super) fn number(v: &str) -> Value {
    serde_json::from_str::<serde_json::Number>(v)
        .map(Value::Number)
        .unwrap_or_else(|_| Value::String(v.to_owned()))
}

pub(super) fn column(name: &str) -> Option<(Level, Kind)> {
    let plain =
        |list: &[(&str, &str, Kind)]| list.iter().find(|(c, _, _)| *c == name).map(|(_, _, k)| *k);
    let nested = |list: &[(&str, Kind)]| list.iter().find(|(c, _)| *c == name).map(|(_, k)| *k);
    if let Some(k) = plain(SHIPMENT_FIELDS).or_else(|| nested(SHIPMENT_NESTED)) {
        return Some((Level::Shipment, k));
    }
    if name
        .strip_prefix("metadata.")
        .is_some_and(|key| !key.is_empty())
    {
        return Some((Level::Shipment, Kind::Text));
    }
    if let Some(k) = plain(LEG_FIELDS).or_else(|| nested(LEG_NESTED)) {
        return Some((Level::Leg, k));
    }
    if let Some((_, _, k)) = METHOD_COLUMNS.iter().find(|(c, _, _)| *c == name) {
        return Some((Level::Leg, *k));
    }
    let part = name
        .strip_prefix("origin_")
        .or_else(|| name.strip_prefix("destination_"))?;
    LOCATION_PARTS
        .iter()
        .find(|(p, _)| *p == part)
        .map(|(_, k)| (Level::Leg, *k))
}

/// Why a value is not of its kind.
pub(super) fn check_kind(kind: Kind, v: &str) -> Result<(), String> {
    let decimal = || {
        Decimal::from_str(v).map_err(|_| {
            format!("'{v}' is not a number (write it like 1234.5, without separators)")
        })
    };
    match kind {
        Kind::Text => Ok(()),
        Kind::Amount => {
            if decimal()?.is_sign_negative() {
                return Err("must not be negative".to_owned());
            }
            Ok(())
        }
        Kind::Positive => {
            if decimal()? <= Decimal::ZERO {
                return Err("must be greater than 0".to_owned());
            }
            Ok(())
        }
        Kind::Order => match v.parse::<u32>() {
            Ok(n) if n >= 1 => Ok(()),
            _ => Err(format!("'{v}' is not a whole number from 1")),
        },
        Kind::Bool => match v {
            "true" | "false" => Ok(()),
            _ => Err(format!("'{v}' is not true or false")),
        },
        Kind::OneOf(list) => {
            if list.contains(&v) {
                Ok(())
            } else {
                Err(format!("'{v}' is not one of: {}", list.join(", ")))
            }
        }
        Kind::Date => parse_date(v).map(|_| ()),
        Kind::DateOrTime => {
            if time::OffsetDateTime::parse(v, &time::format_description::well_known::Rfc3339)
                .is_ok()
            {
                return Ok(());
            }
            parse_date(v)
                .map(|_| ())
                .map_err(|_| format!("'{v}' is not a date (YYYY-MM-DD) or an RFC 3339 date-time"))
        }
        Kind::Latitude => within(decimal()?, 90, "a latitude"),
        Kind::Longitude => within(decimal()?, 180, "a longitude"),
        Kind::Currency => {
            if v.len() == 3 && v.bytes().all(|b| b.is_ascii_uppercase()) {
                Ok(())
            } else {
                Err(format!(
                    "'{v}' is not a currency code (three capitals: EUR, USD, …)"
                ))
            }
        }
    }
}

pub(super) fn within(d: Decimal, bound: i64, what: &str) -> Result<(), String> {
    let b = Decimal::from(bound);
    if d < -b || d > b {
        return Err(format!("is not {what} (-{bound} to {bound})"));
    }
    Ok(())
}

pub(super) fn parse_date(v: &str) -> Result<time::Date, String> {
    let format = time::macros::format_description!("[year]-[month]-[day]");
    time::Date::parse(v, format).map_err(|_| format!("'{v}' is not a date (YYYY-MM-DD)"))
}

/// A value of a plain column as its JSON.
pub(super) fn scalar(kind: Kind, v: &str) -> Value {
    match kind {
        Kind::Bool => Value::Bool(v == "true"),
        Kind::Order => number(v),
        _ => Value::String(v.to_owned()),
    }
}
