//! The offset link use cases: the API's CRUD and analytics, and the hosted
//! checkout (open, quote, place) through the ordering domain.

use std::sync::Arc;

use async_trait::async_trait;
use rust_decimal::Decimal;
use time::OffsetDateTime;
use tonne_kernel::{
    AccountId, Actor, AuditEntry, Clock, Currency, Cursor, Mass, MassUnit, Money, Page,
    PageRequest, Snapshot,
};
use tonne_ordering::{
    BundleId, BundleView, CatalogueError, CreateOrderError, LinkOrigin, MassRequest, OrderRequest,
    OrderingService, PaymentMethod, Pricing, Quote, QuoteError, ReadOrderError, SelectionEntry,
    ValueRequest,
};

use crate::checkout::{Amount, Checkout, Choice, Confirmed, PublicLink};
use crate::errors::{CheckoutError, LinkError};
use crate::limits::{DefaultLimits, LimitsDraft, LinkLimits, parse_limits};
use crate::models::{
    AccountProfile, Analytics, Email, LinkChanges, LinkDetails, LinkDraft, LinkStatus, MAX_BUNDLES,
    MAX_DESCRIPTION, MAX_EMAILS, MAX_NAME, MAX_TITLE, OffsetLink, OffsetLinkId, VisitorHash,
};
use crate::ports::{
    AccountDirectory, Card, CardOutcome, CardPayments, OffsetLinkRepository, OffsetLinksService,
    StoreError,
};

/// Most orders an analytics answer lists (the most recent; `placed_orders` counts all).
pub const MAX_ANALYTICS_ORDERS: u32 = 1_000;

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
/// `Service::new` takes the ports in the order of the fields.
#[derive(Clone, derive_more::Constructor)]
pub struct Service {
    links: Arc<dyn OffsetLinkRepository>,
    accounts: Arc<dyn AccountDirectory>,
    ordering: Arc<dyn OrderingService>,
    cards: Arc<dyn CardPayments>,
    clock: Arc<dyn Clock>,
    ids: Arc<dyn tonne_kernel::IdGenerator>,
    settings: Settings,
}

fn unexpected(e: StoreError) -> anyhow::Error {
    match e {
        StoreError::Unexpected(e) => e,
        other => anyhow::anyhow!(other),
    }
}

fn invalid(field: &'static str, reason: impl Into<String>) -> LinkError {
    LinkError::Invalid {
        field,
        reason: reason.into(),
    }
}

fn text(
    field: &'static str,
    raw: Option<String>,
    max: usize,
    required: bool,
) -> Result<Option<String>, LinkError> {
    let Some(raw) = raw else {
        return if required {
            Err(invalid(field, "is required"))
        } else {
            Ok(None)
        };
    };
    let value = raw.trim();
    if value.is_empty() {
        return if required {
            Err(invalid(field, "must not be empty"))
        } else {
            Ok(None)
        };
    }
    if value.chars().count() > max {
        return Err(invalid(field, format!("must be at most {max} characters")));
    }
    if value
        .chars()
        .any(|c| c.is_control() && c != '\n' && c != '\r' && c != '\t')
    {
        return Err(invalid(field, "must not contain control characters"));
    }
    Ok(Some(value.to_owned()))
}

fn emails(raw: Vec<String>) -> Result<Vec<Email>, LinkError> {
    if raw.len() > MAX_EMAILS {
        return Err(invalid("emails", format!("at most {MAX_EMAILS} addresses")));
    }
    let mut out: Vec<Email> = Vec::with_capacity(raw.len());
    for (i, e) in raw.iter().enumerate() {
        let email = Email::parse(e).ok_or_else(|| {
            invalid(
                "emails",
                format!("entry {i} (`{e}`) is not an email address"),
            )
        })?;
        if !out.iter().any(|o| o.same_as(&email)) {
            out.push(email);
        }
    }
    Ok(out)
}

fn parse_value(raw: &str, currency: Currency) -> Result<Money, LinkError> {
    Money::parse_positive(raw, currency).map_err(|why| invalid("value", format!("`{raw}` {why}")))
}

