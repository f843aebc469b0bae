//! Shipment data sheets: a CSV file, one line per leg, that becomes the rows
//! of a shipment batch — each the JSON text of the contract's
//! `CreateShipmentRequest` — or every problem of the file, each with its line
//! and column.
//!
//! - The first line names the columns (any order; only the columns used need
//!   be there). Lines starting with `#` are comments; a UTF-8 byte-order mark
//!   is ignored.
//! - Consecutive lines with the same `shipment_id` are one shipment, one leg
//!   each, in the file's order. A line without a `shipment_id` is a shipment
//!   of its own. The shipment's columns are read from its first line; a later
//!   line may leave them empty or repeat them, never say something else.
//! - A value is trimmed; an empty value is absent. Numbers are written with a
//!   `.` and no thousands separator; booleans `true` or `false`; dates
//!   `YYYY-MM-DD` (or RFC 3339 date-times for the leg's dates).
//!
//! [`parse`] checks structure and vocabulary; the rules between fields are
//! the row decoder's and the domain's. [`Sheet::check_rows`] runs each row
//! through a decoder and maps the field it names (`legs[1].method.fuel`) back
//! to the line and column it came from.

use std::collections::HashMap;
use std::str::FromStr as _;

use rust_decimal::Decimal;
use serde::Serialize;
use serde_json::{Map, Value, json};

/// Largest data sheet, in bytes.
pub const MAX_BYTES: usize = 8 * 1024 * 1024;
/// Most shipments one data sheet may hold (a batch's most rows).
pub const MAX_SHIPMENTS: usize = tonne_shipments::MAX_BATCH_ROWS;
/// Most legs one shipment may have.
pub const MAX_LEGS: usize = tonne_shipments::MAX_LEGS;
/// Most problems listed; the rest are counted.
pub const MAX_PROBLEMS: usize = 100;

/// The documented template: a comment header and a few example shipments.
pub const TEMPLATE: &str = include_str!("data_sheet/template.csv");

/// One problem of a data sheet.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Problem {
    /// The file's line, 1-based (the column names are line 1); `None` for
    /// the file as a whole.
    pub line: Option<u64>,
    /// The column's name; `None` for the line as a whole.
    pub column: Option<String>,
    pub message: String,
}

impl Problem {
    fn at(line: u64, column: &str, message: impl Into<String>) -> Self {
        Self {
            line: Some(line),
            column: Some(column.to_owned()),
            message: message.into(),
        }
    }

    fn line(line: u64, message: impl Into<String>) -> Self {
        Self {
            line: Some(line),
            column: None,
            message: message.into(),
        }
    }

    fn file(message: impl Into<String>) -> Self {
        Self {
            line: None,
            column: None,
            message: message.into(),
        }
    }
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (self.line, &self.column) {
            (Some(l), Some(c)) => write!(f, "line {l}, column {c}: {}", self.message),
            (Some(l), None) => write!(f, "line {l}: {}", self.message),
            (None, _) => f.write_str(&self.message),
        }
    }
}

/// A data sheet read whole: its shipments in the file's order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sheet {
    pub shipments: Vec<SheetShipment>,
}

/// One shipment of a data sheet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SheetShipment {
    /// Its first line.
    pub line: u64,
    /// The `CreateShipmentRequest` JSON text.
    pub row: String,
    /// Where each field came from: its JSON path, line and column.
    sources: Vec<(String, u64, String)>,
}

impl SheetShipment {
    /// The line and column a field path of the row (`legs[1].method.fuel`,
    /// `freight_cost`) came from: the field itself, else the first field
    /// under it, else the closest field above it; the shipment's first line
    /// when nothing matches.
    pub fn locate(&self, path: &str) -> (u64, Option<String>) {
        if path == "legs" {
            // the legs as a whole: the shipment
            return (self.line, None);
        }
        let found = self
            .sources
            .iter()
            .find(|(p, _, _)| p == path)
            .or_else(|| self.sources.iter().find(|(p, _, _)| under(p, path)))
            .or_else(|| {
                self.sources
                    .iter()
                    .filter(|(p, _, _)| under(path, p))
                    .max_by_key(|(p, _, _)| p.len())
            });
        match found {
            Some((_, line, column)) => (*line, Some(column.clone())),
            // a leg's path with nothing recorded under it: that leg's line
            None => (self.leg_line(path).unwrap_or(self.line), None),
        }
    }

