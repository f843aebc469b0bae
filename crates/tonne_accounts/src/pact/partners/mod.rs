//! PACT partners: the data recipients an account answers asynchronously.
//!
//! A partner that asks for footprints with a `…ProductFootprintRequest.Created.v1`
//! event (PACT Tech Specs v2.3, 6.8) expects the answer — `…Fulfilled.v1`
//! with the footprints, or `…Rejected.v1` — posted to its own events
//! endpoint, with an access token its own token endpoint issues. So the
//! account registers each partner it answers: the partner's base URL (the
//! `source` its events carry), and the client credentials the partner gave
//! it. A request whose `source` names no registered partner is acknowledged
//! and never answered: Tonne calls no address a requester merely names.
//!
//! A received request is stored with its job (the job engine's kind
//! [`ANSWER_JOB`]) in one transaction; the job finds the footprints, trades
//! the credentials for a token, posts the answer and marks the request
//! answered, retried with back-off while the partner fails.
//!
//! ```
//! use tonne_accounts::pact::partners::{PartnerSecret, RequestStatus, base_url};
//! use tonne_webhooks::TargetPolicy;
//!
//! let strict = TargetPolicy::default();
//! assert_eq!(base_url("https://pcf.example.com/", strict).unwrap(), "https://pcf.example.com");
//! assert!(base_url("http://pcf.example.com", strict).is_err());
//! assert!(base_url("https://pcf.example.com/?a=b", strict).is_err());
//! let secret = PartnerSecret::new("s3cret".into()).unwrap();
//! assert_eq!(format!("{secret:?}"), "PartnerSecret(<redacted>)");
//! assert_eq!(RequestStatus::parse("fulfilled"), Some(RequestStatus::Fulfilled));
//! ```

use std::fmt;
use std::sync::Arc;

use async_trait::async_trait;
use time::OffsetDateTime;
use tonne_kernel::{AccountId, Clock, IdGenerator, JobLease, StoreError};
use tonne_webhooks::{TargetPolicy, WebhookUrl};

use crate::ports::AccountRepository;
use credential::credential_ok;

mod add;
mod credential;
mod request;

#[cfg(test)]
mod tests;

tonne_kernel::define_id!(
    /// A registered PACT partner.
    PactPartnerId
);

tonne_kernel::define_id!(
    /// A footprint request a partner sent, to be answered.
    PactRequestId
);

/// The job engine's kind for answering a request.
pub const ANSWER_JOB: &str = "pact_answer";
/// Partners an account may register at once (removed ones do not count).
pub const PARTNERS_PER_ACCOUNT: u32 = 20;
/// Requests of one account waiting for their answer at once: beyond, a new
/// request is refused until some are answered.
pub const WAITING_PER_ACCOUNT: u32 = 100;
/// The most product ids one request may name.
pub const MAX_PRODUCT_IDS: usize = 1_000;
/// The client secret a partner gave the account: sealed at rest, shown to
/// no one, sent only to the partner's token endpoint.
#[derive(Clone, PartialEq, Eq)]
pub struct PartnerSecret(String);

impl PartnerSecret {
    /// A secret as given (1 to 512 bytes, no control characters), else `None`.
    pub fn new(text: String) -> Option<Self> {
        credential_ok(&text).then_some(Self(text))
    }

    /// The secret's text, for the token request.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for PartnerSecret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("PartnerSecret(<redacted>)")
    }
}

/// A partner's URL as stored and compared: checked by the webhook URL rules
/// (`https`, a public host; `http` and private hosts only under
/// `TONNE_WEBHOOKS_ALLOW_PRIVATE`), no query or fragment, no trailing `/`.
pub fn base_url(raw: &str, policy: TargetPolicy) -> Result<String, PartnerError> {
    let checked = WebhookUrl::parse(raw.trim(), policy)
        .map_err(|e| PartnerError::InvalidUrl(e.to_string()))?;
    let text = checked.as_str();
    if text.contains('?') || text.contains('#') {
        return Err(PartnerError::InvalidUrl(
            "a partner's URL has no query or fragment".into(),
        ));
    }
    Ok(text.trim_end_matches('/').to_owned())
}

/// A registered partner (its secret apart, see [`PendingAnswer`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PactPartner {
    pub id: PactPartnerId,
    /// The account that answers it.
    pub account_id: AccountId,
    /// Its base URL: the `source` of its events; answers go to `{url}/2/events`.
    pub url: String,
    /// Where its access tokens are issued (`{url}/auth/token` unless given).
    pub token_url: String,
    /// The `client_id` it gave the account.
    pub client_id: String,
    pub created_at: OffsetDateTime,
    pub removed_at: Option<OffsetDateTime>,
}

