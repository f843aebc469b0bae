//! How the store writes an estimate's typed result into its `result` column
//! (JSON, `"v": 2`), and reads it back — including rows written before the
//! estimate became typed (no `v`: the API's own answer fields, with the quote
//! terms inside the stored request), so that an upgrade reads every old estimate.

use rust_decimal::Decimal;
use rust_decimal::prelude::ToPrimitive;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use tonne_estimation::Distance;
use tonne_estimation::estimate::{
    BundleShare, EstimateDetail, EstimateKind, Methodology, QuoteTerms, ShippingLeg,
};
use tonne_estimation::explain::{Explanation, FactorUse, Part, Quantity};
use tonne_estimation::footprint::CompanyEstimate;
use tonne_kernel::{Mass, MassUnit};

/// What an estimate's `result` column holds.
#[derive(Debug, Serialize, Deserialize)]
pub(super) struct Stored {
    v: u8,
    detail: DetailV2,
    explanation: ExplanationV2,
    quote: QuoteV2,
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum DetailV2 {
    Plain,
    PassengerLegs {
        legs_g: Vec<i64>,
    },
    Shipping {
        leg: LegV2,
    },
    MultiLegShipping {
        distance_km: Decimal,
        legs: Vec<LegV2>,
    },
    Transaction {
        search_term_match: Option<String>,
    },
    Company {
        grams: [i64; 10],
    },
    MoneyMovement,
}

#[derive(Debug, Serialize, Deserialize)]
struct LegV2 {
    mass_g: i64,
    distance_km: Decimal,
    methodology: Vec<String>,
}

#[derive(Debug, Serialize, Deserialize)]
struct ExplanationV2 {
    parts: Vec<PartV2>,
    notes: Vec<String>,
}

#[derive(Debug, Serialize, Deserialize)]
struct PartV2 {
    name: String,
    mass_g: i64,
    factors: Vec<FactorV2>,
    quantities: Vec<QuantityV2>,
}

#[derive(Debug, Serialize, Deserialize)]
struct FactorV2 {
    id: String,
    value: Decimal,
    unit: String,
    source: String,
    row: Option<String>,
    year: Option<u16>,
}

#[derive(Debug, Serialize, Deserialize)]
struct QuantityV2 {
    name: String,
    amount: Decimal,
    unit: String,
    method: String,
}

#[derive(Debug, Default, Serialize, Deserialize)]
struct QuoteV2 {
    selection: Option<Vec<(String, Option<u32>)>>,
    trunc: Option<String>,
}

fn leg_v2(l: &ShippingLeg) -> LegV2 {
    LegV2 {
        mass_g: l.mass.grams(),
        distance_km: l.distance.km(),
        methodology: l
            .methodology
            .iter()
            .map(|m| m.as_str().to_owned())
            .collect(),
    }
}

fn methodology<'a>(names: impl IntoIterator<Item = &'a str>) -> Vec<Methodology> {
    names.into_iter().filter_map(Methodology::parse).collect()
}

fn leg(l: LegV2) -> ShippingLeg {
    ShippingLeg {
        mass: Mass::from_grams(l.mass_g),
        distance: Distance::from_km(l.distance_km),
        methodology: methodology(l.methodology.iter().map(String::as_str)),
    }
}

fn company_grams(c: &CompanyEstimate) -> [i64; 10] {
    [
        c.mass,
        c.scope1,
        c.scope2,
        c.scope3,
        c.energy,
        c.remote_employee,
        c.travel_and_commute,
        c.food_and_drink,
        c.material_and_waste,
        c.tech,
    ]
    .map(|m| m.grams())
}

fn company(g: [i64; 10]) -> CompanyEstimate {
    let [
        mass,
        scope1,
        scope2,
        scope3,
        energy,
        remote,
        travel,
        food,
        material,
        tech,
    ] = g.map(Mass::from_grams);
    CompanyEstimate {
        mass,
        scope1,
        scope2,
        scope3,
        energy,
        remote_employee: remote,
        travel_and_commute: travel,
        food_and_drink: food,
        material_and_waste: material,
        tech,
    }
}

impl Stored {
    /// The typed result, ready to write.
    pub(super) fn encode(
        detail: &EstimateDetail,
        explanation: &Explanation,
        quote: &QuoteTerms,
    ) -> Self {
        let detail = match detail {
            EstimateDetail::Plain => DetailV2::Plain,
            EstimateDetail::PassengerLegs(legs) => DetailV2::PassengerLegs {
                legs_g: legs.iter().map(Mass::grams).collect(),
            },
            EstimateDetail::Shipping(l) => DetailV2::Shipping { leg: leg_v2(l) },
            EstimateDetail::MultiLegShipping { distance, legs } => DetailV2::MultiLegShipping {
                distance_km: distance.km(),
                legs: legs.iter().map(leg_v2).collect(),
            },
            EstimateDetail::Transaction { search_term_match } => DetailV2::Transaction {
                search_term_match: search_term_match.clone(),
            },
            EstimateDetail::Company(c) => DetailV2::Company {
                grams: company_grams(c),
            },
            EstimateDetail::MoneyMovement => DetailV2::MoneyMovement,
        };
        let parts = explanation
            .parts
            .iter()
            .map(|p| PartV2 {
                name: p.name.clone(),
                mass_g: p.mass.grams(),
                factors: p
                    .factors
                    .iter()
                    .map(|f| FactorV2 {
                        id: f.id.clone(),
                        value: f.value,
                        unit: f.unit.clone(),
                        source: f.source.clone(),
                        row: f.row.clone(),
                        year: f.year,
                    })
                    .collect(),
                quantities: p
                    .quantities
                    .iter()
                    .map(|q| QuantityV2 {
                        name: q.name.clone(),
                        amount: q.amount,
                        unit: q.unit.clone(),
                        method: q.method.clone(),
                    })
                    .collect(),
            })
            .collect();
        Self {
            v: 2,
            detail,
            explanation: ExplanationV2 {
                parts,
                notes: explanation.notes.clone(),
            },
            quote: QuoteV2 {
                selection: quote.bundle_selection.as_ref().map(|s| {
                    s.iter()
                        .map(|b| (b.bundle_id.clone(), b.hundredths))
                        .collect()
                }),
                trunc: quote.quantity_trunc.map(|u| u.as_str().to_owned()),
            },
        }
    }

