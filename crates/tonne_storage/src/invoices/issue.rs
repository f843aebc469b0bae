//! Issuing and crediting: both take the installation's one number sequence
//! first, in their transaction, so that concurrent issuers queue behind it
//! (PostgreSQL's row lock; SQLite's write lock from `BEGIN IMMEDIATE`) and
//! numbers run without gaps — a transaction that rolls back returns its
//! numbers with it.

use diesel::QueryResult;
use diesel::prelude::*;
use diesel_async::RunQueryDsl;
use time::{OffsetDateTime, PrimitiveDateTime, Time};
use tonne_kernel::{AccountId, AuditEntry, Currency, Mass, Money, OrganisationId};
use tonne_ordering::OrderId;
use tonne_ordering::invoices::{
    Invoice, InvoiceBuilder, InvoiceDraft, InvoiceId, InvoiceKind, Invoiceable, Period, credit_note,
};
use tonne_ordering::ports::CreditOutcome;
use tonne_wire::invoices::{InvoiceEventData, InvoiceResponse};

use super::read;
use super::rows::rows_of;
use crate::db::Conn;
use crate::db::error::{corrupt, encode_error};
use crate::mapping::{from_sql_time, parse_id};
use crate::schema::{accounts, invoice_lines, invoice_sequence, invoices, orders};

/// Takes the sequence (locking it until the transaction ends) and answers
/// the last number issued.
async fn take_sequence(conn: &mut Conn) -> QueryResult<i64> {
    on!(&mut *conn, |c| diesel::update(
        invoice_sequence::table.filter(invoice_sequence::id.eq(1))
    )
    .set(invoice_sequence::last_number.eq(invoice_sequence::last_number))
    .execute(c)
    .await)?;
    on!(&mut *conn, |c| invoice_sequence::table
        .filter(invoice_sequence::id.eq(1))
        .select(invoice_sequence::last_number)
        .first(c)
        .await)
}

/// Numbers the drafts after `last`, stores them with their lines and moves
/// the sequence on.
async fn store(
    conn: &mut Conn,
    last: i64,
    organisation: OrganisationId,
    drafts: Vec<InvoiceDraft>,
) -> QueryResult<Vec<Invoice>> {
    let mut out = Vec::with_capacity(drafts.len());
    let mut number = last;
    for draft in drafts {
        number += 1;
        let n = u64::try_from(number).map_err(|_| corrupt("invoice number", "negative"))?;
        let invoice =
            draft.into_invoice(InvoiceId::from_uuid(uuid::Uuid::new_v4()), n, organisation);
        let (row, lines) = rows_of(&invoice)?;
        on!(&mut *conn, |c| diesel::insert_into(invoices::table)
            .values(&row)
            .execute(c)
            .await)?;
        for line in &lines {
            on!(&mut *conn, |c| diesel::insert_into(invoice_lines::table)
                .values(line)
                .execute(c)
                .await)?;
        }
        out.push(invoice);
    }
    on!(&mut *conn, |c| diesel::update(
        invoice_sequence::table.filter(invoice_sequence::id.eq(1))
    )
    .set(invoice_sequence::last_number.eq(number))
    .execute(c)
    .await)?;
    Ok(out)
}

fn day_start(d: time::Date) -> PrimitiveDateTime {
    PrimitiveDateTime::new(d, Time::MIDNIGHT)
}