    fn leg_line(&self, path: &str) -> Option<u64> {
        let leg = path.strip_prefix("legs[")?.split(']').next()?;
        let prefix = format!("legs[{leg}]");
        self.sources
            .iter()
            .find(|(p, _, _)| under(p, &prefix))
            .map(|(_, line, _)| *line)
    }
}

/// Whether `path` is `parent` or lies under it (`a.b` and `a[0]` lie under `a`).
fn under(path: &str, parent: &str) -> bool {
    path.strip_prefix(parent)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with('.') || rest.starts_with('['))
}

impl Sheet {
    /// The rows to upload, in order.
    pub fn rows(&self) -> Vec<String> {
        self.shipments.iter().map(|s| s.row.clone()).collect()
    }

    /// Runs each row through `decode` (`Err((field path, message))`), and
    /// answers every refusal at the line and column the field came from.
    pub fn check_rows<F>(&self, decode: F) -> Result<(), Vec<Problem>>
    where
        F: Fn(&str) -> Result<(), (String, String)>,
    {
        let mut problems = Problems::default();
        for s in &self.shipments {
            if let Err((path, message)) = decode(&s.row) {
                let (line, column) = s.locate(&path);
                problems.push(Problem {
                    line: Some(line),
                    column,
                    message,
                });
            }
        }
        problems.finish(())
    }
}

/// The problems found so far, at most [`MAX_PROBLEMS`] kept.
#[derive(Default)]
struct Problems {
    kept: Vec<Problem>,
    more: usize,
}

impl Problems {
    fn push(&mut self, p: Problem) {
        if self.kept.len() < MAX_PROBLEMS {
            self.kept.push(p);
        } else {
            self.more = self.more.saturating_add(1);
        }
    }

    fn is_empty(&self) -> bool {
        self.kept.is_empty()
    }

    fn finish<T>(mut self, ok: T) -> Result<T, Vec<Problem>> {
        if self.kept.is_empty() {
            return Ok(ok);
        }
        if self.more > 0 {
            self.kept.push(Problem::file(format!(
                "and {} more problems not listed",
                self.more
            )));
        }
        Err(self.kept)
    }
}

