//! An organisation's billing details: the buyer its invoices name.

use diesel::QueryResult;
use diesel::prelude::*;
use diesel_async::RunQueryDsl;
use time::OffsetDateTime;
use tonne_ordering::invoices::Party;
use tonne_ordering::ports::BillingOnFile;

use crate::db::Conn;
use crate::mapping::to_sql_time;
use crate::schema::{organisation_billing, organisations};

type Row = (String, String, Option<String>, Option<String>);

pub(super) async fn read(
    conn: &mut Conn,
    organisation: &str,
) -> QueryResult<Option<BillingOnFile>> {
    let organisation = organisation.to_owned();
    let name: Option<String> = on!(&mut *conn, |c| organisations::table
        .filter(organisations::id.eq(&organisation))
        .select(organisations::name)
        .first(c)
        .await
        .optional())?;
    let Some(organisation_name) = name else {
        return Ok(None);
    };
    let details: Option<Row> = on!(&mut *conn, |c| organisation_billing::table
        .filter(organisation_billing::organisation_id.eq(&organisation))
        .select((
            organisation_billing::name,
            organisation_billing::address,
            organisation_billing::tax_id,
            organisation_billing::email,
        ))
        .first(c)
        .await
        .optional())?;
    Ok(Some(BillingOnFile {
        organisation_name,
        details: details.map(|(name, address, tax_id, email)| Party {
            name,
            address,
            tax_id,
            email,
        }),
    }))
}

pub(super) async fn write(
    conn: &mut Conn,
    organisation: &str,
    p: Party,
    at: OffsetDateTime,
) -> QueryResult<()> {
    let values = (
        organisation_billing::organisation_id.eq(organisation.to_owned()),
        organisation_billing::name.eq(p.name),
        organisation_billing::address.eq(p.address),
        organisation_billing::tax_id.eq(p.tax_id),
        organisation_billing::email.eq(p.email),
        organisation_billing::updated_at.eq(to_sql_time(at)),
    );
    let organisation = organisation.to_owned();
    on!(&mut *conn, |c| diesel::delete(
        organisation_billing::table.filter(organisation_billing::organisation_id.eq(&organisation))
    )
    .execute(c)
    .await)?;
    on!(&mut *conn, |c| diesel::insert_into(
        organisation_billing::table
    )
    .values(values.clone())
    .execute(c)
    .await)?;
    Ok(())
}
