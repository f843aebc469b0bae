//! The Shipments API of client 3.9.2 on the wire: [`JsonRowDecoder`] reads
//! an uploaded row (`CreateShipmentRequest`) into the domain's draft, and
//! [`render`] makes a stored shipment the client's `Shipment` (every
//! client field from the row as sent, Tonne's figures from its
//! `ShipmentEmissions`).

mod decode;
mod fields;
mod location;
mod method;
pub mod render;
pub mod report_csv;
pub mod vocab;

pub use decode::{JsonRowDecoder, LEG_EMISSION_FIELDS, LEG_FIELDS, decode_value};
pub use render::{
    LegEmissionsResponse, ShipmentEmissionsResponse, ShipmentLegResponse, ShipmentResponse,
};
