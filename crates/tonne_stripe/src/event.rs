//! The envelope of a Stripe webhook event.

use serde::Deserialize;

/// A webhook event: its id (what "processed once" is keyed on), its type
/// and the object it is about.
#[derive(Debug, Clone, Deserialize)]
pub struct Event {
    pub id: String,
    #[serde(rename = "type")]
    pub kind: String,
    /// Seconds since the epoch.
    #[serde(default)]
    pub created: i64,
    pub data: EventData,
}

/// The object an event is about.
#[derive(Debug, Clone, Deserialize)]
pub struct EventData {
    pub object: serde_json::Value,
}

impl Event {
    /// Parses a verified webhook body.
    ///
    /// ```
    /// let e = tonne_stripe::Event::parse(br#"{"id":"evt_1","type":"charge.dispute.created",
    ///   "created":1,"data":{"object":{"id":"dp_1","payment_intent":"pi_1"}}}"#).unwrap();
    /// assert_eq!(e.kind, "charge.dispute.created");
    /// assert_eq!(e.object_str("payment_intent"), Some("pi_1"));
    /// ```
    pub fn parse(body: &[u8]) -> Result<Self, serde_json::Error> {
        serde_json::from_slice(body)
    }

    /// A text field of the event's object.
    pub fn object_str(&self, field: &str) -> Option<&str> {
        self.data.object.get(field).and_then(|v| v.as_str())
    }
}
