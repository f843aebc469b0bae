//! The invoices' store: invoices and credit notes with their lines, the
//! installation's one number sequence, and the organisations' billing
//! details ([`InvoiceRepository`]).

/// The live orders paid by invoice, neither cancelled nor failed, made from
/// `$from` until `$until` and on no standing invoice: what a month's
/// invoices hold.
macro_rules! invoiceable_orders {
    ($from:expr, $until:expr) => {
        orders::table
            .filter(orders::mode.eq("live"))
            .filter(orders::payment_method.eq("invoice"))
            .filter(orders::status.ne_all(["cancelled", "failed"]))
            .filter(orders::created_at.ge($from))
            .filter(orders::created_at.lt($until))
            .filter(diesel::dsl::not(
                orders::id.eq_any(
                    invoice_lines::table
                        .inner_join(invoices::table)
                        .filter(invoices::kind.eq("invoice"))
                        .filter(invoices::credited_by.is_null())
                        .select(invoice_lines::order_id),
                ),
            ))
    };
}

mod billing;
mod issue;
mod read;
mod rows;

use async_trait::async_trait;
use diesel::prelude::*;
use diesel_async::RunQueryDsl;
use time::{OffsetDateTime, PrimitiveDateTime, Time};
use tonne_kernel::{AuditEntry, Cursor, OrganisationId, Page, PageRequest, StoreError};
use tonne_ordering::invoices::{Invoice, InvoiceBuilder, InvoiceId, Party, Period};
use tonne_ordering::ports::{BillingOnFile, CreditOutcome, InvoiceRepository};

use crate::db::Db;
use crate::db::error::store_error;
use crate::mapping::{parse_id, to_sql_time};
use crate::schema::{accounts, invoice_lines, invoices, orders};
use rows::InvoiceRow;

/// Invoices in SQLite or PostgreSQL.
#[derive(Clone)]
pub struct InvoiceStore {
    db: Db,
}

impl InvoiceStore {
    /// A store over the database.
    pub fn new(db: Db) -> Self {
        Self { db }
    }
}

#[async_trait]
impl InvoiceRepository for InvoiceStore {
    async fn billing(
        &self,
        organisation: OrganisationId,
    ) -> Result<Option<BillingOnFile>, StoreError> {
        let organisation = organisation.to_string();
        self.db
            .query(move |conn| Box::pin(async move { billing::read(conn, &organisation).await }))
            .await
            .map_err(|e| store_error(e, "reading billing details"))
    }

    async fn set_billing(
        &self,
        organisation: OrganisationId,
        details: Party,
        audit: AuditEntry,
    ) -> Result<(), StoreError> {
        let organisation = organisation.to_string();
        self.db
            .transaction(move |conn| {
                Box::pin(async move {
                    billing::write(&mut *conn, &organisation, details, audit.at).await?;
                    crate::audit::record(&mut *conn, [&audit]).await
                })
            })
            .await
            .map_err(|e| store_error(e, "writing billing details"))
    }

    async fn issue(
        &self,
        organisation: OrganisationId,
        builder: &InvoiceBuilder,
    ) -> Result<Vec<Invoice>, StoreError> {
        let builder = builder.clone();
        self.db
            .transaction(move |conn| {
                Box::pin(async move { issue::issue(conn, organisation, builder).await })
            })
            .await
            .map_err(|e| store_error(e, "issuing invoices"))
    }

    async fn credit(
        &self,
        id: InvoiceId,
        at: OffsetDateTime,
        audit: AuditEntry,
    ) -> Result<CreditOutcome, StoreError> {
        self.db
            .transaction(move |conn| {
                Box::pin(async move { issue::credit(conn, id, at, audit).await })
            })
            .await
            .map_err(|e| store_error(e, "crediting an invoice"))
    }

