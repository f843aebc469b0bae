//! Rows ↔ domain values. Row structs stay private to this crate.

use diesel::prelude::*;
use diesel::result::Error as DieselError;
use time::{OffsetDateTime, PrimitiveDateTime};
use tonne_accounts::{
    Account, AccountId, AccountIdempotencyKey, AccountName, AccountScope, ApiKey, Beneficiary,
    ExternalPagesVisibility, Handle, KeyHash, Organisation, OrganisationType, PortfolioId,
};
use tonne_kernel::{
    AccountMode, ApiKeyId, Currency, Cursor, Limit, Money, OrganisationId, PageRequest,
};

use crate::db::error::corrupt;
use crate::schema::{accounts, api_keys, organisations};

/// A keyset page's start (the id of the previous page's last item, as
/// stored) and size.
pub(crate) fn keyset(page: &PageRequest<Cursor>) -> (Option<String>, Limit) {
    (
        page.after.as_ref().map(|c| c.as_str().to_owned()),
        page.limit,
    )
}

pub(crate) fn to_sql_time(t: OffsetDateTime) -> PrimitiveDateTime {
    let utc = t.to_offset(time::UtcOffset::UTC);
    PrimitiveDateTime::new(utc.date(), utc.time())
}

pub(crate) fn from_sql_time(t: PrimitiveDateTime) -> OffsetDateTime {
    t.assume_utc()
}

pub(crate) fn parse_id<T: std::str::FromStr>(what: &str, value: &str) -> Result<T, DieselError> {
    value.parse().map_err(|_| corrupt(what, value))
}

fn parse_mode(value: &str) -> Result<AccountMode, DieselError> {
    value.parse().map_err(|_| corrupt("mode", value))
}

#[derive(Queryable, Selectable, Insertable)]
#[diesel(table_name = organisations)]
pub(crate) struct OrganisationRow {
    pub id: String,
    pub name: String,
    pub created_at: PrimitiveDateTime,
    pub organisation_type: String,
}

pub(crate) fn parse_organisation_type(value: &str) -> Result<OrganisationType, DieselError> {
    OrganisationType::parse(value).ok_or_else(|| corrupt("organisation type", value))
}

impl OrganisationRow {
    pub fn from_domain(o: &Organisation) -> Self {
        Self {
            id: o.id.to_string(),
            name: o.name.clone(),
            created_at: to_sql_time(o.created_at),
            organisation_type: o.organisation_type.as_str().to_owned(),
        }
    }

    pub fn into_domain(self) -> Result<Organisation, DieselError> {
        Ok(Organisation {
            id: parse_id::<OrganisationId>("organisation id", &self.id)?,
            name: self.name,
            organisation_type: parse_organisation_type(&self.organisation_type)?,
            created_at: from_sql_time(self.created_at),
        })
    }
}

#[derive(Queryable, Selectable, Insertable)]
#[diesel(table_name = accounts)]
pub(crate) struct AccountRow {
    pub id: String,
    pub organisation_id: String,
    pub mode: String,
    pub scope: String,
    pub sibling_id: Option<String>,
    pub name: String,
    pub currency: String,
    pub balance_minor: i64,
    pub balance_outstanding_minor: i64,
    pub logo: Option<String>,
    pub beneficiary: Option<String>,
    pub bundle_portfolio_id: Option<String>,
    pub created_at: PrimitiveDateTime,
    pub updated_at: PrimitiveDateTime,
    pub handle: Option<String>,
    pub external_pages_visibility: String,
    pub idempotency_key: Option<String>,
}

impl AccountRow {
    pub fn from_domain(a: &Account) -> Self {
        Self {
            id: a.id.to_string(),
            organisation_id: a.organisation_id.to_string(),
            mode: a.mode.as_str().to_owned(),
            scope: a.scope.as_str().to_owned(),
            sibling_id: a.sibling_id.map(|s| s.to_string()),
            name: a.name.as_str().to_owned(),
            currency: a.currency.code().to_owned(),
            balance_minor: a.balance.minor(),
            balance_outstanding_minor: a.balance_outstanding.minor(),
            logo: a.logo.clone(),
            beneficiary: a.beneficiary.as_ref().map(|b| b.as_str().to_owned()),
            bundle_portfolio_id: a
                .bundle_portfolio_id
                .as_ref()
                .map(|p| p.as_str().to_owned()),
            created_at: to_sql_time(a.created_at),
            updated_at: to_sql_time(a.updated_at),
            handle: a.handle.as_ref().map(|h| h.as_str().to_owned()),
            external_pages_visibility: a.external_pages_visibility.as_str().to_owned(),
            idempotency_key: a.idempotency_key.as_ref().map(|k| k.as_str().to_owned()),
        }
    }

