//! The audit log's record: who changed what, when, and the object before and after.
//!
//! Domains build an [`AuditEntry`] in the use case that makes a change and hand it
//! to the repository that stores the change; the adapter writes both in one
//! transaction, so neither exists without the other.
//!
//! ```
//! use time::macros::datetime;
//! use tonne_kernel::{Actor, AuditEntry, Snapshot};
//!
//! let entry = AuditEntry::new(datetime!(2026-11-25 12:00 UTC), Actor::person("ops@example.org"),
//!         "order.paid", "order", "0190c6f1a7b27c3e9f2d4b1a2c3d4e5f")
//!     .before(Snapshot::new().with("status", "placed"))
//!     .after(Snapshot::new().with("status", "paid"));
//! assert_eq!(entry.actor.to_string(), "ops@example.org");
//! assert_eq!(entry.changed_fields(), vec!["status"]);
//! ```

use std::fmt;

use time::OffsetDateTime;

use crate::ids::{ApiKeyId, OrganisationId};

crate::define_id!(
    /// Identifies one audit log entry. It is a UUIDv7 taken when the entry is
    /// built, so ids sort in the order entries were made (the log's order).
    AuditEntryId
);

/// Who made a change.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Actor {
    /// A person signed in to the console, by their (unique) email.
    Person(String),
    /// Someone at the server's shell running the `tonne` command.
    CommandLine,
    /// A client over the API, by the key it used.
    ApiKey(ApiKeyId),
}

impl Actor {
    /// A console user.
    pub fn person(email: impl Into<String>) -> Self {
        Self::Person(email.into())
    }

    /// The stored kind: `person`, `cli` or `key`.
    pub fn kind(&self) -> &'static str {
        match self {
            Self::Person(_) => "person",
            Self::CommandLine => "cli",
            Self::ApiKey(_) => "key",
        }
    }

    /// Rebuilds an actor from its stored kind and name; `None` for an unknown kind.
    ///
    /// ```
    /// use tonne_kernel::Actor;
    /// for actor in [Actor::person("a@b.example"), Actor::CommandLine] {
    ///     assert_eq!(Actor::from_parts(actor.kind(), &actor.name()), Some(actor));
    /// }
    /// assert_eq!(Actor::from_parts("robot", "x"), None);
    /// ```
    pub fn from_parts(kind: &str, name: &str) -> Option<Self> {
        match kind {
            "person" => Some(Self::Person(name.to_owned())),
            "cli" => Some(Self::CommandLine),
            "key" => name.parse().ok().map(Self::ApiKey),
            _ => None,
        }
    }

    /// The stored name: the email, the key's id, or empty for the command line.
    pub fn name(&self) -> String {
        match self {
            Self::Person(email) => email.clone(),
            Self::CommandLine => String::new(),
            Self::ApiKey(id) => id.to_string(),
        }
    }
}

impl fmt::Display for Actor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Person(email) => f.write_str(email),
            Self::CommandLine => f.write_str("command line"),
            Self::ApiKey(id) => write!(f, "API key {id}"),
        }
    }
}

/// The fields of an object that a change concerns, in a stable order: field name
/// and its value as shown to people. Secrets never go in a snapshot.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Snapshot(Vec<(String, String)>);

impl Snapshot {
    /// An empty snapshot (the object did not exist, or no longer does).
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds (or replaces) a field.
    pub fn with(mut self, field: &str, value: impl fmt::Display) -> Self {
        let value = value.to_string();
        match self.0.iter_mut().find(|(f, _)| f == field) {
            Some(slot) => slot.1 = value,
            None => self.0.push((field.to_owned(), value)),
        }
        self
    }

    /// The value of a field.
    pub fn get(&self, field: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(f, _)| f == field)
            .map(|(_, v)| v.as_str())
    }

    /// Every field, in insertion order.
    pub fn fields(&self) -> &[(String, String)] {
        &self.0
    }

    /// True when no field is recorded.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl FromIterator<(String, String)> for Snapshot {
    fn from_iter<I: IntoIterator<Item = (String, String)>>(iter: I) -> Self {
        iter.into_iter()
            .fold(Self::new(), |s, (field, value)| s.with(&field, value))
    }
}