/// Checks a typed amount: a number, above zero, at most `max` (the customer's wording).
fn within(
    raw: &str,
    max: Decimal,
    example: &str,
    noun: &str,
    unit: &str,
) -> Result<(), CheckoutError> {
    let value: Decimal = raw
        .parse()
        .map_err(|_| checkout_invalid("amount", format!("enter {example}")))?;
    if value <= Decimal::ZERO {
        return Err(checkout_invalid(
            "amount",
            format!("the {noun} must be more than zero"),
        ));
    }
    if value > max {
        return Err(checkout_invalid(
            "amount",
            format!("the {noun} may be at most {max} {unit}"),
        ));
    }
    Ok(())
}

fn checkout_invalid(field: &'static str, reason: impl Into<String>) -> CheckoutError {
    CheckoutError::Invalid {
        field,
        reason: reason.into(),
    }
}

impl Service {
    /// Creates a link; audited when `by` is given (the console), not for the
    /// API's business writes.
    async fn create_by(
        &self,
        account: AccountId,
        draft: LinkDraft,
        by: Option<&Actor>,
    ) -> Result<LinkDetails, LinkError> {
        let profile = self.profile(account).await?;
        let name = text("name", Some(draft.name), MAX_NAME, true)?.unwrap_or_default();
        let title = text("title", draft.title, MAX_TITLE, false)?;
        let description = text("description", draft.description, MAX_DESCRIPTION, false)?;
        self.check_expiry(draft.expires_at)?;
        let emails = emails(draft.emails.unwrap_or_default())?;
        let value = draft
            .value
            .as_deref()
            .map(|v| parse_value(v, profile.currency))
            .transpose()?;
        let bundle_ids = self.bundles(&draft.bundles, profile.currency).await?;
        let limits = self.limits(&draft.limits, profile.currency)?;
        let now = self.clock.now();
        let link = OffsetLink {
            id: OffsetLinkId::generate(self.ids.as_ref()),
            account_id: account,
            mode: profile.mode,
            name,
            title,
            description,
            bundle_ids,
            value,
            currency: profile.currency,
            emails,
            expires_at: draft.expires_at,
            use_logo: draft.use_logo,
            require_payment: draft.require_payment,
            switched_off: false,
            limits,
            created_at: now,
            updated_at: now,
        };
        let audit = by.map(|by| {
            AuditEntry::new(
                now,
                by.clone(),
                "offset_link.created",
                "offset_link",
                link.id,
            )
            .in_organisation(profile.organisation_id)
            .after(snapshot(&link))
        });
        match self.links.insert(&link, audit).await {
            Ok(()) => {}
            Err(StoreError::Duplicate) => return Err(LinkError::NameTaken(link.name)),
            Err(e) => return Err(unexpected(e).into()),
        }
        Ok(self.details(link).await?)
    }

    /// The owner's limits, checked against the server's ceilings.
    fn limits(&self, draft: &LimitsDraft, currency: Currency) -> Result<LinkLimits, LinkError> {
        let ceilings = (self.settings.max_tonnes, self.settings.max_value);
        parse_limits(draft, &self.settings.limits, ceilings, currency)
            .map_err(|(field, reason)| invalid(field, reason))
    }

    async fn profile(&self, account: AccountId) -> Result<AccountProfile, anyhow::Error> {
        self.accounts
            .profile(account)
            .await
            .map_err(unexpected)?
            .ok_or_else(|| anyhow::anyhow!("account {account} of an offset link is missing"))
    }

