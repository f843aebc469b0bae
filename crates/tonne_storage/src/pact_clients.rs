//! PACT clients and their access tokens (hashes only) on either backend.

use async_trait::async_trait;
use diesel::prelude::*;
use diesel::result::Error as DieselError;
use diesel_async::RunQueryDsl;
use time::{OffsetDateTime, PrimitiveDateTime};
use tonne_accounts::KeyHash;
use tonne_accounts::pact::{PactClient, PactClientId, PactClientRepository, TokenRecord};
use tonne_kernel::{AccountId, StoreError};

use crate::db::error::{corrupt, store_error};
use crate::db::{Db, all_rows, first_row};
use crate::mapping::{from_sql_time, parse_id, to_sql_time};
use crate::schema::{pact_clients, pact_tokens};

/// PACT clients and tokens on either backend.
#[derive(Debug, Clone)]
pub struct PactClientStore {
    db: Db,
}

impl PactClientStore {
    /// A repository over a pool.
    pub fn new(db: Db) -> Self {
        Self { db }
    }
}

#[derive(Queryable, Selectable, Insertable)]
#[diesel(table_name = pact_clients)]
struct ClientRow {
    id: String,
    account_id: String,
    label: String,
    secret_hash: String,
    created_at: PrimitiveDateTime,
    revoked_at: Option<PrimitiveDateTime>,
}

impl ClientRow {
    fn from_domain(c: &PactClient) -> Self {
        Self {
            id: c.id.to_string(),
            account_id: c.account_id.to_string(),
            label: c.label.clone(),
            secret_hash: c.secret_hash.to_hex(),
            created_at: to_sql_time(c.created_at),
            revoked_at: c.revoked_at.map(to_sql_time),
        }
    }

    fn into_domain(self) -> Result<PactClient, DieselError> {
        Ok(PactClient {
            id: parse_id::<PactClientId>("PACT client id", &self.id)?,
            account_id: parse_id::<AccountId>("account id", &self.account_id)?,
            label: self.label,
            secret_hash: KeyHash::from_hex(&self.secret_hash)
                .ok_or_else(|| corrupt("secret hash", "…"))?,
            created_at: from_sql_time(self.created_at),
            revoked_at: self.revoked_at.map(from_sql_time),
        })
    }
}

#[async_trait]
impl PactClientRepository for PactClientStore {
    async fn insert(&self, client: &PactClient, max: u32) -> Result<bool, StoreError> {
        let row = ClientRow::from_domain(client);
        let max = i64::from(max);
        self.db
            .transaction(move |conn| {
                Box::pin(async move {
                    crate::accounts::lock_row(&mut *conn, &row.account_id).await?;
                    let standing: i64 = on!(&mut *conn, |c| pact_clients::table
                        .filter(pact_clients::account_id.eq(&row.account_id))
                        .filter(pact_clients::revoked_at.is_null())
                        .count()
                        .get_result(c)
                        .await)?;
                    if standing >= max {
                        return Ok(false);
                    }
                    on!(&mut *conn, |c| diesel::insert_into(pact_clients::table)
                        .values(&row)
                        .execute(c)
                        .await)?;
                    Ok(true)
                })
            })
            .await
            .map_err(|e| store_error(e, "inserting a PACT client"))
    }

    async fn get(&self, id: PactClientId) -> Result<Option<PactClient>, StoreError> {
        let id = id.to_string();
        let rows = load!(self.db, (id) => pact_clients::table
            .filter(pact_clients::id.eq(id))
            .select(ClientRow::as_select())
            .limit(1))
        .await;
        first_row(rows, ClientRow::into_domain).map_err(|e| store_error(e, "reading a PACT client"))
    }

    async fn list(&self, account: AccountId) -> Result<Vec<PactClient>, StoreError> {
        let account = account.to_string();
        let rows = load!(self.db, (account) => pact_clients::table
            .filter(pact_clients::account_id.eq(account))
            .order((pact_clients::created_at.asc(), pact_clients::id.asc()))
            .select(ClientRow::as_select()))
        .await;
        all_rows(rows, ClientRow::into_domain).map_err(|e| store_error(e, "listing PACT clients"))
    }

