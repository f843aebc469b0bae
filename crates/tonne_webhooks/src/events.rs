//! The event types Tonne emits, the ones a webhook chooses (`event_types`), and
//! which of them an organisation's pinned API version knows.
//!
//! A webhook receives an event when it chose the event's type (or chose none,
//! meaning every type) **and** the organisation's pinned version knows the
//! type: the allocation events exist from `2024-08-08` on, so an organisation
//! pinned to an earlier version never receives them, whatever its webhooks
//! chose. An organisation with no pin yet runs under the latest version.
//!
//! ```
//! use tonne_webhooks::{EventType, Subscription};
//!
//! let only_completed = Subscription {
//!     event_types: Some(vec![EventType::OrderCompleted]),
//!     pinned_version: None,
//! };
//! assert!(only_completed.wants(EventType::OrderCompleted));
//! assert!(!only_completed.wants(EventType::OrderPlaced));
//!
//! let pinned_2023 = Subscription {
//!     event_types: None,
//!     pinned_version: Some("2023-01-01".into()),
//! };
//! assert!(pinned_2023.wants(EventType::OrderPlaced));
//! assert!(!pinned_2023.wants(EventType::AllocationNew));
//! ```

use std::collections::BTreeSet;

use crate::errors::InvalidField;

/// A type of event the outbox holds (the contract's `WebhookEvent.event_type`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum EventType {
    /// `order.received`
    OrderReceived,
    /// `order.placed`
    OrderPlaced,
    /// `order.paid`
    OrderPaid,
    /// `order.retiring`
    OrderRetiring,
    /// `order.completed`
    OrderCompleted,
    /// `order.cancelled`
    OrderCancelled,
    /// `order.failed`
    OrderFailed,
    /// `allocation.new` (from API version `2024-08-08`)
    AllocationNew,
    /// `allocation.retired` (from API version `2024-08-08`)
    AllocationRetired,
    /// `invoice.issued` (a Tonne extension: delivered only to webhooks that
    /// name it in `event_types`)
    InvoiceIssued,
}

/// The first API version whose contract has the allocation events.
pub const ALLOCATION_EVENTS_SINCE: &str = "2024-08-08";

impl EventType {
    /// Every type, in the order answers list them.
    pub const ALL: [EventType; 9] = [
        EventType::OrderReceived,
        EventType::OrderPlaced,
        EventType::OrderPaid,
        EventType::OrderRetiring,
        EventType::OrderCompleted,
        EventType::OrderCancelled,
        EventType::OrderFailed,
        EventType::AllocationNew,
        EventType::AllocationRetired,
    ];

    /// The types no Lune contract has: a webhook receives them only when it
    /// names them in `event_types`, so a receiver written against the
    /// contract never meets one.
    pub const OPT_IN: [EventType; 1] = [EventType::InvoiceIssued];

    /// Whether a webhook must name this type to receive it.
    pub fn is_opt_in(self) -> bool {
        Self::OPT_IN.contains(&self)
    }

    /// Every type a webhook may name: the contract's, then the opt-in ones.
    pub fn every() -> impl Iterator<Item = EventType> {
        Self::ALL.into_iter().chain(Self::OPT_IN)
    }

    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            EventType::OrderReceived => "order.received",
            EventType::OrderPlaced => "order.placed",
            EventType::OrderPaid => "order.paid",
            EventType::OrderRetiring => "order.retiring",
            EventType::OrderCompleted => "order.completed",
            EventType::OrderCancelled => "order.cancelled",
            EventType::OrderFailed => "order.failed",
            EventType::AllocationNew => "allocation.new",
            EventType::AllocationRetired => "allocation.retired",
            EventType::InvoiceIssued => "invoice.issued",
        }
    }

    /// The type a wire name names, if any.
    pub fn parse(name: &str) -> Option<Self> {
        Self::every().find(|t| t.as_str() == name)
    }

    /// The first API version (`YYYY-MM-DD`) that knows this type; `None`: every
    /// version does.
    pub fn since_version(self) -> Option<&'static str> {
        match self {
            EventType::AllocationNew | EventType::AllocationRetired => {
                Some(ALLOCATION_EVENTS_SINCE)
            }
            _ => None,
        }
    }

    /// Whether an organisation pinned to `pinned` (`None`: not pinned yet, the
    /// latest applies) may receive this type. Versions are calendar dates, so
    /// comparing the texts compares the dates.
    pub fn known_to(self, pinned: Option<&str>) -> bool {
        match (self.since_version(), pinned) {
            (None, _) | (Some(_), None) => true,
            (Some(since), Some(pinned)) => pinned >= since,
        }
    }
}

impl std::fmt::Display for EventType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

