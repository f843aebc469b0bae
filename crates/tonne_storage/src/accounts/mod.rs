//! Accounts and organisations on either backend: the accounts domain's
//! repository, with handles, idempotent creation, filters and logos, and
//! [`CachedAccounts`], its cache of accounts by id. A change to an account
//! is announced to the caches that follow it, in this process and others.

use async_trait::async_trait;
use diesel::dsl::{count_star, max};
use diesel::prelude::*;
use diesel_async::RunQueryDsl;
use time::{OffsetDateTime, PrimitiveDateTime};
use tonne_accounts::ports::{
    AccountQuery, AccountRepository, AccountUpdate, AccountWriteError, StoreError,
};
use tonne_accounts::{
    Account, AccountActivity, AccountId, AccountIdempotencyKey, Handle, Logo, LogoId, Organisation,
};
use tonne_kernel::{AccountMode, AuditEntry, Cursor, Mass, OrganisationId, Page, PageRequest};

use crate::db::error::store_error;
use crate::db::first_row;
use crate::db::{announce, channel};
use crate::mapping::{AccountRow, OrganisationRow, from_sql_time, parse_id, to_sql_time};
use crate::schema::{accounts, estimates, organisations};

#[macro_use]
mod rows;
mod cached;
mod logos;
mod store;

pub use cached::CachedAccounts;
use rows::{found, load_one, write_error};
pub use store::AccountStore;

diesel::define_sql_function!(fn lower(x: diesel::sql_types::Text) -> diesel::sql_types::Text);

/// `LIKE` pattern for a case-insensitive substring; `_` (allowed in filters) is escaped.
fn contains_pattern(filter: &str) -> String {
    format!(
        "%{}%",
        filter
            .to_ascii_lowercase()
            .replace('\\', "\\\\")
            .replace('_', "\\_")
            .replace('%', "\\%")
    )
}

#[async_trait]
impl AccountRepository for AccountStore {
    async fn create_organisation(
        &self,
        organisation: &Organisation,
        live: &Account,
        test: &Account,
        audit: Option<AuditEntry>,
    ) -> Result<(), StoreError> {
        let org = OrganisationRow::from_domain(organisation);
        let rows = [AccountRow::from_domain(live), AccountRow::from_domain(test)];
        self.db
            .transaction(move |conn| {
                Box::pin(async move {
                    on!(&mut *conn, |c| diesel::insert_into(organisations::table)
                        .values(&org)
                        .execute(c)
                        .await)?;
                    for row in &rows {
                        on!(&mut *conn, |c| diesel::insert_into(accounts::table)
                            .values(row)
                            .execute(c)
                            .await)?;
                    }
                    crate::audit::record(conn, &audit).await
                })
            })
            .await
            .map_err(|e| store_error(e, "creating an organisation"))
    }

    async fn any_organisation(&self) -> Result<bool, StoreError> {
        self.db
            .query(|conn| {
                Box::pin(async move {
                    on!(conn, |c| diesel::select(diesel::dsl::exists(
                        organisations::table.select(organisations::id),
                    ))
                    .get_result(c)
                    .await)
                })
            })
            .await
            .map_err(|e| store_error(e, "checking for organisations"))
    }

    async fn organisation(&self, id: OrganisationId) -> Result<Option<Organisation>, StoreError> {
        let id = id.to_string();
        self.db
            .query(move |conn| {
                Box::pin(async move {
                    on!(conn, |c| organisations::table
                        .find(id)
                        .select(OrganisationRow::as_select())
                        .first(c)
                        .await)
                    .optional()?
                    .map(OrganisationRow::into_domain)
                    .transpose()
                })
            })
            .await
            .map_err(|e| store_error(e, "reading an organisation"))
    }

    async fn list_organisations(
        &self,
        page: &PageRequest<Cursor>,
    ) -> Result<Page<Organisation>, StoreError> {
        let (after, limit) = crate::mapping::keyset(page);
        self.db
            .query(move |conn| {
                Box::pin(async move {
                    if let Some(after) = &after {
                        let known = on!(&mut *conn, |c| organisations::table
                            .find(after)
                            .count()
                            .get_result::<i64>(c)
                            .await)?;
                        if known == 0 {
                            return Err(diesel::result::Error::NotFound);
                        }
                    }
                    let rows: Vec<OrganisationRow> = on!(conn, |c| {
                        let mut q = organisations::table
                            .select(OrganisationRow::as_select())
                            .into_boxed();
                        if let Some(after) = &after {
                            q = q.filter(organisations::id.gt(after));
                        }
                        q.order(organisations::id.asc())
                            .limit(i64::from(limit.get()) + 1)
                            .load(c)
                            .await
                    })?;
                    let items = rows
                        .into_iter()
                        .map(OrganisationRow::into_domain)
                        .collect::<Result<Vec<_>, _>>()?;
                    Ok(Page::from_overfetch(items, limit))
                })
            })
            .await
            .map_err(|e| store_error(e, "listing organisations"))
    }

