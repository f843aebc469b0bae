//! How the store writes an estimate's typed result into its `result` column
//! (JSON, `"v": 2`), and reads it back — including rows written before the
//! estimate became typed (no `v`: the API's own answer fields, with the quote
//! terms inside the stored request), so that an upgrade reads every old estimate.

use rust_decimal::Decimal;
use rust_decimal::prelude::ToPrimitive;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use tonne_estimation::Distance;
use tonne_estimation::catalogue::{CatalogueFactor, FactorSource, LogicalUnit, denominator_unit};
use tonne_estimation::estimate::{
    BundleShare, EstimateDetail, EstimateKind, FuelLegResult, LegFacts, Methodology, QuoteTerms,
    RoadFacts, RouteEnd, ShippingLeg,
};
use tonne_estimation::explain::{Explanation, FactorUse, Part, Quantity, Wtw};
use tonne_estimation::factors::GasSplit;
use tonne_estimation::footprint::CompanyEstimate;
use tonne_estimation::shipping::{DataQuality, DistanceMethod, Grade};
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
    EmissionFactor {
        factor: CatalogueV2,
    },
    FuelLegs {
        legs: Vec<FuelLegV2>,
    },
    TransactionDocument {
        document: super::document::DocumentV2,
    },
}

/// A by-fuel leg.
#[derive(Debug, Serialize, Deserialize)]
struct FuelLegV2 {
    mass_g: i64,
    /// Well-to-tank, tank-to-wheel, unknown.
    wtw_g: [i64; 3],
    energy_mj_per_l: Decimal,
    grade: String,
}

/// A catalogue factor as it was when an estimate used it.
#[derive(Debug, Serialize, Deserialize)]
struct CatalogueV2 {
    id: String,
    name: String,
    source: String,
    source_version: String,
    publication: String,
    publication_year: u16,
    published: String,
    region: String,
    category: Option<String>,
    denominator: String,
    logical_unit: String,
    kg_co2e: Decimal,
    gases: Option<GasV2>,
    engine_id: String,
}

impl CatalogueV2 {
    fn of(f: &CatalogueFactor) -> Self {
        Self {
            id: f.id.clone(),
            name: f.name.clone(),
            source: f.source.as_str().to_owned(),
            source_version: f.source_version.clone(),
            publication: f.publication.clone(),
            publication_year: f.publication_year,
            published: f.published.to_string(),
            region: f.region.clone(),
            category: f.category.clone(),
            denominator: f.denominator.to_owned(),
            logical_unit: f.logical_unit.as_str().to_owned(),
            kg_co2e: f.kg_co2e,
            gases: f.gases.as_ref().map(GasV2::of),
            engine_id: f.engine_id.clone(),
        }
    }

    /// The factor back; `None` when a field no longer reads (the row is
    /// then reported corrupt rather than shown wrong).
    fn factor(self) -> Option<CatalogueFactor> {
        let date = time::macros::format_description!("[year]-[month]-[day]");
        Some(CatalogueFactor {
            id: self.id,
            name: self.name,
            source: FactorSource::parse(&self.source)?,
            source_version: self.source_version,
            publication: self.publication,
            publication_year: self.publication_year,
            published: time::Date::parse(&self.published, date).ok()?,
            region: self.region,
            category: self.category,
            denominator: denominator_unit(&self.denominator)?,
            logical_unit: LogicalUnit::parse(&self.logical_unit)?,
            kg_co2e: self.kg_co2e,
            gases: self.gases.map(GasV2::split),
            engine_id: self.engine_id,
        })
    }
}

#[derive(Debug, Serialize, Deserialize)]
struct LegV2 {
    mass_g: i64,
    distance_km: Decimal,
    methodology: Vec<String>,
    /// Absent from rows written before Tonne kept the 2024 facts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    facts: Option<FactsV2>,
}

#[derive(Debug, Serialize, Deserialize)]
struct FactsV2 {
    distance_method: String,
    raw_km: Decimal,
    ends: Option<[EndV2; 2]>,
    payload_t: Decimal,
    ttw_kg_per_tkm: Decimal,
    wtt_kg_per_tkm: Option<Decimal>,
    /// Well-to-tank, tank-to-wheel, unknown.
    wtw_g: [i64; 3],
    /// Score, emission factor, route (or null), shipment grades; absent from
    /// rows written before Tonne graded legs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    quality: Option<(String, String, Option<String>, String)>,
    /// The road method's load model; absent for other methods.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    road: Option<RoadV2>,
}

