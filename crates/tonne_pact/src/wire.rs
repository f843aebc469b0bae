//! PACT's and iLEAP's JSON shapes, apart from the handlers.

pub(crate) mod events;
pub(crate) mod footprint;
