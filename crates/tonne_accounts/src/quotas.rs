//! Bounds per account, as operators see and set them: each organisation's
//! limits (its own where an operator set one, else the installation's
//! default) and each of its accounts' usage against them. Live and test
//! accounts are counted apart; a limit holds per account.
//!
//! [`QuotasService`] (driving, implemented by [`Quotas`]) over the driven
//! [`QuotaRepository`]. The limits themselves are enforced where work is
//! written (the shipments and estimation domains); this is their reading and
//! setting.

use std::sync::Arc;

use async_trait::async_trait;
use tonne_kernel::{
    AccountId, AccountMode, Actor, AuditEntry, Clock, LimitOverrides, Limits, OrganisationId,
    Quota, Snapshot, StoreError, Usage,
};

/// An account's usage of each bound.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AccountUsage {
    pub account_id: AccountId,
    pub mode: AccountMode,
    pub name: String,
    pub usage: Usage,
}

/// An organisation's overrides and its accounts' usage, as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredQuotas {
    pub organisation_id: OrganisationId,
    pub organisation_name: String,
    pub overrides: LimitOverrides,
    /// Its accounts, live then test, by name.
    pub accounts: Vec<AccountUsage>,
}

/// An organisation's limits in force and its accounts' usage.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OrganisationQuotas {
    pub organisation_id: OrganisationId,
    pub organisation_name: String,
    /// What an operator set (`None`: the default).
    pub overrides: LimitOverrides,
    /// The limits in force per account.
    pub limits: Limits,
    /// The installation's defaults (where no override is set, the limit).
    pub defaults: Limits,
    pub accounts: Vec<AccountUsage>,
}

impl OrganisationQuotas {
    /// Whether an account has reached a limit (the next write counting
    /// against it is refused).
    pub fn at_limit(&self, usage: &Usage, quota: Quota) -> bool {
        usage.get(quota) >= self.limits.get(quota)
    }
}

/// Why a quota use case failed.
#[derive(Debug, thiserror::Error)]
pub enum QuotaError {
    /// No organisation with that id.
    #[error("organisation not found")]
    OrganisationNotFound,
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Storage of the overrides, and the usage counted from what accounts hold.
#[cfg_attr(any(test, feature = "mock"), mockall::automock)]
#[async_trait]
pub trait QuotaRepository: Send + Sync {
    /// One organisation's overrides and usage; `None` if it does not exist.
    async fn organisation(
        &self,
        organisation: OrganisationId,
    ) -> Result<Option<StoredQuotas>, StoreError>;

    /// Every organisation's, by name.
    async fn organisations(&self) -> Result<Vec<StoredQuotas>, StoreError>;

    /// Replaces the organisation's overrides and records the audit entry, in
    /// one transaction; `NotFound` if the organisation does not exist.
    async fn set_overrides(
        &self,
        organisation: OrganisationId,
        overrides: &LimitOverrides,
        audit: &AuditEntry,
    ) -> Result<(), StoreError>;
}

/// The operators' and members' use cases.
#[cfg_attr(any(test, feature = "mock"), mockall::automock)]
#[async_trait]
pub trait QuotasService: Send + Sync {
    /// An organisation's limits and usage.
    async fn organisation(
        &self,
        organisation: OrganisationId,
    ) -> Result<OrganisationQuotas, QuotaError>;

    /// Every organisation's (operators).
    async fn organisations(&self) -> Result<Vec<OrganisationQuotas>, QuotaError>;

    /// Sets an organisation's overrides (`None` returns a limit to the
    /// default), audited under `actor`; answers the result.
    async fn set_limits(
        &self,
        actor: Actor,
        organisation: OrganisationId,
        overrides: LimitOverrides,
    ) -> Result<OrganisationQuotas, QuotaError>;
}

/// [`QuotasService`] over its repository, with the installation's defaults.
pub struct Quotas {
    repo: Arc<dyn QuotaRepository>,
    defaults: Limits,
    clock: Arc<dyn Clock>,
}

impl Quotas {
    /// The use cases; `defaults` are the settings' limits.
    pub fn new(repo: Arc<dyn QuotaRepository>, defaults: Limits, clock: Arc<dyn Clock>) -> Self {
        Self {
            repo,
            defaults,
            clock,
        }
    }

    /// The installation's defaults.
    pub fn defaults(&self) -> Limits {
        self.defaults
    }

    fn in_force(&self, stored: StoredQuotas) -> OrganisationQuotas {
        OrganisationQuotas {
            limits: stored.overrides.apply(&self.defaults),
            defaults: self.defaults,
            organisation_id: stored.organisation_id,
            organisation_name: stored.organisation_name,
            overrides: stored.overrides,
            accounts: stored.accounts,
        }
    }
}

/// The overrides as audited: each set limit by its key.
fn snapshot(overrides: &LimitOverrides) -> Snapshot {
    Quota::ALL
        .into_iter()
        .filter_map(|q| {
            overrides
                .get(q)
                .map(|v| (q.key().to_owned(), v.to_string()))
        })
        .collect()
}

#[async_trait]
impl QuotasService for Quotas {
    async fn organisation(
        &self,
        organisation: OrganisationId,
    ) -> Result<OrganisationQuotas, QuotaError> {
        self.repo
            .organisation(organisation)
            .await?
            .map(|s| self.in_force(s))
            .ok_or(QuotaError::OrganisationNotFound)
    }

