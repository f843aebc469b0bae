//! What an explanation is made of: [`Explanation`], its [`Part`]s, the
//! [`FactorUse`]s and [`Quantity`]s of each. Computed by [`crate::explain`].

use rust_decimal::Decimal;
use tonne_kernel::Mass;

use crate::factors::Factor;

/// How an estimate's mass was obtained.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Explanation {
    /// The parts of the mass; their masses add up to it exactly.
    pub parts: Vec<Part>,
    /// Notes on the whole estimate (fallbacks, precision, floors).
    pub notes: Vec<String>,
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
