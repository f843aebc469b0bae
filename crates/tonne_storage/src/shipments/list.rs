//! The list of shipments: `ShipmentFilter` as one WHERE clause for both
//! backends, keyset pages by id (UUIDv7, so newest first is `id DESC`),
//! capped counts, and the calculation's walk upwards by id.
//!
//! Every filter is a condition on a column of `shipments`: the search is a
//! range on `reference` (a prefix, compared byte-wise on both backends, so
//! the index on `(account_id, reference)` serves it) or Tonne's id; the
//! modes of a phase are one bit test on its `*_modes` column; the shipper is
//! the account itself.

use diesel::result::Error as DieselError;
use tonne_kernel::{AccountId, Page, PageRequest};
use tonne_shipments::{
    CounterpartyId, EmissionsFilter, Shipment, ShipmentFilter, ShipmentId, StoredRow,
};

use super::encoding::date_text;
use super::rows::{BodyRow, Count, Counted, ListedRow};
use crate::db::Conn;
use crate::db::statement::{Bind, Sql};
use crate::mapping::parse_id;

/// The listed columns, with the shipper's and the supplier's names.
const SELECT: &str = "SELECT s.id, s.account_id, b.account_name, s.batch_id, \
     s.counterparty_id, c.name AS counterparty_name, s.reference, s.shipment_date, \
     s.pre_modes, s.main_modes, s.on_modes, s.emissions, s.body, s.created_at \
     FROM shipments s \
     JOIN shipment_batches b ON b.id = s.batch_id \
     JOIN shipment_counterparties c ON c.id = s.counterparty_id";

/// The smallest string greater than every string starting with `prefix`
/// (code points compare as UTF-8 bytes do), `None` when there is none.
fn prefix_end(prefix: &str) -> Option<String> {
    let mut chars: Vec<char> = prefix.chars().collect();
    while let Some(last) = chars.pop() {
        let next = match u32::from(last) {
            0xD7FF => Some('\u{E000}'),
            n => n.checked_add(1).and_then(char::from_u32),
        };
        if let Some(next) = next {
            chars.push(next);
            return Some(chars.into_iter().collect());
        }
    }
    None
}

/// An id as stored (lowercase), or the text as given when it is not an id
/// (then it matches nothing).
fn normalised<T: std::str::FromStr + ToString>(id: &str) -> String {
    id.parse::<T>()
        .map(|i| i.to_string())
        .unwrap_or_else(|_| id.to_owned())
}

/// Appends ` WHERE …`: the account's shipments the filter selects.
pub(super) fn filtered(sql: &mut Sql, account: AccountId, f: &ShipmentFilter) {
    sql.push(" WHERE s.account_id = ").text(account.to_string());
    if !f.shipper_ids.is_empty() {
        sql.push(" AND s.account_id IN ")
            .texts(f.shipper_ids.iter().map(|i| normalised::<AccountId>(i)));
    }
    if let Some(search) = f.search.as_deref().filter(|s| !s.is_empty()) {
        sql.push(" AND ((s.reference >= ").text(search);
        if let Some(end) = prefix_end(search) {
            sql.push(" AND s.reference < ").text(end);
        }
        sql.push(")");
        if let Ok(id) = search.parse::<ShipmentId>() {
            sql.push(" OR s.id = ").text(id.to_string());
        }
        sql.push(")");
    }
    if let Some(from) = f.date_from {
        sql.push(" AND s.shipment_date >= ").text(date_text(from));
    }
    if let Some(to) = f.date_to {
        sql.push(" AND s.shipment_date <= ").text(date_text(to));
    }
    for (column, set) in ["s.pre_modes", "s.main_modes", "s.on_modes"]
        .into_iter()
        .zip(f.modes)
    {
        if !set.is_empty() {
            sql.push(" AND (")
                .push(column)
                .push(" & ")
                .bind(Bind::Int(i64::from(set.bits())))
                .push(") <> 0");
        }
    }
    if !f.supplier_ids.is_empty() {
        sql.push(" AND s.counterparty_id IN ").texts(
            f.supplier_ids
                .iter()
                .map(|i| normalised::<CounterpartyId>(i)),
        );
    }
    if !f.batch_ids.is_empty() {
        sql.push(" AND s.batch_id IN ")
            .texts(f.batch_ids.iter().map(ToString::to_string));
    }
    if !f.data_sheet_ids.is_empty() {
        sql.push(" AND s.data_sheet_id IN ")
            .texts(f.data_sheet_ids.iter().map(ToString::to_string));
    }
    if !f.ids.is_empty() {
        sql.push(" AND s.id IN ")
            .texts(f.ids.iter().map(ToString::to_string));
    }
    if let Some(flagged) = f.flagged {
        sql.push(" AND s.flagged = ").bind(Bind::Bool(flagged));
    }
    match f.emissions {
        EmissionsFilter::All => {}
        EmissionsFilter::WithCo2e => {
            sql.push(" AND s.has_emissions = ").bind(Bind::Bool(true));
        }
        EmissionsFilter::WithoutCo2e => {
            sql.push(" AND s.has_emissions = ").bind(Bind::Bool(false));
        }
    }
}

fn shipments(rows: Vec<ListedRow>) -> Result<Vec<Shipment>, DieselError> {
    rows.into_iter().map(ListedRow::into_domain).collect()
}

