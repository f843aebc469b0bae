//! What several user use cases share: the audit entry about a user and its
//! snapshot (never the password hash).

use time::OffsetDateTime;
use tonne_kernel::{Actor, AuditEntry, Snapshot};

use crate::users::model::{Role, User};

/// An audit entry about a user, in their organisation when they are a member.
pub(super) fn user_entry(user: &User, at: OffsetDateTime, by: &Actor, action: &str) -> AuditEntry {
    let entry = AuditEntry::new(at, by.clone(), action, "user", user.id);
    match user.role.organisation() {
        Some(organisation) => entry.in_organisation(organisation),
        None => entry,
    }
}

/// What the audit log keeps of a user (never the password hash).
pub(super) fn user_snapshot(user: &User) -> Snapshot {
    let role = match user.role {
        Role::Operator => "operator".to_owned(),
        Role::Member(organisation) => format!("member of {organisation}"),
    };
    let snapshot = Snapshot::new()
        .with("email", user.email.as_str())
        .with("role", role);
    match user.disabled_at {
        Some(at) => snapshot.with("disabled at", at),
        None => snapshot,
    }
}
