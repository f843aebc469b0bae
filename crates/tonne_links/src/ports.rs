//! Ports of the offset links domain.

use async_trait::async_trait;
use time::{Date, OffsetDateTime};
use tonne_kernel::{AccountId, AccountMode, Actor, AuditEntry, Cursor, Money, Page, PageRequest};

pub use tonne_kernel::StoreError;

use crate::checkout::{Checkout, Choice, Confirmed, PublicLink};
use crate::claims::{Claim, ClaimOutcome};
use crate::errors::{CheckoutError, LinkError};
use crate::limits::LimitsDraft;
use crate::models::{
    AccountProfile, Analytics, DailyFigures, LinkChanges, LinkDetails, LinkDraft, LinkOrder,
    OffsetLink, OffsetLinkId, VisitorHash,
};
use crate::pay::{Paid, PayCheckout, PayRequest};

/// Storage of offset links and their visitors.
#[cfg_attr(any(test, feature = "mock"), mockall::automock)]
#[async_trait]
pub trait OffsetLinkRepository: Send + Sync {
    /// Inserts a link, with its audit entry when given, in one transaction.
    /// MUST return `Duplicate` when the account has a link of the same name.
    async fn insert(&self, link: &OffsetLink, audit: Option<AuditEntry>) -> Result<(), StoreError>;
    /// The link, or `None`.
    async fn get(&self, id: OffsetLinkId) -> Result<Option<OffsetLink>, StoreError>;
    /// The account's links, newest first, strictly after the cursor link.
    /// MUST return `NotFound` when the cursor names no link of the account.
    async fn list(
        &self,
        account: AccountId,
        page: &PageRequest<Cursor>,
    ) -> Result<Page<OffsetLink>, StoreError>;
    /// Replaces the link's fields. MUST return `Duplicate` on a name taken by
    /// another link of the account, `NotFound` when it no longer exists.
    /// The audit entry, when given, is written in the same transaction.
    async fn update(&self, link: &OffsetLink, audit: Option<AuditEntry>) -> Result<(), StoreError>;
    /// Counts a visitor of the link on `day` once (repeats are ignored).
    async fn record_visit(
        &self,
        link: OffsetLinkId,
        day: Date,
        visitor: &VisitorHash,
    ) -> Result<(), StoreError>;
    /// Unique visitors (per day, summed) and orders placed through the link.
    async fn totals(&self, link: OffsetLinkId) -> Result<(u64, u64), StoreError>;
    /// The link's most recent orders, newest first, at most `limit`.
    async fn orders(&self, link: OffsetLinkId, limit: u32) -> Result<Vec<LinkOrder>, StoreError>;
    /// Visitors, orders and tonnes per UTC day, oldest first.
    async fn daily(&self, link: OffsetLinkId) -> Result<Vec<DailyFigures>, StoreError>;
    /// Counts one order of `claim.mass` on the link's and the visitor's day if,
    /// after it, the link's day holds at most `daily_orders` orders and
    /// `daily_mass`, and the visitor's at most `visitor_daily_orders`; otherwise
    /// counts nothing and answers which limit refused it. MUST decide and count
    /// atomically: of two concurrent claims for the last slot, one is refused.
    async fn claim(&self, claim: &Claim) -> Result<ClaimOutcome, StoreError>;
    /// Gives back a granted claim whose order was not placed (never below zero).
    async fn release(&self, claim: &Claim) -> Result<(), StoreError>;
    /// The origins the account's `/pay` page may send buyers back to, sorted.
    async fn pay_origins(&self, account: AccountId) -> Result<Vec<String>, StoreError>;
    /// Replaces the account's allowed origins (checked, deduplicated).
    async fn set_pay_origins(
        &self,
        account: AccountId,
        origins: &[String],
    ) -> Result<(), StoreError>;
    /// Records a Lune Pay payment's temporary id for its order at `at`.
    /// MUST keep one temporary id per order: when the order has one already,
    /// that one is kept and answered.
    async fn record_temporary_id(
        &self,
        temporary_id: uuid::Uuid,
        order: tonne_ordering::OrderId,
        at: OffsetDateTime,
    ) -> Result<uuid::Uuid, StoreError>;
    /// The order of a temporary id recorded at or after `since`, or `None`.
    async fn order_by_temporary_id(
        &self,
        temporary_id: uuid::Uuid,
        since: OffsetDateTime,
    ) -> Result<Option<tonne_ordering::OrderId>, StoreError>;
    /// Orders placed through any link before `placed_before` and still
    /// `received` (nobody confirmed them), oldest first, at most `limit`.
    async fn unconfirmed_orders(
        &self,
        placed_before: OffsetDateTime,
        limit: u32,
    ) -> Result<Vec<tonne_ordering::OrderId>, StoreError>;
}

