//! Reading the audit log: who changed what, newest first, filtered.
//!
//! Entries are written by the repositories that store each change (see
//! [`tonne_kernel::AuditEntry`]); this module only lists them. An operator sees
//! every entry; a member, the entries about their organisation's objects.
//!
//! ```
//! use std::sync::Arc;
//! use tonne_accounts::audit::{AuditLog, AuditRepository, AuditTrail};
//! use tonne_kernel::{AuditEntry, AuditEntryId, AuditFilter, Page, PageRequest, StoreError};
//!
//! /// A log with nothing in it, answering which filter it was asked for.
//! struct Empty;
//! #[async_trait::async_trait]
//! impl AuditRepository for Empty {
//!     async fn list(&self, filter: &AuditFilter, _: &PageRequest<AuditEntryId>)
//!         -> Result<Page<AuditEntry>, StoreError> {
//!         assert_eq!(filter.actor.as_deref(), Some("ops@example.org"));
//!         Ok(Page { items: vec![], has_more: false })
//!     }
//! }
//!
//! # #[tokio::main(flavor = "current_thread")] async fn main() {
//! let log = AuditTrail::new(Arc::new(Empty));
//! let filter = AuditFilter { actor: Some(" Ops@Example.org".into()), ..Default::default() };
//! let page = log.list(filter, PageRequest::first()).await.unwrap();
//! assert!(page.items.is_empty());
//! # }
//! ```

use std::sync::Arc;

use async_trait::async_trait;
use tonne_kernel::{AuditEntry, AuditEntryId, AuditFilter, Page, PageRequest, StoreError};

/// Where audit entries are read from (driven port; writes happen inside each
/// change's own repository call).
#[cfg_attr(any(test, feature = "mock"), mockall::automock)]
#[async_trait]
pub trait AuditRepository: Send + Sync {
    /// Entries matching the filter, newest first, strictly older than the cursor.
    /// MUST return `NotFound` when the cursor names no entry.
    async fn list(
        &self,
        filter: &AuditFilter,
        page: &PageRequest<AuditEntryId>,
    ) -> Result<Page<AuditEntry>, StoreError>;
}

/// The audit log's use case (driving port).
#[cfg_attr(any(test, feature = "mock"), mockall::automock)]
#[async_trait]
pub trait AuditLog: Send + Sync {
    /// Entries matching the filter, newest first, by cursor.
    async fn list(
        &self,
        filter: AuditFilter,
        page: PageRequest<AuditEntryId>,
    ) -> Result<Page<AuditEntry>, StoreError>;
}

/// [`AuditLog`] over a repository.
#[derive(Clone)]
pub struct AuditTrail {
    repo: Arc<dyn AuditRepository>,
}

impl AuditTrail {
    /// The log over its store.
    pub fn new(repo: Arc<dyn AuditRepository>) -> Self {
        Self { repo }
    }
}

#[async_trait]
impl AuditLog for AuditTrail {
    async fn list(
        &self,
        mut filter: AuditFilter,
        page: PageRequest<AuditEntryId>,
    ) -> Result<Page<AuditEntry>, StoreError> {
        // Blank filter fields mean "any", however the form sent them.
        for field in [&mut filter.actor, &mut filter.action, &mut filter.object_id] {
            *field = field
                .take()
                .map(|v| v.trim().to_owned())
                .filter(|v| !v.is_empty());
        }
        filter.actor = filter.actor.map(|a| a.to_lowercase());
        self.repo.list(&filter, &page).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn blank_filter_fields_mean_any_and_emails_match_in_lower_case() {
        let mut repo = MockAuditRepository::new();
        repo.expect_list()
            .withf(|f, _| {
                f.actor.as_deref() == Some("ops@example.org")
                    && f.action.is_none()
                    && f.object_id.is_none()
            })
            .times(1)
            .returning(|_, _| {
                Ok(Page {
                    items: vec![],
                    has_more: false,
                })
            });
        let log = AuditTrail::new(Arc::new(repo));
        let filter = AuditFilter {
            actor: Some(" Ops@Example.org ".into()),
            action: Some("  ".into()),
            object_id: Some(String::new()),
            organisation: None,
        };
        log.list(filter, PageRequest::first()).await.unwrap();
    }
}
