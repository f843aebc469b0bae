//! PACT's and iLEAP's JSON shapes, apart from the handlers.

pub(crate) mod events;
pub(crate) mod footprint;
pub(crate) mod location;
pub(crate) mod tad;
pub(crate) mod values;
