//! The engines: one module per kind of estimate, each a set of pure
//! functions from a typed request to a mass over the crate's cited tables.
//! The crate root re-exports each (`tonne_estimation::flight`, …); the
//! dispatcher that runs the engine a request names and explains its result
//! is [`crate::estimate::EstimateRequest::compute`].
//!
//! | engine | what it estimates |
//! |---|---|
//! | [`electricity`] | kWh × grid intensity |
//! | [`flight`], [`aircraft`] | a flight by distance band, or by aircraft type's modelled fuel burn |
//! | [`passenger`] | road, rail and air passenger legs |
//! | [`shipping`] | freight legs, hubs, fuel given, multi-leg shipments |
//! | [`transaction`], [`exiobase`], [`diet`] | card transactions by merchant category and spend |
//! | [`transaction_document`] | receipts and invoices, line by line |
//! | [`footprint`], [`business`] | company and individual years |
//! | [`factor_estimate`] | an activity × a catalogue emission factor |

pub mod aircraft;
pub mod business;
pub mod diet;
pub mod electricity;
pub mod exiobase;
pub mod factor_estimate;
pub mod flight;
pub mod footprint;
pub mod passenger;
pub mod shipping;
pub mod transaction;
pub mod transaction_document;
