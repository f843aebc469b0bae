//! An invoice on the wire (a Tonne extension: `GET /v1/invoices`, its
//! `invoice.issued` webhook event's `data.invoice`). Amounts are decimal
//! strings in the currency's minor digits, as the contract writes money.

use serde::Serialize;
use time::format_description::well_known::Rfc3339;
use tonne_ordering::invoices::{Invoice, InvoiceKind, InvoiceLine, Party};

/// A line's tonnes as a plain decimal, negative on a credit note (`-1.5`).
///
/// ```
/// use tonne_kernel::Mass;
/// use tonne_wire::invoices::tonnes;
/// assert_eq!(tonnes(Mass::from_grams(1_500_000), true), "-1.5");
/// assert_eq!(tonnes(Mass::from_grams(250_000), false), "0.25");
/// ```
pub fn tonnes(m: tonne_kernel::Mass, credit: bool) -> String {
    let g = if credit { -m.grams() } else { m.grams() };
    rust_decimal::Decimal::new(g, 6).normalize().to_string()
}

/// A party: seller or buyer.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = InvoiceParty))]
pub struct PartyResponse {
    pub name: String,
    /// Postal address, lines separated by `\n`.
    pub address: String,
    pub tax_id: Option<String>,
    pub email: Option<String>,
}

impl From<&Party> for PartyResponse {
    fn from(p: &Party) -> Self {
        Self {
            name: p.name.clone(),
            address: p.address.clone(),
            tax_id: p.tax_id.clone(),
            email: p.email.clone(),
        }
    }
}

/// One order on an invoice.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct InvoiceLineResponse {
    pub order_id: String,
    pub account_id: String,
    /// When the order was placed (RFC 3339).
    pub ordered_at: String,
    /// Tonnes (negative on a credit note).
    pub quantity: String,
    pub offset_cost: String,
    pub commission: String,
    /// Offset cost + commission.
    pub total: String,
}

impl InvoiceLineResponse {
    /// A line of an invoice (`credit`: of a credit note).
    pub fn of(l: &InvoiceLine, credit: bool) -> Self {
        Self {
            order_id: l.order_id.to_string(),
            account_id: l.account_id.to_string(),
            ordered_at: l.ordered_at.format(&Rfc3339).unwrap_or_default(),
            quantity: tonnes(l.quantity, credit),
            offset_cost: l.offset_cost.to_decimal_string(),
            commission: l.commission.to_decimal_string(),
            total: l.total.to_decimal_string(),
        }
    }
}

/// An invoice or credit note.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = Invoice))]
pub struct InvoiceResponse {
    pub id: String,
    /// The printed number (`INV-000042`, `CN-000043`).
    pub number: String,
    /// `invoice` or `credit_note`.
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// `issued`, `paid` or `credited`.
    pub status: &'static str,
    /// The invoice a credit note takes back.
    pub corrects: Option<String>,
    /// That invoice's printed number.
    pub corrects_number: Option<String>,
    /// The credit note that took this invoice back.
    pub credited_by: Option<String>,
    pub organisation_id: String,
    pub currency: &'static str,
    /// First day of the period (UTC, `YYYY-MM-DD`).
    pub period_start: String,
    /// Last day of the period, included.
    pub period_end: String,
    /// RFC 3339.
    pub issued_at: String,
    /// RFC 3339, once paid.
    pub paid_at: Option<String>,
    pub seller: PartyResponse,
    pub buyer: PartyResponse,
    pub lines: Vec<InvoiceLineResponse>,
    pub offset_cost: String,
    pub commission: String,
    pub subtotal: String,
    /// Percent (`20`, `7.7`).
    pub tax_rate: String,
    pub tax: String,
    /// Subtotal + tax.
    pub total: String,
}

impl From<&Invoice> for InvoiceResponse {
    fn from(i: &Invoice) -> Self {
        Self {
            id: i.id.to_string(),
            number: i.printed_number(),
            kind: i.kind.as_str(),
            status: i.status().as_str(),
            corrects: match i.kind {
                InvoiceKind::CreditNote { corrects, .. } => Some(corrects.to_string()),
                InvoiceKind::Invoice => None,
            },
            corrects_number: match i.kind {
                InvoiceKind::CreditNote {
                    corrects_number, ..
                } => Some(tonne_ordering::invoices::printed_number(
                    corrects_number,
                    InvoiceKind::Invoice,
                )),
                InvoiceKind::Invoice => None,
            },
            credited_by: i.credited_by.map(|c| c.to_string()),
            organisation_id: i.organisation_id.to_string(),
            currency: i.currency.code(),
            period_start: i.period.from.to_string(),
            period_end: i.period.to.to_string(),
            issued_at: i.issued_at.format(&Rfc3339).unwrap_or_default(),
            paid_at: i.paid_at.and_then(|t| t.format(&Rfc3339).ok()),
            seller: (&i.seller).into(),
            buyer: (&i.buyer).into(),
            lines: {
                let credit = i.kind != InvoiceKind::Invoice;
                i.lines
                    .iter()
                    .map(|l| InvoiceLineResponse::of(l, credit))
                    .collect()
            },
            offset_cost: i.offset_cost.to_decimal_string(),
            commission: i.commission.to_decimal_string(),
            subtotal: i.subtotal.to_decimal_string(),
            tax_rate: i.tax_rate.to_string(),
            tax: i.tax.to_decimal_string(),
            total: i.total.to_decimal_string(),
        }
    }
}

/// `data` of an `invoice.issued` webhook event.
#[derive(Debug, Clone, Serialize)]
pub struct InvoiceEventData {
    pub invoice: InvoiceResponse,
}