    async fn mark_paid(
        &self,
        id: InvoiceId,
        at: OffsetDateTime,
        audit: AuditEntry,
    ) -> Result<Option<Invoice>, StoreError> {
        let id = id.to_string();
        self.db
            .transaction(move |conn| {
                Box::pin(async move {
                    let marked = on!(&mut *conn, |c| diesel::update(
                        invoices::table
                            .filter(invoices::id.eq(&id))
                            .filter(invoices::kind.eq("invoice"))
                            .filter(invoices::paid_at.is_null())
                            .filter(invoices::credited_by.is_null())
                    )
                    .set(invoices::paid_at.eq(Some(to_sql_time(at))))
                    .execute(c)
                    .await)?;
                    if marked == 0 {
                        return Ok(None);
                    }
                    crate::audit::record(&mut *conn, [&audit]).await?;
                    read::one(conn, &id).await
                })
            })
            .await
            .map_err(|e| store_error(e, "marking an invoice paid"))
    }

    async fn get(&self, id: InvoiceId) -> Result<Option<Invoice>, StoreError> {
        let id = id.to_string();
        self.db
            .query(move |conn| Box::pin(async move { read::one(conn, &id).await }))
            .await
            .map_err(|e| store_error(e, "reading an invoice"))
    }

    async fn list(
        &self,
        organisation: Option<OrganisationId>,
        page: &PageRequest<Cursor>,
    ) -> Result<Page<Invoice>, StoreError> {
        let organisation = organisation.map(|o| o.to_string());
        let (after, limit) = crate::mapping::keyset(page);
        let fetch = i64::from(limit.get()) + 1;
        self.db
            .query(move |conn| {
                Box::pin(async move {
                    let before: Option<i64> = match &after {
                        None => None,
                        Some(after) => {
                            let found: Option<(i64, String)> =
                                on!(&mut *conn, |c| invoices::table
                                    .filter(invoices::id.eq(after))
                                    .select((invoices::number, invoices::organisation_id))
                                    .first(c)
                                    .await
                                    .optional())?;
                            match found {
                                Some((n, o))
                                    if organisation.as_ref().is_none_or(|want| *want == o) =>
                                {
                                    Some(n)
                                }
                                _ => return Err(diesel::result::Error::NotFound),
                            }
                        }
                    };
                    let rows: Vec<InvoiceRow> = on!(&mut *conn, |c| {
                        let mut q = invoices::table.into_boxed();
                        if let Some(o) = &organisation {
                            q = q.filter(invoices::organisation_id.eq(o.clone()));
                        }
                        if let Some(n) = before {
                            q = q.filter(invoices::number.lt(n));
                        }
                        q.order(invoices::number.desc())
                            .limit(fetch)
                            .select(InvoiceRow::as_select())
                            .load(c)
                            .await
                    })?;
                    let invoices = read::with_lines(conn, rows).await?;
                    Ok(Page::from_overfetch(invoices, limit))
                })
            })
            .await
            .map_err(|e| store_error(e, "listing invoices"))
    }

    async fn organisations_to_invoice(
        &self,
        period: Period,
    ) -> Result<Vec<OrganisationId>, StoreError> {
        let from = PrimitiveDateTime::new(period.from, Time::MIDNIGHT);
        let until =
            PrimitiveDateTime::new(period.to.next_day().unwrap_or(period.to), Time::MIDNIGHT);
        self.db
            .query(move |conn| {
                Box::pin(async move {
                    let ids: Vec<String> =
                        on!(&mut *conn, |c| accounts::table
                            .filter(accounts::id.eq_any(
                                invoiceable_orders!(from, until).select(orders::account_id),
                            ))
                            .select(accounts::organisation_id)
                            .distinct()
                            .order(accounts::organisation_id)
                            .load(c)
                            .await)?;
                    ids.iter()
                        .map(|id| parse_id::<OrganisationId>("organisation id", id))
                        .collect()
                })
            })
            .await
            .map_err(|e| store_error(e, "finding organisations to invoice"))
    }
}
