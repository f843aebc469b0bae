//! The typed format of an estimate's `result` column (JSON, `"v": 2`): the
//! estimate's detail, explanation and quote terms, written and read back.

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use tonne_estimation::Distance;
use tonne_estimation::catalogue::{CatalogueFactor, FactorSource, LogicalUnit, denominator_unit};
use tonne_estimation::estimate::{BundleShare, EstimateDetail, FuelLegResult, QuoteTerms};
use tonne_estimation::explain::{Explanation, FactorUse, Part, Quantity, Wtw};
use tonne_estimation::factors::GasSplit;
use tonne_estimation::footprint::CompanyEstimate;
use tonne_estimation::shipping::Grade;
use tonne_kernel::{Mass, MassUnit};

use super::legs::{LegV2, leg, leg_v2};
use super::values::company;

/// What an estimate's `result` column holds.
#[derive(Debug, Serialize, Deserialize)]
pub(in crate::estimates) struct Stored {
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
        document: crate::estimates::document::DocumentV2,
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

impl Stored {
    /// The typed result, ready to write.
    pub(in crate::estimates) fn encode(
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
                document: crate::estimates::document::DocumentV2::of(d),
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
    pub(super) fn decode(self) -> Option<(EstimateDetail, Explanation, QuoteTerms)> {
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