#[derive(Debug, Serialize, Deserialize)]
struct RoadV2 {
    energy_mj_per_tkm: Decimal,
    capacity_t: Decimal,
    load_factor: Decimal,
    empty_runs_factor: Decimal,
    capacity_utilisation: Decimal,
    gradient: Option<String>,
    situation: Option<String>,
    emission_standard: Option<String>,
}

#[derive(Debug, Serialize, Deserialize)]
struct EndV2 {
    label: String,
    lat: Decimal,
    lon: Decimal,
}

#[derive(Debug, Serialize, Deserialize)]
struct GasV2 {
    co2: Decimal,
    ch4: Decimal,
    n2o: Decimal,
    wtt_row: String,
    wtt: Decimal,
}

impl GasV2 {
    fn of(g: &GasSplit) -> Self {
        Self {
            co2: g.co2,
            ch4: g.ch4,
            n2o: g.n2o,
            wtt_row: g.wtt_row.clone(),
            wtt: g.wtt,
        }
    }

    fn split(self) -> GasSplit {
        GasSplit {
            co2: self.co2,
            ch4: self.ch4,
            n2o: self.n2o,
            wtt_row: self.wtt_row,
            wtt: self.wtt,
        }
    }
}

#[derive(Debug, Serialize, Deserialize)]
struct ExplanationV2 {
    parts: Vec<PartV2>,
    notes: Vec<String>,
    /// Absent from rows written before Tonne recorded it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    factor_set: Option<String>,
}

#[derive(Debug, Serialize, Deserialize)]
struct PartV2 {
    name: String,
    mass_g: i64,
    factors: Vec<FactorV2>,
    quantities: Vec<QuantityV2>,
    /// The well-to-tank grams inside `mass_g` (a well-to-wheel freight leg);
    /// absent from rows whose mass is the factors' product alone, and from
    /// every row written before freight became well-to-wheel.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    wtt_g: Option<i64>,
}

#[derive(Debug, Serialize, Deserialize)]
struct FactorV2 {
    id: String,
    value: Decimal,
    unit: String,
    source: String,
    row: Option<String>,
    year: Option<u16>,
    /// Absent from rows written before Tonne kept it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    gases: Option<GasV2>,
    /// Absent from rows written before Tonne recorded it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    catalogue_id: Option<String>,
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
        facts: l.facts.as_ref().map(|f| FactsV2 {
            distance_method: f.distance_method.as_str().to_owned(),
            raw_km: f.raw_distance.km(),
            ends: f.ends.as_ref().map(|ends| {
                ends.clone().map(|e| EndV2 {
                    label: e.label,
                    lat: e.lat,
                    lon: e.lon,
                })
            }),
            payload_t: f.payload_tonnes,
            ttw_kg_per_tkm: f.ttw_kg_per_tkm,
            wtt_kg_per_tkm: f.wtt_kg_per_tkm,
            wtw_g: [f.wtw.wtt, f.wtw.ttw, f.wtw.unknown].map(|m| m.grams()),
            quality: f.quality.map(|q| {
                (
                    q.score.as_str().to_owned(),
                    q.emission_factor.as_str().to_owned(),
                    q.route.map(|r| r.as_str().to_owned()),
                    q.shipment.as_str().to_owned(),
                )
            }),
            road: f.road.as_ref().map(|r| RoadV2 {
                energy_mj_per_tkm: r.energy_mj_per_tkm,
                capacity_t: r.capacity_t,
                load_factor: r.load_factor,
                empty_runs_factor: r.empty_runs_factor,
                capacity_utilisation: r.capacity_utilisation,
                gradient: r.gradient.clone(),
                situation: r.situation.clone(),
                emission_standard: r.emission_standard.clone(),
            }),
        }),
    }
}