    async fn insert_pair(&self, live: &Account, test: &Account) -> Result<(), AccountWriteError> {
        let rows = [AccountRow::from_domain(live), AccountRow::from_domain(test)];
        self.db
            .transaction(move |conn| {
                Box::pin(async move {
                    for row in &rows {
                        on!(&mut *conn, |c| diesel::insert_into(accounts::table)
                            .values(row)
                            .execute(c)
                            .await)?;
                    }
                    Ok(())
                })
            })
            .await
            .map_err(|e| write_error(e, "inserting an account pair"))
    }

    async fn insert_client(
        &self,
        account: &Account,
        audit: Option<AuditEntry>,
    ) -> Result<(), AccountWriteError> {
        let row = AccountRow::from_domain(account);
        self.db
            .transaction(move |conn| {
                Box::pin(async move {
                    on!(&mut *conn, |c| diesel::insert_into(accounts::table)
                        .values(&row)
                        .execute(c)
                        .await)?;
                    crate::audit::record(conn, &audit).await
                })
            })
            .await
            .map_err(|e| write_error(e, "inserting a client account"))
    }

    async fn get(&self, id: AccountId) -> Result<Option<Account>, StoreError> {
        let id = id.to_string();
        let rows = load!(self.db, (id) => account_by_id!(id)).await;
        first_row(rows, |(row, kind): (AccountRow, String)| {
            row.into_domain(&kind)
        })
        .map_err(|e| store_error(e, "reading an account"))
    }

    async fn by_reference(
        &self,
        organisation_id: OrganisationId,
        mode: AccountMode,
        handle: Option<Handle>,
        idempotency_key: Option<AccountIdempotencyKey>,
    ) -> Result<Vec<Account>, StoreError> {
        let org = organisation_id.to_string();
        let handle = handle.map(|h| h.as_str().to_owned());
        let key = idempotency_key.map(|k| k.as_str().to_owned());
        if handle.is_none() && key.is_none() {
            return Ok(Vec::new());
        }
        self.db
            .query(move |conn| {
                Box::pin(async move {
                    on!(conn, |c| {
                        let q = accounts::table
                            .inner_join(organisations::table)
                            .filter(accounts::organisation_id.eq(org))
                            .filter(accounts::mode.eq(mode.as_str()))
                            .into_boxed();
                        let q = match (&handle, &key) {
                            (Some(h), Some(k)) => {
                                q.filter(accounts::handle.eq(h).or(accounts::idempotency_key.eq(k)))
                            }
                            (Some(h), None) => q.filter(accounts::handle.eq(h)),
                            (None, Some(k)) => q.filter(accounts::idempotency_key.eq(k)),
                            (None, None) => q,
                        };
                        q.select((AccountRow::as_select(), organisations::organisation_type))
                            .order(accounts::id.asc())
                            .limit(2)
                            .load::<(AccountRow, String)>(c)
                            .await
                    })?
                    .into_iter()
                    .map(|(row, kind)| row.into_domain(&kind))
                    .collect()
                })
            })
            .await
            .map_err(|e| store_error(e, "reading accounts by handle or idempotency key"))
    }

    async fn first_of_mode(
        &self,
        organisation_id: OrganisationId,
        mode: AccountMode,
    ) -> Result<Option<Account>, StoreError> {
        let org = organisation_id.to_string();
        self.db
            .query(move |conn| {
                Box::pin(async move {
                    found(on!(conn, |c| accounts::table
                        .inner_join(organisations::table)
                        .filter(accounts::organisation_id.eq(org))
                        .filter(accounts::mode.eq(mode.as_str()))
                        .filter(accounts::scope.eq("account"))
                        .order(accounts::id.asc())
                        .select((AccountRow::as_select(), organisations::organisation_type))
                        .first::<(AccountRow, String)>(c)
                        .await))
                })
            })
            .await
            .map_err(|e| store_error(e, "reading an organisation's first account"))
    }

    async fn list(
        &self,
        query: &AccountQuery,
        page: &PageRequest<Cursor>,
    ) -> Result<Page<Account>, StoreError> {
        let org = query.organisation_id.to_string();
        let mode = query.mode.as_str();
        let scope = query.scope.as_str();
        let name = query.name.as_ref().map(|n| contains_pattern(n.as_str()));
        let after = page.after.as_ref().map(|a| a.as_str().to_owned());
        let limit = page.limit;
        let fetch = i64::from(limit.get()) + 1;
        self.db
            .query(move |conn| {
                Box::pin(async move {
                    let rows: Vec<(AccountRow, String)> = on!(conn, |c| {
                        let mut q = accounts::table
                            .inner_join(organisations::table)
                            .filter(accounts::organisation_id.eq(org))
                            .filter(accounts::mode.eq(mode))
                            .filter(accounts::scope.eq(scope))
                            .select((AccountRow::as_select(), organisations::organisation_type))
                            .into_boxed();
                        if let Some(after) = after {
                            q = q.filter(accounts::id.gt(after));
                        }
                        if let Some(pattern) = name {
                            q = q.filter(lower(accounts::name).like(pattern).escape('\\'));
                        }
                        q.order(accounts::id.asc()).limit(fetch).load(c).await
                    })?;
                    let items = rows
                        .into_iter()
                        .map(|(row, kind)| row.into_domain(&kind))
                        .collect::<QueryResult<Vec<_>>>()?;
                    Ok(Page::from_overfetch(items, limit))
                })
            })
            .await
            .map_err(|e| store_error(e, "listing accounts"))
    }

