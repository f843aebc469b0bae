//! The audit log on either backend: [`record`] writes an entry inside the
//! transaction of the change it describes; [`AuditStore`] lists entries.

use async_trait::async_trait;
use diesel::prelude::*;
use diesel_async::RunQueryDsl;
use time::PrimitiveDateTime;
use tonne_accounts::audit::AuditRepository;
use tonne_kernel::{
    Actor, AuditEntry, AuditEntryId, AuditFilter, OrganisationId, Page, PageRequest, Snapshot,
    StoreError,
};

use crate::db::error::{corrupt, encode_error, store_error};
use crate::db::{Conn, Db};
use crate::mapping::{from_sql_time, parse_id, to_sql_time};
use crate::schema::audit_log;

#[derive(Queryable, Selectable, Insertable)]
#[diesel(table_name = audit_log, treat_none_as_default_value = false)]
struct AuditRow {
    id: String,
    at: PrimitiveDateTime,
    actor_kind: String,
    actor: String,
    action: String,
    object_kind: String,
    object_id: String,
    organisation_id: Option<String>,
    before_json: String,
    after_json: String,
}

fn encode(snapshot: &Snapshot) -> QueryResult<String> {
    serde_json::to_string(snapshot.fields()).map_err(encode_error)
}

fn decode(text: &str) -> QueryResult<Snapshot> {
    let fields: Vec<(String, String)> =
        serde_json::from_str(text).map_err(|_| corrupt("audit snapshot", text))?;
    Ok(fields.into_iter().collect())
}

impl AuditRow {
    fn from_domain(e: &AuditEntry) -> QueryResult<Self> {
        Ok(Self {
            id: e.id.to_string(),
            at: to_sql_time(e.at),
            actor_kind: e.actor.kind().to_owned(),
            actor: e.actor.name(),
            action: e.action.clone(),
            object_kind: e.object_kind.clone(),
            object_id: e.object_id.clone(),
            organisation_id: e.organisation.map(|o| o.to_string()),
            before_json: encode(&e.before)?,
            after_json: encode(&e.after)?,
        })
    }

    fn into_domain(self) -> QueryResult<AuditEntry> {
        Ok(AuditEntry {
            id: parse_id::<AuditEntryId>("audit entry id", &self.id)?,
            at: from_sql_time(self.at),
            actor: Actor::from_parts(&self.actor_kind, &self.actor)
                .ok_or_else(|| corrupt("audit actor", &self.actor_kind))?,
            action: self.action,
            object_kind: self.object_kind,
            object_id: self.object_id,
            organisation: self
                .organisation_id
                .as_deref()
                .map(|o| parse_id::<OrganisationId>("organisation id", o))
                .transpose()?,
            before: decode(&self.before_json)?,
            after: decode(&self.after_json)?,
        })
    }
}

/// Writes audit entries on the connection of the change they describe (call it
/// inside that change's `Db::transaction`, so both commit or neither does),
/// all in one statement.
pub(crate) async fn record<'a>(
    conn: &mut Conn,
    entries: impl IntoIterator<Item = &'a AuditEntry>,
) -> QueryResult<()> {
    let rows = entries
        .into_iter()
        .map(AuditRow::from_domain)
        .collect::<QueryResult<Vec<_>>>()?;
    if rows.is_empty() {
        return Ok(());
    }
    let insert = diesel::insert_into(audit_log::table).values(rows);
    conn.insert_rows(insert).await?;
    Ok(())
}

/// Writes `audit` for a change of `changed` rows, or answers `NotFound` (and
/// writes nothing) when the change found no row.
pub(crate) async fn record_change(
    conn: &mut Conn,
    changed: usize,
    audit: &AuditEntry,
) -> QueryResult<()> {
    if changed == 0 {
        return Err(diesel::result::Error::NotFound);
    }
    record(conn, [audit]).await
}

/// Lists the audit log.
#[derive(Debug, Clone)]
pub struct AuditStore {
    db: Db,
}

impl AuditStore {
    /// A repository over a pool.
    pub fn new(db: Db) -> Self {
        Self { db }
    }
}

/// `%` and `_` are wildcards in LIKE; a filter means them literally.
fn like_prefix(prefix: &str) -> String {
    let mut escaped = String::with_capacity(prefix.len() + 1);
    for c in prefix.chars() {
        if matches!(c, '%' | '_' | '\\') {
            escaped.push('\\');
        }
        escaped.push(c);
    }
    escaped.push('%');
    escaped
}

#[async_trait]
impl AuditRepository for AuditStore {
    async fn list(
        &self,
        filter: &AuditFilter,
        page: &PageRequest<AuditEntryId>,
    ) -> Result<Page<AuditEntry>, StoreError> {
        let filter = filter.clone();
        let after = page.after.map(|a| a.to_string());
        let limit = page.limit;
        self.db
            .query(move |conn| {
                Box::pin(async move {
                    if let Some(after) = &after {
                        // A cursor must name an entry (of any filter): else NotFound.
                        on!(&mut *conn, |c| audit_log::table
                            .find(after)
                            .select(audit_log::id)
                            .first::<String>(c)
                            .await)?;
                    }
                    let rows: Vec<AuditRow> = on!(conn, |c| {
                        let mut q = audit_log::table.into_boxed();
                        if let Some(actor) = &filter.actor {
                            q = match actor.as_str() {
                                "command line" => q.filter(audit_log::actor_kind.eq("cli")),
                                email => q.filter(audit_log::actor.eq(email.to_owned())),
                            };
                        }
                        if let Some(action) = &filter.action {
                            q = q.filter(audit_log::action.like(like_prefix(action)).escape('\\'));
                        }
                        if let Some(object) = &filter.object_id {
                            q = q.filter(audit_log::object_id.eq(object.clone()));
                        }
                        if let Some(organisation) = filter.organisation {
                            q = q.filter(audit_log::organisation_id.eq(organisation.to_string()));
                        }
                        if let Some(after) = &after {
                            q = q.filter(audit_log::id.lt(after.clone()));
                        }
                        q.order(audit_log::id.desc())
                            .limit(i64::from(limit.get()) + 1)
                            .select(AuditRow::as_select())
                            .load(c)
                            .await
                    })?;
                    let entries = rows
                        .into_iter()
                        .map(AuditRow::into_domain)
                        .collect::<QueryResult<Vec<_>>>()?;
                    Ok(Page::from_overfetch(entries, limit))
                })
            })
            .await
            .map_err(|e| store_error(e, "listing the audit log"))
    }
}

#[cfg(test)]
mod tests {
    use super::like_prefix;

    #[test]
    fn like_wildcards_in_a_filter_are_literal() {
        assert_eq!(like_prefix("order."), "order.%");
        assert_eq!(like_prefix("a%b_c\\"), "a\\%b\\_c\\\\%");
    }
}
