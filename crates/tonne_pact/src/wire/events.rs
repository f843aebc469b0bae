//! The events of PACT's asynchronous API (Tech Specs v2.3, 6.8): CloudEvents
//! 1.0 in structured mode, one of four types.

use serde::Deserialize;
use serde_json::Value;

/// A footprint was published or updated (`data.pfIds`).
pub(crate) const PUBLISHED: &str = "org.wbcsd.pathfinder.ProductFootprint.Published.v1";
/// A data recipient asks for a footprint (`data.pf`, `data.comment`).
pub(crate) const REQUEST_CREATED: &str = "org.wbcsd.pathfinder.ProductFootprintRequest.Created.v1";
/// Answers to a request: only ever sent by Tonne, never received.
pub(crate) const REQUEST_FULFILLED: &str =
    "org.wbcsd.pathfinder.ProductFootprintRequest.Fulfilled.v1";
pub(crate) const REQUEST_REJECTED: &str =
    "org.wbcsd.pathfinder.ProductFootprintRequest.Rejected.v1";

/// An event's envelope.
#[derive(Debug, Deserialize)]
pub(crate) struct Event {
    #[serde(rename = "type")]
    pub kind: String,
    pub specversion: String,
    pub id: String,
    pub source: String,
    #[serde(default)]
    pub time: Option<String>,
    #[serde(default)]
    pub data: Option<Value>,
}