    async fn revoke(
        &self,
        id: PactClientId,
        at: OffsetDateTime,
    ) -> Result<Option<PactClient>, StoreError> {
        let id = id.to_string();
        let at = to_sql_time(at);
        self.db
            .transaction(move |conn| {
                Box::pin(async move {
                    stamp_once!(&mut *conn, pact_clients, revoked_at, &id, at)?;
                    on!(&mut *conn, |c| diesel::delete(
                        pact_tokens::table.filter(pact_tokens::client_id.eq(&id))
                    )
                    .execute(c)
                    .await)?;
                    let rows: Vec<ClientRow> = on!(&mut *conn, |c| pact_clients::table
                        .find(&id)
                        .select(ClientRow::as_select())
                        .load(c)
                        .await)?;
                    rows.into_iter()
                        .next()
                        .map(ClientRow::into_domain)
                        .transpose()
                })
            })
            .await
            .map_err(|e| store_error(e, "revoking a PACT client"))
    }

    async fn insert_token(
        &self,
        client: PactClientId,
        hash: &KeyHash,
        issued_at: OffsetDateTime,
        expires_at: OffsetDateTime,
        keep: u32,
    ) -> Result<(), StoreError> {
        let client = client.to_string();
        let hash = hash.to_hex();
        let issued_at = to_sql_time(issued_at);
        let expires_at = to_sql_time(expires_at);
        let keep = i64::from(keep.saturating_sub(1));
        self.db
            .transaction(move |conn| {
                Box::pin(async move {
                    // the expired ones, and the oldest beyond `keep` with this one
                    on!(&mut *conn, |c| diesel::delete(
                        pact_tokens::table
                            .filter(pact_tokens::client_id.eq(&client))
                            .filter(pact_tokens::expires_at.le(issued_at))
                    )
                    .execute(c)
                    .await)?;
                    let kept: Vec<String> = on!(&mut *conn, |c| pact_tokens::table
                        .filter(pact_tokens::client_id.eq(&client))
                        .order((
                            pact_tokens::issued_at.desc(),
                            pact_tokens::token_hash.desc()
                        ))
                        .select(pact_tokens::token_hash)
                        .limit(keep)
                        .load(c)
                        .await)?;
                    on!(&mut *conn, |c| diesel::delete(
                        pact_tokens::table
                            .filter(pact_tokens::client_id.eq(&client))
                            .filter(pact_tokens::token_hash.ne_all(&kept))
                    )
                    .execute(c)
                    .await)?;
                    on!(&mut *conn, |c| diesel::insert_into(pact_tokens::table)
                        .values((
                            pact_tokens::token_hash.eq(&hash),
                            pact_tokens::client_id.eq(&client),
                            pact_tokens::issued_at.eq(issued_at),
                            pact_tokens::expires_at.eq(expires_at),
                        ))
                        .execute(c)
                        .await)
                    .map(drop)
                })
            })
            .await
            .map_err(|e| store_error(e, "storing a PACT token"))
    }

    async fn token(&self, hash: &KeyHash) -> Result<Option<TokenRecord>, StoreError> {
        let hash = hash.to_hex();
        let rows = load!(self.db, (hash) => pact_tokens::table
            .inner_join(pact_clients::table)
            .filter(pact_tokens::token_hash.eq(hash))
            .filter(pact_clients::revoked_at.is_null())
            .select((pact_clients::account_id, pact_tokens::expires_at))
            .limit(1))
        .await;
        first_row(rows, |(account, expires): (String, PrimitiveDateTime)| {
            Ok(TokenRecord {
                account_id: parse_id::<AccountId>("account id", &account)?,
                expires_at: from_sql_time(expires),
            })
        })
        .map_err(|e| store_error(e, "looking up a PACT token"))
    }
}