fn names() -> String {
    EventType::every()
        .map(|t| t.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Checks an `event_types` list: at least one name, each a type Tonne emits
/// (else `Invalid` naming `event_types[i]`); duplicates collapse; answered in
/// [`EventType::ALL`]'s order.
pub fn parse_event_types(raw: &[String]) -> Result<Vec<EventType>, InvalidField> {
    if raw.is_empty() {
        return Err(InvalidField::new(
            "event_types",
            "must list at least one event type (leave it out to receive every type)",
        ));
    }
    let mut types = BTreeSet::new();
    for (i, name) in raw.iter().enumerate() {
        let t = EventType::parse(name).ok_or_else(|| {
            InvalidField::new(
                format!("event_types[{i}]"),
                format!(
                    "unknown event type `{}`; expected one of {}",
                    name.chars().take(60).collect::<String>(),
                    names()
                ),
            )
        })?;
        types.insert(t);
    }
    Ok(types.into_iter().collect())
}

/// What a webhook's streams deliver: its chosen types and its organisation's
/// pinned version.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Subscription {
    /// The webhook's `event_types`; `None`: every type of the contract (the
    /// opt-in ones only when named).
    pub event_types: Option<Vec<EventType>>,
    /// The organisation's pinned API version (`YYYY-MM-DD`), if pinned.
    pub pinned_version: Option<String>,
}

impl Subscription {
    /// Whether an event of this type is delivered.
    pub fn wants(&self, t: EventType) -> bool {
        let chosen = match &self.event_types {
            None => !t.is_opt_in(),
            Some(types) => types.contains(&t),
        };
        chosen && t.known_to(self.pinned_version.as_deref())
    }

    /// Whether an event of this wire type is delivered (a name Tonne does not
    /// emit is not).
    pub fn wants_name(&self, name: &str) -> bool {
        EventType::parse(name).is_some_and(|t| self.wants(t))
    }

    /// The types delivered, or `None` when they are exactly the contract's
    /// ([`EventType::ALL`]; a store then leaves out the opt-in ones).
    pub fn only(&self) -> Option<Vec<EventType>> {
        let wanted: Vec<EventType> = EventType::every().filter(|t| self.wants(*t)).collect();
        (wanted.as_slice() != EventType::ALL.as_slice()).then_some(wanted)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

    use super::*;

    fn strings(names: &[&str]) -> Vec<String> {
        names.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn an_opt_in_type_goes_only_to_webhooks_that_name_it() {
        let every = Subscription::default();
        assert!(!every.wants(EventType::InvoiceIssued));
        assert!(every.wants(EventType::OrderPaid));
        let named = Subscription {
            event_types: Some(vec![EventType::OrderPaid, EventType::InvoiceIssued]),
            pinned_version: Some("2023-01-01".into()),
        };
        assert!(
            named.wants(EventType::InvoiceIssued),
            "known to every version"
        );
        assert_eq!(
            named.only().unwrap(),
            vec![EventType::OrderPaid, EventType::InvoiceIssued]
        );
        let all_and_invoices = Subscription {
            event_types: Some(EventType::every().collect()),
            pinned_version: None,
        };
        assert_eq!(
            all_and_invoices.only().unwrap().len(),
            EventType::ALL.len() + 1
        );
        assert_eq!(
            parse_event_types(&strings(&["invoice.issued"])).unwrap(),
            vec![EventType::InvoiceIssued]
        );
    }

    #[test]
    fn every_name_round_trips() {
        for t in EventType::every() {
            assert_eq!(EventType::parse(t.as_str()), Some(t));
        }
        assert_eq!(EventType::parse("webhook.test"), None);
        assert_eq!(EventType::parse("ORDER.PLACED"), None);
    }

    #[test]
    fn a_list_is_checked_deduplicated_and_ordered() {
        assert_eq!(
            parse_event_types(&strings(&[
                "allocation.new",
                "order.completed",
                "allocation.new"
            ]))
            .unwrap(),
            vec![EventType::OrderCompleted, EventType::AllocationNew]
        );
        let e = parse_event_types(&strings(&["order.completed", "order.shipped"])).unwrap_err();
        assert_eq!(e.field, "event_types[1]");
        assert!(e.reason.contains("order.shipped"), "{}", e.reason);
        let e = parse_event_types(&[]).unwrap_err();
        assert_eq!(e.field, "event_types");
    }

    #[test]
    fn allocation_events_need_a_pin_from_2024_08_08_on() {
        for t in [EventType::AllocationNew, EventType::AllocationRetired] {
            assert!(t.known_to(None));
            assert!(t.known_to(Some("2024-08-08")));
            assert!(t.known_to(Some("2025-01-01")));
            assert!(!t.known_to(Some("2024-08-07")));
            assert!(!t.known_to(Some("2023-01-01")));
        }
        assert!(EventType::OrderPlaced.known_to(Some("2023-01-01")));
    }

    #[test]
    fn a_subscription_is_the_choice_within_what_the_version_knows() {
        let all = Subscription::default();
        assert_eq!(all.only(), None);
        let pinned_2023 = Subscription {
            event_types: None,
            pinned_version: Some("2023-01-01".into()),
        };
        assert_eq!(
            pinned_2023.only().unwrap(),
            EventType::ALL[..7].to_vec(),
            "order events only"
        );
        // choosing allocation events does not overrule the version
        let chose_allocations = Subscription {
            event_types: Some(vec![EventType::AllocationNew, EventType::OrderFailed]),
            pinned_version: Some("2023-01-01".into()),
        };
        assert_eq!(
            chose_allocations.only().unwrap(),
            vec![EventType::OrderFailed]
        );
        assert!(!chose_allocations.wants_name("allocation.new"));
        assert!(chose_allocations.wants_name("order.failed"));
        assert!(!chose_allocations.wants_name("webhook.test"));
        let current = Subscription {
            event_types: Some(vec![EventType::AllocationNew]),
            pinned_version: Some("2024-08-08".into()),
        };
        assert_eq!(current.only().unwrap(), vec![EventType::AllocationNew]);
    }
}