impl PactPartner {
    /// Where answers are posted.
    pub fn events_url(&self) -> String {
        format!("{}/2/events", self.url)
    }
}

/// How a request stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RequestStatus {
    /// Received, its answer not yet delivered.
    Waiting,
    /// Answered with footprints.
    Fulfilled,
    /// Answered with a rejection (no footprint matched).
    Rejected,
    /// Given up: the partner could not be reached, or was removed.
    Failed,
}

impl RequestStatus {
    /// The stored and shown name.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Waiting => "waiting",
            Self::Fulfilled => "fulfilled",
            Self::Rejected => "rejected",
            Self::Failed => "failed",
        }
    }

    /// The status of a stored name.
    pub fn parse(text: &str) -> Option<Self> {
        [Self::Waiting, Self::Fulfilled, Self::Rejected, Self::Failed]
            .into_iter()
            .find(|s| s.as_str() == text)
    }
}

/// A request as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PactRequest {
    pub id: PactRequestId,
    pub account_id: AccountId,
    pub partner_id: PactPartnerId,
    /// The request event's `id` (the answer's `requestEventId`).
    pub event_id: String,
    /// The product ids it asks for.
    pub product_ids: Vec<String>,
    pub received_at: OffsetDateTime,
    pub status: RequestStatus,
    pub answered_at: Option<OffsetDateTime>,
    /// Why it failed, for the operator.
    pub error: Option<String>,
}

/// A request to answer, with whom and how to reach them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PendingAnswer {
    pub request: PactRequest,
    pub partner: PactPartner,
    pub secret: PartnerSecret,
}

/// What became of a received request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Received {
    /// Stored, its answer queued.
    Queued(PactRequestId),
    /// The partner sent this event id before: nothing new is queued.
    Repeated,
    /// Its `source` names no partner of the account: acknowledged, never answered.
    NoPartner,
    /// [`WAITING_PER_ACCOUNT`] requests already wait: refused.
    TooMany,
}

/// Why a partner cannot be registered or removed.
#[derive(Debug, thiserror::Error)]
pub enum PartnerError {
    #[error("no such account")]
    AccountNotFound,
    #[error("no such PACT partner")]
    PartnerNotFound,
    #[error("the partner's URL is not valid: {0}")]
    InvalidUrl(String),
    #[error("the client_id must be 1 to 512 printable characters")]
    InvalidClientId,
    /// The account holds [`PARTNERS_PER_ACCOUNT`] partners already.
    #[error("the account holds {PARTNERS_PER_ACCOUNT} PACT partners already; remove one first")]
    TooMany,
    /// A standing partner of the account has this URL already.
    #[error("the account has a partner at this URL already; remove it first")]
    Duplicate,
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Why an answer could not be delivered (retried with back-off).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct GatewayError(pub String);

/// How answers reach a partner: a token from its token endpoint (OAuth 2
/// client credentials, HTTP Basic), then the event posted to its events
/// endpoint with that token.
#[cfg_attr(any(test, feature = "mock"), mockall::automock)]
#[async_trait]
pub trait PartnerGateway: Send + Sync {
    /// Delivers `event` (a CloudEvents 1.0 JSON text) to the partner.
    async fn deliver(
        &self,
        partner: &PactPartner,
        secret: &PartnerSecret,
        event: &str,
    ) -> Result<(), GatewayError>;
}

/// Storage of partners (secrets sealed by the adapter) and their requests.
#[cfg_attr(any(test, feature = "mock"), mockall::automock)]
#[async_trait]
pub trait PactPartnerRepository: Send + Sync {
    /// Stores a partner unless the account holds `max` standing partners or
    /// one at the same URL (counted in the same transaction).
    async fn insert(
        &self,
        partner: &PactPartner,
        secret: &PartnerSecret,
        max: u32,
    ) -> Result<Result<(), PartnerError>, StoreError>;

    /// A partner by id, removed or not.
    async fn get(&self, id: PactPartnerId) -> Result<Option<PactPartner>, StoreError>;

    /// The account's standing partners, oldest first.
    async fn list(&self, account: AccountId) -> Result<Vec<PactPartner>, StoreError>;

    /// Marks a partner removed; the partner as it now stands.
    async fn remove(
        &self,
        id: PactPartnerId,
        at: OffsetDateTime,
    ) -> Result<Option<PactPartner>, StoreError>;

    /// The account's standing partner at `url`.
    async fn find(&self, account: AccountId, url: &str) -> Result<Option<PactPartner>, StoreError>;

