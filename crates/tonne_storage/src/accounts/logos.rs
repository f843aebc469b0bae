//! An account's logo: stored beside the account (its URL on the account),
//! read by id, removed; each change announced to the account caches.

use diesel::prelude::*;
use diesel::result::Error as DieselError;
use diesel_async::RunQueryDsl;
use time::{OffsetDateTime, PrimitiveDateTime};
use tonne_accounts::ports::StoreError;
use tonne_accounts::{Account, AccountId, EncodedLogo, Logo, LogoFormat, LogoId};

use super::rows::load_one;
use super::store::AccountStore;
use crate::db::error::{corrupt, store_error};
use crate::db::{announce, channel};
use crate::mapping::{from_sql_time, parse_id, to_sql_time};
use crate::schema::{account_logos, accounts};

#[derive(Queryable, Selectable, Insertable)]
#[diesel(table_name = account_logos)]
struct LogoRow {
    id: String,
    account_id: String,
    content_type: String,
    image: Vec<u8>,
    created_at: PrimitiveDateTime,
}

impl LogoRow {
    fn from_domain(logo: &Logo) -> Self {
        Self {
            id: logo.id.to_string(),
            account_id: logo.account_id.to_string(),
            content_type: logo.image.format.content_type().to_owned(),
            image: logo.image.bytes.clone(),
            created_at: to_sql_time(logo.created_at),
        }
    }

    fn into_domain(self) -> QueryResult<Logo> {
        Ok(Logo {
            id: parse_id::<LogoId>("logo id", &self.id)?,
            account_id: parse_id::<AccountId>("account id", &self.account_id)?,
            image: EncodedLogo {
                format: LogoFormat::parse(&self.content_type)
                    .ok_or_else(|| corrupt("logo content type", &self.content_type))?,
                bytes: self.image,
            },
            created_at: from_sql_time(self.created_at),
        })
    }
}

impl AccountStore {
    pub(super) async fn store_logo(&self, logo: &Logo, url: &str) -> Result<Account, StoreError> {
        let row = LogoRow::from_domain(logo);
        let url = url.to_owned();
        let at = to_sql_time(logo.created_at);
        let account = self
            .db
            .transaction(move |conn| {
                Box::pin(async move {
                    let changed = on!(&mut *conn, |c| diesel::update(
                        accounts::table.find(&row.account_id)
                    )
                    .set((accounts::logo.eq(&url), accounts::updated_at.eq(at)))
                    .execute(c)
                    .await)?;
                    if changed == 0 {
                        return Err(DieselError::NotFound);
                    }
                    on!(&mut *conn, |c| diesel::delete(
                        account_logos::table.filter(account_logos::account_id.eq(&row.account_id)),
                    )
                    .execute(c)
                    .await)?;
                    on!(&mut *conn, |c| diesel::insert_into(account_logos::table)
                        .values(&row)
                        .execute(c)
                        .await)?;
                    announce(&mut *conn, channel::ACCOUNT_CHANGED, &row.account_id).await?;
                    load_one(conn, &row.account_id)
                        .await?
                        .ok_or(DieselError::NotFound)
                })
            })
            .await
            .map_err(|e| store_error(e, "storing a logo"))?;
        self.db
            .announced(channel::ACCOUNT_CHANGED, &logo.account_id.to_string());
        Ok(account)
    }

    pub(super) async fn read_logo(&self, id: LogoId) -> Result<Option<Logo>, StoreError> {
        let id = id.to_string();
        self.db
            .query(move |conn| {
                Box::pin(async move {
                    on!(conn, |c| account_logos::table
                        .find(id)
                        .select(LogoRow::as_select())
                        .first(c)
                        .await)
                    .optional()?
                    .map(LogoRow::into_domain)
                    .transpose()
                })
            })
            .await
            .map_err(|e| store_error(e, "reading a logo"))
    }

    pub(super) async fn remove_logo(
        &self,
        account: AccountId,
        at: OffsetDateTime,
    ) -> Result<Account, StoreError> {
        let id = account.to_string();
        let at = to_sql_time(at);
        let changed = self
            .db
            .transaction(move |conn| {
                Box::pin(async move {
                    let changed = on!(&mut *conn, |c| diesel::update(accounts::table.find(&id))
                        .set((
                            accounts::logo.eq(None::<String>),
                            accounts::updated_at.eq(at),
                        ))
                        .execute(c)
                        .await)?;
                    if changed == 0 {
                        return Err(DieselError::NotFound);
                    }
                    on!(&mut *conn, |c| diesel::delete(
                        account_logos::table.filter(account_logos::account_id.eq(&id))
                    )
                    .execute(c)
                    .await)?;
                    announce(&mut *conn, channel::ACCOUNT_CHANGED, &id).await?;
                    load_one(conn, &id).await?.ok_or(DieselError::NotFound)
                })
            })
            .await
            .map_err(|e| store_error(e, "deleting a logo"))?;
        self.db
            .announced(channel::ACCOUNT_CHANGED, &account.to_string());
        Ok(changed)
    }
}
