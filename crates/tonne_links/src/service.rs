//! [`OffsetLinks`]: the offset link use cases behind the [`OffsetLinksService`]
//! port, one module each: the API's [`create`], [`reads`], [`update`] and
//! [`analytics`], the console's [`owner_limits`], the hosted checkout's [`open`],
//! [`quote`] and [`place`], and the hold's [`expiry`].

use std::sync::Arc;

use async_trait::async_trait;
use rust_decimal::Decimal;
use time::OffsetDateTime;
use tonne_kernel::{AccountId, Actor, Clock, Cursor, Page, PageRequest};
use tonne_ordering::OrderingService;

use crate::checkout::{Checkout, Choice, Confirmed, PublicLink};
use crate::errors::{CheckoutError, LinkError};
use crate::limits::{DefaultLimits, LimitsDraft};
use crate::models::{Analytics, LinkChanges, LinkDetails, LinkDraft, OffsetLinkId, VisitorHash};
use crate::pay::{Paid, PayCheckout, PayRequest};
use crate::ports::{
    AccountDirectory, Card, CardForm, CardPayments, OffsetLinkRepository, OffsetLinksService,
};

mod analytics;
mod card_form;
mod checks;
mod create;
mod expiry;
mod hosted;
mod limited;
mod open;
mod owner_limits;
mod pay;
mod pay_origins;
mod pay_page;
mod place;
mod quote;
mod reads;
mod support;
#[cfg(test)]
mod tests;
mod update;

pub use analytics::MAX_ANALYTICS_ORDERS;

/// Bounds of what a customer may order on a hosted page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Settings {
    /// The largest amount of money per order, in major units of the account's
    /// currency: the ceiling of every link's own limit.
    pub max_value: Decimal,
    /// The largest mass per order, in tonnes: the ceiling of every link's own limit.
    pub max_tonnes: Decimal,
    /// The limits of a link whose owner set none (every link made over the API).
    pub limits: DefaultLimits,
    /// How long a hosted-page order may stay `received` (nobody confirmed it)
    /// before it is cancelled and its stock returned.
    pub hold: time::Duration,
}

impl Default for Settings {
    /// 10,000 (of the account's currency) and 1,000 t per order at most; the
    /// [`DefaultLimits`]; orders held 24 hours.
    fn default() -> Self {
        Self {
            max_value: Decimal::from(10_000),
            max_tonnes: Decimal::from(1_000),
            limits: DefaultLimits::default(),
            hold: time::Duration::hours(24),
        }
    }
}

/// The offset link use cases over their ports.
///
/// `OffsetLinks::new` takes the ports in the order of the fields; the binary
/// wires it over the storage adapters and the ordering domain:
///
/// ```
/// use std::sync::Arc;
///
/// use tonne_kernel::{Clock, IdGenerator, SystemClock, UuidV7Generator};
/// use tonne_links::ports::{AccountDirectory, CardPayments, OffsetLinkRepository};
/// use tonne_links::{OffsetLinks, OffsetLinksService, Settings};
/// use tonne_ordering::OrderingService;
///
/// fn wire(
///     links: Arc<dyn OffsetLinkRepository>,
///     accounts: Arc<dyn AccountDirectory>,
///     ordering: Arc<dyn OrderingService>,
///     cards: Arc<dyn CardPayments>,
/// ) -> Arc<dyn OffsetLinksService> {
///     let clock: Arc<dyn Clock> = Arc::new(SystemClock);
///     let ids: Arc<dyn IdGenerator> = Arc::new(UuidV7Generator);
///     Arc::new(OffsetLinks::new(links, accounts, ordering, cards, clock, ids, Settings::default()))
/// }
/// # let _ = wire;
/// assert_eq!(Settings::default().hold, time::Duration::hours(24));
/// ```
#[derive(Clone, derive_more::Constructor)]
pub struct OffsetLinks {
    links: Arc<dyn OffsetLinkRepository>,
    accounts: Arc<dyn AccountDirectory>,
    ordering: Arc<dyn OrderingService>,
    cards: Arc<dyn CardPayments>,
    clock: Arc<dyn Clock>,
    ids: Arc<dyn tonne_kernel::IdGenerator>,
    settings: Settings,
}