/// One change: who, what, when, on which object, before and after.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuditEntry {
    pub id: AuditEntryId,
    pub at: OffsetDateTime,
    pub actor: Actor,
    /// What was done, `object.verb` (`order.paid`, `api_key.revoked`, …).
    pub action: String,
    /// The kind of object changed (`order`, `api_key`, `organisation`, …).
    pub object_kind: String,
    /// Its identifier.
    pub object_id: String,
    /// The organisation the object belongs to, when it belongs to one.
    pub organisation: Option<OrganisationId>,
    pub before: Snapshot,
    pub after: Snapshot,
}

impl AuditEntry {
    /// An entry (with a fresh time-ordered id) without organisation or
    /// snapshots; add them with the builders.
    pub fn new(
        at: OffsetDateTime,
        actor: Actor,
        action: &str,
        object_kind: &str,
        object_id: impl fmt::Display,
    ) -> Self {
        Self {
            id: AuditEntryId::from_uuid(uuid::Uuid::now_v7()),
            at,
            actor,
            action: action.to_owned(),
            object_kind: object_kind.to_owned(),
            object_id: object_id.to_string(),
            organisation: None,
            before: Snapshot::new(),
            after: Snapshot::new(),
        }
    }

    /// The organisation the object belongs to.
    pub fn in_organisation(mut self, organisation: OrganisationId) -> Self {
        self.organisation = Some(organisation);
        self
    }

    /// The object before the change.
    pub fn before(mut self, snapshot: Snapshot) -> Self {
        self.before = snapshot;
        self
    }

    /// The object after the change.
    pub fn after(mut self, snapshot: Snapshot) -> Self {
        self.after = snapshot;
        self
    }

    /// Fields whose value differs between before and after (present in either).
    pub fn changed_fields(&self) -> Vec<&str> {
        let mut fields: Vec<&str> = Vec::new();
        for (field, _) in self.before.fields().iter().chain(self.after.fields()) {
            if !fields.contains(&field.as_str()) && self.before.get(field) != self.after.get(field)
            {
                fields.push(field);
            }
        }
        fields
    }
}

/// Which entries a listing returns (every set field must match).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AuditFilter {
    /// Entries by this person (email) — or `command line`.
    pub actor: Option<String>,
    /// Entries whose action starts with this (`order.` for every order change).
    pub action: Option<String>,
    /// Entries about the object with this id.
    pub object_id: Option<String>,
    /// Entries about objects of this organisation.
    pub organisation: Option<OrganisationId>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(before: Snapshot, after: Snapshot) -> AuditEntry {
        AuditEntry::new(
            OffsetDateTime::UNIX_EPOCH,
            Actor::CommandLine,
            "bundle.updated",
            "bundle",
            "b1",
        )
        .before(before)
        .after(after)
    }

    #[test]
    fn changed_fields_cover_added_removed_and_modified_fields_once() {
        let e = entry(
            Snapshot::new()
                .with("price", "10.00")
                .with("name", "A")
                .with("gone", 1),
            Snapshot::new()
                .with("price", "12.00")
                .with("name", "A")
                .with("new", 2),
        );
        assert_eq!(e.changed_fields(), vec!["price", "gone", "new"]);
    }

    #[test]
    fn entries_made_later_sort_later() {
        let first = entry(Snapshot::new(), Snapshot::new());
        let second = entry(Snapshot::new(), Snapshot::new());
        assert!(first.id < second.id);
    }

    #[test]
    fn a_snapshot_replaces_a_field_set_twice() {
        let s = Snapshot::new().with("a", 1).with("a", 2);
        assert_eq!(s.fields(), &[("a".to_owned(), "2".to_owned())]);
    }

    #[test]
    fn actors_round_trip_through_their_stored_parts() {
        let key = Actor::ApiKey(ApiKeyId::from_uuid(uuid::Uuid::from_u128(9)));
        assert_eq!(Actor::from_parts(key.kind(), &key.name()), Some(key));
        assert_eq!(Actor::CommandLine.to_string(), "command line");
    }
}
