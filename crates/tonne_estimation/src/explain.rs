//! Estimates that explain themselves: for every estimate, the parts its mass
//! is made of ([`Explanation`], its [`Part`]s), each with the factors it used
//! ([`FactorUse`]: id, value, unit, publication, table row, year) and the
//! activity quantities they multiplied ([`Quantity`]: distances and how they
//! were obtained, payload, spend after currency conversion, …). The parts add
//! up to the estimate's mass exactly, to the gram. Made by
//! [`EstimateRequest::compute`](crate::estimate::EstimateRequest::compute);
//! read back by [`Explanation::transaction_facts`] for the 2024 answers.

use rust_decimal::Decimal;
use tonne_kernel::Mass;

use crate::factors::{Factor, GasSplit, authored};
use crate::grid::{GRID_SOURCE, GridFactor};
use crate::transaction;

/// How an estimate's mass was obtained.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Explanation {
    /// The parts of the mass; their masses add up to it exactly.
    pub parts: Vec<Part>,
    /// Notes on the whole estimate (fallbacks, precision, floors).
    pub notes: Vec<String>,
    /// The factor set it was computed with ([`crate::catalogue::FACTOR_SET_VERSION`]);
    /// `None` for estimates stored before Tonne recorded it.
    pub factor_set: Option<String>,
}

/// One part of an estimate's mass.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Part {
    /// What the part is: `consumption`, `flight`, `legs[1]`, `energy`, …
    pub name: String,
    /// Its CO2e, rounded to the gram.
    pub mass: Mass,
    /// The factors multiplied (or, for footprints, summed term by term).
    pub factors: Vec<FactorUse>,
    /// The activity quantities they multiplied.
    pub quantities: Vec<Quantity>,
    /// The well-to-tank mass included in `mass`, for a part computed
    /// well-to-wheel (freight legs since factor set 2026.12: `mass` = the
    /// factors' tank-to-wheel product + this); `None` for a part whose mass
    /// is the factors' product alone (every other part, and freight legs
    /// stored before), whose well-to-tank part, where DESNZ has one, comes on
    /// top of it.
    pub wtt: Option<Mass>,
}

/// A factor as used, with its provenance.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FactorUse {
    /// Tonne's stable name, e.g. `RAIL_NATIONAL` or `grid:DEU`.
    pub id: String,
    pub value: Decimal,
    /// E.g. `kg CO2e/passenger.km`.
    pub unit: String,
    /// The publication (or Tonne's stated assumption, marked `[A]`).
    pub source: String,
    /// Table and row, where the publication is a table.
    pub row: Option<String>,
    /// Year of the data.
    pub year: Option<u16>,
    /// What the publication gives beside the factor: its per-gas parts and
    /// the well-to-tank factor of the same activity (DESNZ factors only;
    /// `None` otherwise, and for estimates stored before Tonne kept it).
    pub gases: Option<GasSplit>,
    /// Its id in the factor catalogue (`GET /v1/emission-factors`), when it
    /// is an emission factor listed there; `None` for conversion constants
    /// and for estimates stored before Tonne recorded it.
    pub catalogue_id: Option<String>,
}

impl FactorUse {
    /// Whether the factor is an emission factor (CO2e per unit of activity)
    /// rather than a conversion constant (ratio, detour, rate, tonnes per TEU).
    pub fn is_emission_factor(&self) -> bool {
        self.unit.starts_with("kg CO2e/") || self.unit.starts_with("g CO2e/")
    }
}

/// An estimate's mass by life-cycle stage (ISO 14083 / GLEC): tank-to-wheel
/// (the fuel burnt or power drawn by the activity) and well-to-tank (producing
/// and delivering that fuel), with `unknown` for parts whose source does not
/// say which stage it covers.
///
/// For freight legs computed well-to-wheel (a part with [`Part::wtt`]) the
/// mass is `wtt + ttw + unknown`. For every other part Tonne's `mass` is
/// `ttw + unknown`: the engines multiply DESNZ's direct factors, which
/// exclude well-to-tank, and `wtt` is what the DESNZ well-to-tank row of the
/// same activity adds on top (see docs/methodology.md).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Wtw {
    pub wtt: Mass,
    pub ttw: Mass,
    pub unknown: Mass,
}

