//! An invoice's rows (the invoice, its lines) and their conversion to and
//! from the domain's [`Invoice`]; a party is kept as a JSON object.

use diesel::prelude::*;
use diesel::result::Error as DieselError;
use serde_json::{Value, json};
use time::PrimitiveDateTime;
use tonne_kernel::{AccountId, Currency, Mass, Money, OrganisationId};
use tonne_ordering::OrderId;
use tonne_ordering::invoices::{
    Invoice, InvoiceId, InvoiceKind, InvoiceLine, Party, Period, TaxRate,
};

use crate::db::error::{corrupt, decode_error, encode_error};
use crate::mapping::{from_sql_time, parse_id, to_sql_time};
use crate::schema::{invoice_lines, invoices};

#[derive(Queryable, Selectable, Insertable)]
#[diesel(table_name = invoices, treat_none_as_default_value = false)]
pub(super) struct InvoiceRow {
    pub(super) id: String,
    pub(super) number: i64,
    pub(super) kind: String,
    pub(super) corrects: Option<String>,
    pub(super) corrects_number: Option<i64>,
    pub(super) organisation_id: String,
    pub(super) currency: String,
    pub(super) period_from: String,
    pub(super) period_to: String,
    pub(super) issued_at: PrimitiveDateTime,
    pub(super) seller: String,
    pub(super) buyer: String,
    pub(super) offset_cost_minor: i64,
    pub(super) commission_minor: i64,
    pub(super) subtotal_minor: i64,
    pub(super) tax_rate: String,
    pub(super) tax_minor: i64,
    pub(super) total_minor: i64,
    pub(super) paid_at: Option<PrimitiveDateTime>,
    pub(super) credited_by: Option<String>,
}

#[derive(Queryable, Selectable, Insertable)]
#[diesel(table_name = invoice_lines)]
pub(super) struct LineRow {
    pub(super) invoice_id: String,
    pub(super) position: i32,
    pub(super) order_id: String,
    pub(super) account_id: String,
    pub(super) ordered_at: PrimitiveDateTime,
    pub(super) quantity_grams: i64,
    pub(super) offset_cost_minor: i64,
    pub(super) commission_minor: i64,
    pub(super) total_minor: i64,
}

pub(super) fn party_json(p: &Party) -> Result<String, DieselError> {
    serde_json::to_string(&json!({
        "name": p.name, "address": p.address, "tax_id": p.tax_id, "email": p.email,
    }))
    .map_err(encode_error)
}

fn party(raw: &str) -> Result<Party, DieselError> {
    let v: Value = serde_json::from_str(raw).map_err(decode_error)?;
    let text = |k: &str| v.get(k).and_then(Value::as_str).map(str::to_owned);
    Ok(Party {
        name: text("name").ok_or_else(|| corrupt("party", raw))?,
        address: text("address").unwrap_or_default(),
        tax_id: text("tax_id"),
        email: text("email"),
    })
}

pub(super) fn rows_of(invoice: &Invoice) -> Result<(InvoiceRow, Vec<LineRow>), DieselError> {
    let id = invoice.id.to_string();
    let lines = invoice
        .lines
        .iter()
        .enumerate()
        .map(|(i, l)| LineRow {
            invoice_id: id.clone(),
            position: i32::try_from(i).unwrap_or(i32::MAX),
            order_id: l.order_id.to_string(),
            account_id: l.account_id.to_string(),
            ordered_at: to_sql_time(l.ordered_at),
            quantity_grams: l.quantity.grams(),
            offset_cost_minor: l.offset_cost.minor(),
            commission_minor: l.commission.minor(),
            total_minor: l.total.minor(),
        })
        .collect();
    let row = InvoiceRow {
        id,
        number: i64::try_from(invoice.number)
            .map_err(|_| corrupt("invoice number", "too large"))?,
        kind: invoice.kind.as_str().to_owned(),
        corrects: match invoice.kind {
            InvoiceKind::CreditNote { corrects, .. } => Some(corrects.to_string()),
            InvoiceKind::Invoice => None,
        },
        corrects_number: match invoice.kind {
            InvoiceKind::CreditNote {
                corrects_number, ..
            } => i64::try_from(corrects_number).ok(),
            InvoiceKind::Invoice => None,
        },
        organisation_id: invoice.organisation_id.to_string(),
        currency: invoice.currency.code().to_owned(),
        period_from: invoice.period.from.to_string(),
        period_to: invoice.period.to.to_string(),
        issued_at: to_sql_time(invoice.issued_at),
        seller: party_json(&invoice.seller)?,
        buyer: party_json(&invoice.buyer)?,
        offset_cost_minor: invoice.offset_cost.minor(),
        commission_minor: invoice.commission.minor(),
        subtotal_minor: invoice.subtotal.minor(),
        tax_rate: invoice.tax_rate.to_string(),
        tax_minor: invoice.tax.minor(),
        total_minor: invoice.total.minor(),
        paid_at: invoice.paid_at.map(to_sql_time),
        credited_by: invoice.credited_by.map(|c| c.to_string()),
    };
    Ok((row, lines))
}

pub(super) fn invoice_of(row: InvoiceRow, lines: Vec<LineRow>) -> Result<Invoice, DieselError> {
    let currency: Currency = row
        .currency
        .parse()
        .map_err(|_| corrupt("currency", &row.currency))?;
    let money = |minor: i64| Money::from_minor(minor, currency);
    let kind = match (row.kind.as_str(), &row.corrects, row.corrects_number) {
        ("invoice", None, None) => InvoiceKind::Invoice,
        ("credit_note", Some(c), Some(n)) => InvoiceKind::CreditNote {
            corrects: parse_id::<InvoiceId>("invoice id", c)?,
            corrects_number: u64::try_from(n).map_err(|_| corrupt("invoice number", c))?,
        },
        _ => return Err(corrupt("invoice kind", &row.kind)),
    };
    let period = Period::parse(&row.period_from, &row.period_to)
        .map_err(|_| corrupt("invoice period", &row.period_from))?;
    let lines = lines
        .into_iter()
        .map(|l| {
            Ok(InvoiceLine {
                order_id: parse_id::<OrderId>("order id", &l.order_id)?,
                account_id: parse_id::<AccountId>("account id", &l.account_id)?,
                ordered_at: from_sql_time(l.ordered_at),
                quantity: Mass::from_grams(l.quantity_grams),
                offset_cost: money(l.offset_cost_minor),
                commission: money(l.commission_minor),
                total: money(l.total_minor),
            })
        })
        .collect::<Result<Vec<_>, DieselError>>()?;
    Ok(Invoice {
        id: parse_id("invoice id", &row.id)?,
        number: u64::try_from(row.number).map_err(|_| corrupt("invoice number", &row.id))?,
        kind,
        organisation_id: parse_id::<OrganisationId>("organisation id", &row.organisation_id)?,
        currency,
        period,
        issued_at: from_sql_time(row.issued_at),
        seller: party(&row.seller)?,
        buyer: party(&row.buyer)?,
        lines,
        offset_cost: money(row.offset_cost_minor),
        commission: money(row.commission_minor),
        subtotal: money(row.subtotal_minor),
        tax_rate: TaxRate::parse(&row.tax_rate).map_err(|_| corrupt("tax rate", &row.tax_rate))?,
        tax: money(row.tax_minor),
        total: money(row.total_minor),
        paid_at: row.paid_at.map(from_sql_time),
        credited_by: row
            .credited_by
            .as_deref()
            .map(|c| parse_id::<InvoiceId>("invoice id", c))
            .transpose()?,
    })
}
