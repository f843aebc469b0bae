//! The arithmetic of an invoice before it has a number: the orders grouped by
//! currency, their amounts summed exactly, the tax on the subtotal; and the
//! credit note that takes an invoice back.

use std::collections::BTreeMap;

use rust_decimal::{Decimal, RoundingStrategy};
use time::OffsetDateTime;
use tonne_kernel::{AccountId, Currency, Mass, Money, OrganisationId};

use super::{Invoice, InvoiceId, InvoiceKind, InvoiceLine, Party, Period};
use crate::orders::OrderId;

/// A tax rate in percent, 0 to 100 with at most two decimals (`20`, `7.7`).
///
/// ```
/// use tonne_ordering::invoices::TaxRate;
/// assert_eq!(TaxRate::parse("7.70").unwrap().to_string(), "7.7");
/// assert_eq!(TaxRate::default().to_string(), "0");
/// assert!(TaxRate::parse("100.5").is_err());
/// assert!(TaxRate::parse("-1").is_err());
/// assert!(TaxRate::parse("1.234").is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TaxRate(Decimal);

impl TaxRate {
    /// Parses a percentage.
    pub fn parse(raw: &str) -> Result<Self, &'static str> {
        let d: Decimal = raw
            .trim()
            .parse()
            .map_err(|_| "a percentage such as 20 or 7.7")?;
        if d.is_sign_negative() || d > Decimal::ONE_HUNDRED || d.normalize().scale() > 2 {
            return Err("a percentage from 0 to 100 with at most two decimals");
        }
        Ok(Self(d.normalize()))
    }

    /// The percentage.
    pub fn percent(self) -> Decimal {
        self.0
    }

    /// The tax on `amount`, rounded half away from zero to the minor unit.
    pub fn of(self, amount: Money) -> Money {
        let tax = amount.to_decimal() * self.0 / Decimal::ONE_HUNDRED;
        Money::from_decimal(
            tax,
            amount.currency(),
            RoundingStrategy::MidpointAwayFromZero,
        )
        .unwrap_or_else(|_| Money::zero(amount.currency()))
    }
}

impl std::fmt::Display for TaxRate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0.normalize())
    }
}

/// An order that may be invoiced: live, paid by invoice, not cancelled or
/// failed, on no invoice that stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invoiceable {
    pub order_id: OrderId,
    pub account_id: AccountId,
    pub ordered_at: OffsetDateTime,
    pub quantity: Mass,
    pub offset_cost: Money,
    pub commission: Money,
    pub total_cost: Money,
}

/// What issuing knows before it reads the orders: the period, both parties,
/// the tax rate and the time of issue.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InvoiceBuilder {
    pub period: Period,
    pub seller: Party,
    pub buyer: Party,
    pub tax_rate: TaxRate,
    pub at: OffsetDateTime,
}

/// An invoice (or credit note) before it has an id and a number.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InvoiceDraft {
    pub kind: InvoiceKind,
    pub currency: Currency,
    pub period: Period,
    pub issued_at: OffsetDateTime,
    pub seller: Party,
    pub buyer: Party,
    pub lines: Vec<InvoiceLine>,
    pub offset_cost: Money,
    pub commission: Money,
    pub subtotal: Money,
    pub tax_rate: super::TaxRate,
    pub tax: Money,
    pub total: Money,
}

fn sum(currency: Currency, amounts: impl Iterator<Item = Money>) -> Money {
    Money::from_minor(amounts.map(|m| m.minor()).sum(), currency)
}