    /// Checks 1–24 distinct bundles, each existing, enabled and sold in `currency`.
    async fn bundles(
        &self,
        raw: &[String],
        currency: Currency,
    ) -> Result<Vec<BundleId>, LinkError> {
        if raw.is_empty() || raw.len() > MAX_BUNDLES {
            return Err(LinkError::BundlesSize(format!(
                "bundles: an offset link offers 1 to {MAX_BUNDLES} bundles, {} given",
                raw.len()
            )));
        }
        let mut ids = Vec::with_capacity(raw.len());
        for id in raw {
            let bad = |why: &str| LinkError::BundleInvalid(format!("bundle `{id}` {why}"));
            let parsed: BundleId = id.parse().map_err(|_| bad("does not exist"))?;
            if ids.contains(&parsed) {
                return Err(bad("is listed twice"));
            }
            let view = match self.ordering.bundle(id).await {
                Ok(v) => v,
                Err(CatalogueError::NotFound | CatalogueError::Invalid { .. }) => {
                    return Err(bad("does not exist"));
                }
                Err(CatalogueError::Unexpected(e)) => return Err(LinkError::Unexpected(e)),
            };
            if view.bundle.disabled {
                return Err(bad("is disabled"));
            }
            if self
                .ordering
                .display_price(&view.bundle, currency)
                .is_none()
            {
                return Err(bad(&format!("is not sold in {}", currency.code())));
            }
            ids.push(parsed);
        }
        Ok(ids)
    }

    async fn details(&self, link: OffsetLink) -> Result<LinkDetails, anyhow::Error> {
        let mut bundles = Vec::with_capacity(link.bundle_ids.len());
        for id in &link.bundle_ids {
            match self.ordering.bundle(&id.to_string()).await {
                Ok(view) => bundles.push(view),
                Err(CatalogueError::NotFound | CatalogueError::Invalid { .. }) => {}
                Err(CatalogueError::Unexpected(e)) => return Err(e),
            }
        }
        Ok(LinkDetails { link, bundles })
    }

    async fn owned(&self, account: AccountId, id: &str) -> Result<OffsetLink, LinkError> {
        let id: OffsetLinkId = id.parse().map_err(|_| LinkError::NotFound)?;
        match self.links.get(id).await.map_err(unexpected)? {
            Some(link) if link.account_id == account => Ok(link),
            _ => Err(LinkError::NotFound),
        }
    }

    fn check_expiry(&self, expires_at: Option<OffsetDateTime>) -> Result<(), LinkError> {
        match expires_at {
            Some(at) if at <= self.clock.now() => {
                Err(invalid("expires_at", "must be in the future"))
            }
            _ => Ok(()),
        }
    }

    async fn public(&self, id: &str) -> Result<PublicLink, CheckoutError> {
        let id: OffsetLinkId = id.parse().map_err(|_| CheckoutError::NotFound)?;
        let link = self
            .links
            .get(id)
            .await
            .map_err(unexpected)?
            .ok_or(CheckoutError::NotFound)?;
        if link.status(self.clock.now()) == LinkStatus::Disabled {
            return Err(CheckoutError::Gone);
        }
        let account = self.profile(link.account_id).await?;
        let details = self.details(link).await?;
        let prices = details
            .bundles
            .iter()
            .map(|b| {
                self.ordering
                    .display_price(&b.bundle, account.currency)
                    .map(|(_, with_commission)| with_commission)
            })
            .collect();
        Ok(PublicLink {
            details,
            account,
            prices,
        })
    }

    /// The validated choice as an ordering request.
    fn pricing(
        &self,
        link: &PublicLink,
        choice: &Choice,
    ) -> Result<(BundleView, Email, Pricing), CheckoutError> {
        let l = &link.details.link;
        let bundle = link
            .details
            .bundles
            .iter()
            .find(|b| b.bundle.id.to_string() == choice.bundle_id && l.offers(b.bundle.id))
            .cloned()
            .ok_or_else(|| checkout_invalid("bundle", "choose one of the bundles offered"))?;
        let email = Email::parse(&choice.email)
            .ok_or_else(|| checkout_invalid("email", "enter a valid email address"))?;
        if !l.allows(&email) {
            return Err(CheckoutError::EmailNotAllowed);
        }
        let selection = Some(vec![SelectionEntry {
            bundle_id: bundle.bundle.id.to_string(),
            percentage: None,
        }]);
        let currency = link.account.currency;
        let pricing = match (&l.value, &choice.amount) {
            (Some(fixed), _) => Pricing::Value(ValueRequest {
                value: fixed.to_decimal_string(),
                selection,
                trunc: None,
            }),
            (None, Some(Amount::Money(raw))) => {
                let raw = raw.trim();
                within(
                    raw,
                    self.settings.max_value,
                    "an amount such as 25.00",
                    "amount",
                    currency.code(),
                )?;
                Pricing::Value(ValueRequest {
                    value: raw.to_owned(),
                    selection,
                    trunc: None,
                })
            }
            (None, Some(Amount::Tonnes(raw))) => {
                let raw = raw.trim();
                within(
                    raw,
                    self.settings.max_tonnes,
                    "a mass such as 1.5",
                    "mass",
                    "t",
                )?;
                let mass = Mass::parse(raw, MassUnit::T).map_err(|e| {
                    checkout_invalid("amount", format!("the mass is not valid: {e}"))
                })?;
                Pricing::Mass(MassRequest::Split {
                    mass,
                    selection,
                    trunc: None,
                })
            }
            (None, None) => return Err(checkout_invalid("amount", "enter an amount")),
        };
        Ok((bundle, email, pricing))
    }