fn facts(f: FactsV2) -> Option<LegFacts> {
    let [wtt, ttw, unknown] = f.wtw_g.map(Mass::from_grams);
    Some(LegFacts {
        distance_method: DistanceMethod::parse(&f.distance_method)?,
        raw_distance: Distance::from_km(f.raw_km),
        ends: f.ends.map(|ends| {
            ends.map(|e| RouteEnd {
                label: e.label,
                lat: e.lat,
                lon: e.lon,
            })
        }),
        payload_tonnes: f.payload_t,
        ttw_kg_per_tkm: f.ttw_kg_per_tkm,
        wtt_kg_per_tkm: f.wtt_kg_per_tkm,
        wtw: Wtw { wtt, ttw, unknown },
        quality: f.quality.and_then(|(score, factor, route, shipment)| {
            Some(DataQuality {
                score: Grade::parse(&score)?,
                emission_factor: Grade::parse(&factor)?,
                route: match route {
                    Some(r) => Some(Grade::parse(&r)?),
                    None => None,
                },
                shipment: Grade::parse(&shipment)?,
            })
        }),
        road: f.road.map(|r| {
            Box::new(RoadFacts {
                energy_mj_per_tkm: r.energy_mj_per_tkm,
                capacity_t: r.capacity_t,
                load_factor: r.load_factor,
                empty_runs_factor: r.empty_runs_factor,
                capacity_utilisation: r.capacity_utilisation,
                gradient: r.gradient,
                situation: r.situation,
                emission_standard: r.emission_standard,
            })
        }),
    })
}

fn methodology<'a>(names: impl IntoIterator<Item = &'a str>) -> Vec<Methodology> {
    names.into_iter().filter_map(Methodology::parse).collect()
}

