//! Invoices: what an organisation that orders over the API pays against.
//!
//! An invoice covers an organisation's live orders paid by invoice over a
//! period (a calendar month, or any span of UTC dates), one invoice per
//! currency, a line per order (offset cost, commission, total). Numbers run in
//! one sequence per installation without gaps: the store takes the next
//! number in the transaction that writes the invoice. An invoice is never
//! edited once issued: a [credit note](InvoiceKind::CreditNote) takes it back
//! whole (its own number, every amount negated), and the orders it held may
//! then be invoiced again. Paying an invoice pays its orders.
//!
//! The figures are pure arithmetic on the orders' own amounts, so an
//! invoice's subtotal equals the sum of its orders' total costs to the cent:
//!
//! ```
//! use rust_decimal::Decimal;
//! use time::macros::{date, datetime};
//! use tonne_kernel::{AccountId, Currency, Mass, Money};
//! use tonne_ordering::invoices::{InvoiceBuilder, Invoiceable, Party, Period, TaxRate};
//! use tonne_ordering::OrderId;
//!
//! let order = |minor: i64| Invoiceable {
//!     order_id: OrderId::from_uuid(uuid::Uuid::new_v4()),
//!     account_id: AccountId::from_uuid(uuid::Uuid::from_u128(1)),
//!     ordered_at: datetime!(2026-10-05 12:00 UTC),
//!     quantity: Mass::from_grams(1_000_000),
//!     offset_cost: Money::from_minor(minor, Currency::Eur),
//!     commission: Money::from_minor(minor / 10, Currency::Eur),
//!     total_cost: Money::from_minor(minor + minor / 10, Currency::Eur),
//! };
//! let builder = InvoiceBuilder {
//!     period: Period::month("2026-10").unwrap(),
//!     seller: Party::named("Tonne operator"),
//!     buyer: Party::named("Acme"),
//!     tax_rate: TaxRate::parse("20").unwrap(),
//!     at: datetime!(2026-11-01 00:00 UTC),
//! };
//! let drafts = builder.build(vec![order(1_000), order(2_345)]);
//! assert_eq!(drafts.len(), 1);
//! let d = &drafts[0];
//! assert_eq!(d.subtotal.to_decimal_string(), "36.79"); // 11.00 + 25.79
//! assert_eq!(d.tax.to_decimal_string(), "7.36"); // 20 % of 36.79, rounded half away from zero
//! assert_eq!(d.total.to_decimal_string(), "44.15");
//! ```

mod draft;
mod period;

use time::OffsetDateTime;
use tonne_kernel::{AccountId, Currency, Mass, Money, OrganisationId};

use crate::orders::OrderId;

pub use draft::{InvoiceBuilder, InvoiceDraft, Invoiceable, TaxRate, credit_note};
pub use period::{Period, PeriodError};

tonne_kernel::define_id!(
    /// Identifies an invoice or a credit note.
    InvoiceId
);

/// The longest name, address or tax id a party's field holds, in characters.
pub const PARTY_FIELD_MAX: usize = 500;

/// Who sells or buys: as printed on the invoice.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Party {
    /// The legal name.
    pub name: String,
    /// The postal address, lines separated by newlines.
    pub address: String,
    /// The tax (VAT) registration number, if any.
    pub tax_id: Option<String>,
    /// Where invoices are sent, if given.
    pub email: Option<String>,
}

impl Party {
    /// A party known by its name alone.
    pub fn named(name: &str) -> Self {
        Self {
            name: name.to_owned(),
            ..Self::default()
        }
    }

    /// Trims and checks each field (name required; each at most
    /// [`PARTY_FIELD_MAX`] characters; no control characters but the
    /// address's newlines; an email with one `@`), naming the first bad one.
    ///
    /// ```
    /// use tonne_ordering::invoices::Party;
    /// let p = Party::parse(" Acme Ltd ", "1 Road\r\nLondon", "GB123", "").unwrap();
    /// assert_eq!(p.name, "Acme Ltd");
    /// assert_eq!(p.address, "1 Road\nLondon");
    /// assert_eq!(p.email, None);
    /// assert_eq!(Party::parse("", "", "", "").unwrap_err().0, "name");
    /// assert_eq!(Party::parse("A", "", "", "not-an-email").unwrap_err().0, "email");
    /// ```
    pub fn parse(
        name: &str,
        address: &str,
        tax_id: &str,
        email: &str,
    ) -> Result<Self, (&'static str, &'static str)> {
        let line =
            |field: &'static str, raw: &str| -> Result<String, (&'static str, &'static str)> {
                let v = raw.trim();
                if v.chars().count() > PARTY_FIELD_MAX {
                    return Err((field, "at most 500 characters"));
                }
                if v.chars().any(char::is_control) {
                    return Err((field, "no control characters"));
                }
                Ok(v.to_owned())
            };
        let name = line("name", name)?;
        if name.is_empty() {
            return Err(("name", "is required"));
        }
        let address_lines: Vec<String> = address
            .lines()
            .map(|l| line("address", l))
            .collect::<Result<_, _>>()?;
        let address = address_lines
            .into_iter()
            .filter(|l| !l.is_empty())
            .collect::<Vec<_>>()
            .join("\n");
        if address.chars().count() > PARTY_FIELD_MAX {
            return Err(("address", "at most 500 characters"));
        }
        let tax_id = Some(line("tax_id", tax_id)?).filter(|v| !v.is_empty());
        let email = Some(line("email", email)?).filter(|v| !v.is_empty());
        if let Some(e) = &email {
            let mut parts = e.split('@');
            let ok = matches!((parts.next(), parts.next(), parts.next()),
                (Some(local), Some(domain), None) if !local.is_empty() && domain.contains('.') && !e.contains(char::is_whitespace));
            if !ok {
                return Err(("email", "an address such as billing@example.com"));
            }
        }
        Ok(Self {
            name,
            address,
            tax_id,
            email,
        })
    }
}