/// What the links domain needs to know of accounts.
#[cfg_attr(any(test, feature = "mock"), mockall::automock)]
#[async_trait]
pub trait AccountDirectory: Send + Sync {
    /// The account's name, logo, currency and mode, or `None`.
    async fn profile(&self, account: AccountId) -> Result<Option<AccountProfile>, StoreError>;
}

/// What the hosted page's card step hands over (never stored or logged).
#[derive(Clone, PartialEq, Eq)]
pub enum Card {
    /// A number typed into Tonne's own field: the built-in test-mode
    /// simulator only. Digits only.
    Number(String),
    /// A payment method the card processor's script made in the customer's
    /// browser, so that the card itself never reaches Tonne (a Stripe `pm_…` id).
    PaymentMethod(String),
}

impl std::fmt::Debug for Card {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Number(number) => {
                let tail: String = number
                    .chars()
                    .rev()
                    .take(4)
                    .collect::<Vec<_>>()
                    .into_iter()
                    .rev()
                    .collect();
                write!(f, "Card(…{tail})")
            }
            Self::PaymentMethod(id) => write!(f, "PaymentMethod({id})"),
        }
    }
}

/// How the hosted page asks for the card.
#[derive(Clone, PartialEq, Eq)]
pub enum CardForm {
    /// No card is asked: the order waits for the operator to confirm payment.
    Operator,
    /// Tonne's own number field (the test-mode simulator).
    Number,
    /// The card processor's script collects the card in its own frame.
    Processor(ProcessorForm),
}

/// What the page needs to load the card processor's script (Stripe.js).
#[derive(Clone, PartialEq, Eq)]
pub struct ProcessorForm {
    /// The script's address (the page's only script from elsewhere).
    pub script_url: String,
    /// The origins the script talks to and frames (the page's CSP allows them).
    pub origins: Vec<String>,
    /// The processor's publishable key.
    pub publishable_key: String,
    /// The secret the script confirms the card with (a SetupIntent's client secret).
    pub client_secret: String,
}

impl CardForm {
    /// The processor's script and secrets, when the processor takes the card.
    pub fn processor(&self) -> Option<&ProcessorForm> {
        match self {
            Self::Processor(p) => Some(p),
            _ => None,
        }
    }
}

impl std::fmt::Debug for CardForm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Operator => write!(f, "Operator"),
            Self::Number => write!(f, "Number"),
            Self::Processor(p) => write!(f, "Processor({})", p.script_url),
        }
    }
}

/// What the card step decided.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CardOutcome {
    /// The amount is authorised: the order is placed (and collected by the
    /// mode's `PaymentGateway` when it becomes `paid`). `reference` is the
    /// processor's (a Stripe PaymentIntent id), kept on the order.
    Authorised {
        /// The processor's reference, if it has one.
        reference: Option<String>,
    },
    /// Refused: no order is placed.
    Declined {
        /// Shown to the customer.
        reason: String,
    },
    /// No card processor is connected: the order is placed and waits for the
    /// operator to confirm payment (`tonne orders advance --to paid`).
    AwaitingOperator,
}

/// The card step of a hosted page with `require_payment` (authorisation before
/// the order is placed; capture is the `PaymentGateway`'s when it becomes `paid`).
#[cfg_attr(any(test, feature = "mock"), mockall::automock)]
#[async_trait]
pub trait CardPayments: Send + Sync {
    /// How the confirmation page of an order of `amount` in `mode` asks for
    /// the card; `key` names this checkout (one per confirmation page).
    async fn form(
        &self,
        mode: AccountMode,
        amount: Money,
        key: &str,
    ) -> Result<CardForm, anyhow::Error>;
    /// Authorises `amount` on the card, for an order of a link in `mode`;
    /// `key` names the checkout, so that a repeated submit authorises once.
    async fn authorise(
        &self,
        mode: AccountMode,
        amount: Money,
        card: Option<Card>,
        key: &str,
    ) -> Result<CardOutcome, anyhow::Error>;
    /// Gives back an authorisation whose order could not be placed.
    async fn release(&self, mode: AccountMode, reference: &str) -> Result<(), anyhow::Error>;
}