    async fn price(&self, account: AccountId, pricing: &Pricing) -> Result<Quote, CheckoutError> {
        let result = match pricing {
            Pricing::Value(v) => self.ordering.quote_by_value(account, v.clone()).await,
            Pricing::Mass(m) => self.ordering.quote_by_mass(account, m.clone()).await,
            Pricing::Estimate { .. } => {
                return Err(anyhow::anyhow!("offset links do not order estimates").into());
            }
        };
        result.map_err(quote_error)
    }
}

fn quote_error(e: QuoteError) -> CheckoutError {
    match e {
        QuoteError::QuantityInvalid(why) => checkout_invalid("amount", why),
        QuoteError::BundleInvalid(why) => checkout_invalid("bundle", why),
        QuoteError::RatiosInvalid(why) | QuoteError::RatiosFormat(why) => {
            CheckoutError::Unexpected(anyhow::anyhow!("a one-bundle selection was refused: {why}"))
        }
        QuoteError::Invalid { field, reason } => checkout_invalid(field, reason),
        QuoteError::Unexpected(e) => CheckoutError::Unexpected(e),
    }
}

#[async_trait]
impl OffsetLinksService for Service {
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
        let mut link = self.owned(account, id).await?;
        if link.switched_off != on {
            return Ok(self.details(link).await?);
        }
        let profile = self.profile(account).await?;
        let before = snapshot(&link);
        link.switched_off = !on;
        link.updated_at = self.clock.now();
        let action = if on {
            "offset_link.enabled"
        } else {
            "offset_link.disabled"
        };
        let audit = AuditEntry::new(link.updated_at, by.clone(), action, "offset_link", link.id)
            .in_organisation(profile.organisation_id)
            .before(before)
            .after(snapshot(&link));
        match self.links.update(&link, Some(audit)).await {
            Ok(()) => {}
            Err(StoreError::NotFound) => return Err(LinkError::NotFound),
            Err(e) => return Err(unexpected(e).into()),
        }
        Ok(self.details(link).await?)
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

    async fn get(&self, account: AccountId, id: &str) -> Result<LinkDetails, LinkError> {
        let link = self.owned(account, id).await?;
        Ok(self.details(link).await?)
    }

    async fn list(
        &self,
        account: AccountId,
        page: PageRequest<Cursor>,
    ) -> Result<Page<LinkDetails>, LinkError> {
        let links = match self.links.list(account, &page).await {
            Ok(p) => p,
            Err(StoreError::NotFound) => {
                return Err(invalid("after", "names no offset link of this account"));
            }
            Err(e) => return Err(unexpected(e).into()),
        };
        let mut items = Vec::with_capacity(links.items.len());
        for link in links.items {
            items.push(self.details(link).await?);
        }
        Ok(Page {
            items,
            has_more: links.has_more,
        })
    }