#[async_trait]
impl OffsetLinksService for OffsetLinks {
    async fn create(&self, account: AccountId, draft: LinkDraft) -> Result<LinkDetails, LinkError> {
        self.create_by(account, draft, None).await
    }

    async fn create_as(
        &self,
        account: AccountId,
        draft: LinkDraft,
        by: &Actor,
    ) -> Result<LinkDetails, LinkError> {
        self.create_by(account, draft, Some(by)).await
    }

    async fn switch_as(
        &self,
        account: AccountId,
        id: &str,
        on: bool,
        by: &Actor,
    ) -> Result<LinkDetails, LinkError> {
        self.switch_as(account, id, on, by).await
    }

    async fn get(&self, account: AccountId, id: &str) -> Result<LinkDetails, LinkError> {
        self.get(account, id).await
    }

    async fn list(
        &self,
        account: AccountId,
        page: PageRequest<Cursor>,
    ) -> Result<Page<LinkDetails>, LinkError> {
        self.list(account, page).await
    }

    async fn update(
        &self,
        account: AccountId,
        id: &str,
        changes: LinkChanges,
    ) -> Result<LinkDetails, LinkError> {
        self.update(account, id, changes).await
    }

    async fn analytics(&self, account: AccountId, id: &str) -> Result<Analytics, LinkError> {
        self.analytics(account, id).await
    }

    async fn analytics_of(&self, id: OffsetLinkId) -> Result<Analytics, LinkError> {
        self.analytics_of(id).await
    }

    async fn open(
        &self,
        id: &str,
        visitor: Option<VisitorHash>,
    ) -> Result<PublicLink, CheckoutError> {
        self.open(id, visitor).await
    }

    async fn quote(&self, id: &str, choice: Choice) -> Result<Checkout, CheckoutError> {
        self.quote(id, choice).await
    }

    async fn card_form(&self, checkout: &Checkout, token: &str) -> Result<CardForm, CheckoutError> {
        self.card_form(checkout, token).await
    }

    async fn pay_page(
        &self,
        account: &str,
        request: PayRequest,
    ) -> Result<PayCheckout, CheckoutError> {
        self.pay_page(account, request).await
    }

    async fn pay_card_form(
        &self,
        checkout: &PayCheckout,
        token: &str,
    ) -> Result<CardForm, CheckoutError> {
        self.pay_card_form(checkout, token).await
    }

    async fn pay(
        &self,
        account: &str,
        request: PayRequest,
        card: Option<Card>,
        token: &str,
    ) -> Result<Paid, CheckoutError> {
        self.pay(account, request, card, token).await
    }

    async fn payment(
        &self,
        temporary_id: uuid::Uuid,
    ) -> Result<Option<tonne_ordering::Order>, CheckoutError> {
        self.payment(temporary_id).await
    }

    async fn pay_origins(&self, account: AccountId) -> Result<Vec<String>, LinkError> {
        self.pay_origins(account).await
    }

    async fn set_pay_origins(
        &self,
        account: AccountId,
        origins: Vec<String>,
    ) -> Result<Vec<String>, LinkError> {
        self.set_pay_origins(account, origins).await
    }

    async fn place(
        &self,
        id: &str,
        choice: Choice,
        card: Option<Card>,
        token: &str,
        visitor: VisitorHash,
    ) -> Result<Confirmed, CheckoutError> {
        self.place(id, choice, card, token, visitor).await
    }

    async fn set_limits_as(
        &self,
        account: AccountId,
        id: &str,
        limits: LimitsDraft,
        by: &Actor,
    ) -> Result<LinkDetails, LinkError> {
        self.set_limits(account, id, limits, by).await
    }

    async fn expire_unconfirmed(&self, limit: u32) -> Result<usize, CheckoutError> {
        Ok(self.expire(limit).await?)
    }

    fn now(&self) -> OffsetDateTime {
        self.clock.now()
    }
}