impl Wtw {
    /// Well-to-wheel: `wtt + ttw + unknown`.
    pub fn total(&self) -> Mass {
        Mass::from_grams(
            self.wtt
                .grams()
                .saturating_add(self.ttw.grams())
                .saturating_add(self.unknown.grams()),
        )
    }

    fn add(self, other: Wtw) -> Wtw {
        let sum = |a: Mass, b: Mass| Mass::from_grams(a.grams().saturating_add(b.grams()));
        Wtw {
            wtt: sum(self.wtt, other.wtt),
            ttw: sum(self.ttw, other.ttw),
            unknown: sum(self.unknown, other.unknown),
        }
    }
}

impl Part {
    /// The emission factor of the part: its first factor in CO2e per unit of
    /// activity (the others scale the activity or convert units).
    pub fn emission_factor(&self) -> Option<&FactorUse> {
        self.factors.iter().find(|f| f.is_emission_factor())
    }

    /// The part by life-cycle stage. A well-to-wheel part ([`Part::wtt`]) is
    /// that well-to-tank mass and the rest tank-to-wheel. Otherwise a part whose one emission factor has a
    /// DESNZ well-to-tank row is tank-to-wheel, and its well-to-tank mass is
    /// its mass × WTT ÷ factor (every other factor of the part scales both
    /// alike), rounded to the gram; any other part is `unknown`.
    pub fn wtw(&self) -> Wtw {
        if let Some(wtt) = self.wtt {
            // well-to-wheel: the stages add up to the mass
            return Wtw {
                wtt,
                ttw: Mass::from_grams(self.mass.grams().saturating_sub(wtt.grams())),
                unknown: Mass::from_grams(0),
            };
        }
        let mut emission = self.factors.iter().filter(|f| f.is_emission_factor());
        let only = match (emission.next(), emission.next()) {
            (Some(f), None) => Some(f),
            _ => None,
        };
        match only.and_then(|f| Some((f, f.gases.as_ref()?))) {
            Some((f, g)) if !f.value.is_zero() => Wtw {
                wtt: scaled(self.mass, g.wtt / f.value),
                ttw: self.mass,
                unknown: Mass::from_grams(0),
            },
            _ => Wtw {
                unknown: self.mass,
                ..Wtw::default()
            },
        }
    }
}

/// `mass × ratio`, rounded half away from zero to the gram.
fn scaled(mass: Mass, ratio: Decimal) -> Mass {
    let g = Decimal::from(mass.grams())
        .checked_mul(ratio)
        .map(|g| g.round_dp_with_strategy(0, rust_decimal::RoundingStrategy::MidpointAwayFromZero))
        .and_then(|g| i64::try_from(g).ok())
        .unwrap_or(0);
    Mass::from_grams(g.max(0))
}

impl Explanation {
    /// The estimate by life-cycle stage: the sum of its parts'.
    pub fn wtw(&self) -> Wtw {
        self.parts
            .iter()
            .map(Part::wtw)
            .fold(Wtw::default(), Wtw::add)
    }
}

impl FactorUse {
    /// The use of a cited factor.
    pub fn of(f: &Factor) -> Self {
        Self {
            id: f.id.to_owned(),
            value: f.value(),
            unit: f.unit.to_owned(),
            source: f.publication().to_owned(),
            row: f.row().map(str::to_owned),
            year: f.year(),
            gases: GasSplit::of(f.id),
            catalogue_id: None,
        }
    }
}

/// An activity quantity a factor multiplied.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Quantity {
    /// `distance`, `consumption`, `payload`, `passengers`, `spend`, …
    pub name: String,
    pub amount: Decimal,
    /// E.g. `km`, `kWh`, `t`, `USD (2022)`.
    pub unit: String,
    /// How it was obtained: as given, great-circle, over the sea network, converted…
    pub method: String,
}

pub(crate) fn quantity(
    name: &str,
    amount: Decimal,
    unit: &str,
    method: impl Into<String>,
) -> Quantity {
    Quantity {
        name: name.to_owned(),
        amount: amount.normalize(),
        unit: unit.to_owned(),
        method: method.into(),
    }
}

pub(crate) fn part(
    name: impl Into<String>,
    mass: Mass,
    factors: Vec<FactorUse>,
    q: Vec<Quantity>,
) -> Part {
    Part {
        name: name.into(),
        mass,
        factors,
        quantities: q,
        wtt: None,
    }
}