impl InvoiceBuilder {
    /// One draft per currency (in the currencies' order), each with a line
    /// per order oldest first; no orders, no drafts.
    pub fn build(&self, orders: Vec<Invoiceable>) -> Vec<InvoiceDraft> {
        let mut by_currency: BTreeMap<&'static str, Vec<Invoiceable>> = BTreeMap::new();
        for o in orders {
            by_currency
                .entry(o.total_cost.currency().code())
                .or_default()
                .push(o);
        }
        by_currency
            .into_values()
            .filter_map(|mut orders| {
                orders.sort_by_key(|o| (o.ordered_at, o.order_id));
                let currency = orders.first()?.total_cost.currency();
                let lines: Vec<InvoiceLine> = orders
                    .into_iter()
                    .map(|o| InvoiceLine {
                        order_id: o.order_id,
                        account_id: o.account_id,
                        ordered_at: o.ordered_at,
                        quantity: o.quantity,
                        offset_cost: o.offset_cost,
                        commission: o.commission,
                        total: o.total_cost,
                    })
                    .collect();
                Some(self.draft(InvoiceKind::Invoice, currency, lines))
            })
            .collect()
    }

    fn draft(
        &self,
        kind: InvoiceKind,
        currency: Currency,
        lines: Vec<InvoiceLine>,
    ) -> InvoiceDraft {
        let offset_cost = sum(currency, lines.iter().map(|l| l.offset_cost));
        let commission = sum(currency, lines.iter().map(|l| l.commission));
        let subtotal = sum(currency, lines.iter().map(|l| l.total));
        let tax = self.tax_rate.of(subtotal);
        InvoiceDraft {
            kind,
            currency,
            period: self.period,
            issued_at: self.at,
            seller: self.seller.clone(),
            buyer: self.buyer.clone(),
            lines,
            offset_cost,
            commission,
            subtotal,
            tax_rate: self.tax_rate,
            tax,
            total: Money::from_minor(subtotal.minor() + tax.minor(), currency),
        }
    }
}

fn negate(m: Money) -> Money {
    Money::from_minor(-m.minor(), m.currency())
}

/// The credit note that takes `invoice` back whole: its lines, every amount
/// negated (tonnes stay as ordered: a mass is never negative), the same parties, period and tax rate, issued `at`.
pub fn credit_note(invoice: &Invoice, at: OffsetDateTime) -> InvoiceDraft {
    InvoiceDraft {
        kind: InvoiceKind::CreditNote {
            corrects: invoice.id,
            corrects_number: invoice.number,
        },
        currency: invoice.currency,
        period: invoice.period,
        issued_at: at,
        seller: invoice.seller.clone(),
        buyer: invoice.buyer.clone(),
        lines: invoice
            .lines
            .iter()
            .map(|l| InvoiceLine {
                offset_cost: negate(l.offset_cost),
                commission: negate(l.commission),
                total: negate(l.total),
                ..l.clone()
            })
            .collect(),
        offset_cost: negate(invoice.offset_cost),
        commission: negate(invoice.commission),
        subtotal: negate(invoice.subtotal),
        tax_rate: invoice.tax_rate,
        tax: negate(invoice.tax),
        total: negate(invoice.total),
    }
}

impl InvoiceDraft {
    /// The invoice this draft becomes with its id and number.
    pub fn into_invoice(
        self,
        id: InvoiceId,
        number: u64,
        organisation_id: OrganisationId,
    ) -> Invoice {
        Invoice {
            id,
            number,
            kind: self.kind,
            organisation_id,
            currency: self.currency,
            period: self.period,
            issued_at: self.issued_at,
            seller: self.seller,
            buyer: self.buyer,
            lines: self.lines,
            offset_cost: self.offset_cost,
            commission: self.commission,
            subtotal: self.subtotal,
            tax_rate: self.tax_rate,
            tax: self.tax,
            total: self.total,
            paid_at: None,
            credited_by: None,
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::indexing_slicing)]
    use super::*;
    use time::macros::datetime;

    fn order(
        n: u128,
        at: OffsetDateTime,
        cost: i64,
        commission: i64,
        currency: Currency,
    ) -> Invoiceable {
        Invoiceable {
            order_id: OrderId::from_uuid(uuid::Uuid::from_u128(n)),
            account_id: AccountId::from_uuid(uuid::Uuid::from_u128(99)),
            ordered_at: at,
            quantity: Mass::from_grams(1_500_000),
            offset_cost: Money::from_minor(cost, currency),
            commission: Money::from_minor(commission, currency),
            total_cost: Money::from_minor(cost + commission, currency),
        }
    }

