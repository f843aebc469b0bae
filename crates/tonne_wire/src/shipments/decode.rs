//! [`JsonRowDecoder`]: one stored row's JSON text, read as the client's
//! `CreateShipmentRequest` (snake_case on the wire), into a
//! [`ShipmentDraft`]. Strict: unknown fields are refused, every closed
//! vocabulary is checked, `null` only where the model allows it; the first
//! problem is the row's error, naming its field (`legs[1].method.fuel`).
//! Units are converted here (mass to tonnes, distance to km, containers to
//! TEU); the rules between fields are the domain's (`ShipmentDraft::check`).

use rust_decimal::Decimal;
use serde_json::Value;
use time::Date;
use tonne_estimation::{Distance, DistanceUnit};
use tonne_shipments::{
    Carriage, ClientEmissions, LegDraft, Load, RowDecoder, RowError, ShipmentDraft,
};

use super::fields::{Obj, item};
use super::location::location;
use super::method::method;
use super::vocab;

/// The fields of `CreateShipmentRequest`: 11 structured ones, then its 10
/// free texts ([`ROW_TEXTS`]).
const ROW: [&str; 21] = [
    "shipment_id",
    "target_internal_id",
    "target_internal_name",
    "metadata",
    "service_level",
    "incoterm",
    "contract_type",
    "hazardous_cargo",
    "freight_cost",
    "emissions",
    "legs",
    "booking_reference",
    "house_waybill",
    "reference_id_po",
    "consignee_id",
    "consignee_name",
    "consignor_id",
    "consignor_name",
    "freight_paying_party",
    "legal_entity",
    "shipper_contract_emission_scope",
];

/// The free-text fields of `CreateShipmentRequest` (checked, not kept).
const ROW_TEXTS: &[&str] = ROW.split_at(11).1;

/// The fields of the client's `ShipmentLeg`.
pub const LEG_FIELDS: [&str; 18] = [
    "leg_id",
    "order",
    "method",
    "carriage",
    "origin",
    "destination",
    "distance",
    "carrier_name",
    "scac_code",
    "master_waybill",
    "transit_corridor",
    "restricted_transit_corridors",
    "load",
    "load_factor",
    "empty_run_factor",
    "passenger_utilisation",
    "dates",
    "emissions",
];

/// The fields of the client's `ClientProvidedLegEmissions`: the required
/// total and distance, `wtt`, `ttw` and the factor's year, then its 20
/// decimal figures ([`LEG_EMISSION_FIGURES`]), then its free texts
/// ([`LEG_EMISSION_TEXTS`]).
pub const LEG_EMISSION_FIELDS: [&str; 30] = [
    "total_emissions",
    "wtt",
    "ttw",
    "distance_km",
    "emission_factor_year",
    "intensity",
    "particles_total",
    "particles_wtt",
    "particles_ttw",
    "carbon_dioxide_total",
    "carbon_dioxide_wtt",
    "carbon_dioxide_ttw",
    "nitrogen_oxides_total",
    "nitrogen_oxides_wtt",
    "nitrogen_oxides_ttw",
    "sulfur_dioxides_total",
    "sulfur_dioxides_wtt",
    "sulfur_dioxides_ttw",
    "non_methane_hydro_carbons_total",
    "non_methane_hydro_carbons_wtt",
    "non_methane_hydro_carbons_ttw",
    "primary_energy_mj",
    "fuel_consumption_l",
    "transport_activity",
    "emission_factor_intensity",
    "emission_factor_description",
    "emission_factor_region",
    "emission_factor_source",
    "emission_factor_numerator",
    "emission_factor_denominator",
];

/// The decimal figures of `ClientProvidedLegEmissions` besides its required
/// total and distance (all kg, MJ, litres or t·km; nullable but `wtt`/`ttw`).
const LEG_EMISSION_FIGURES: &[&str] = LEG_EMISSION_FIELDS.split_at(5).1.split_at(20).0;

/// The free-text fields of `ClientProvidedLegEmissions`.
const LEG_EMISSION_TEXTS: &[&str] = LEG_EMISSION_FIELDS.split_at(25).1;

/// Reads rows as the client 3.9.2 `CreateShipmentRequest`.
///
/// ```
/// use tonne_shipments::RowDecoder;
/// use tonne_wire::shipments::JsonRowDecoder;
///
/// let row = r#"{"shipment_id":"PO-1","target_internal_id":"c-1","legs":[{"carriage":"main",
///     "method":{"train_type":"electric_freight_train"},"distance":{"amount":"300","unit":"km"},
///     "load":{"mass":{"amount":"20","unit":"t"}}}]}"#;
/// let draft = JsonRowDecoder.decode(row).unwrap();
/// assert_eq!(draft.legs[0].distance_km.unwrap().to_string(), "300");
/// let bad = row.replace("electric_freight_train", "maglev");
/// assert_eq!(JsonRowDecoder.decode(&bad).unwrap_err().field, "legs[0].method.train_type");
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct JsonRowDecoder;