/// An invoice, or a credit note that takes one back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InvoiceKind {
    /// An invoice.
    Invoice,
    /// A credit note cancelling the invoice it names.
    CreditNote {
        /// The invoice it takes back.
        corrects: InvoiceId,
        /// That invoice's number.
        corrects_number: u64,
    },
}

impl InvoiceKind {
    /// `invoice` or `credit_note`.
    pub fn as_str(self) -> &'static str {
        match self {
            InvoiceKind::Invoice => "invoice",
            InvoiceKind::CreditNote { .. } => "credit_note",
        }
    }
}

/// Where an invoice stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InvoiceStatus {
    /// Issued, not paid yet.
    Issued,
    /// Paid (and so are its orders).
    Paid,
    /// Taken back by a credit note.
    Credited,
}

impl InvoiceStatus {
    /// `issued`, `paid` or `credited`.
    pub fn as_str(self) -> &'static str {
        match self {
            InvoiceStatus::Issued => "issued",
            InvoiceStatus::Paid => "paid",
            InvoiceStatus::Credited => "credited",
        }
    }
}

/// One order on an invoice.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InvoiceLine {
    /// The order.
    pub order_id: OrderId,
    /// The account that placed it.
    pub account_id: AccountId,
    /// When it was placed.
    pub ordered_at: OffsetDateTime,
    /// Tonnes ordered (as ordered on a credit note too: its amounts carry the sign).
    pub quantity: Mass,
    /// The order's offset cost.
    pub offset_cost: Money,
    /// The order's commission.
    pub commission: Money,
    /// Offset cost + commission: the order's total cost.
    pub total: Money,
}

/// An issued invoice (or credit note), as stored: never edited after issue
/// but for the time it was paid and the credit note that took it back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invoice {
    /// Its id.
    pub id: InvoiceId,
    /// Its number in the installation's one sequence (1, 2, 3, …).
    pub number: u64,
    /// Invoice or credit note.
    pub kind: InvoiceKind,
    /// The organisation billed.
    pub organisation_id: OrganisationId,
    /// The orders' currency.
    pub currency: Currency,
    /// The dates its orders were placed in.
    pub period: Period,
    /// When it was issued.
    pub issued_at: OffsetDateTime,
    /// The seller, as configured when it was issued.
    pub seller: Party,
    /// The buyer: the organisation's billing details when it was issued.
    pub buyer: Party,
    /// A line per order, oldest first.
    pub lines: Vec<InvoiceLine>,
    /// Σ lines' offset costs.
    pub offset_cost: Money,
    /// Σ lines' commissions.
    pub commission: Money,
    /// Σ lines' totals (= offset cost + commission).
    pub subtotal: Money,
    /// The tax rate applied.
    pub tax_rate: TaxRate,
    /// The tax on the subtotal.
    pub tax: Money,
    /// Subtotal + tax: what is due.
    pub total: Money,
    /// When it was marked paid.
    pub paid_at: Option<OffsetDateTime>,
    /// The credit note that took it back.
    pub credited_by: Option<InvoiceId>,
}

impl Invoice {
    /// Where it stands (a credit note is always `issued`).
    pub fn status(&self) -> InvoiceStatus {
        if self.credited_by.is_some() {
            InvoiceStatus::Credited
        } else if self.paid_at.is_some() {
            InvoiceStatus::Paid
        } else {
            InvoiceStatus::Issued
        }
    }

    /// The number as printed: six digits at least, `INV-` or `CN-` before it.
    ///
    /// ```
    /// # use tonne_ordering::invoices::{InvoiceKind, InvoiceId};
    /// # fn reference(number: u64, kind: InvoiceKind) -> String {
    /// #     tonne_ordering::invoices::printed_number(number, kind)
    /// # }
    /// assert_eq!(reference(42, InvoiceKind::Invoice), "INV-000042");
    /// ```
    pub fn printed_number(&self) -> String {
        printed_number(self.number, self.kind)
    }
}

/// An invoice number as printed (see [`Invoice::printed_number`]).
pub fn printed_number(number: u64, kind: InvoiceKind) -> String {
    let prefix = match kind {
        InvoiceKind::Invoice => "INV",
        InvoiceKind::CreditNote { .. } => "CN",
    };
    format!("{prefix}-{number:06}")
}

/// What issuing found for one organisation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Issued {
    /// The organisation.
    pub organisation_id: OrganisationId,
    /// Its new invoices, one per currency (none: nothing to invoice).
    pub invoices: Vec<Invoice>,
}
