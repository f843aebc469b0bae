//! Transaction documents: a receipt or invoice sent as key-value JSON
//! becomes estimated line items — spend by merchant category (the
//! [`crate::transaction`] engine), journeys (flights and trains with a named
//! route, the [`crate::passenger`] engine) and activities (electricity, gas,
//! diesel, petrol by quantity: the grid and the factor catalogue) — or, when
//! no line can be itemised, one whole-document spend estimate (the
//! `fallback`).
//!
//! Deterministic: [`reading`] says which keys are read, [`matching`] the
//! keyword table and the confidence scores, [`compute`] how each line
//! becomes an estimate and when the whole document is used instead.

mod compute;
pub mod matching;
mod node;
pub mod reading;
#[cfg(test)]
mod tests;

use rust_decimal::Decimal;
use tonne_kernel::{Currency, Mass};

use crate::diet::Diet;
use crate::route::CabinClass;

pub(crate) use compute::compute;
pub use matching::{MATCHING_MODEL, Match, Target};
pub use node::{MAX_DEPTH, MAX_LINES, MAX_NODES, Node};

/// The default `relative_amount_tolerance_threshold`: lines may add up to
/// 10 % more or less than the document's total.
pub const DEFAULT_TOLERANCE: Decimal = Decimal::from_parts(1, 0, 0, false, 1);

/// What the request says beside the document (each optional; the request's
/// word beats the document's).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MerchantHint {
    pub name: Option<String>,
    /// ISO alpha-3.
    pub country_code: Option<String>,
    /// ISO 18245.
    pub category_code: Option<String>,
    pub search_term: Option<String>,
    pub category: Option<String>,
}

/// A transaction document to estimate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DocumentRequest {
    /// `unstructured_data.key_value`.
    pub key_value: Node,
    /// The request's `value`: the document's total.
    pub value: Option<Decimal>,
    pub currency: Option<Currency>,
    pub merchant: MerchantHint,
    pub diet: Option<Diet>,
    /// The year the document was processed (deflates spend to 2011 prices).
    pub processed_year: Option<u16>,
    /// How far the lines may add up from the total (0.1: 10 %).
    pub tolerance: Decimal,
}

/// A money amount of a line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LineValue {
    pub amount: Decimal,
    pub currency: Currency,
}

/// A journey's mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TravelMode {
    Flight,
    Rail,
}

/// How a journey's route was named.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TravelRoute {
    /// Two airports (IATA or ICAO).
    Airports { source: String, destination: String },
    /// Two cities of the document's country.
    Cities { source: String, destination: String },
    /// A distance as given.
    Distance,
}

/// A journey line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TravelLine {
    pub mode: TravelMode,
    pub route: TravelRoute,
    /// The distance used, km.
    pub distance_km: Decimal,
    pub passengers: Decimal,
    pub cabin: CabinClass,
}

/// What a line was estimated as.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LineKind {
    /// Spend in a merchant category.
    Transaction { mcc: String },
    /// A journey.
    PassengerTransportation(TravelLine),
    /// An activity: quantity and the contract's unit.
    Activity { amount: Decimal, unit: String },
}

/// One estimated line (or the whole document's fallback).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineItem {
    /// The line's text as read (the merchant's name, or the category, for a fallback).
    pub item: String,
    /// The line's amount (zero for an activity or journey line without one).
    pub value: LineValue,
    pub mass: Mass,
    /// ISO alpha-3 used.
    pub country_code: String,
    pub kind: LineKind,
    /// The text the match rests on.
    pub matched: String,
    /// 0 .. 2, `None` where a category code was given.
    pub score: Option<u8>,
    /// Why it matched, in a sentence.
    pub reason: String,
}

/// A transaction document's result: line items, or (none itemised) the
/// whole document's `fallback`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DocumentResult {
    /// In the document's order; their explanation parts are `line_items[i]`.
    pub line_items: Vec<LineItem>,
    /// Set exactly when `line_items` is empty; its part is `fallback`.
    pub fallback: Option<LineItem>,
}