/// The offset link use cases.
#[cfg_attr(any(test, feature = "mock"), mockall::automock)]
#[async_trait]
pub trait OffsetLinksService: Send + Sync {
    /// Creates a link on the account.
    async fn create(&self, account: AccountId, draft: LinkDraft) -> Result<LinkDetails, LinkError>;
    /// A person (console) creates a link on the account: as `create`,
    /// audited as done `by` (`offset_link.created`).
    async fn create_as(
        &self,
        account: AccountId,
        draft: LinkDraft,
        by: &Actor,
    ) -> Result<LinkDetails, LinkError>;
    /// A person (console) switches the account's link on or off, audited as
    /// done `by` (`offset_link.enabled`, `offset_link.disabled`); switching to
    /// the state it is in changes nothing and records nothing.
    async fn switch_as(
        &self,
        account: AccountId,
        id: &str,
        on: bool,
        by: &Actor,
    ) -> Result<LinkDetails, LinkError>;
    /// A person (console), the link's owner, sets its hosted page's limits
    /// (blank fields: the server's defaults), audited as done `by`
    /// (`offset_link.limits_changed`); limits as they were record nothing.
    async fn set_limits_as(
        &self,
        account: AccountId,
        id: &str,
        limits: LimitsDraft,
        by: &Actor,
    ) -> Result<LinkDetails, LinkError>;
    /// The account's link.
    async fn get(&self, account: AccountId, id: &str) -> Result<LinkDetails, LinkError>;
    /// The account's links, newest first.
    async fn list(
        &self,
        account: AccountId,
        page: PageRequest<Cursor>,
    ) -> Result<Page<LinkDetails>, LinkError>;
    /// Changes the account's link.
    async fn update(
        &self,
        account: AccountId,
        id: &str,
        changes: LinkChanges,
    ) -> Result<LinkDetails, LinkError>;
    /// The account's link's analytics.
    async fn analytics(&self, account: AccountId, id: &str) -> Result<Analytics, LinkError>;
    /// Analytics of any link (the caller has checked a signed URL).
    async fn analytics_of(&self, id: OffsetLinkId) -> Result<Analytics, LinkError>;
    /// The hosted page's view of a link; counts the visitor once per day when given.
    async fn open(
        &self,
        id: &str,
        visitor: Option<VisitorHash>,
    ) -> Result<PublicLink, CheckoutError>;
    /// Prices the customer's choice (the confirmation step), storing nothing.
    async fn quote(&self, id: &str, choice: Choice) -> Result<Checkout, CheckoutError>;
    /// How the confirmation page asks for the card of `checkout`, whose
    /// one-time `token` names it.
    async fn card_form(&self, checkout: &Checkout, token: &str) -> Result<CardForm, CheckoutError>;
    /// Places the order (idempotent on `token`) within the link's limits —
    /// per order, per day, and per day for `visitor` (the client address hashed
    /// with the day's salt, `PageKey::orderer`) — after the card step when required.
    async fn place(
        &self,
        id: &str,
        choice: Choice,
        card: Option<Card>,
        token: &str,
        visitor: VisitorHash,
    ) -> Result<Confirmed, CheckoutError>;
    /// Lune Pay's page: the platform's request checked (the account, the
    /// bundle on sale in its currency, the tonnes, the return address on one
    /// of the account's allowed origins) and priced.
    async fn pay_page(
        &self,
        account: &str,
        request: PayRequest,
    ) -> Result<PayCheckout, CheckoutError>;
    /// How Lune Pay's page asks for the card of `checkout` (one-time `token`).
    async fn pay_card_form(
        &self,
        checkout: &PayCheckout,
        token: &str,
    ) -> Result<CardForm, CheckoutError>;
    /// Pays: checks and prices again, authorises the card, places the order
    /// by mass (idempotent on `token`), collects it, and gives it a temporary id.
    async fn pay(
        &self,
        account: &str,
        request: PayRequest,
        card: Option<Card>,
        token: &str,
    ) -> Result<Paid, CheckoutError>;
    /// The order of a temporary id issued in the last 15 minutes.
    async fn payment(
        &self,
        temporary_id: uuid::Uuid,
    ) -> Result<Option<tonne_ordering::Order>, CheckoutError>;
    /// The account's allowed return origins.
    async fn pay_origins(&self, account: AccountId) -> Result<Vec<String>, LinkError>;
    /// Replaces them (each `https://host[:port]`; at most 20); the list as stored.
    async fn set_pay_origins(
        &self,
        account: AccountId,
        origins: Vec<String>,
    ) -> Result<Vec<String>, LinkError>;
    /// Cancels hosted-page orders nobody confirmed within the hold
    /// (`Settings::hold`), returning their stock; at most `limit`. How many.
    async fn expire_unconfirmed(&self, limit: u32) -> Result<usize, CheckoutError>;
    /// The time now (the pages print dates and check expiry with it).
    fn now(&self) -> OffsetDateTime;
}