    /// The typed result back.
    fn decode(self) -> (EstimateDetail, Explanation, QuoteTerms) {
        let detail = match self.detail {
            DetailV2::Plain => EstimateDetail::Plain,
            DetailV2::PassengerLegs { legs_g } => {
                EstimateDetail::PassengerLegs(legs_g.into_iter().map(Mass::from_grams).collect())
            }
            DetailV2::Shipping { leg: l } => EstimateDetail::Shipping(leg(l)),
            DetailV2::MultiLegShipping { distance_km, legs } => EstimateDetail::MultiLegShipping {
                distance: Distance::from_km(distance_km),
                legs: legs.into_iter().map(leg).collect(),
            },
            DetailV2::Transaction { search_term_match } => {
                EstimateDetail::Transaction { search_term_match }
            }
            DetailV2::Company { grams } => EstimateDetail::Company(company(grams)),
            DetailV2::MoneyMovement => EstimateDetail::MoneyMovement,
        };
        let parts = self
            .explanation
            .parts
            .into_iter()
            .map(|p| Part {
                name: p.name,
                mass: Mass::from_grams(p.mass_g),
                factors: p
                    .factors
                    .into_iter()
                    .map(|f| FactorUse {
                        id: f.id,
                        value: f.value,
                        unit: f.unit,
                        source: f.source,
                        row: f.row,
                        year: f.year,
                    })
                    .collect(),
                quantities: p
                    .quantities
                    .into_iter()
                    .map(|q| Quantity {
                        name: q.name,
                        amount: q.amount,
                        unit: q.unit,
                        method: q.method,
                    })
                    .collect(),
            })
            .collect();
        let quote = QuoteTerms {
            bundle_selection: self.quote.selection.map(|s| {
                s.into_iter()
                    .map(|(bundle_id, hundredths)| BundleShare {
                        bundle_id,
                        hundredths,
                    })
                    .collect()
            }),
            quantity_trunc: self.quote.trunc.as_deref().and_then(MassUnit::parse),
        };
        let explanation = Explanation {
            parts,
            notes: self.explanation.notes,
        };
        (detail, explanation, quote)
    }
}

/// Reads a `result` column: the typed encoding, or a row written before it.
pub(super) fn decode(
    kind: EstimateKind,
    mass: Option<Mass>,
    result: &str,
    request: &str,
) -> Option<(EstimateDetail, Explanation, QuoteTerms)> {
    let value: Value = serde_json::from_str(result).ok()?;
    if value.get("v").is_some() {
        return serde_json::from_value::<Stored>(value)
            .ok()
            .map(Stored::decode);
    }
    legacy(kind, mass, &value, request)
}

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
fn legacy(
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
    };
    Some((detail, explanation, quote))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_of_the_first_format_still_read() {
        let (detail, explanation, quote) = decode(
            EstimateKind::MultiLegShipping,
            Some(Mass::from_grams(3_000)),
            r#"{"legs":[{"mass":{"amount":"0.001","unit":"t"},"distance":{"amount":"12.5","unit":"km"},"methodology":["imo_unavailable_container_ship_fallback"]},{"mass":{"amount":"0.002","unit":"t"},"distance":{"amount":"1","unit":"km"},"methodology":[]}],"distance":{"amount":"13.5","unit":"km"}}"#,
            r#"{"shipment":{},"bundle_selection":[{"bundle_id":"a","percentage":60},{"bundle_id":"b","percentage":"40"}],"quantity_trunc":"kg"}"#,
        )
        .unwrap();
        let EstimateDetail::MultiLegShipping { distance, legs } = detail else {
            panic!("{detail:?}")
        };
        assert_eq!(distance.km(), Decimal::new(135, 1));
        assert_eq!(legs[0].mass, Mass::from_grams(1_000));
        assert_eq!(
            legs[0].methodology,
            vec![Methodology::ImoUnavailableContainerShipFallback]
        );
        assert!(explanation.parts.is_empty());
        assert_eq!(
            quote.bundle_selection.unwrap()[1],
            BundleShare {
                bundle_id: "b".into(),
                hundredths: Some(4_000)
            }
        );
        assert_eq!(quote.quantity_trunc, Some(MassUnit::Kg));
    }

    #[test]
    fn a_money_movement_row_of_the_first_format_reads_as_such() {
        let (detail, _, quote) = decode(EstimateKind::Transaction, None, "{}", "{}").unwrap();
        assert_eq!(detail, EstimateDetail::MoneyMovement);
        assert_eq!(quote, QuoteTerms::default());
    }
}
