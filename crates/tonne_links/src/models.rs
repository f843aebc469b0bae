//! The offset link and the values around it.

use time::{Date, OffsetDateTime};
use tonne_kernel::{AccountId, AccountMode, Currency, Mass, Money};
use tonne_ordering::{BundleId, BundleView};

use crate::limits::{LimitsDraft, LinkLimits};

tonne_kernel::define_id!(
    /// Identifies an offset link.
    OffsetLinkId
);

/// Most bundles a link offers.
pub const MAX_BUNDLES: usize = 24;
/// Most characters of a link's name.
pub const MAX_NAME: usize = 255;
/// Most characters of a link's title.
pub const MAX_TITLE: usize = 255;
/// Most characters of a link's description.
pub const MAX_DESCRIPTION: usize = 5_000;
/// Most addresses on a link's allow-list.
pub const MAX_EMAILS: usize = 1_000;

/// Whether a link takes orders.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LinkStatus {
    /// The hosted page takes orders.
    Enabled,
    /// Switched off by the client, or expired.
    Disabled,
}

impl LinkStatus {
    /// The contract's spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Enabled => "enabled",
            Self::Disabled => "disabled",
        }
    }
}

/// An email address, checked for a plausible shape (`local@domain.tld`, no
/// spaces or control characters, at most 254 characters).
///
/// ```
/// use tonne_links::Email;
/// let a = Email::parse("Jane.Doe@example.org").unwrap();
/// assert!(a.same_as(&Email::parse("jane.doe@EXAMPLE.org").unwrap()));
/// assert!(Email::parse("not an address").is_none());
/// assert!(Email::parse("a@b").is_none());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Email(String);

impl Email {
    /// The address, if it has a plausible shape.
    pub fn parse(raw: &str) -> Option<Self> {
        let raw = raw.trim();
        if raw.is_empty() || raw.len() > 254 {
            return None;
        }
        if raw
            .chars()
            .any(|c| c.is_whitespace() || c.is_control() || matches!(c, '<' | '>' | '"' | ','))
        {
            return None;
        }
        let (local, domain) = raw.rsplit_once('@')?;
        let labels_ok = domain.split('.').count() >= 2
            && domain.split('.').all(|l| {
                !l.is_empty()
                    && !l.starts_with('-')
                    && !l.ends_with('-')
                    && l.chars().all(|c| c.is_alphanumeric() || c == '-')
            });
        if local.is_empty() || local.len() > 64 || local.contains('@') || !labels_ok {
            return None;
        }
        Some(Self(raw.to_owned()))
    }

    /// The address as entered (trimmed).
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Whether two addresses are the same mailbox for an allow-list (ASCII case ignored).
    pub fn same_as(&self, other: &Email) -> bool {
        self.0.eq_ignore_ascii_case(&other.0)
    }
}

/// An offset link, as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OffsetLink {
    /// Its id.
    pub id: OffsetLinkId,
    /// The account its orders are placed on.
    pub account_id: AccountId,
    /// That account's mode.
    pub mode: AccountMode,
    /// The client's own name for it (unique per account).
    pub name: String,
    /// Heading of the hosted page.
    pub title: Option<String>,
    /// Text under the heading.
    pub description: Option<String>,
    /// The bundles offered, in the client's order (1–24, distinct).
    pub bundle_ids: Vec<BundleId>,
    /// A fixed amount per order; `None` lets the customer choose.
    pub value: Option<Money>,
    /// The account's currency.
    pub currency: Currency,
    /// Who may order; empty means anyone.
    pub emails: Vec<Email>,
    /// After this instant the link reads `disabled`.
    pub expires_at: Option<OffsetDateTime>,
    /// Whether the page shows the account's logo.
    pub use_logo: bool,
    /// Whether the customer pays by card (fixed at creation).
    pub require_payment: bool,
    /// Switched off by the client (`status: disabled`).
    pub switched_off: bool,
    /// What its hosted page may take per order, per day and per visitor.
    pub limits: LinkLimits,
    /// Creation time.
    pub created_at: OffsetDateTime,
    /// Last change.
    pub updated_at: OffsetDateTime,
}

impl OffsetLink {
    /// `disabled` when switched off or expired at `now` (see the crate's example).
    pub fn status(&self, now: OffsetDateTime) -> LinkStatus {
        if self.switched_off || self.expires_at.is_some_and(|e| e <= now) {
            LinkStatus::Disabled
        } else {
            LinkStatus::Enabled
        }
    }