    async fn organisations(&self) -> Result<Vec<OrganisationQuotas>, QuotaError> {
        Ok(self
            .repo
            .organisations()
            .await?
            .into_iter()
            .map(|s| self.in_force(s))
            .collect())
    }

    async fn set_limits(
        &self,
        actor: Actor,
        organisation: OrganisationId,
        overrides: LimitOverrides,
    ) -> Result<OrganisationQuotas, QuotaError> {
        let before = self
            .repo
            .organisation(organisation)
            .await?
            .ok_or(QuotaError::OrganisationNotFound)?;
        let audit = AuditEntry::new(
            self.clock.now(),
            actor,
            "organisation.limits_changed",
            "organisation",
            organisation,
        )
        .in_organisation(organisation)
        .before(snapshot(&before.overrides))
        .after(snapshot(&overrides));
        match self
            .repo
            .set_overrides(organisation, &overrides, &audit)
            .await
        {
            Ok(()) => {}
            Err(StoreError::NotFound) => return Err(QuotaError::OrganisationNotFound),
            Err(e) => return Err(e.into()),
        }
        Ok(self.in_force(StoredQuotas {
            overrides,
            ..before
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tonne_kernel::MockClock;

    fn org() -> OrganisationId {
        OrganisationId::from_uuid(uuid::Uuid::from_u128(1))
    }

    fn stored(overrides: LimitOverrides) -> StoredQuotas {
        let mut usage = Usage::default();
        usage.set(Quota::PendingBatches, 4);
        StoredQuotas {
            organisation_id: org(),
            organisation_name: "Acme".into(),
            overrides,
            accounts: vec![AccountUsage {
                account_id: AccountId::from_uuid(uuid::Uuid::from_u128(2)),
                mode: AccountMode::Live,
                name: "Acme".into(),
                usage,
            }],
        }
    }

    fn quotas(repo: MockQuotaRepository, defaults: Limits) -> Quotas {
        let mut clock = MockClock::new();
        clock
            .expect_now()
            .returning(|| time::macros::datetime!(2026-11-28 12:00 UTC));
        Quotas::new(Arc::new(repo), defaults, Arc::new(clock))
    }

    #[tokio::test]
    async fn limits_in_force_are_the_overrides_over_the_settings_defaults() {
        let mut repo = MockQuotaRepository::new();
        repo.expect_organisation().returning(|_| {
            let mut o = LimitOverrides::default();
            o.set(Quota::PendingBatches, Some(4));
            Ok(Some(stored(o)))
        });
        let mut defaults = Limits::DEFAULT;
        defaults.set(Quota::StoredBytes, 99);
        let q = quotas(repo, defaults).organisation(org()).await.unwrap();
        assert_eq!(q.limits.pending_batches, 4);
        assert_eq!(q.limits.stored_bytes, 99, "the settings' default");
        let usage = q.accounts[0].usage;
        assert!(q.at_limit(&usage, Quota::PendingBatches));
        assert!(!q.at_limit(&usage, Quota::StoredBytes));
    }

    #[tokio::test]
    async fn an_unknown_organisation_is_not_found_and_nothing_is_set() {
        let mut repo = MockQuotaRepository::new();
        repo.expect_organisation().returning(|_| Ok(None));
        repo.expect_set_overrides().never();
        let q = quotas(repo, Limits::DEFAULT);
        assert!(matches!(
            q.organisation(org()).await,
            Err(QuotaError::OrganisationNotFound)
        ));
        assert!(matches!(
            q.set_limits(Actor::CommandLine, org(), LimitOverrides::default())
                .await,
            Err(QuotaError::OrganisationNotFound)
        ));
    }

    #[tokio::test]
    async fn setting_limits_is_audited_with_the_overrides_before_and_after() {
        let mut repo = MockQuotaRepository::new();
        repo.expect_organisation().returning(|_| {
            let mut o = LimitOverrides::default();
            o.set(Quota::StoredShipments, Some(10));
            Ok(Some(stored(o)))
        });
        repo.expect_set_overrides()
            .withf(|o, overrides, audit| {
                *o == org()
                    && overrides.pending_documents == Some(7)
                    && overrides.stored_shipments.is_none()
                    && audit.action == "organisation.limits_changed"
                    && audit.actor == Actor::person("op@example.com")
                    && audit.before.get("max_stored_shipments") == Some("10")
                    && audit.after.get("max_stored_shipments").is_none()
                    && audit.after.get("max_pending_documents") == Some("7")
            })
            .times(1)
            .returning(|_, _, _| Ok(()));
        let mut new = LimitOverrides::default();
        new.set(Quota::PendingDocuments, Some(7));
        let q = quotas(repo, Limits::DEFAULT)
            .set_limits(Actor::person("op@example.com"), org(), new)
            .await
            .unwrap();
        assert_eq!(q.limits.pending_documents, 7);
        assert_eq!(
            q.limits.stored_shipments,
            Limits::DEFAULT.stored_shipments,
            "back to the default"
        );
    }
}