    async fn update(
        &self,
        account: AccountId,
        id: &str,
        changes: LinkChanges,
    ) -> Result<LinkDetails, LinkError> {
        let mut link = self.owned(account, id).await?;
        if changes
            .require_payment
            .is_some_and(|r| r != link.require_payment)
        {
            return Err(invalid(
                "require_payment",
                "cannot be changed once the offset link exists",
            ));
        }
        link.name = text("name", Some(changes.name), MAX_NAME, true)?.unwrap_or_default();
        if changes.title.is_some() {
            link.title = text("title", changes.title, MAX_TITLE, false)?;
        }
        if changes.description.is_some() {
            link.description = text("description", changes.description, MAX_DESCRIPTION, false)?;
        }
        if changes.expires_at.is_some() {
            self.check_expiry(changes.expires_at)?;
            link.expires_at = changes.expires_at;
        }
        if let Some(list) = changes.emails {
            link.emails = emails(list)?;
        }
        if let Some(v) = changes.value.as_deref() {
            link.value = Some(parse_value(v, link.currency)?);
        }
        if let Some(bundles) = changes.bundles.as_deref() {
            link.bundle_ids = self.bundles(bundles, link.currency).await?;
        }
        if let Some(limits) = &changes.limits {
            link.limits = self.limits(limits, link.currency)?;
        }
        link.use_logo = changes.use_logo;
        if let Some(status) = changes.status {
            link.switched_off = status == LinkStatus::Disabled;
        }
        link.updated_at = self.clock.now();
        match self.links.update(&link, None).await {
            Ok(()) => {}
            Err(StoreError::Duplicate) => return Err(LinkError::NameTaken(link.name)),
            Err(StoreError::NotFound) => return Err(LinkError::NotFound),
            Err(e) => return Err(unexpected(e).into()),
        }
        Ok(self.details(link).await?)
    }

    async fn analytics(&self, account: AccountId, id: &str) -> Result<Analytics, LinkError> {
        let link = self.owned(account, id).await?;
        self.analytics_of(link.id).await
    }

    async fn analytics_of(&self, id: OffsetLinkId) -> Result<Analytics, LinkError> {
        if self.links.get(id).await.map_err(unexpected)?.is_none() {
            return Err(LinkError::NotFound);
        }
        let (unique_visitors, placed_orders) = self.links.totals(id).await.map_err(unexpected)?;
        let orders = self
            .links
            .orders(id, MAX_ANALYTICS_ORDERS)
            .await
            .map_err(unexpected)?;
        let daily = self.links.daily(id).await.map_err(unexpected)?;
        Ok(Analytics {
            link_id: id,
            unique_visitors,
            placed_orders,
            orders,
            daily,
        })
    }

    async fn open(
        &self,
        id: &str,
        visitor: Option<VisitorHash>,
    ) -> Result<PublicLink, CheckoutError> {
        let link = self.public(id).await?;
        if let Some(visitor) = visitor {
            let today = self.clock.now().date();
            self.links
                .record_visit(link.details.link.id, today, &visitor)
                .await
                .map_err(unexpected)?;
        }
        Ok(link)
    }

    async fn quote(&self, id: &str, choice: Choice) -> Result<Checkout, CheckoutError> {
        let link = self.public(id).await?;
        let (bundle, email, pricing) = self.pricing(&link, &choice)?;
        let quote = self.price(link.details.link.account_id, &pricing).await?;
        link.details
            .link
            .limits
            .check_order(quote.quantity, quote.total_cost)?;
        Ok(Checkout {
            link,
            bundle,
            email,
            quote,
        })
    }

