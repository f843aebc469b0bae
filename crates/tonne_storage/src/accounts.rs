use async_trait::async_trait;
use diesel::prelude::*;
use tonne_accounts::ports::{AccountQuery, AccountRepository, AccountUpdate, StoreError};
use tonne_accounts::{Account, AccountId, Organisation};
use tonne_kernel::{AccountMode, Cursor, OrganisationId, Page, PageRequest};

use crate::db::Db;
use crate::error::store_error;
use crate::mapping::{AccountRow, OrganisationRow, to_sql_time};
use crate::schema::{accounts, organisations};

diesel::define_sql_function!(fn lower(x: diesel::sql_types::Text) -> diesel::sql_types::Text);

/// Accounts and organisations on either backend.
#[derive(Debug, Clone)]
pub struct AccountStore {
    db: Db,
}

impl AccountStore {
    /// A repository over a pool.
    pub fn new(db: Db) -> Self {
        Self { db }
    }
}

fn load_one(conn: &mut crate::AnyConnection, id: &str) -> QueryResult<Option<Account>> {
    accounts::table
        .find(id)
        .select(AccountRow::as_select())
        .first(conn)
        .optional()?
        .map(AccountRow::into_domain)
        .transpose()
}

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
    ) -> Result<(), StoreError> {
        let org = OrganisationRow::from_domain(organisation);
        let rows = [AccountRow::from_domain(live), AccountRow::from_domain(test)];
        self.db
            .write(move |conn| {
                diesel::insert_into(organisations::table)
                    .values(&org)
                    .execute(conn)?;
                for row in &rows {
                    diesel::insert_into(accounts::table)
                        .values(row)
                        .execute(conn)?;
                }
                Ok(())
            })
            .await
            .map_err(|e| store_error(e, "creating an organisation"))
    }

    async fn any_organisation(&self) -> Result<bool, StoreError> {
        self.db
            .read(|conn| {
                diesel::select(diesel::dsl::exists(
                    organisations::table.select(organisations::id),
                ))
                .get_result(conn)
            })
            .await
            .map_err(|e| store_error(e, "checking for organisations"))
    }

    async fn organisation(&self, id: OrganisationId) -> Result<Option<Organisation>, StoreError> {
        let id = id.to_string();
        self.db
            .read(move |conn| {
                organisations::table
                    .find(id)
                    .select(OrganisationRow::as_select())
                    .first(conn)
                    .optional()?
                    .map(OrganisationRow::into_domain)
                    .transpose()
            })
            .await
            .map_err(|e| store_error(e, "reading an organisation"))
    }

    async fn insert_pair(&self, live: &Account, test: &Account) -> Result<(), StoreError> {
        let rows = [AccountRow::from_domain(live), AccountRow::from_domain(test)];
        self.db
            .write(move |conn| {
                for row in &rows {
                    diesel::insert_into(accounts::table)
                        .values(row)
                        .execute(conn)?;
                }
                Ok(())
            })
            .await
            .map_err(|e| store_error(e, "inserting an account pair"))
    }

    async fn insert_client(&self, account: &Account) -> Result<(), StoreError> {
        let row = AccountRow::from_domain(account);
        self.db
            .write(move |conn| {
                diesel::insert_into(accounts::table)
                    .values(&row)
                    .execute(conn)
                    .map(drop)
            })
            .await
            .map_err(|e| store_error(e, "inserting a client account"))
    }

    async fn get(&self, id: AccountId) -> Result<Option<Account>, StoreError> {
        let id = id.to_string();
        self.db
            .read(move |conn| load_one(conn, &id))
            .await
            .map_err(|e| store_error(e, "reading an account"))
    }

    async fn first_of_mode(
        &self,
        organisation_id: OrganisationId,
        mode: AccountMode,
    ) -> Result<Option<Account>, StoreError> {
        let org = organisation_id.to_string();
        self.db
            .read(move |conn| {
                accounts::table
                    .filter(accounts::organisation_id.eq(org))
                    .filter(accounts::mode.eq(mode.as_str()))
                    .filter(accounts::scope.eq("account"))
                    .order(accounts::id.asc())
                    .select(AccountRow::as_select())
                    .first(conn)
                    .optional()?
                    .map(AccountRow::into_domain)
                    .transpose()
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
            .read(move |conn| {
                let mut q = accounts::table
                    .filter(accounts::organisation_id.eq(org))
                    .filter(accounts::mode.eq(mode))
                    .filter(accounts::scope.eq(scope))
                    .select(AccountRow::as_select())
                    .into_boxed();
                if let Some(after) = after {
                    q = q.filter(accounts::id.gt(after));
                }
                if let Some(pattern) = name {
                    q = q.filter(lower(accounts::name).like(pattern).escape('\\'));
                }
                let rows: Vec<AccountRow> = q.order(accounts::id.asc()).limit(fetch).load(conn)?;
                let items = rows
                    .into_iter()
                    .map(AccountRow::into_domain)
                    .collect::<QueryResult<Vec<_>>>()?;
                Ok(Page::from_overfetch(items, limit))
            })
            .await
            .map_err(|e| store_error(e, "listing accounts"))
    }

    async fn update(&self, update: &AccountUpdate) -> Result<Account, StoreError> {
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
        let sibling = update.rename_sibling.map(|s| s.to_string());
        let at = to_sql_time(update.updated_at);
        self.db
            .write(move |conn| {
                let changed = diesel::update(accounts::table.find(&id))
                    .set((
                        accounts::name.eq(&name),
                        accounts::beneficiary.eq(beneficiary),
                        accounts::bundle_portfolio_id.eq(portfolio),
                        accounts::updated_at.eq(at),
                    ))
                    .execute(conn)?;
                if changed == 0 {
                    return Err(diesel::result::Error::NotFound);
                }
                if let Some(sibling) = sibling {
                    let renamed = diesel::update(accounts::table.find(&sibling))
                        .set((accounts::name.eq(&name), accounts::updated_at.eq(at)))
                        .execute(conn)?;
                    if renamed != 1 {
                        // Roll the whole change back: a pair never disagrees on its name.
                        return Err(diesel::result::Error::RollbackTransaction);
                    }
                }
                load_one(conn, &id)?.ok_or(diesel::result::Error::NotFound)
            })
            .await
            .map_err(|e| store_error(e, "updating an account"))
    }
}