impl RowDecoder for JsonRowDecoder {
    fn decode(&self, row: &str) -> Result<ShipmentDraft, RowError> {
        let value: Value = serde_json::from_str(row)
            .map_err(|e| RowError::new("row", format!("is not JSON: {e}")))?;
        decode_value(&value)
    }
}

/// A row already parsed as JSON.
pub fn decode_value(value: &Value) -> Result<ShipmentDraft, RowError> {
    let o = Obj::new("", value, "CreateShipmentRequest", &ROW)?;
    let reference = o.text("shipment_id")?.map(str::to_owned);
    let target_internal_id = o.text("target_internal_id")?.map(str::to_owned);
    let target_internal_name = o.text("target_internal_name")?.map(str::to_owned);
    o.string_map("metadata")?;
    o.choice(
        "service_level",
        vocab::SERVICE_LEVELS,
        "ShipmentServiceLevel",
    )?;
    o.choice("incoterm", vocab::INCOTERMS, "Incoterm")?;
    o.choice(
        "contract_type",
        vocab::CONTRACT_TYPES,
        "ShipmentContractType",
    )?;
    o.boolean("hazardous_cargo")?;
    for f in ROW_TEXTS {
        o.string(f)?;
    }
    if let Some(v) = o.get("freight_cost")? {
        let path = o.field("freight_cost");
        let m = Obj::new(&path, v, "MonetaryAmount", &["value", "currency"])?;
        m.required_decimal("value")?;
        m.required_choice("currency", vocab::CURRENCIES, "CurrencyCode")?;
    }
    let client_emissions = o
        .get("emissions")?
        .map(|v| shipment_emissions(&o.field("emissions"), v))
        .transpose()?;
    let legs_value = o
        .array("legs")?
        .ok_or_else(|| RowError::new("legs", "is required"))?;
    let legs = legs_value
        .iter()
        .enumerate()
        .map(|(i, v)| leg(&item("legs", i), v))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(ShipmentDraft {
        reference,
        target_internal_id,
        target_internal_name,
        legs,
        client_emissions,
    })
}

fn shipment_emissions(path: &str, v: &Value) -> Result<ClientEmissions, RowError> {
    let o = Obj::new(
        path,
        v,
        "ClientProvidedShipmentEmissions",
        &["total_emissions", "wtt", "ttw", "distance_km"],
    )?;
    Ok(ClientEmissions {
        total_kg: o.required_decimal("total_emissions")?,
        wtt_kg: o.nullable_decimal("wtt")?,
        ttw_kg: o.nullable_decimal("ttw")?,
        distance_km: o.required_decimal("distance_km")?,
    })
}

fn leg_emissions(path: &str, v: &Value) -> Result<ClientEmissions, RowError> {
    let o = Obj::new(path, v, "ClientProvidedLegEmissions", &LEG_EMISSION_FIELDS)?;
    for f in LEG_EMISSION_FIGURES {
        o.nullable_decimal(f)?;
    }
    for f in LEG_EMISSION_TEXTS {
        o.string(f)?;
    }
    o.integer("emission_factor_year", 1900)?;
    Ok(ClientEmissions {
        total_kg: o.required_decimal("total_emissions")?,
        wtt_kg: o.decimal("wtt")?,
        ttw_kg: o.decimal("ttw")?,
        distance_km: o.required_decimal("distance_km")?,
    })
}

fn distance(path: &str, v: &Value) -> Result<Decimal, RowError> {
    let o = Obj::new(path, v, "Distance", &["amount", "unit"])?;
    let amount = o.required_text("amount")?;
    let unit = match o.required_choice("unit", vocab::DISTANCE_UNITS, "Distance.unit")? {
        "mi" => DistanceUnit::Mi,
        "nm" => DistanceUnit::Nm,
        _ => DistanceUnit::Km,
    };
    let field = o.field("amount");
    super::fields::decimal(&field, amount)?;
    Distance::parse(&field, amount, unit)
        .map(|d| d.km())
        .map_err(|e| match e {
            tonne_estimation::EstimateError::Invalid { reason, .. } => {
                RowError::new(field.clone(), reason)
            }
            other => RowError::new(field.clone(), other.to_string()),
        })
}

/// A `Mass` in tonnes.
fn mass(path: &str, v: &Value) -> Result<Decimal, RowError> {
    let o = Obj::new(path, v, "Mass", &["amount", "unit"])?;
    let amount = o.required_decimal("amount")?;
    let per_tonne = match o.required_choice("unit", vocab::MASS_UNITS, "MassUnit")? {
        "g" => Decimal::from(1_000_000),
        "kg" => Decimal::from(1_000),
        _ => Decimal::ONE,
    };
    Ok(amount / per_tonne)
}

/// TEU of a container type: 20 ft is one TEU, 40 ft two, 45 ft 2.25.
fn teu_of(container_type: &str) -> Decimal {
    if container_type.starts_with("20") {
        Decimal::ONE
    } else if container_type.starts_with("45") {
        Decimal::new(225, 2)
    } else {
        Decimal::TWO
    }
}

