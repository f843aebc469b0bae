//! An activity line: electricity, natural gas, diesel or petrol by a
//! quantity in a unit Tonne converts.

use rust_decimal::Decimal;

use crate::electricity::{Energy, EnergyUnit};
use crate::errors::EstimateError;
use crate::estimate::EstimateRequest;
use crate::explain::{FactorUse, Part, Quantity};
use crate::factor_estimate::FactorRequest;
use crate::factors::Factor;
use crate::factors::desnz_2025 as desnz;
use crate::transaction_document::reading::RawLine;
use crate::transaction_document::{LineKind, Target};
use crate::units::kg_to_mass;

use super::context::{Context, Estimated};

/// How an activity is computed.
pub(super) enum Activity {
    /// Through an engine: electricity on the grid, gas by a catalogue factor.
    Request(Box<EstimateRequest>, String),
    /// Litres of a fuel × its DESNZ 2025 factor (the rows the freight
    /// engine burns; they are not catalogue entries).
    Litres(Factor, Decimal),
}

/// Litres × a DESNZ fuel factor, explained as one part.
pub(super) fn litres(factor: &Factor, amount: Decimal) -> Result<Estimated, EstimateError> {
    let mass = kg_to_mass("quantity", amount * factor.value())?;
    Ok(Estimated {
        kind: LineKind::Activity {
            amount,
            unit: "l".into(),
        },
        parts: vec![Part {
            name: "activity".into(),
            mass,
            factors: vec![FactorUse::of(factor)],
            quantities: vec![Quantity {
                name: "activity".into(),
                amount,
                unit: "litres".into(),
                method: "as given on the line".into(),
            }],
            wtt: None,
        }],
        notes: vec![],
        mass,
    })
}

/// An activity's computation, or `None` without a quantity in a unit
/// Tonne converts for it.
pub(super) fn activity(cx: &Context<'_>, line: &RawLine, target: Target) -> Option<Activity> {
    let q = line.quantity?;
    let unit = crate::cities::fold(line.unit.as_deref()?);
    let amount = q.normalize().to_string();
    let factor = |engine_id: &str, unit: &str| {
        let id = crate::catalogue::catalogue()
            .by_engine_id(engine_id)?
            .id
            .clone();
        Some(Activity::Request(
            Box::new(EstimateRequest::EmissionFactor(
                FactorRequest::parse(&id, &amount, unit).ok()?,
            )),
            unit.to_owned(),
        ))
    };
    let is_litres = matches!(unit.as_str(), "l" | "litre" | "litres" | "liter" | "liters");
    match target {
        Target::Electricity => {
            let (u, name) = match unit.as_str() {
                "kwh" => (EnergyUnit::KWh, "kWh"),
                "mwh" => (EnergyUnit::MWh, "MWh"),
                _ => return None,
            };
            Some(Activity::Request(
                Box::new(EstimateRequest::Electricity {
                    consumption: Energy::parse(&amount, u).ok()?,
                    country_code: Some(cx.country.clone()),
                }),
                name.to_owned(),
            ))
        }
        Target::NaturalGas => match unit.as_str() {
            "kwh" => factor("NATURAL_GAS_KWH_GROSS", "kWh"),
            "m3" | "cubic metres" | "cubic meters" => factor("NATURAL_GAS_M3", "m3"),
            _ => None,
        },
        Target::Diesel if is_litres => Some(Activity::Litres(desnz::FUEL_DIESEL_BLEND_LITRE, q)),
        Target::Petrol if is_litres => Some(Activity::Litres(desnz::FUEL_PETROL_MINERAL_LITRE, q)),
        _ => None,
    }
}
