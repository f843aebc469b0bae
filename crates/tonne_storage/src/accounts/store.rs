//! The accounts repository's handle on the database, and the lookups the
//! other stores use (an account by handle, an organisation's account ids).

use diesel::prelude::*;
use diesel_async::RunQueryDsl;
use tonne_accounts::ports::StoreError;
use tonne_accounts::{Account, AccountId};
use tonne_kernel::{AccountMode, OrganisationId};

use crate::db::Db;
use crate::db::error::store_error;
use crate::mapping::{AccountRow, parse_id};
use crate::schema::{accounts, organisations};

use super::rows::found;

/// Accounts and organisations on either backend.
#[derive(Debug, Clone)]
pub struct AccountStore {
    pub(super) db: Db,
}

impl AccountStore {
    /// A repository over a pool.
    pub fn new(db: Db) -> Self {
        Self { db }
    }

    /// The account of the organisation and mode with `handle` (handles are
    /// unique per organisation and mode).
    pub(crate) async fn account_by_handle(
        &self,
        organisation: OrganisationId,
        mode: AccountMode,
        handle: &str,
    ) -> Result<Option<Account>, StoreError> {
        let (organisation, handle) = (organisation.to_string(), handle.to_owned());
        self.db
            .query(move |conn| {
                Box::pin(async move {
                    found(on!(conn, |c| accounts::table
                        .inner_join(organisations::table)
                        .filter(accounts::organisation_id.eq(organisation))
                        .filter(accounts::mode.eq(mode.as_str()))
                        .filter(accounts::handle.eq(handle))
                        .select((AccountRow::as_select(), organisations::organisation_type))
                        .first::<(AccountRow, String)>(c)
                        .await))
                })
            })
            .await
            .map_err(|e| store_error(e, "reading an account by handle"))
    }

    /// Every account of the organisation in `mode`, client accounts included,
    /// by id.
    pub(crate) async fn ids_of(
        &self,
        organisation: OrganisationId,
        mode: AccountMode,
    ) -> Result<Vec<AccountId>, StoreError> {
        let organisation = organisation.to_string();
        self.db
            .query(move |conn| {
                Box::pin(async move {
                    let ids: Vec<String> = on!(conn, |c| accounts::table
                        .filter(accounts::organisation_id.eq(organisation))
                        .filter(accounts::mode.eq(mode.as_str()))
                        .order(accounts::id.asc())
                        .select(accounts::id)
                        .load(c)
                        .await)?;
                    ids.iter()
                        .map(|id| parse_id::<AccountId>("account id", id))
                        .collect()
                })
            })
            .await
            .map_err(|e| store_error(e, "listing an organisation's accounts"))
    }
}