    /// Whether this address may order (anyone when the allow-list is empty).
    pub fn allows(&self, email: &Email) -> bool {
        self.emails.is_empty() || self.emails.iter().any(|e| e.same_as(email))
    }

    /// Whether the link offers this bundle.
    pub fn offers(&self, bundle: BundleId) -> bool {
        self.bundle_ids.contains(&bundle)
    }
}

/// A link with its bundles as the catalogue shows them (for rendering).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinkDetails {
    /// The link.
    pub link: OffsetLink,
    /// Its bundles, in the link's order (a bundle since removed from the catalogue is left out).
    pub bundles: Vec<BundleView>,
}

/// What a client sends to create a link (raw, validated by the service).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct LinkDraft {
    pub name: String,
    pub title: Option<String>,
    pub description: Option<String>,
    /// Bundle ids as sent.
    pub bundles: Vec<String>,
    /// Fixed amount, a decimal string in the account's currency.
    pub value: Option<String>,
    /// The only emails allowed to order through the link, if set.
    pub emails: Option<Vec<String>>,
    pub expires_at: Option<OffsetDateTime>,
    /// Show the account's logo.
    pub use_logo: bool,
    /// Card payment required.
    pub require_payment: bool,
    /// The owner's limits (the console); blank fields, and links made over the
    /// API, take the server's defaults.
    pub limits: LimitsDraft,
}

/// What a client sends to change a link: absent optional fields keep their value.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct LinkChanges {
    pub name: String,
    pub title: Option<String>,
    pub description: Option<String>,
    /// Replaces the bundles.
    pub bundles: Option<Vec<String>>,
    /// Replaces the fixed amount.
    pub value: Option<String>,
    /// Replaces the allow-list (an empty list opens the link to anyone).
    pub emails: Option<Vec<String>>,
    /// Replaces the expiry.
    pub expires_at: Option<OffsetDateTime>,
    /// Show the account's logo.
    pub use_logo: bool,
    /// Must equal the link's own: it cannot be changed.
    pub require_payment: Option<bool>,
    /// Switches the link on or off (Tonne's extension).
    pub status: Option<LinkStatus>,
    /// Replaces the limits (the console); `None` keeps them (the API has no such fields).
    pub limits: Option<LimitsDraft>,
}

/// What the hosted pages need to know of the link's account.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AccountProfile {
    /// Its organisation.
    pub organisation_id: tonne_kernel::OrganisationId,
    /// Display name.
    pub name: String,
    /// Logo URL.
    pub logo: Option<String>,
    pub currency: Currency,
    /// Live or test.
    pub mode: AccountMode,
}

/// A keyed, daily-salted hash of a visitor (client IP and user agent): the raw
/// address is never stored, and the same visitor hashes differently each day.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct VisitorHash(String);

impl VisitorHash {
    /// Wraps a stored hash.
    pub fn from_stored(hex: String) -> Self {
        Self(hex)
    }

    /// Lowercase hex.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// One order placed through a link (the contract's `OffsetLinkOrder`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinkOrder {
    /// The order's id.
    pub order_id: String,
    /// When it was placed.
    pub created_at: OffsetDateTime,
    /// The customer's email.
    pub email: String,
    /// `(bundle id, bundle name)` per line.
    pub bundles: Vec<(String, String)>,
    /// Tonnes ordered.
    pub quantity: Mass,
}

/// Figures of one day (UTC).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DailyFigures {
    /// The day.
    pub day: Date,
    /// Unique visitors that day.
    pub visitors: u64,
    /// Orders placed that day.
    pub orders: u64,
    /// Tonnes ordered that day.
    pub quantity: Mass,
}

/// A link's analytics.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Analytics {
    /// The link.
    pub link_id: OffsetLinkId,
    /// Unique visitors, counted per day.
    pub unique_visitors: u64,
    /// Orders placed through the link.
    pub placed_orders: u64,
    /// The most recent orders, newest first (at most [`crate::MAX_ANALYTICS_ORDERS`]).
    pub orders: Vec<LinkOrder>,
    /// Per day, oldest first, days with neither visitors nor orders left out.
    pub daily: Vec<DailyFigures>,
}