    async fn update(&self, update: &AccountUpdate) -> Result<Account, AccountWriteError> {
        let id = update.id.to_string();
        let name = update.changes.name.as_str().to_owned();
        let beneficiary = update
            .changes
            .beneficiary
            .as_ref()
            .map(|b| b.as_str().to_owned());
        let portfolio = update
            .changes
            .bundle_portfolio_id
            .as_ref()
            .map(|p| p.as_str().to_owned());
        let handle = update
            .changes
            .handle
            .as_ref()
            .map(|h| h.as_str().to_owned());
        let visibility = update.changes.external_pages_visibility.as_str();
        let sibling = update.rename_sibling.map(|s| s.to_string());
        let at = to_sql_time(update.updated_at);
        let account = self
            .db
            .transaction(move |conn| {
                Box::pin(async move {
                    let changed = on!(&mut *conn, |c| diesel::update(accounts::table.find(&id))
                        .set((
                            accounts::name.eq(&name),
                            accounts::beneficiary.eq(beneficiary),
                            accounts::bundle_portfolio_id.eq(portfolio),
                            accounts::handle.eq(handle),
                            accounts::external_pages_visibility.eq(visibility),
                            accounts::updated_at.eq(at),
                        ))
                        .execute(c)
                        .await)?;
                    if changed == 0 {
                        return Err(diesel::result::Error::NotFound);
                    }
                    if let Some(sibling) = sibling {
                        let renamed = on!(&mut *conn, |c| diesel::update(
                            accounts::table.find(&sibling)
                        )
                        .set((accounts::name.eq(&name), accounts::updated_at.eq(at)))
                        .execute(c)
                        .await)?;
                        if renamed != 1 {
                            // Roll the whole change back: a pair never disagrees on its name.
                            return Err(diesel::result::Error::RollbackTransaction);
                        }
                        announce(&mut *conn, channel::ACCOUNT_CHANGED, &sibling).await?;
                    }
                    announce(&mut *conn, channel::ACCOUNT_CHANGED, &id).await?;
                    load_one(conn, &id)
                        .await?
                        .ok_or(diesel::result::Error::NotFound)
                })
            })
            .await
            .map_err(|e| write_error(e, "updating an account"))?;
        self.db
            .announced(channel::ACCOUNT_CHANGED, &update.id.to_string());
        if let Some(sibling) = update.rename_sibling {
            self.db
                .announced(channel::ACCOUNT_CHANGED, &sibling.to_string());
        }
        Ok(account)
    }

    async fn activity(
        &self,
        ids: &[AccountId],
    ) -> Result<Vec<(AccountId, AccountActivity)>, StoreError> {
        let ids: Vec<String> = ids.iter().map(ToString::to_string).collect();
        self.db
            .query(move |conn| {
                Box::pin(async move {
                    // One grouped query over the (account_id, created_at) index for the page.
                    let rows: Vec<(String, i64, Option<PrimitiveDateTime>, i64)> =
                        on!(conn, |c| estimates::table
                            .filter(estimates::account_id.eq_any(&ids))
                            .group_by(estimates::account_id)
                            .select((
                                estimates::account_id,
                                count_star(),
                                max(estimates::created_at),
                                diesel::dsl::sql::<diesel::sql_types::BigInt>(
                                    "CAST(COALESCE(SUM(mass_grams), 0) AS BIGINT)",
                                ),
                            ))
                            .load(c)
                            .await)?;
                    rows.into_iter()
                        .map(|(id, count, last, grams)| {
                            Ok((
                                parse_id::<AccountId>("account id", &id)?,
                                AccountActivity {
                                    last_active: last.map(from_sql_time),
                                    number_of_estimates: count,
                                    total_emissions: Mass::from_grams(grams),
                                },
                            ))
                        })
                        .collect()
                })
            })
            .await
            .map_err(|e| store_error(e, "reading client accounts' activity"))
    }

    async fn set_logo(&self, logo: &Logo, url: &str) -> Result<Account, StoreError> {
        self.store_logo(logo, url).await
    }

    async fn logo(&self, id: LogoId) -> Result<Option<Logo>, StoreError> {
        self.read_logo(id).await
    }

    async fn delete_logo(
        &self,
        account: AccountId,
        at: OffsetDateTime,
    ) -> Result<Account, StoreError> {
        self.remove_logo(account, at).await
    }
}

/// Locks an account's row until the caller's transaction ends (PostgreSQL;
/// on SQLite the writer holds the file): what a transaction counts per
/// account before it inserts (PACT clients, partners, waiting requests) is
/// counted by one transaction after the other.
pub(crate) async fn lock_row(conn: &mut crate::db::Conn, account_id: &str) -> QueryResult<()> {
    on!(conn, |c| diesel::update(accounts::table.find(account_id))
        .set(accounts::id.eq(accounts::id))
        .execute(c)
        .await)
    .map(drop)
}
