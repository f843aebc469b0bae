//! Rows written before the estimate became typed (no `v`): the API's own
//! answer fields, with the quote terms inside the stored request.

use rust_decimal::Decimal;
use rust_decimal::prelude::ToPrimitive;
use serde_json::Value;
use tonne_estimation::Distance;
use tonne_estimation::estimate::{
    BundleShare, EstimateDetail, EstimateKind, Methodology, QuoteTerms, ShippingLeg,
};
use tonne_estimation::explain::Explanation;
use tonne_kernel::{Mass, MassUnit};

use super::values::{company, methodology};

fn tonnes(v: &Value) -> Option<Mass> {
    Mass::parse(v.get("amount")?.as_str()?, MassUnit::T).ok()
}

fn km(v: &Value) -> Option<Distance> {
    let amount: Decimal = v.get("amount")?.as_str()?.parse().ok()?;
    Some(Distance::from_km(amount))
}

fn legacy_methodology(v: &Value) -> Vec<Methodology> {
    v.get("methodology")
        .and_then(Value::as_array)
        .map(|a| methodology(a.iter().filter_map(Value::as_str)))
        .unwrap_or_default()
}

fn legacy_leg(v: &Value) -> Option<ShippingLeg> {
    Some(ShippingLeg {
        mass: tonnes(v.get("mass")?)?,
        distance: km(v.get("distance")?)?,
        methodology: legacy_methodology(v),
        facts: None,
    })
}

fn legacy_percentage(p: &Value) -> Option<u32> {
    let d: Decimal = match p {
        Value::Number(n) => Decimal::from(n.as_u64()?),
        Value::String(s) => s.parse().ok()?,
        _ => return None,
    };
    (d * Decimal::from(100)).to_u32()
}

/// A row of the first format: the answer's kind-specific fields as JSON, the
/// quote terms inside the stored request, no explanation.
pub(super) fn legacy(
    kind: EstimateKind,
    mass: Option<Mass>,
    v: &Value,
    request: &str,
) -> Option<(EstimateDetail, Explanation, QuoteTerms)> {
    let detail = match (kind, mass) {
        (_, None) => EstimateDetail::MoneyMovement,
        (EstimateKind::Electricity | EstimateKind::Flight | EstimateKind::Individual, _) => {
            EstimateDetail::Plain
        }
        (EstimateKind::PassengerTransportation, _) => EstimateDetail::PassengerLegs(
            v.get("legs")?
                .as_array()?
                .iter()
                .map(|l| tonnes(l.get("mass")?))
                .collect::<Option<_>>()?,
        ),
        (EstimateKind::Shipping, Some(m)) => EstimateDetail::Shipping(ShippingLeg {
            mass: m,
            distance: km(v.get("distance")?)?,
            methodology: legacy_methodology(v),
            facts: None,
        }),
        (EstimateKind::MultiLegShipping, _) => EstimateDetail::MultiLegShipping {
            distance: km(v.get("distance")?)?,
            legs: v
                .get("legs")?
                .as_array()?
                .iter()
                .map(legacy_leg)
                .collect::<Option<_>>()?,
        },
        (EstimateKind::Transaction, _) => EstimateDetail::Transaction {
            search_term_match: v
                .get("search_term_match")
                .and_then(Value::as_str)
                .map(str::to_owned),
        },
        // factor, by-fuel and document estimates were always stored typed
        (
            EstimateKind::EmissionFactor
            | EstimateKind::MultiLegShippingByFuel
            | EstimateKind::TransactionDocument,
            Some(_),
        ) => {
            return None;
        }
        (EstimateKind::Company, Some(m)) => {
            let c = v.get("components")?;
            let t = |o: &Value, k: &str| tonnes(o.get(k)?).map(|m| m.grams());
            EstimateDetail::Company(company([
                m.grams(),
                t(v, "scope1")?,
                t(v, "scope2")?,
                t(v, "scope3")?,
                t(c, "energy")?,
                t(c, "remote_employee")?,
                t(c, "travel_and_commute")?,
                t(c, "food_and_drink")?,
                t(c, "material_and_waste")?,
                t(c, "tech")?,
            ]))
        }
    };
    let request: Value = serde_json::from_str(request).unwrap_or(Value::Null);
    let quote = QuoteTerms {
        bundle_selection: request
            .get("bundle_selection")
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .map(|e| BundleShare {
                        bundle_id: e
                            .get("bundle_id")
                            .and_then(Value::as_str)
                            .unwrap_or_default()
                            .to_owned(),
                        hundredths: e.get("percentage").and_then(legacy_percentage),
                    })
                    .collect()
            }),
        quantity_trunc: request
            .get("quantity_trunc")
            .and_then(Value::as_str)
            .and_then(MassUnit::parse),
    };
    let explanation = Explanation {
        parts: vec![],
        notes: vec!["computed before Tonne recorded explanations".into()],
        factor_set: None,
    };
    Some((detail, explanation, quote))
}