fn load(path: &str, v: &Value) -> Result<Load, RowError> {
    let o = Obj::new(
        path,
        v,
        "ShipmentLoad",
        &[
            "mass",
            "volume",
            "piece_count",
            "chargeable_mass",
            "containers",
        ],
    )?;
    let tonnes = o
        .get("mass")?
        .map(|m| mass(&o.field("mass"), m))
        .transpose()?;
    if let Some(m) = o.get("chargeable_mass")? {
        mass(&o.field("chargeable_mass"), m)?;
    }
    if let Some(v) = o.get("volume")? {
        let path = o.field("volume");
        let vol = Obj::new(&path, v, "Volume", &["amount", "unit"])?;
        vol.required_decimal("amount")?;
        vol.required_choice("unit", vocab::VOLUME_UNITS, "VolumeUnit")?;
    }
    o.integer("piece_count", 0)?;
    let teu = match o.get("containers")? {
        None => None,
        Some(c) => {
            let path = o.field("containers");
            let c = Obj::new(&path, c, "ShipmentContainer", &["type", "teu", "load_type"])?;
            let kind = c.choice("type", vocab::CONTAINER_TYPES, "ContainerSizeType")?;
            c.choice(
                "load_type",
                vocab::CONTAINER_LOAD_TYPES,
                "ContainerLoadType",
            )?;
            c.decimal("teu")?.or(kind.map(teu_of))
        }
    };
    Ok(Load { tonnes, teu })
}

/// The leg's date: actual departure, else estimated departure, else actual
/// arrival, else estimated arrival.
fn dates(path: &str, v: &Value) -> Result<Option<Date>, RowError> {
    let o = Obj::new(path, v, "ShipmentLegDates", &["etd", "eta", "atd", "ata"])?;
    let etd = o.date_or_datetime("etd")?;
    let eta = o.date_or_datetime("eta")?;
    let atd = o.date_or_datetime("atd")?;
    let ata = o.date_or_datetime("ata")?;
    Ok(atd.or(etd).or(ata).or(eta))
}

fn leg(path: &str, v: &Value) -> Result<LegDraft, RowError> {
    let o = Obj::new(path, v, "ShipmentLeg", &LEG_FIELDS)?;
    o.text("leg_id")?;
    let order = o
        .integer("order", 1)?
        .map(|n| {
            u32::try_from(n)
                .map_err(|_| RowError::new(o.field("order"), "must be at most the number of legs"))
        })
        .transpose()?;
    let method = method(&o.field("method"), o.required("method")?)?;
    let carriage = o.required_choice("carriage", vocab::CARRIAGES, "CarriageType")?;
    let carriage = Carriage::parse(carriage).unwrap_or(Carriage::Main);
    let distance_km = o
        .get("distance")?
        .map(|d| distance(&o.field("distance"), d))
        .transpose()?;
    let has_distance = distance_km.is_some();
    let origin = match o.get("origin")? {
        Some(l) => location(&o.field("origin"), l, has_distance)?,
        None => None,
    };
    let destination = match o.get("destination")? {
        Some(l) => location(&o.field("destination"), l, has_distance)?,
        None => None,
    };
    for f in ["carrier_name", "scac_code", "master_waybill"] {
        o.string(f)?;
    }
    o.choice(
        "transit_corridor",
        vocab::TRANSIT_CORRIDORS,
        "TransitCorridor",
    )?;
    if let Some(list) = o.array("restricted_transit_corridors")? {
        if o.has("transit_corridor") {
            return Err(RowError::new(
                o.field("restricted_transit_corridors"),
                "may not be sent with transit_corridor",
            ));
        }
        let field = o.field("restricted_transit_corridors");
        for (i, c) in list.iter().enumerate() {
            let at = item(&field, i);
            let c = c
                .as_str()
                .ok_or_else(|| RowError::new(at.clone(), "must be a string"))?;
            super::fields::vocab(&at, c, vocab::TRANSIT_CORRIDORS, "TransitCorridor")?;
        }
    }
    let load = o
        .get("load")?
        .map(|l| load(&o.field("load"), l))
        .transpose()?
        .unwrap_or_default();
    o.share("passenger_utilisation")?;
    // the road engine's domain: some capacity used, not every kilometre empty
    let load_factor = o.share("load_factor")?;
    if load_factor.is_some_and(|l| l.is_zero()) {
        return Err(RowError::new(
            o.field("load_factor"),
            "must be greater than 0",
        ));
    }
    let empty_run_factor = o.share("empty_run_factor")?;
    if empty_run_factor.is_some_and(|e| e == Decimal::ONE) {
        return Err(RowError::new(
            o.field("empty_run_factor"),
            "must be less than 1",
        ));
    }
    let date = match o.get("dates")? {
        Some(d) => dates(&o.field("dates"), d)?,
        None => None,
    };
    let client_emissions = o
        .get("emissions")?
        .map(|e| leg_emissions(&o.field("emissions"), e))
        .transpose()?;
    Ok(LegDraft {
        order,
        carriage,
        method,
        origin,
        destination,
        distance_km,
        load,
        load_factor,
        empty_run_factor,
        date,
        client_emissions,
    })
}

#[cfg(test)]
mod tests;