impl FactorUse {
    /// A country's grid intensity as a factor use (`grid:{code}`).
    pub(crate) fn grid(code: &str, g: GridFactor) -> Self {
        Self {
            id: format!("grid:{code}"),
            value: g.g_co2e_per_kwh,
            unit: "g CO2e/kWh".into(),
            source: GRID_SOURCE.into(),
            row: Some(code.to_owned()),
            year: Some(g.year),
            gases: None,
            catalogue_id: None,
        }
    }
}

/// The id prefix of the 2011 euro rates a spend is converted with.
pub(crate) const EUR_RATE_2011: &str = "EUR_RATE_2011_";

/// The date Tonne gives the exchange rates it converts spend with: they are
/// the ECB's 2022 annual averages, dated by the start of their period.
pub const EXCHANGE_RATE_DATE: &str = "2022-01-01";

/// The date of the 2011 euro rates a transaction converts its spend with
/// (Eurostat annual averages, dated by the start of their period).
pub const EXIOBASE_RATE_DATE: &str = "2011-01-01";

/// What a transaction estimate's 2024 answer shows beside its mass, read from
/// its explanation (so that a stored estimate answers as it was computed).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TransactionFacts<'a> {
    /// The spend factor: EXIOBASE (kg CO2e per euro of 2011), or USEEIO (kg
    /// CO2e per 2022 USD) for estimates computed before Tonne used EXIOBASE.
    pub emission_factor: &'a FactorUse,
    /// Units of the factor's currency per unit of the spend's, to six decimals.
    pub exchange_rate: Decimal,
    /// The date of the exchange rate: the start of the year it averages.
    pub exchange_rate_date: &'static str,
    /// The buyer's diet over a medium meat-eater's, where it scaled a food purchase.
    pub diet_factor: Option<Decimal>,
}

impl TransactionFacts<'_> {
    /// The merchant category the factor was reached from: named by the
    /// factor's id (`mcc:5411`, USEEIO estimates) or its row (`MCC 5411 …`,
    /// EXIOBASE ones).
    pub fn merchant_category(&self) -> Option<&'static transaction::Category> {
        let f = self.emission_factor;
        let code = f.id.strip_prefix("mcc:").or_else(|| {
            f.row
                .as_deref()?
                .strip_prefix("MCC ")?
                .split_whitespace()
                .next()
        })?;
        transaction::category(code)
    }
}

impl Explanation {
    /// The facts of a transaction estimate; `None` for other kinds and money movement.
    pub fn transaction_facts(&self) -> Option<TransactionFacts<'_>> {
        let p = self.parts.iter().find(|p| p.name == "transaction")?;
        p.transaction_facts()
    }
}

impl Part {
    /// The facts of a spend part (a transaction's, or a transaction
    /// document line's); `None` for a part without an emission factor.
    pub fn transaction_facts(&self) -> Option<TransactionFacts<'_>> {
        let p = self;
        let emission_factor = p.emission_factor()?;
        let (exchange_rate, exchange_rate_date) = if emission_factor.id.starts_with("exiobase:") {
            // the spend's currency per euro in 2011 (none for euros)
            let rate = p
                .factors
                .iter()
                .find(|f| f.id.starts_with(EUR_RATE_2011))
                .filter(|f| !f.value.is_zero())
                .map_or(Decimal::ONE, |f| Decimal::ONE / f.value);
            (rate, EXIOBASE_RATE_DATE)
        } else {
            let usd_per_eur = p.factors.iter().find(|f| f.id == authored::USD_PER_EUR.id);
            let other_per_eur = p
                .factors
                .iter()
                .find(|f| f.unit.ends_with("/EUR") && f.id != authored::USD_PER_EUR.id);
            let rate = match (usd_per_eur, other_per_eur) {
                (Some(usd), Some(other)) if !other.value.is_zero() => usd.value / other.value,
                (Some(usd), _) => usd.value,
                (None, _) => Decimal::ONE,
            };
            (rate, EXCHANGE_RATE_DATE)
        };
        Some(TransactionFacts {
            emission_factor,
            exchange_rate: exchange_rate.round_dp(6).normalize(),
            exchange_rate_date,
            diet_factor: p
                .quantities
                .iter()
                .find(|q| q.name == "diet_ratio")
                .map(|q| q.amount),
        })
    }
}
