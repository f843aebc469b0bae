//! A calculated shipment as a PACT v2.3 ProductFootprint whose extension
//! is iLEAP's ShipmentFootprint: one TCE (transport chain element) per leg,
//! hubs included, with its ends where they can be named
//! (`super::location`), following the mapping of iLEAP's reference data
//! model (`sine-fdn/impact-protocols`, `ileap-data-model/src/pact_integration.rs`):
//! the declared unit is the tonne-kilometre (the kilogram handled for a
//! shipment of hubs only), the product id names the shipment, CPC 83117.
//!
//! A shipment is a footprint once every leg has a figure and its mass is
//! known (`None` otherwise: it is not served, see docs/API.md).

use std::fmt::Write as _;

use rust_decimal::Decimal;
use serde::Serialize;
use time::{Duration, Time};
use tonne_shipments::{DataKind, LegMethod, ShipmentLines};

use super::location::{Place, place};
use super::values::{Distance, distance_of, kg, line_tonnes, text, timestamp};

/// The PACT Technical Specifications' version the footprints follow.
pub const SPEC_VERSION: &str = "2.3.0";
/// The iLEAP ShipmentFootprint schema the extension's data follows.
pub const ILEAP_SCHEMA: &str = "https://api.ileap.sine.dev/shipment-footprint.json";
/// The iLEAP extension's version (as iLEAP's reference data model names it).
const ILEAP_VERSION: &str = "0.2.0";
const ILEAP_DOCUMENTATION: &str = "https://sine-fdn.github.io/ileap-extension/";
/// UN CPC 83117 as iLEAP's reference mapping uses it for shipments.
const PRODUCT_CATEGORY_CPC: &str = "83117";

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ProductFootprint {
    pub id: String,
    spec_version: &'static str,
    version: u32,
    pub created: String,
    status: &'static str,
    company_name: String,
    company_ids: Vec<String>,
    product_description: String,
    product_ids: Vec<String>,
    product_category_cpc: &'static str,
    product_name_company: String,
    comment: &'static str,
    pcf: CarbonFootprint,
    extensions: Vec<Extension>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct CarbonFootprint {
    declared_unit: &'static str,
    unitary_product_amount: String,
    p_cf_excluding_biogenic: String,
    fossil_ghg_emissions: String,
    fossil_carbon_content: &'static str,
    biogenic_carbon_content: &'static str,
    characterization_factors: &'static str,
    ipcc_characterization_factors_sources: [&'static str; 1],
    cross_sectoral_standards_used: [&'static str; 1],
    cross_sectoral_standards: [&'static str; 1],
    boundary_processes_description: &'static str,
    reference_period_start: String,
    reference_period_end: String,
    exempted_emissions_percent: f64,
    exempted_emissions_description: &'static str,
    packaging_emissions_included: bool,
    primary_data_share: f64,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Extension {
    spec_version: &'static str,
    data_schema: &'static str,
    documentation: &'static str,
    data: ShipmentFootprint,
}

/// iLEAP's ShipmentFootprint.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct ShipmentFootprint {
    mass: String,
    shipment_id: String,
    tces: Vec<Tce>,
}

/// iLEAP's TCE: one leg or hub of the shipment.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Tce {
    tce_id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    prev_tce_ids: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    toc_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    hoc_id: Option<String>,
    shipment_id: String,
    mass: String,
    distance: Distance,
    #[serde(skip_serializing_if = "Option::is_none")]
    origin: Option<Place>,
    #[serde(skip_serializing_if = "Option::is_none")]
    destination: Option<Place>,
    transport_activity: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    flight_no: Option<String>,
    #[serde(rename = "co2eWTW")]
    co2e_wtw: String,
    #[serde(rename = "co2eTTW")]
    co2e_ttw: String,
}

const COMMENT: &str = "Well-to-wheel greenhouse gas emissions of the shipment's transport and \
    hub operations, calculated by Tonne following ISO 14083:2023 and the GLEC Framework: each \
    leg's activity (tonne-kilometres, tonnes handled) times a published default intensity, a \
    modelled aircraft fuel burn, or the emissions the shipper measured.";
const BOUNDARY: &str = "Transport and hub operations of the shipment, well-to-wheel (energy \
    provision and operation); vehicles' and infrastructure's manufacture excluded, as ISO \
    14083 excludes them.";

/// The product id of a shipment (iLEAP's vendor-assigned code), its
/// reference percent-encoded where a URN may not hold it.
fn product_id(reference: &str) -> String {
    let mut out = String::from("urn:pathfinder:product:customcode:vendor-assigned:shipment:");
    for b in reference.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
            out.push(char::from(b));
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
    out
}

/// The shipment's reference as its product id carries it.
pub(crate) fn reference_of(item: &ShipmentLines) -> String {
    let r = &item.shipment.facets.reference;
    if r.is_empty() {
        item.shipment.id.to_string()
    } else {
        r.clone()
    }
}

/// The product id filters compare with.
pub(crate) fn product_id_of(item: &ShipmentLines) -> String {
    product_id(&reference_of(item))
}

/// The company id filters compare with.
pub(crate) fn company_id_of(item: &ShipmentLines) -> String {
    format!(
        "urn:uuid:{}",
        item.shipment.account_id.as_uuid().hyphenated()
    )
}

/// The footprint of a calculated shipment, `None` when it is not one.
pub(crate) fn product_footprint(item: &ShipmentLines) -> Option<ProductFootprint> {
    let shipment = &item.shipment;
    let lines = &item.lines;
    if lines.is_empty() || lines.iter().any(|l| l.excluded.is_some()) {
        return None;
    }
    let shipment_tonnes = lines.iter().filter_map(line_tonnes).max()?;
    let reference = reference_of(item);
    let mut tces = Vec::with_capacity(lines.len());
    let mut previous: Option<String> = None;
    for (i, line) in lines.iter().enumerate() {
        let position = line.leg.unwrap_or(u32::try_from(i + 1).unwrap_or(u32::MAX));
        let tce_id = format!("{}-{position}", shipment.id.as_uuid().hyphenated());
        let distance = distance_of(line);
        let operation = (!line.factor_id.is_empty()).then(|| line.factor_id.clone());
        let tonnes = line_tonnes(line).unwrap_or(shipment_tonnes);
        // the leg as sent, when the lines are the legs
        let leg = (lines.len() == item.legs.len())
            .then(|| item.legs.get(i))
            .flatten();
        tces.push(Tce {
            tce_id: tce_id.clone(),
            prev_tce_ids: previous.take().map(|p| vec![p]),
            toc_id: if line.hub { None } else { operation.clone() },
            hoc_id: if line.hub { operation } else { None },
            shipment_id: reference.clone(),
            mass: text(tonnes * Decimal::ONE_THOUSAND),
            distance,
            origin: leg.and_then(|l| l.origin.as_ref()).and_then(place),
            destination: leg.and_then(|l| l.destination.as_ref()).and_then(place),
            transport_activity: text(line.activity_tkm),
            flight_no: leg.and_then(|l| match &l.method {
                LegMethod::FlightNumber(number) => Some(number.clone()),
                _ => None,
            }),
            co2e_wtw: text(kg(line.total())),
            co2e_ttw: text(kg(line.ttw)),
        });
        previous = Some(tce_id);
    }
    let total_kg: Decimal = lines.iter().map(|l| kg(l.total())).sum();
    let tkm: Decimal = lines.iter().map(|l| l.activity_tkm).sum();
    let (unit, amount) = if tkm > Decimal::ZERO {
        ("ton kilometer", tkm)
    } else {
        ("kilogram", shipment_tonnes * Decimal::ONE_THOUSAND)
    };
    let per_unit = (total_kg / amount).round_dp(9);
    let primary_kg: Decimal = lines
        .iter()
        .filter(|l| l.data == Some(DataKind::Primary))
        .map(|l| kg(l.total()))
        .sum();
    let primary_share = if total_kg > Decimal::ZERO {
        (primary_kg * Decimal::ONE_HUNDRED / total_kg).round_dp(2)
    } else {
        Decimal::ZERO
    };
    let day = shipment
        .facets
        .shipment_date
        .unwrap_or_else(|| shipment.created_at.date());
    let start = day.with_time(Time::MIDNIGHT).assume_utc();
    let legs = lines.len();
    let shipper = if shipment.shipper.name.trim().is_empty() {
        "Tonne account".to_owned()
    } else {
        shipment.shipper.name.clone()
    };
    Some(ProductFootprint {
        id: shipment.id.as_uuid().hyphenated().to_string(),
        spec_version: SPEC_VERSION,
        version: 1,
        created: timestamp(shipment.created_at),
        status: "Active",
        company_name: shipper,
        company_ids: vec![company_id_of(item)],
        product_description: format!(
            "Transport of shipment {reference}: {legs} leg{}, {} t",
            if legs == 1 { "" } else { "s" },
            text(shipment_tonnes)
        ),
        product_ids: vec![product_id(&reference)],
        product_category_cpc: PRODUCT_CATEGORY_CPC,
        product_name_company: format!("Shipment {reference}"),
        comment: COMMENT,
        pcf: CarbonFootprint {
            declared_unit: unit,
            unitary_product_amount: text(amount),
            p_cf_excluding_biogenic: text(per_unit),
            fossil_ghg_emissions: text(per_unit),
            fossil_carbon_content: "0",
            biogenic_carbon_content: "0",
            characterization_factors: "AR5",
            ipcc_characterization_factors_sources: ["AR5"],
            cross_sectoral_standards_used: ["GHG Protocol Product standard"],
            cross_sectoral_standards: ["ISO14083"],
            boundary_processes_description: BOUNDARY,
            reference_period_start: timestamp(start),
            reference_period_end: timestamp(start + Duration::days(1)),
            exempted_emissions_percent: 0.0,
            exempted_emissions_description: "",
            packaging_emissions_included: false,
            primary_data_share: f64::try_from(primary_share).unwrap_or(0.0),
        },
        extensions: vec![Extension {
            spec_version: ILEAP_VERSION,
            data_schema: ILEAP_SCHEMA,
            documentation: ILEAP_DOCUMENTATION,
            data: ShipmentFootprint {
                mass: text(shipment_tonnes * Decimal::ONE_THOUSAND),
                shipment_id: reference,
                tces,
            },
        }],
    })
}
