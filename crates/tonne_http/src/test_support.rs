//! An [`AppState`] over mocked domain services, for handler tests without a
//! database: this crate's and those of the front ends composed over it
//! (feature `test-support`).
//!
//! ```
//! use tonne_accounts::MockAccountsService;
//! use tonne_http::test_support::mocked_state;
//!
//! let state = mocked_state(MockAccountsService::new());
//! assert_eq!(state.pages.public_url, "http://tonne.test");
//! ```

pub mod images;

use std::sync::Arc;

use async_trait::async_trait;
use tonne_accounts::versions::{ApiVersion, MockVersionPinRepository, VersionPolicy};
use tonne_accounts::{Caller, MockAccountsService};
use tonne_kernel::{AccountMode, ApiKeyId, OrganisationId};

use crate::metrics::Metrics;
use crate::rate_limit::{InProcessRateLimiter, RatePolicy};
use crate::{AppState, HttpConfig, PoolGauge, Readiness};

/// Readiness of a database that cannot be reached: `/ready` must say so
/// without leaking the cause.
pub struct UnreachableDatabase;

#[async_trait]
impl Readiness for UnreachableDatabase {
    async fn check(&self) -> Result<(), String> {
        Err("database unreachable: connection refused to 10.0.0.1".into())
    }
    fn pool(&self) -> PoolGauge {
        PoolGauge {
            connections: 1,
            idle: 1,
            max_size: 1,
        }
    }
}

/// A caller of a key of organisation 2, account 3, in `mode`.
pub fn caller(mode: AccountMode) -> Caller {
    Caller {
        key_id: ApiKeyId::from_uuid(uuid::Uuid::from_u128(1)),
        organisation_id: OrganisationId::from_uuid(uuid::Uuid::from_u128(2)),
        mode,
        account_id: tonne_accounts::AccountId::from_uuid(uuid::Uuid::from_u128(3)),
        scope: tonne_accounts::AccountScope::Account,
    }
}

/// Every organisation is pinned to the latest version.
pub fn pinned_latest() -> VersionPolicy {
    let mut pins = MockVersionPinRepository::new();
    pins.expect_pinned()
        .returning(|_| Ok(Some(ApiVersion::LATEST)));
    VersionPolicy::new(Arc::new(pins))
}

fn limiter() -> Arc<InProcessRateLimiter> {
    Arc::new(InProcessRateLimiter::new(RatePolicy {
        per_second: 1000,
        burst: 1000,
    }))
}

/// A state whose accounts are `accounts` and every other service a mock
/// that expects nothing (replace a field to expect calls); its database is
/// unreachable, its public URL `http://tonne.test`.
pub fn mocked_state(accounts: MockAccountsService) -> AppState {
    AppState {
        accounts: Arc::new(accounts),
        ordering: Arc::new(tonne_ordering::MockOrderingService::new()),
        estimates: Arc::new(tonne_estimation::ports::MockEstimationService::new()),
        quoted: Arc::new(tonne_quoted::ports::MockQuotedEstimatesService::new()),
        webhooks: Arc::new(tonne_webhooks::MockWebhooksService::new()),
        links: Arc::new(tonne_links::MockOffsetLinksService::new()),
        impact: Arc::new(tonne_impact::ports::MockImpactService::new()),
        shipments: Arc::new(tonne_shipments::MockShipmentsService::new()),
        document_jobs: Arc::new(tonne_estimation::document_jobs::MockDocumentJobsService::new()),
        quotas: Arc::new(tonne_accounts::quotas::MockQuotasService::new()),
        invoices: Arc::new(tonne_ordering::MockInvoicingService::new()),
        versions: pinned_latest(),
        pages: crate::PagesConfig {
            public_url: "http://tonne.test".into(),
            key: tonne_links::PageKey::new([1; 32]),
            limiter: limiter(),
            stripe_webhook_secrets: Vec::new(),
            card_payments: crate::CardPaymentsNote::default(),
        },
        limiter: limiter(),
        readiness: Arc::new(UnreachableDatabase),
        metrics: Arc::new(Metrics::new().unwrap_or_else(|e| panic!("metrics: {e}"))),
        config: HttpConfig::default(),
    }
}

/// A [`mocked_state`] in which every key authenticates as [`caller`] in `mode`.
pub fn signed_in_state(mode: AccountMode) -> AppState {
    let mut accounts = MockAccountsService::new();
    accounts
        .expect_authenticate()
        .returning(move |_, _| Ok(caller(mode)));
    mocked_state(accounts)
}