/// The organisation's invoiceable orders in the period.
async fn invoiceable(
    conn: &mut Conn,
    organisation: &str,
    period: Period,
) -> QueryResult<Vec<Invoiceable>> {
    let from = day_start(period.from);
    let until = day_start(period.to.next_day().unwrap_or(period.to));
    let organisation = organisation.to_owned();
    type Found = (
        String,
        String,
        PrimitiveDateTime,
        i64,
        String,
        i64,
        i64,
        i64,
    );
    let rows: Vec<Found> = on!(&mut *conn, |c| invoiceable_orders!(from, until)
        .filter(
            orders::account_id.eq_any(
                accounts::table
                    .filter(accounts::organisation_id.eq(&organisation))
                    .select(accounts::id),
            )
        )
        .order((orders::created_at, orders::id))
        .select((
            orders::id,
            orders::account_id,
            orders::created_at,
            orders::quantity_grams,
            orders::currency,
            orders::offset_cost_minor,
            orders::commission_minor,
            orders::total_cost_minor,
        ))
        .load(c)
        .await)?;
    rows.into_iter()
        .map(
            |(id, account, at, grams, currency, cost, commission, total)| {
                let currency: Currency = currency
                    .parse()
                    .map_err(|_| corrupt("currency", &currency))?;
                Ok(Invoiceable {
                    order_id: parse_id::<OrderId>("order id", &id)?,
                    account_id: parse_id::<AccountId>("account id", &account)?,
                    ordered_at: from_sql_time(at),
                    quantity: Mass::from_grams(grams),
                    offset_cost: Money::from_minor(cost, currency),
                    commission: Money::from_minor(commission, currency),
                    total_cost: Money::from_minor(total, currency),
                })
            },
        )
        .collect()
}

/// The account whose outbox announces the organisation's invoices: its
/// oldest live account (not a client account); else the first line's.
async fn announcing_account(
    conn: &mut Conn,
    organisation: &str,
    fallback: AccountId,
) -> QueryResult<String> {
    let organisation = organisation.to_owned();
    let found: Option<String> = on!(&mut *conn, |c| accounts::table
        .filter(accounts::organisation_id.eq(&organisation))
        .filter(accounts::mode.eq("live"))
        .filter(accounts::scope.eq("account"))
        .order((accounts::created_at, accounts::id))
        .select(accounts::id)
        .first(c)
        .await
        .optional())?;
    Ok(found.unwrap_or_else(|| fallback.to_string()))
}

pub(super) async fn issue(
    conn: &mut Conn,
    organisation: OrganisationId,
    builder: InvoiceBuilder,
) -> QueryResult<Vec<Invoice>> {
    let last = take_sequence(conn).await?;
    let org = organisation.to_string();
    let drafts = builder.build(invoiceable(conn, &org, builder.period).await?);
    if drafts.is_empty() {
        return Ok(Vec::new());
    }
    let issued = store(conn, last, organisation, drafts).await?;
    for invoice in &issued {
        let Some(first) = <[_]>::first(&invoice.lines) else {
            continue;
        };
        let account = announcing_account(conn, &org, first.account_id).await?;
        let payload = serde_json::to_string(&InvoiceEventData {
            invoice: InvoiceResponse::from(invoice),
        })
        .map_err(encode_error)?;
        // The outbox's subject column names an order: the invoice's first.
        crate::outbox::append_raw(
            conn,
            &account,
            &first.order_id.to_string(),
            "invoice.issued",
            payload,
            invoice.issued_at,
        )
        .await?;
    }
    Ok(issued)
}

pub(super) async fn credit(
    conn: &mut Conn,
    id: InvoiceId,
    at: OffsetDateTime,
    audit: AuditEntry,
) -> QueryResult<CreditOutcome> {
    let last = take_sequence(conn).await?;
    let Some(invoice) = read::one(conn, &id.to_string()).await? else {
        return Ok(CreditOutcome::NotFound);
    };
    if invoice.kind != InvoiceKind::Invoice
        || invoice.credited_by.is_some()
        || invoice.paid_at.is_some()
    {
        return Ok(CreditOutcome::Refused(Box::new(invoice)));
    }
    let mut notes = store(
        conn,
        last,
        invoice.organisation_id,
        vec![credit_note(&invoice, at)],
    )
    .await?;
    let note = notes
        .pop()
        .ok_or_else(|| corrupt("credit note", "not stored"))?;
    on!(&mut *conn, |c| diesel::update(
        invoices::table.filter(invoices::id.eq(id.to_string()))
    )
    .set(invoices::credited_by.eq(Some(note.id.to_string())))
    .execute(c)
    .await)?;
    crate::audit::record(&mut *conn, [&audit]).await?;
    Ok(CreditOutcome::Credited(Box::new(note)))
}