    async fn place(
        &self,
        id: &str,
        choice: Choice,
        card: Option<Card>,
        token: &str,
        visitor: VisitorHash,
    ) -> Result<Confirmed, CheckoutError> {
        let link = self.public(id).await?;
        let account = link.details.link.account_id;
        let key = format!("offset-link-{token}");
        if token.is_empty() || token.len() > 64 || !token.chars().all(|c| c.is_ascii_alphanumeric())
        {
            return Err(checkout_invalid(
                "token",
                "the form has expired; start again",
            ));
        }
        // A repeated submit (double click, reload) answers the order already placed.
        match self.ordering.order_by_idempotency_key(account, &key).await {
            Ok(order) => {
                return Ok(Confirmed {
                    awaiting_payment: link.details.link.require_payment
                        && link.account.mode == tonne_kernel::AccountMode::Live,
                    link,
                    order,
                });
            }
            Err(ReadOrderError::NotFound | ReadOrderError::Invalid { .. }) => {}
            Err(ReadOrderError::Unexpected(e)) => return Err(e.into()),
        }
        let (_, email, pricing) = self.pricing(&link, &choice)?;
        // Priced first, so that the link's limits see the order's mass and cost.
        let quote = self.price(account, &pricing).await?;
        let claim = self.claim(&link.details.link, &quote, visitor).await?;
        let placed = self
            .place_claimed(link, email, pricing, &quote, card, key)
            .await;
        if !matches!(placed, Ok((_, true))) {
            // nothing placed by this request: give its share of the day back
            self.links.release(&claim).await.map_err(unexpected)?;
        }
        placed.map(|(confirmed, _)| confirmed)
    }

    async fn expire_unconfirmed(&self, limit: u32) -> Result<usize, CheckoutError> {
        Ok(self.expire(limit).await?)
    }

    fn now(&self) -> OffsetDateTime {
        self.clock.now()
    }
}

impl Service {
    /// The card step and the order, once the link's day granted the claim.
    /// `true` with the order when this request placed it.
    async fn place_claimed(
        &self,
        link: PublicLink,
        email: Email,
        pricing: Pricing,
        quote: &Quote,
        card: Option<Card>,
        key: String,
    ) -> Result<(Confirmed, bool), CheckoutError> {
        let account = link.details.link.account_id;
        let mut awaiting_payment = false;
        let mut payment_method = PaymentMethod::Invoice;
        if link.details.link.require_payment {
            match self
                .cards
                .authorise(link.account.mode, quote.total_cost, card)
                .await?
            {
                CardOutcome::Authorised => payment_method = PaymentMethod::Card,
                CardOutcome::Declined { reason } => return Err(CheckoutError::Declined(reason)),
                CardOutcome::AwaitingOperator => awaiting_payment = true,
            }
        }
        let request = OrderRequest {
            pricing,
            idempotency_key: Some(key.clone()),
            metadata: Vec::new(),
            origin: Some(LinkOrigin {
                offset_link_id: link.details.link.id.to_string(),
                email: email.as_str().to_owned(),
            }),
            payment_method,
        };
        let (order, placed) = match self
            .ordering
            .create_order(account, link.account.mode, request)
            .await
        {
            Ok(order) => (order, true),
            // Two submits raced: the other one placed it (and counts it).
            Err(CreateOrderError::IdempotencyKeyExists) => (
                self.ordering
                    .order_by_idempotency_key(account, &key)
                    .await
                    .map_err(|e| CheckoutError::Unexpected(anyhow::anyhow!(e)))?,
                false,
            ),
            Err(CreateOrderError::Quote(e)) => return Err(quote_error(e)),
            Err(CreateOrderError::EstimateAlreadyOrdered) => {
                return Err(anyhow::anyhow!("an offset link order named an estimate").into());
            }
        };
        Ok((
            Confirmed {
                link,
                order,
                awaiting_payment,
            },
            placed,
        ))
    }
}

mod expiry;
mod limited;
mod owner_limits;
#[cfg(test)]
mod tests;

/// What the audit log keeps of a link.
fn snapshot(link: &OffsetLink) -> Snapshot {
    Snapshot::new()
        .with("name", &link.name)
        .with("mode", link.mode.as_str())
        .with("bundles", link.bundle_ids.len())
        .with("require_payment", link.require_payment)
        .with("state", if link.switched_off { "off" } else { "on" })
        .with("limits", limits_text(&link.limits))
}

/// The limits in one line of the audit log.
fn limits_text(l: &LinkLimits) -> String {
    format!(
        "{} t / {} {} per order; {} orders / {} t per day; {} per visitor per day",
        l.order_mass.to_tonnes_string(),
        l.order_value.to_decimal_string(),
        l.order_value.currency().code(),
        l.daily_orders,
        l.daily_mass.to_tonnes_string(),
        l.visitor_daily_orders
    )
}