/// What a column holds.
#[derive(Debug, Clone, Copy)]
enum Kind {
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
enum Level {
    Shipment,
    Leg,
}

const CARRIAGES: &[&str] = &["pre", "main", "on"];
const MODES: &[&str] = &["road", "sea", "air", "rail", "logistics_site"];
const INCOTERMS: &[&str] = &[
    "exw", "fca", "cpt", "cip", "dap", "dpu", "ddp", "fas", "fob", "cfr", "cif",
];
const SERVICE_LEVELS: &[&str] = &["express", "economy", "priority"];
const CONTRACT_TYPES: &[&str] = &["spot", "contract", "tender"];
const MASS_UNITS: &[&str] = &["g", "kg", "t"];
const VEHICLE_TYPES: &[&str] = &[
    "truck",
    "truck_generic_van",
    "truck_rigid_7_5t",
    "truck_rigid_12t",
    "truck_rigid_20t",
    "truck_rigid_26t",
    "truck_rigid_32t",
    "truck_articulated_34t",
    "truck_articulated_40t",
    "truck_articulated_44t",
    "truck_articulated_60t",
    "truck_articulated_72t",
];
const FUELS: &[&str] = &[
    "gasoline",
    "diesel",
    "ethanol_from_corn",
    "hvo_from_tallow",
    "lpg",
    "cng",
    "lng",
];
const TRAIN_TYPES: &[&str] = &["diesel_freight_train", "electric_freight_train"];
const AIR_SIMPLE: &[&str] = &["plane", "passenger_plane", "cargo_plane"];
const RAIL_SIMPLE: &[&str] = &["diesel_freight_train", "electric_freight_train", "rail"];
const SIMPLE: &[&str] = &[
    "diesel_freight_train",
    "electric_freight_train",
    "rail",
    "plane",
    "passenger_plane",
    "cargo_plane",
];
const AIRCRAFT_CONFIGURATIONS: &[&str] = &["plane", "cargo_plane", "passenger_plane"];
const LOGISTICS_SITES: &[&str] = &[
    "maritime_container_terminal",
    "maritime_container_terminal_ambient",
    "maritime_container_terminal_chilled",
    "transhipment_site_ambient",
    "transhipment_site_chilled",
    "transhipment_site_mixed",
    "storage_and_transhipment_ambient",
    "storage_and_transhipment_chilled",
    "storage_and_transhipment_mixed",
    "warehouse_ambient",
    "warehouse_chilled",
    "warehouse_mixed",
    "liquid_bulk_terminals_ambient",
    "liquid_bulk_terminals_mixed",
];

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
const SHIPMENT_FIELDS: &[(&str, &str, Kind)] = &[
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
const SHIPMENT_NESTED: &[(&str, Kind)] = &[
    ("freight_cost_amount", Kind::Amount),
    ("freight_cost_currency", Kind::Currency),
    ("shipment_emissions_total_kg", Kind::Amount),
    ("shipment_emissions_wtt_kg", Kind::Amount),
    ("shipment_emissions_ttw_kg", Kind::Amount),
    ("shipment_emissions_distance_km", Kind::Amount),
];

/// A leg's plain columns (`(column, field, kind)`).
const LEG_FIELDS: &[(&str, &str, Kind)] = &[
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
const METHOD_COLUMNS: &[(&str, &[&str], Kind)] = &[
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
const LOCATION_PARTS: &[(&str, Kind)] = &[
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
const LEG_NESTED: &[(&str, Kind)] = &[
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
fn column(name: &str) -> Option<(Level, Kind)> {
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
fn check_kind(kind: Kind, v: &str) -> Result<(), String> {
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

fn within(d: Decimal, bound: i64, what: &str) -> Result<(), String> {
    let b = Decimal::from(bound);
    if d < -b || d > b {
        return Err(format!("is not {what} (-{bound} to {bound})"));
    }
    Ok(())
}

fn parse_date(v: &str) -> Result<time::Date, String> {
    let format = time::macros::format_description!("[year]-[month]-[day]");
    time::Date::parse(v, format).map_err(|_| format!("'{v}' is not a date (YYYY-MM-DD)"))
}

/// The column names and where each is.
struct Header {
    names: Vec<String>,
    index: HashMap<String, usize>,
}

/// One line of the file.
struct Line<'a> {
    number: u64,
    record: &'a csv::StringRecord,
    header: &'a Header,
}

impl Line<'_> {
    /// A column's trimmed value; `None` when absent or empty.
    fn get(&self, column: &str) -> Option<&str> {
        let i = *self.header.index.get(column)?;
        self.record.get(i).map(str::trim).filter(|v| !v.is_empty())
    }
}

/// A shipment or leg being built: its JSON and where each field came from.
struct Builder<'a> {
    sources: &'a mut Vec<(String, u64, String)>,
}

impl Builder<'_> {
    fn put(
        &mut self,
        obj: &mut Map<String, Value>,
        path: &str,
        key: &str,
        v: Value,
        line: &Line<'_>,
        column: &str,
    ) {
        obj.insert(key.to_owned(), v);
        let full = if path.is_empty() {
            key.to_owned()
        } else {
            format!("{path}.{key}")
        };
        self.sources.push((full, line.number, column.to_owned()));
    }

    fn note(&mut self, path: String, line: &Line<'_>, column: &str) {
        self.sources.push((path, line.number, column.to_owned()));
    }
}

fn number(v: &str) -> Value {
    serde_json::from_str::<serde_json::Number>(v)
        .map(Value::Number)
        .unwrap_or_else(|_| Value::String(v.to_owned()))
}

/// Reads a data sheet whole: its shipments, or every problem (up to
/// [`MAX_PROBLEMS`]) with its line and column.
pub fn parse(bytes: &[u8]) -> Result<Sheet, Vec<Problem>> {
    if bytes.len() > MAX_BYTES {
        return Err(vec![Problem::file(format!(
            "the file is larger than {} MiB",
            MAX_BYTES / (1024 * 1024)
        ))]);
    }
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    if let Err(e) = std::str::from_utf8(bytes) {
        let before = bytes.get(..e.valid_up_to()).unwrap_or_default();
        let line = before.iter().filter(|b| **b == b'\n').count();
        let line = u64::try_from(line).unwrap_or(u64::MAX).saturating_add(1);
        return Err(vec![Problem::line(
            line,
            "the file is not UTF-8 text (save it as \"CSV UTF-8\")",
        )]);
    }
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .comment(Some(b'#'))
        .from_reader(bytes);
    let lines = Lines::of(bytes);
    let mut records = reader.records();
    let mut problems = Problems::default();
    let header = match records.next() {
        None => return Err(vec![Problem::file("the file is empty")]),
        Some(Err(e)) => return Err(vec![csv_problem(&e)]),
        Some(Ok(r)) => read_header(&r, lines.of_record(&r), &mut problems),
    };
    // unknown and repeated columns are listed with the lines' problems;
    // without carriage or mode no line can be read
    if ["carriage", "mode"]
        .iter()
        .any(|c| !header.index.contains_key(*c))
    {
        return problems.finish(Sheet { shipments: vec![] });
    }
    let width = header.names.len();
    let mut shipments = Vec::new();
    let mut group: Vec<(u64, csv::StringRecord)> = Vec::new();
    let mut seen: HashMap<String, u64> = HashMap::new();
    for record in records {
        let record = match record {
            Ok(r) => r,
            Err(e) => {
                problems.push(csv_problem(&e));
                break;
            }
        };
        let number = lines.of_record(&record);
        if record.iter().all(|v| v.trim().is_empty()) {
            continue;
        }
        if record.len() != width {
            problems.push(Problem::line(
                number,
                format!(
                    "has {} values; the first line names {width} columns",
                    record.len()
                ),
            ));
            continue;
        }
        let id = {
            let line = Line {
                number,
                record: &record,
                header: &header,
            };
            line.get("shipment_id").map(str::to_owned)
        };
        let same = match (&id, group.first()) {
            (Some(id), Some((_, first))) => {
                let first = Line {
                    number: 0,
                    record: first,
                    header: &header,
                };
                first.get("shipment_id") == Some(id.as_str())
            }
            _ => false,
        };
        if !same {
            if !group.is_empty() {
                shipments.push(shipment(&header, &group, &mut problems));
                group.clear();
            }
            if shipments.len() >= MAX_SHIPMENTS {
                problems.push(Problem::at(
                    number,
                    "shipment_id",
                    format!("a data sheet holds at most {MAX_SHIPMENTS} shipments"),
                ));
                return problems.finish(Sheet { shipments: vec![] });
            }
            if let Some(id) = &id {
                if let Some(earlier) = seen.get(id) {
                    problems.push(Problem::at(
                        number,
                        "shipment_id",
                        format!(
                            "shipment '{id}' began on line {earlier} already: a shipment's lines must follow each other"
                        ),
                    ));
                } else {
                    seen.insert(id.clone(), number);
                }
            }
        } else if group.len() >= MAX_LEGS {
            problems.push(Problem::at(
                number,
                "shipment_id",
                format!("a shipment has at most {MAX_LEGS} legs (lines)"),
            ));
            continue;
        }
        group.push((number, record));
    }
    if !group.is_empty() {
        shipments.push(shipment(&header, &group, &mut problems));
    }
    if shipments.is_empty() && problems.is_empty() {
        problems.push(Problem::file(
            "the file has no shipment, only the column names",
        ));
    }
    problems.finish(Sheet { shipments })
}

/// The file's lines, to name a record's (the csv reader's own count
/// leaves out comments and blank lines).
struct Lines<'a> {
    text: &'a [u8],
    /// The offset of every newline.
    newlines: Vec<usize>,
}

impl<'a> Lines<'a> {
    fn of(text: &'a [u8]) -> Self {
        let newlines = text
            .iter()
            .enumerate()
            .filter(|(_, b)| **b == b'\n')
            .map(|(i, _)| i)
            .collect();
        Self { text, newlines }
    }

    /// The line a record starts on: the reader's position is where it began
    /// reading, before the blank and comment lines it skipped.
    fn of_record(&self, r: &csv::StringRecord) -> u64 {
        let mut at = r
            .position()
            .and_then(|p| usize::try_from(p.byte()).ok())
            .unwrap_or(0);
        loop {
            let rest = self.text.get(at..).unwrap_or_default();
            if rest.starts_with(b"\n") {
                at = at.saturating_add(1);
            } else if rest.starts_with(b"\r\n") {
                at = at.saturating_add(2);
            } else if rest.starts_with(b"#") {
                match rest.iter().position(|b| *b == b'\n') {
                    Some(end) => at = at.saturating_add(end).saturating_add(1),
                    None => break,
                }
            } else {
                break;
            }
        }
        let before = self.newlines.partition_point(|n| *n < at);
        u64::try_from(before).unwrap_or(u64::MAX).saturating_add(1)
    }
}

fn csv_problem(e: &csv::Error) -> Problem {
    match e.position() {
        Some(p) => Problem::line(p.line(), "the line cannot be read as CSV"),
        None => Problem::file("the file cannot be read as CSV"),
    }
}

fn read_header(r: &csv::StringRecord, number: u64, problems: &mut Problems) -> Header {
    let mut names = Vec::with_capacity(r.len());
    let mut index = HashMap::new();
    for (i, name) in r.iter().enumerate() {
        let name = name.trim().to_owned();
        if name.is_empty() {
            problems.push(Problem::line(
                number,
                format!("column {} has no name", i.saturating_add(1)),
            ));
        } else if column(&name).is_none() {
            problems.push(Problem::at(
                number,
                &name,
                "unknown column (see the template for the columns)",
            ));
        } else if index.contains_key(&name) {
            problems.push(Problem::at(number, &name, "the column is named twice"));
        } else {
            index.insert(name.clone(), i);
        }
        names.push(name);
    }
    for required in ["carriage", "mode"] {
        if !index.contains_key(required) {
            problems.push(Problem::line(
                number,
                format!("the column {required} is required"),
            ));
        }
    }
    Header { names, index }
}

/// One shipment from its lines (at least one).
fn shipment(
    header: &Header,
    group: &[(u64, csv::StringRecord)],
    problems: &mut Problems,
) -> SheetShipment {
    let lines: Vec<Line<'_>> = group
        .iter()
        .map(|(number, record)| Line {
            number: *number,
            record,
            header,
        })
        .collect();
    let mut sources = Vec::new();
    let first_number = lines.first().map_or(0, |l| l.number);
    // every value of its kind
    for line in &lines {
        for name in &header.names {
            let (Some(v), Some((_, kind))) = (line.get(name), column(name)) else {
                continue;
            };
            if let Err(m) = check_kind(kind, v) {
                problems.push(Problem::at(line.number, name, m));
            }
        }
    }
    let mut obj = Map::new();
    if let Some(first) = lines.first() {
        // the shipment's columns agree with its first line
        for line in lines.iter().skip(1) {
            for name in &header.names {
                if column(name).is_none_or(|(level, _)| level != Level::Shipment) {
                    continue;
                }
                let Some(v) = line.get(name) else { continue };
                match first.get(name) {
                    Some(f) if f == v => {}
                    Some(f) => problems.push(Problem::at(
                        line.number,
                        name,
                        format!(
                            "'{v}' differs from '{f}' on line {} (the shipment's columns are read from its first line)",
                            first.number
                        ),
                    )),
                    None => problems.push(Problem::at(
                        line.number,
                        name,
                        format!(
                            "is empty on line {}, the shipment's first line, where the shipment's columns are read",
                            first.number
                        ),
                    )),
                }
            }
        }
        let mut b = Builder {
            sources: &mut sources,
        };
        shipment_fields(first, &mut obj, &mut b, problems);
        let mut legs = Vec::with_capacity(lines.len());
        for (i, line) in lines.iter().enumerate() {
            legs.push(Value::Object(leg(
                &format!("legs[{i}]"),
                line,
                &mut b,
                problems,
            )));
        }
        obj.insert("legs".to_owned(), Value::Array(legs));
    }
    SheetShipment {
        line: first_number,
        row: Value::Object(obj).to_string(),
        sources,
    }
}

fn shipment_fields(
    line: &Line<'_>,
    obj: &mut Map<String, Value>,
    b: &mut Builder<'_>,
    problems: &mut Problems,
) {
    for (col, field, kind) in SHIPMENT_FIELDS {
        if let Some(v) = line.get(col) {
            b.put(obj, "", field, scalar(*kind, v), line, col);
        }
    }
    match (
        line.get("freight_cost_amount"),
        line.get("freight_cost_currency"),
    ) {
        (Some(value), Some(currency)) => {
            b.put(
                obj,
                "",
                "freight_cost",
                json!({"value": value, "currency": currency}),
                line,
                "freight_cost_amount",
            );
            b.note(
                "freight_cost.currency".to_owned(),
                line,
                "freight_cost_currency",
            );
        }
        (Some(_), None) => problems.push(Problem::at(
            line.number,
            "freight_cost_currency",
            "is required with freight_cost_amount",
        )),
        (None, Some(_)) => problems.push(Problem::at(
            line.number,
            "freight_cost_amount",
            "is required with freight_cost_currency",
        )),
        (None, None) => {}
    }
    if let Some(e) = client_emissions(line, "shipment_emissions", "", b, problems) {
        obj.insert("emissions".to_owned(), e);
    }
    let mut metadata = Map::new();
    for name in &line.header.names {
        if let (Some(key), Some(v)) = (name.strip_prefix("metadata."), line.get(name)) {
            b.put(
                &mut metadata,
                "metadata",
                key,
                Value::String(v.to_owned()),
                line,
                name,
            );
        }
    }
    if !metadata.is_empty() {
        obj.insert("metadata".to_owned(), Value::Object(metadata));
    }
}

/// A value of a plain column as its JSON.
fn scalar(kind: Kind, v: &str) -> Value {
    match kind {
        Kind::Bool => Value::Bool(v == "true"),
        Kind::Order => number(v),
        _ => Value::String(v.to_owned()),
    }
}

/// Client-provided emissions from the columns `{prefix}_total_kg`, `_wtt_kg`,
/// `_ttw_kg` and `_distance_km`, at `{path}emissions`.
fn client_emissions(
    line: &Line<'_>,
    prefix: &str,
    path: &str,
    b: &mut Builder<'_>,
    problems: &mut Problems,
) -> Option<Value> {
    let col = |part: &str| format!("{prefix}_{part}");
    let parts = [
        ("total_kg", "total_emissions"),
        ("wtt_kg", "wtt"),
        ("ttw_kg", "ttw"),
        ("distance_km", "distance_km"),
    ];
    let given: Vec<_> = parts
        .iter()
        .filter_map(|(p, f)| line.get(&col(p)).map(|v| (col(p), *f, v)))
        .collect();
    let first_given = given.first()?;
    let mut missing = false;
    for required in ["total_kg", "distance_km"] {
        if line.get(&col(required)).is_none() {
            problems.push(Problem::at(
                line.number,
                &col(required),
                format!("is required with {}", first_given.0),
            ));
            missing = true;
        }
    }
    if missing {
        return None;
    }
    let mut obj = Map::new();
    for (column, field, v) in &given {
        b.put(
            &mut obj,
            &format!("{path}emissions"),
            field,
            Value::String((*v).to_owned()),
            line,
            column,
        );
    }
    b.note(format!("{path}emissions"), line, &col("total_kg"));
    Some(Value::Object(obj))
}

/// One leg from its line.
fn leg(
    path: &str,
    line: &Line<'_>,
    b: &mut Builder<'_>,
    problems: &mut Problems,
) -> Map<String, Value> {
    let mut obj = Map::new();
    for (col, field, kind) in LEG_FIELDS {
        if let Some(v) = line.get(col) {
            b.put(&mut obj, path, field, scalar(*kind, v), line, col);
        }
    }
    if line.get("carriage").is_none() {
        problems.push(Problem::at(
            line.number,
            "carriage",
            "is required (pre, main or on)",
        ));
    }
    if let Some(m) = method(path, line, b, problems) {
        obj.insert("method".to_owned(), m);
    }
    for end in ["origin", "destination"] {
        if let Some(l) = location(path, end, line, b, problems) {
            obj.insert(end.to_owned(), l);
        }
    }
    if let Some(km) = line.get("distance_km") {
        b.put(
            &mut obj,
            path,
            "distance",
            json!({"amount": km, "unit": "km"}),
            line,
            "distance_km",
        );
    }
    let mut load = Map::new();
    let load_path = format!("{path}.load");
    match (line.get("mass"), line.get("mass_unit")) {
        (Some(amount), Some(unit)) => {
            b.put(
                &mut load,
                &load_path,
                "mass",
                json!({"amount": amount, "unit": unit}),
                line,
                "mass",
            );
            b.note(format!("{load_path}.mass.unit"), line, "mass_unit");
        }
        (Some(_), None) => problems.push(Problem::at(
            line.number,
            "mass_unit",
            "is required with mass (g, kg or t)",
        )),
        (None, Some(_)) => problems.push(Problem::at(
            line.number,
            "mass",
            "is required with mass_unit",
        )),
        (None, None) => {}
    }
    if let Some(teu) = line.get("teu") {
        b.put(
            &mut load,
            &load_path,
            "containers",
            json!({"teu": teu}),
            line,
            "teu",
        );
    }
    if !load.is_empty() {
        obj.insert("load".to_owned(), Value::Object(load));
    }
    let mut dates = Map::new();
    for d in ["etd", "eta", "atd", "ata"] {
        if let Some(v) = line.get(d) {
            b.put(
                &mut dates,
                &format!("{path}.dates"),
                d,
                Value::String(v.to_owned()),
                line,
                d,
            );
        }
    }
    if !dates.is_empty() {
        obj.insert("dates".to_owned(), Value::Object(dates));
    }
    if let Some(e) = client_emissions(line, "leg_emissions", &format!("{path}."), b, problems) {
        obj.insert("emissions".to_owned(), e);
    }
    obj
}

/// The leg's method from `mode` and that mode's columns.
fn method(
    path: &str,
    line: &Line<'_>,
    b: &mut Builder<'_>,
    problems: &mut Problems,
) -> Option<Value> {
    let Some(mode) = line.get("mode") else {
        problems.push(Problem::at(
            line.number,
            "mode",
            "is required (road, sea, air, rail or logistics_site)",
        ));
        return None;
    };
    if !MODES.contains(&mode) {
        return None; // reported with the values' kinds
    }
    let mut wrong = false;
    for (col, modes, _) in METHOD_COLUMNS {
        if line.get(col).is_some() && !modes.contains(&mode) {
            problems.push(Problem::at(
                line.number,
                col,
                format!(
                    "applies to {} legs, not to a {mode} leg",
                    modes.join(" or ")
                ),
            ));
            wrong = true;
        }
    }
    if wrong {
        return None;
    }
    let mpath = format!("{path}.method");
    let mut obj = Map::new();
    let put =
        |obj: &mut Map<String, Value>, b: &mut Builder<'_>, col: &str, field: &str, kind: Kind| {
            if let Some(v) = line.get(col) {
                b.put(obj, &mpath, field, scalar(kind, v), line, col);
            }
        };
    let required = |col: &str, problems: &mut Problems, what: &str| {
        if line.get(col).is_none() {
            problems.push(Problem::at(
                line.number,
                col,
                format!("is required for {what}"),
            ));
        }
    };
    // exactly one of the given ways to name a method
    let one_of = |cols: &[&str], problems: &mut Problems| -> Option<&'static str> {
        let given: Vec<&str> = cols
            .iter()
            .copied()
            .filter(|c| line.get(c).is_some())
            .collect();
        match given.as_slice() {
            [] => {
                let first = cols.first().copied().unwrap_or("mode");
                problems.push(Problem::at(
                    line.number,
                    first,
                    format!("a {mode} leg needs one of: {}", cols.join(", ")),
                ));
                None
            }
            [one] => METHOD_COLUMNS
                .iter()
                .find(|(c, _, _)| c == one)
                .map(|(c, _, _)| *c),
            [_, second, ..] => {
                problems.push(Problem::at(
                    line.number,
                    second,
                    format!("give only one of: {}", cols.join(", ")),
                ));
                None
            }
        }
    };
    match mode {
        "road" => {
            required("vehicle_type", problems, "a road leg");
            required("fuel", problems, "a road leg");
            put(&mut obj, b, "vehicle_type", "vehicle_type", Kind::Text);
            put(&mut obj, b, "fuel", "fuel", Kind::Text);
            put(&mut obj, b, "refrigerated", "refrigerated", Kind::Bool);
        }
        "sea" => {
            for (col, _, kind) in METHOD_COLUMNS.iter().filter(|(_, m, _)| m.contains(&"sea")) {
                put(&mut obj, b, col, col, *kind);
            }
        }
        "air" => match one_of(
            &["aircraft_type", "flight_number", "simple_method"],
            problems,
        )? {
            "aircraft_type" => {
                if line.get("departure_on").is_some()
                    || line.get("aircraft_configuration").is_some()
                {
                    let col = if line.get("departure_on").is_some() {
                        "departure_on"
                    } else {
                        "aircraft_configuration"
                    };
                    problems.push(Problem::at(
                        line.number,
                        col,
                        "applies with flight_number only",
                    ));
                }
                put(&mut obj, b, "aircraft_type", "aircraft_type", Kind::Text);
            }
            "flight_number" => {
                required("departure_on", problems, "a flight number");
                put(&mut obj, b, "flight_number", "flight_number", Kind::Text);
                put(&mut obj, b, "departure_on", "departure_on", Kind::Text);
                put(
                    &mut obj,
                    b,
                    "aircraft_configuration",
                    "aircraft_configuration",
                    Kind::Text,
                );
            }
            _ => return simple(path, line, AIR_SIMPLE, "air", b, problems),
        },
        "rail" => match one_of(&["train_type", "simple_method"], problems)? {
            "train_type" => put(&mut obj, b, "train_type", "train_type", Kind::Text),
            _ => return simple(path, line, RAIL_SIMPLE, "rail", b, problems),
        },
        _ => {
            let Some(site) = line.get("logistics_site") else {
                required("logistics_site", problems, "a logistics_site leg");
                return None;
            };
            b.note(mpath, line, "logistics_site");
            return Some(Value::String(site.to_owned()));
        }
    }
    b.note(mpath, line, "mode");
    Some(Value::Object(obj))
}

/// A simple method name of the mode (the contract's `SimpleShipmentMethod`).
fn simple(
    path: &str,
    line: &Line<'_>,
    allowed: &[&str],
    mode: &str,
    b: &mut Builder<'_>,
    problems: &mut Problems,
) -> Option<Value> {
    let v = line.get("simple_method")?;
    if !allowed.contains(&v) {
        if SIMPLE.contains(&v) {
            problems.push(Problem::at(
                line.number,
                "simple_method",
                format!(
                    "'{v}' is not a {mode} method: one of {}",
                    allowed.join(", ")
                ),
            ));
        }
        return None;
    }
    b.note(format!("{path}.method"), line, "simple_method");
    Some(Value::String(v.to_owned()))
}

/// The kinds of location, by their columns (after the end's prefix).
const LOCATION_KINDS: &[&[&str]] = &[
    &["locode"],
    &["airport_code"],
    &[
        "street_line1",
        "street_line2",
        "postcode",
        "city",
        "country_code",
    ],
    &["latitude", "longitude"],
    &["unknown_code"],
];

/// A leg's origin or destination: one kind of location.
fn location(
    path: &str,
    end: &str,
    line: &Line<'_>,
    b: &mut Builder<'_>,
    problems: &mut Problems,
) -> Option<Value> {
    let col = |part: &str| format!("{end}_{part}");
    let kinds: Vec<&[&str]> = LOCATION_KINDS
        .iter()
        .copied()
        .filter(|parts| parts.iter().any(|p| line.get(&col(p)).is_some()))
        .collect();
    let chosen = *kinds.first()?;
    if let Some(second) = kinds.get(1) {
        let given = second
            .iter()
            .find(|p| line.get(&col(p)).is_some())
            .map_or_else(|| col("locode"), |p| col(p));
        problems.push(Problem::at(
            line.number,
            &given,
            format!(
                "the {end} is given twice: give a UN/LOCODE, an airport code, an address, coordinates or an unknown code, one only"
            ),
        ));
        return None;
    }
    let lpath = format!("{path}.{end}");
    let mut obj = Map::new();
    let first_col = chosen
        .iter()
        .find(|p| line.get(&col(p)).is_some())
        .map_or_else(|| col("locode"), |p| col(p));
    match chosen.first().copied() {
        Some("latitude") => {
            for (part, field) in [("latitude", "lat"), ("longitude", "lon")] {
                match line.get(&col(part)) {
                    Some(v) => b.put(&mut obj, &lpath, field, number(v), line, &col(part)),
                    None => problems.push(Problem::at(
                        line.number,
                        &col(part),
                        format!("is required with {}", first_col),
                    )),
                }
            }
        }
        Some("airport_code") => {
            if let Some(v) = line.get(&col("airport_code")) {
                b.put(
                    &mut obj,
                    &lpath,
                    "code",
                    Value::String(v.to_owned()),
                    line,
                    &col("airport_code"),
                );
            }
        }
        _ => {
            for part in chosen {
                if let Some(v) = line.get(&col(part)) {
                    b.put(
                        &mut obj,
                        &lpath,
                        part,
                        Value::String(v.to_owned()),
                        line,
                        &col(part),
                    );
                }
            }
        }
    }
    b.note(lpath, line, &first_col);
    Some(Value::Object(obj))
}

#[cfg(test)]
mod tests;