/// A page of the account's shipments the filter selects, newest first.
pub(super) async fn page(
    conn: &mut Conn,
    account: AccountId,
    f: &ShipmentFilter,
    page: &PageRequest<ShipmentId>,
) -> Result<Page<Shipment>, DieselError> {
    let mut sql = Sql::new(SELECT);
    filtered(&mut sql, account, f);
    if let Some(after) = page.after {
        sql.push(" AND s.id < ").text(after.to_string());
    }
    sql.push(" ORDER BY s.id DESC LIMIT ")
        .bind(Bind::Int(i64::from(page.limit.get()) + 1));
    let rows = sql.load::<ListedRow>(conn).await?;
    Ok(Page::from_overfetch(shipments(rows)?, page.limit))
}

/// Up to `limit` of the account's shipments the filter selects after
/// `after`, newest first.
pub(super) async fn after(
    conn: &mut Conn,
    account: AccountId,
    f: &ShipmentFilter,
    after: Option<ShipmentId>,
    limit: u32,
) -> Result<Vec<Shipment>, DieselError> {
    let mut sql = Sql::new(SELECT);
    filtered(&mut sql, account, f);
    if let Some(after) = after {
        sql.push(" AND s.id < ").text(after.to_string());
    }
    sql.push(" ORDER BY s.id DESC LIMIT ")
        .bind(Bind::Int(i64::from(limit)));
    shipments(sql.load::<ListedRow>(conn).await?)
}

/// One shipment of the account.
pub(super) async fn one(
    conn: &mut Conn,
    account: AccountId,
    id: ShipmentId,
) -> Result<Option<Shipment>, DieselError> {
    let mut sql = Sql::new(SELECT);
    sql.push(" WHERE s.account_id = ")
        .text(account.to_string())
        .push(" AND s.id = ")
        .text(id.to_string());
    Ok(shipments(sql.load::<ListedRow>(conn).await?)?
        .into_iter()
        .next())
}

fn non_negative(n: i64) -> u64 {
    u64::try_from(n).unwrap_or(0)
}

/// How many shipments the filter selects, counting at most `cap + 1`.
pub(super) async fn count(
    conn: &mut Conn,
    account: AccountId,
    f: &ShipmentFilter,
    cap: u64,
) -> Result<u64, DieselError> {
    let mut sql = Sql::new("SELECT COUNT(*) AS n FROM (SELECT s.id FROM shipments s");
    filtered(&mut sql, account, f);
    sql.push(" LIMIT ")
        .bind(Bind::Int(
            i64::try_from(cap.saturating_add(1)).unwrap_or(i64::MAX),
        ))
        .push(") t");
    let counted = sql.load::<Count>(conn).await?;
    Ok(counted.first().map_or(0, |c| non_negative(c.n)))
}

/// The filter's counts, all and with or without emissions: the filter's
/// own choice of emissions is left out, so that the three are the tabs a
/// list shows (all = with + without).
pub(super) async fn counts(
    conn: &mut Conn,
    account: AccountId,
    f: &ShipmentFilter,
) -> Result<tonne_shipments::ShipmentCounts, DieselError> {
    let mut sql = Sql::new(
        "SELECT COUNT(*) AS n, \
         COALESCE(SUM(CASE WHEN s.has_emissions THEN 1 ELSE 0 END), 0) AS with_emissions \
         FROM shipments s",
    );
    let all = ShipmentFilter {
        emissions: EmissionsFilter::All,
        ..f.clone()
    };
    filtered(&mut sql, account, &all);
    let counted = sql.load::<Counted>(conn).await?;
    let (n, with) = counted.first().map_or((0, 0), |c| {
        (non_negative(c.n), non_negative(c.with_emissions))
    });
    Ok(tonne_shipments::ShipmentCounts {
        all: n,
        with_co2e: with,
        without_co2e: n.saturating_sub(with),
    })
}

/// The next `limit` shipments the filter selects after `after`, by id upwards.
pub(super) async fn walk(
    conn: &mut Conn,
    account: AccountId,
    f: &ShipmentFilter,
    after: Option<ShipmentId>,
    limit: u32,
) -> Result<Vec<StoredRow>, DieselError> {
    let mut sql = Sql::new("SELECT s.id, s.body FROM shipments s");
    filtered(&mut sql, account, f);
    if let Some(after) = after {
        sql.push(" AND s.id > ").text(after.to_string());
    }
    sql.push(" ORDER BY s.id LIMIT ")
        .bind(Bind::Int(i64::from(limit)));
    sql.load::<BodyRow>(conn)
        .await?
        .into_iter()
        .map(|r| {
            Ok(StoredRow {
                id: parse_id::<ShipmentId>("shipment id", &r.id)?,
                row: r.body,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::prefix_end;

    #[test]
    fn a_prefix_ends_at_the_next_code_point() {
        assert_eq!(prefix_end("PO-1").as_deref(), Some("PO-2"));
        assert_eq!(prefix_end("a\u{10FFFF}").as_deref(), Some("b"));
        assert_eq!(prefix_end("\u{D7FF}").as_deref(), Some("\u{E000}"));
        assert_eq!(prefix_end("\u{10FFFF}"), None);
    }
}