fn leg(l: LegV2) -> ShippingLeg {
    ShippingLeg {
        mass: Mass::from_grams(l.mass_g),
        distance: Distance::from_km(l.distance_km),
        methodology: methodology(l.methodology.iter().map(String::as_str)),
        facts: l.facts.and_then(facts),
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
            EstimateDetail::EmissionFactor(f) => DetailV2::EmissionFactor {
                factor: CatalogueV2::of(f),
            },
            EstimateDetail::TransactionDocument(d) => DetailV2::TransactionDocument {
                document: super::document::DocumentV2::of(d),
            },
            EstimateDetail::FuelLegs(legs) => DetailV2::FuelLegs {
                legs: legs
                    .iter()
                    .map(|l| FuelLegV2 {
                        mass_g: l.mass.grams(),
                        wtw_g: [l.wtw.wtt, l.wtw.ttw, l.wtw.unknown].map(|m| m.grams()),
                        energy_mj_per_l: l.energy_density,
                        grade: l.grade.as_str().to_owned(),
                    })
                    .collect(),
            },
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
                        gases: f.gases.as_ref().map(GasV2::of),
                        catalogue_id: f.catalogue_id.clone(),
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
                wtt_g: p.wtt.map(|m| m.grams()),
            })
            .collect();
        Self {
            v: 2,
            detail,
            explanation: ExplanationV2 {
                parts,
                notes: explanation.notes.clone(),
                factor_set: explanation.factor_set.clone(),
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
    fn decode(self) -> Option<(EstimateDetail, Explanation, QuoteTerms)> {
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
            DetailV2::EmissionFactor { factor } => {
                EstimateDetail::EmissionFactor(Box::new(factor.factor()?))
            }
            DetailV2::TransactionDocument { document } => {
                EstimateDetail::TransactionDocument(Box::new(document.result()?))
            }
            DetailV2::FuelLegs { legs } => EstimateDetail::FuelLegs(
                legs.into_iter()
                    .map(|l| {
                        let [wtt, ttw, unknown] = l.wtw_g.map(Mass::from_grams);
                        Some(FuelLegResult {
                            mass: Mass::from_grams(l.mass_g),
                            wtw: Wtw { wtt, ttw, unknown },
                            energy_density: l.energy_mj_per_l,
                            grade: Grade::parse(&l.grade)?,
                        })
                    })
                    .collect::<Option<Vec<_>>>()?,
            ),
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
                        gases: f.gases.map(GasV2::split),
                        catalogue_id: f.catalogue_id,
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
                wtt: p.wtt_g.map(Mass::from_grams),
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
            factor_set: self.explanation.factor_set,
        };
        Some((detail, explanation, quote))
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
            .and_then(Stored::decode);
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Encodes a computed estimate as the store writes it and reads it back.
    fn round_trip(
        kind: EstimateKind,
        computed: &tonne_estimation::estimate::Computed,
    ) -> (EstimateDetail, Explanation) {
        let stored = Stored::encode(
            &computed.detail,
            &computed.explanation,
            &QuoteTerms::default(),
        );
        let json = serde_json::to_string(&stored).unwrap();
        let (detail, explanation, _) = decode(kind, computed.mass, &json, "{}").unwrap();
        (detail, explanation)
    }
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
    fn the_2024_facts_round_trip_and_v2_rows_without_them_still_read() {
        use tonne_estimation::estimate::EstimateRequest;
        use tonne_estimation::route::{Place, Route};
        use tonne_estimation::shipping::{Leg, Method, Shipment};
        let computed = EstimateRequest::Shipping {
            shipment: Shipment::Mass(Mass::from_grams(2_000_000)),
            leg: Leg {
                route: Route::Between {
                    source: Place::Seaport("CNSHA".into()),
                    destination: Place::Seaport("NLRTM".into()),
                },
                method: Method::Container {
                    refrigerated: false,
                    trade_lane: None,
                },
            },
        }
        .compute()
        .unwrap();
        let (detail, explanation) = round_trip(EstimateKind::Shipping, &computed);
        assert_eq!(detail, computed.detail);
        assert_eq!(explanation, computed.explanation);
        let EstimateDetail::Shipping(leg) = &detail else {
            panic!("{detail:?}")
        };
        assert!(leg.facts.is_some());
        assert!(explanation.parts[0].factors[0].gases.is_some());

        // a v2 row written before: no facts, no gases
        let old = r#"{"v":2,"detail":{"type":"shipping","leg":{"mass_g":5,"distance_km":"1","methodology":[]}},"explanation":{"parts":[{"name":"leg","mass_g":5,"factors":[{"id":"SEA_CONTAINER_AVERAGE","value":"0.01612","unit":"kg CO2e/tonne.km","source":"DESNZ","row":null,"year":2025}],"quantities":[]}],"notes":[]},"quote":{"selection":null,"trunc":null}}"#;
        let (detail, explanation, _) =
            decode(EstimateKind::Shipping, Some(Mass::from_grams(5)), old, "{}").unwrap();
        let EstimateDetail::Shipping(leg) = detail else {
            panic!("{detail:?}")
        };
        assert_eq!(leg.facts, None);
        assert_eq!(explanation.parts[0].factors[0].gases, None);
        // without its split, the part's stage is unknown
        assert_eq!(explanation.wtw().unknown, Mass::from_grams(5));
    }

    #[test]
    fn tank_to_wheel_legs_stored_before_keep_their_mass_and_stages() {
        // a leg stored while freight was tank-to-wheel: 20 t × 1,000 km ×
        // 0.01612 = 322.4 kg, its stages stored as WTT 73 kg (× 0.00365 ÷
        // 0.01612) beside TTW 322.4 kg, and a part without `wtt_g`
        let old = r#"{"v":2,"detail":{"type":"shipping","leg":{"mass_g":322400,"distance_km":"1000","methodology":[],"facts":{"distance_method":"user_input","raw_km":"1000","ends":null,"payload_t":"20","ttw_kg_per_tkm":"0.01612","wtt_kg_per_tkm":"0.00365","wtw_g":[73000,322400,0]}}},"explanation":{"parts":[{"name":"leg","mass_g":322400,"factors":[{"id":"SEA_CONTAINER_AVERAGE","value":"0.01612","unit":"kg CO2e/tonne.km","source":"DESNZ","row":null,"year":2025,"gases":{"co2":"0.01592","ch4":"0.00001","n2o":"0.00019","wtt_row":"28_916_3235_14_1","wtt":"0.00365"}}],"quantities":[]}],"notes":[],"factor_set":"2026.11"},"quote":{"selection":null,"trunc":null}}"#;
        let (detail, explanation, _) = decode(
            EstimateKind::Shipping,
            Some(Mass::from_grams(322_400)),
            old,
            "{}",
        )
        .unwrap();
        let EstimateDetail::Shipping(leg) = detail else {
            panic!("{detail:?}")
        };
        assert_eq!(leg.mass.grams(), 322_400);
        let f = leg.facts.unwrap();
        assert_eq!((f.wtw.wtt.grams(), f.wtw.ttw.grams()), (73_000, 322_400));
        // the part reads as it did: tank-to-wheel, well-to-tank on top
        assert_eq!(explanation.parts[0].wtt, None);
        let w = explanation.wtw();
        assert_eq!((w.ttw.grams(), w.wtt.grams()), (322_400, 73_000));

        // a well-to-wheel leg keeps its well-to-tank grams inside its mass
        use tonne_estimation::estimate::EstimateRequest;
        use tonne_estimation::route::Route;
        use tonne_estimation::shipping::{Leg, Method, Shipment};
        let computed = EstimateRequest::Shipping {
            shipment: Shipment::Mass(Mass::from_grams(20_000_000)),
            leg: Leg {
                route: Route::Distance(tonne_estimation::Distance::from_km(Decimal::from(1000))),
                method: Method::Container {
                    refrigerated: false,
                    trade_lane: None,
                },
            },
        }
        .compute()
        .unwrap();
        let (_, explanation) = round_trip(EstimateKind::Shipping, &computed);
        assert_eq!(explanation.parts[0].wtt, Some(Mass::from_grams(73_000)));
        assert_eq!(computed.mass, Some(Mass::from_grams(395_400)));
        let w = explanation.wtw();
        assert_eq!(
            (w.ttw.grams(), w.wtt.grams(), w.unknown.grams()),
            (322_400, 73_000, 0)
        );
    }

    #[test]
    fn a_by_fuel_estimate_round_trips() {
        use tonne_estimation::estimate::EstimateRequest;
        use tonne_estimation::shipping::fuel::{FuelLeg, LegFuel};
        let computed = EstimateRequest::MultiLegShippingByFuel {
            legs: vec![FuelLeg {
                fuel: LegFuel::DieselBiodiesel {
                    biodiesel_percent: 20,
                },
                litres: Decimal::from(250),
            }],
        }
        .compute()
        .unwrap();
        let (detail, explanation) = round_trip(EstimateKind::MultiLegShippingByFuel, &computed);
        assert_eq!(detail, computed.detail);
        assert_eq!(explanation, computed.explanation);
    }

    #[test]
    fn a_factor_estimate_keeps_the_factor_it_used() {
        use tonne_estimation::estimate::EstimateRequest;
        use tonne_estimation::factor_estimate::FactorRequest;
        for (id, unit) in [
            ("desnz-2025.HGV_ALL", "t*km"),
            ("useeio-1.3.0.naics.722511", "GBP"),
            ("scarborough-2014.DIET_VEGAN", "person*month"),
        ] {
            let computed =
                EstimateRequest::EmissionFactor(FactorRequest::parse(id, "12.5", unit).unwrap())
                    .compute()
                    .unwrap();
            let (detail, explanation) = round_trip(EstimateKind::EmissionFactor, &computed);
            assert_eq!(detail, computed.detail, "{id}");
            assert_eq!(explanation, computed.explanation, "{id}");
        }
        // a stored factor that no longer reads is a corrupt row, not a wrong one
        let bad = r#"{"v":2,"detail":{"type":"emission_factor","factor":{"id":"x","name":"x","source":"ember","source_version":"1","publication":"p","publication_year":2020,"published":"2020-01-01","region":"World","category":null,"denominator":"kWh","logical_unit":"energy","kg_co2e":"1","gases":null,"engine_id":"x"}},"explanation":{"parts":[],"notes":[]},"quote":{"selection":null,"trunc":null}}"#;
        assert!(
            decode(
                EstimateKind::EmissionFactor,
                Some(Mass::from_grams(1)),
                bad,
                "{}"
            )
            .is_none()
        );
    }

    #[test]
    fn a_money_movement_row_of_the_first_format_reads_as_such() {
        let (detail, _, quote) = decode(EstimateKind::Transaction, None, "{}", "{}").unwrap();
        assert_eq!(detail, EstimateDetail::MoneyMovement);
        assert_eq!(quote, QuoteTerms::default());
    }
}
