//! Reading invoices with their lines.

use diesel::QueryResult;
use diesel::prelude::*;
use diesel_async::RunQueryDsl;
use tonne_ordering::invoices::Invoice;

use super::rows::{InvoiceRow, LineRow, invoice_of};
use crate::db::Conn;
use crate::schema::{invoice_lines, invoices};

/// The invoices of `rows`, in their order, each with its lines (one query for
/// every row's lines).
pub(super) async fn with_lines(
    conn: &mut Conn,
    rows: Vec<InvoiceRow>,
) -> QueryResult<Vec<Invoice>> {
    let ids: Vec<String> = rows.iter().map(|r| r.id.clone()).collect();
    let mut lines: Vec<LineRow> = on!(&mut *conn, |c| invoice_lines::table
        .filter(invoice_lines::invoice_id.eq_any(&ids))
        .order((invoice_lines::invoice_id, invoice_lines::position))
        .select(LineRow::as_select())
        .load(c)
        .await)?;
    let mut out = Vec::with_capacity(rows.len());
    for row in rows {
        let (mine, rest): (Vec<LineRow>, Vec<LineRow>) =
            lines.into_iter().partition(|l| l.invoice_id == row.id);
        lines = rest;
        out.push(invoice_of(row, mine)?);
    }
    Ok(out)
}

/// One invoice by id.
pub(super) async fn one(conn: &mut Conn, id: &str) -> QueryResult<Option<Invoice>> {
    let row: Option<InvoiceRow> = on!(&mut *conn, |c| invoices::table
        .filter(invoices::id.eq(id))
        .select(InvoiceRow::as_select())
        .first(c)
        .await
        .optional())?;
    match row {
        None => Ok(None),
        Some(row) => Ok(with_lines(conn, vec![row]).await?.pop()),
    }
}