    /// Stores a request and queues its answer in one transaction, unless the
    /// partner sent its event id before or the account has `max_waiting`
    /// requests waiting (the outcome says which).
    async fn record(&self, request: &PactRequest, max_waiting: u32)
    -> Result<Received, StoreError>;

    /// A request with its partner and the partner's secret.
    async fn pending(&self, id: PactRequestId) -> Result<Option<PendingAnswer>, StoreError>;

    /// Marks a waiting request answered (or failed) while `lease` holds its
    /// job; `NotFound` when it no longer does.
    async fn answered(
        &self,
        lease: &JobLease,
        id: PactRequestId,
        status: RequestStatus,
        at: OffsetDateTime,
        error: Option<String>,
    ) -> Result<(), StoreError>;

    /// The account's latest requests, newest first.
    async fn requests(
        &self,
        account: AccountId,
        limit: u32,
    ) -> Result<Vec<PactRequest>, StoreError>;
}

/// The partners' use cases: register, list, remove (the CLI), receive a
/// request, and the answering job's reads and writes.
#[cfg_attr(any(test, feature = "mock"), mockall::automock)]
#[async_trait]
pub trait PactPartnersService: Send + Sync {
    /// Registers a partner of the account.
    async fn add(
        &self,
        account: AccountId,
        url: &str,
        token_url: Option<String>,
        client_id: &str,
        secret: PartnerSecret,
    ) -> Result<PactPartner, PartnerError>;

    /// The account's standing partners, oldest first.
    async fn list(&self, account: AccountId) -> Result<Vec<PactPartner>, PartnerError>;

    /// Removes a partner of the account (of any account when `account` is
    /// `None`: the operator's CLI); its waiting requests are not answered.
    async fn remove(
        &self,
        account: Option<AccountId>,
        id: PactPartnerId,
    ) -> Result<PactPartner, PartnerError>;

    /// A request event the account received from `source`.
    async fn receive(
        &self,
        account: AccountId,
        source: &str,
        event_id: &str,
        product_ids: Vec<String>,
    ) -> Result<Received, StoreError>;

    /// What the answering job needs.
    async fn pending(&self, id: PactRequestId) -> Result<Option<PendingAnswer>, StoreError>;

    /// Marks a request answered (or failed, with why) under the job's lease.
    async fn answered(
        &self,
        lease: &JobLease,
        id: PactRequestId,
        status: RequestStatus,
        error: Option<String>,
    ) -> Result<(), StoreError>;

    /// The account's latest requests, newest first.
    async fn requests(
        &self,
        account: AccountId,
        limit: u32,
    ) -> Result<Vec<PactRequest>, StoreError>;
}

/// [`PactPartnersService`] over its ports: the partners' storage, the
/// accounts, a clock, an id generator and the rules for outbound URLs (the
/// webhooks'); `PactPartners::new` takes them in the order of the fields.
#[derive(derive_more::Constructor)]
pub struct PactPartners {
    repo: Arc<dyn PactPartnerRepository>,
    accounts: Arc<dyn AccountRepository>,
    clock: Arc<dyn Clock>,
    ids: Arc<dyn IdGenerator>,
    targets: TargetPolicy,
}

#[async_trait]
impl PactPartnersService for PactPartners {
    async fn add(
        &self,
        account: AccountId,
        url: &str,
        token_url: Option<String>,
        client_id: &str,
        secret: PartnerSecret,
    ) -> Result<PactPartner, PartnerError> {
        add::add(self, account, url, token_url, client_id, secret).await
    }

    async fn list(&self, account: AccountId) -> Result<Vec<PactPartner>, PartnerError> {
        Ok(self.repo.list(account).await?)
    }

    async fn remove(
        &self,
        account: Option<AccountId>,
        id: PactPartnerId,
    ) -> Result<PactPartner, PartnerError> {
        add::remove(self, account, id).await
    }

    async fn receive(
        &self,
        account: AccountId,
        source: &str,
        event_id: &str,
        product_ids: Vec<String>,
    ) -> Result<Received, StoreError> {
        request::receive(self, account, source, event_id, product_ids).await
    }

    async fn pending(&self, id: PactRequestId) -> Result<Option<PendingAnswer>, StoreError> {
        self.repo.pending(id).await
    }

    async fn answered(
        &self,
        lease: &JobLease,
        id: PactRequestId,
        status: RequestStatus,
        error: Option<String>,
    ) -> Result<(), StoreError> {
        self.repo
            .answered(lease, id, status, self.clock.now(), error)
            .await
    }

    async fn requests(
        &self,
        account: AccountId,
        limit: u32,
    ) -> Result<Vec<PactRequest>, StoreError> {
        self.repo.requests(account, limit.clamp(1, 1_000)).await
    }
}