    /// With the type of the account's organisation, read by a join.
    pub fn into_domain(self, organisation_type: &str) -> Result<Account, DieselError> {
        let currency: Currency = self
            .currency
            .parse()
            .map_err(|_| corrupt("currency", &self.currency))?;
        Ok(Account {
            id: parse_id("account id", &self.id)?,
            organisation_id: parse_id("organisation id", &self.organisation_id)?,
            mode: parse_mode(&self.mode)?,
            scope: AccountScope::parse(&self.scope).ok_or_else(|| corrupt("scope", &self.scope))?,
            sibling_id: self
                .sibling_id
                .as_deref()
                .map(|s| parse_id("sibling id", s))
                .transpose()?,
            name: AccountName::parse(&self.name).map_err(|_| corrupt("name", &self.name))?,
            handle: self
                .handle
                .as_deref()
                .map(|h| Handle::parse(h).map_err(|_| corrupt("handle", h)))
                .transpose()?,
            external_pages_visibility: ExternalPagesVisibility::parse(
                &self.external_pages_visibility,
            )
            .ok_or_else(|| corrupt("external pages visibility", &self.external_pages_visibility))?,
            organisation_type: parse_organisation_type(organisation_type)?,
            idempotency_key: self
                .idempotency_key
                .as_deref()
                .map(|k| AccountIdempotencyKey::parse(k).map_err(|_| corrupt("idempotency key", k)))
                .transpose()?,
            currency,
            balance: Money::from_minor(self.balance_minor, currency),
            balance_outstanding: Money::from_minor(self.balance_outstanding_minor, currency),
            logo: self.logo,
            beneficiary: self
                .beneficiary
                .as_deref()
                .map(|b| Beneficiary::parse(b).map_err(|_| corrupt("beneficiary", b)))
                .transpose()?,
            bundle_portfolio_id: self
                .bundle_portfolio_id
                .as_deref()
                .map(|p| PortfolioId::parse(p).map_err(|_| corrupt("bundle portfolio id", p)))
                .transpose()?,
            created_at: from_sql_time(self.created_at),
            updated_at: from_sql_time(self.updated_at),
        })
    }
}

#[derive(Queryable, Selectable, Insertable)]
#[diesel(table_name = api_keys)]
pub(crate) struct ApiKeyRow {
    pub id: String,
    pub organisation_id: String,
    pub mode: String,
    pub account_id: String,
    pub key_hash: String,
    pub display_prefix: String,
    pub created_at: PrimitiveDateTime,
    pub revoked_at: Option<PrimitiveDateTime>,
    pub last_used_at: Option<PrimitiveDateTime>,
}

impl ApiKeyRow {
    pub fn from_domain(k: &ApiKey) -> Self {
        Self {
            id: k.id.to_string(),
            organisation_id: k.organisation_id.to_string(),
            mode: k.mode.as_str().to_owned(),
            account_id: k.account_id.to_string(),
            key_hash: k.hash.to_hex(),
            display_prefix: k.display_prefix.clone(),
            created_at: to_sql_time(k.created_at),
            revoked_at: k.revoked_at.map(to_sql_time),
            last_used_at: k.last_used_at.map(to_sql_time),
        }
    }

    /// With the scope of the key's account, read by a join.
    pub fn into_domain(self, account_scope: &str) -> Result<ApiKey, DieselError> {
        Ok(ApiKey {
            id: parse_id::<ApiKeyId>("api key id", &self.id)?,
            organisation_id: parse_id("organisation id", &self.organisation_id)?,
            mode: parse_mode(&self.mode)?,
            account_id: parse_id::<AccountId>("account id", &self.account_id)?,
            account_scope: AccountScope::parse(account_scope)
                .ok_or_else(|| corrupt("scope", account_scope))?,
            hash: KeyHash::from_hex(&self.key_hash).ok_or_else(|| corrupt("key hash", "…"))?,
            display_prefix: self.display_prefix,
            created_at: from_sql_time(self.created_at),
            revoked_at: self.revoked_at.map(from_sql_time),
            last_used_at: self.last_used_at.map(from_sql_time),
        })
    }
}
