//! The contract's `WebhookRequest` body.

use serde::Serialize;
use serde_json::value::RawValue;
use tonne_webhooks::ports::EventEncoder;
use tonne_webhooks::{OutboxEvent, sequence_string};

/// The contract's `WebhookRequest`: the batch of events one delivery sends.
#[derive(Serialize)]
struct WebhookRequest<'a> {
    events: Vec<Event<'a>>,
}

/// One event of a [`WebhookRequest`], its stored `data` embedded verbatim.
#[derive(Serialize)]
struct Event<'a> {
    api_version: &'static str,
    account_id: String,
    event_id: &'a str,
    event_type: &'a str,
    sequence: String,
    data: &'a RawValue,
}

/// Renders `{"events":[…]}` with each event's stored `data` embedded verbatim
/// (it is the order's snapshot at that transition, rendered by `tonne_wire`).
#[derive(Debug, Clone, Copy, Default)]
pub struct JsonEncoder;

impl EventEncoder for JsonEncoder {
    fn encode(&self, events: &[OutboxEvent]) -> Vec<u8> {
        let null = RawValue::NULL;
        let parsed: Vec<Option<Box<RawValue>>> = events
            .iter()
            .map(|e| RawValue::from_string(e.data_json.clone()).ok())
            .collect();
        let request = WebhookRequest {
            events: events
                .iter()
                .zip(&parsed)
                .map(|(e, data)| Event {
                    api_version: "v1",
                    account_id: e.account_id.to_string(),
                    event_id: &e.event_id,
                    event_type: &e.event_type,
                    sequence: sequence_string(e.sequence),
                    data: data.as_deref().unwrap_or(null),
                })
                .collect(),
        };
        serde_json::to_vec(&request).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::indexing_slicing)]
    use super::*;
    use tonne_kernel::AccountId;

    #[test]
    fn renders_the_contract_shape_with_data_verbatim() {
        let account: AccountId = "0190c6f1a7b27c3e9f2d4b1a2c3d4e5f".parse().unwrap();
        let event = OutboxEvent {
            event_id: "e1".into(),
            event_type: "order.paid".into(),
            account_id: account,
            sequence: 12,
            data_json: r#"{"order":{"id":"o1","quantity":"1.5"}}"#.into(),
            created_at: time::OffsetDateTime::UNIX_EPOCH,
            traceparent: None,
        };
        let body: serde_json::Value =
            serde_json::from_slice(&JsonEncoder.encode(&[event])).unwrap();
        assert_eq!(
            body,
            serde_json::json!({"events":[{
                "api_version":"v1","account_id":"0190c6f1a7b27c3e9f2d4b1a2c3d4e5f","event_id":"e1",
                "event_type":"order.paid","sequence":"00000000000000000012",
                "data":{"order":{"id":"o1","quantity":"1.5"}}
            }]})
        );
    }
}