    fn builder(rate: &str) -> InvoiceBuilder {
        InvoiceBuilder {
            period: Period::month("2026-10").unwrap(),
            seller: Party::named("Seller"),
            buyer: Party::named("Buyer"),
            tax_rate: TaxRate::parse(rate).unwrap(),
            at: datetime!(2026-11-01 0:00 UTC),
        }
    }

    #[test]
    fn one_invoice_per_currency_with_lines_oldest_first() {
        let drafts = builder("0").build(vec![
            order(1, datetime!(2026-10-20 0:00 UTC), 1000, 100, Currency::Eur),
            order(2, datetime!(2026-10-02 0:00 UTC), 333, 33, Currency::Gbp),
            order(3, datetime!(2026-10-03 0:00 UTC), 2001, 200, Currency::Eur),
        ]);
        assert_eq!(drafts.len(), 2);
        let eur = drafts.iter().find(|d| d.currency == Currency::Eur).unwrap();
        assert_eq!(
            eur.lines.iter().map(|l| l.order_id).collect::<Vec<_>>(),
            [3, 1].map(|n| OrderId::from_uuid(uuid::Uuid::from_u128(n)))
        );
        assert_eq!(eur.offset_cost.minor(), 3001);
        assert_eq!(eur.commission.minor(), 300);
        assert_eq!(eur.subtotal.minor(), 3301);
        assert_eq!((eur.tax.minor(), eur.total.minor()), (0, 3301));
        assert!(builder("0").build(Vec::new()).is_empty());
    }

    #[test]
    fn tax_rounds_half_away_from_zero_on_the_subtotal() {
        // 20 % of 0.25 = 0.05; 7.5 % of 1.00 = 0.075 -> 0.08; 19 % of 10.01 = 1.9019 -> 1.90
        for (rate, subtotal, tax) in [("20", 25, 5), ("7.5", 100, 8), ("19", 1001, 190)] {
            let d = &builder(rate).build(vec![order(
                1,
                datetime!(2026-10-20 0:00 UTC),
                subtotal,
                0,
                Currency::Eur,
            )])[0];
            assert_eq!(d.tax.minor(), tax, "{rate} % of {subtotal}");
            assert_eq!(d.total.minor(), subtotal + tax);
        }
        let d = &builder("10").build(vec![order(
            1,
            datetime!(2026-10-20 0:00 UTC),
            4,
            0,
            Currency::Eur,
        )])[0];
        assert_eq!(d.tax.minor(), 0, "0.4 cent rounds to none");
    }

    #[test]
    fn a_credit_note_negates_every_amount() {
        let d = builder("20")
            .build(vec![order(
                1,
                datetime!(2026-10-20 0:00 UTC),
                1000,
                100,
                Currency::Eur,
            )])
            .remove(0);
        let id = InvoiceId::from_uuid(uuid::Uuid::from_u128(7));
        let invoice = d.into_invoice(
            id,
            12,
            tonne_kernel::OrganisationId::from_uuid(uuid::Uuid::from_u128(5)),
        );
        let note = credit_note(&invoice, datetime!(2026-11-02 0:00 UTC));
        assert_eq!(
            note.kind,
            InvoiceKind::CreditNote {
                corrects: id,
                corrects_number: 12
            }
        );
        assert_eq!(note.total.minor(), -invoice.total.minor());
        assert_eq!(note.tax.minor(), -220);
        assert_eq!(note.lines[0].total.minor(), -1100);
        assert_eq!(
            note.lines[0].quantity.grams(),
            1_500_000,
            "tonnes as ordered"
        );
        assert_eq!(note.lines[0].order_id, invoice.lines[0].order_id);
    }
}
