//! The shipment tables' rows and their mapping to the domain's values.

use diesel::prelude::*;
use diesel::result::Error as DieselError;
use diesel::sql_types::{BigInt, Bool, Nullable, SmallInt, Text, Timestamp};
use time::PrimitiveDateTime;
use tonne_kernel::AccountId;
use tonne_shipments::{
    Batch, BatchSource, BatchStatus, Counterparty, CounterpartyId, DataSheet, Facets, ModeSet,
    NewBatch, NewShipment, Party, RowOutcome, RowResult, Shipment, ShipmentBatchId, ShipmentId,
};

use super::encoding::{date_text, decode_emissions, encode_emissions, parse_date};
use crate::db::error::{corrupt, encode_error};
use crate::mapping::{from_sql_time, parse_id, to_sql_time};
use crate::schema::{shipment_batch_rows, shipment_batches, shipment_counterparties, shipments};

/// A row's stored outcome.
pub(super) const STORED: &str = "stored";
/// A failed row's stored outcome.
pub(super) const FAILED: &str = "failed";

/// A count or index as stored.
pub(super) fn int(n: impl TryInto<i64>) -> i64 {
    n.try_into().unwrap_or(i64::MAX)
}

/// A stored count or index back.
fn count(what: &str, n: i64) -> Result<u32, DieselError> {
    u32::try_from(n).map_err(|_| corrupt(what, &n.to_string()))
}

#[derive(Queryable, Selectable, Insertable)]
#[diesel(table_name = shipment_batches, treat_none_as_default_value = false)]
pub(super) struct BatchRow {
    pub id: String,
    pub account_id: String,
    pub account_name: String,
    pub source: String,
    pub data_sheet_id: Option<String>,
    pub data_sheet_filename: Option<String>,
    pub data_sheet_uploader: Option<String>,
    pub idempotency_key: Option<String>,
    pub contact_id: Option<String>,
    pub calculate: bool,
    pub row_count: i64,
    pub status: String,
    pub lease_owner: Option<String>,
    pub lease_until: Option<PrimitiveDateTime>,
    pub success_count: Option<i64>,
    pub failed_count: Option<i64>,
    pub batch_error: Option<String>,
    pub created_at: PrimitiveDateTime,
}

impl BatchRow {
    pub fn new(b: &NewBatch) -> Self {
        Self {
            id: b.id.to_string(),
            account_id: b.account_id.to_string(),
            account_name: b.account_name.clone(),
            source: b.source.as_str().to_owned(),
            data_sheet_id: b.data_sheet.as_ref().map(|d| d.id.to_string()),
            data_sheet_filename: b.data_sheet.as_ref().map(|d| d.filename.clone()),
            data_sheet_uploader: b.data_sheet.as_ref().and_then(|d| d.uploader.clone()),
            idempotency_key: b.idempotency_key.clone(),
            contact_id: b.contact_id.clone(),
            calculate: b.calculate,
            row_count: int(b.rows.len()),
            status: BatchStatus::Pending.as_str().to_owned(),
            lease_owner: None,
            lease_until: None,
            success_count: None,
            failed_count: None,
            batch_error: None,
            created_at: to_sql_time(b.created_at),
        }
    }

    pub fn into_domain(self) -> Result<Batch, DieselError> {
        let data_sheet = match (self.data_sheet_id, self.data_sheet_filename) {
            (Some(id), Some(filename)) => Some(DataSheet {
                id: parse_id("data sheet id", &id)?,
                filename,
                uploader: self.data_sheet_uploader,
            }),
            _ => None,
        };
        Ok(Batch {
            id: parse_id::<ShipmentBatchId>("shipment batch id", &self.id)?,
            account_id: parse_id::<AccountId>("account id", &self.account_id)?,
            status: BatchStatus::parse(&self.status)
                .ok_or_else(|| corrupt("batch status", &self.status))?,
            source: BatchSource::parse(&self.source)
                .ok_or_else(|| corrupt("batch source", &self.source))?,
            account_name: self.account_name,
            data_sheet,
            created_at: from_sql_time(self.created_at),
            success_count: self
                .success_count
                .map(|n| count("success count", n))
                .transpose()?,
            failed_count: self
                .failed_count
                .map(|n| count("failed count", n))
                .transpose()?,
            batch_error: self.batch_error,
        })
    }
}

/// A new row of a batch, as sent.
#[derive(Insertable)]
#[diesel(table_name = shipment_batch_rows)]
pub(super) struct NewRowRow {
    pub batch_id: String,
    pub row_index: i64,
    pub body: String,
}

/// A processed row's outcome.
#[derive(Queryable, Selectable)]
#[diesel(table_name = shipment_batch_rows)]
pub(super) struct OutcomeRow {
    pub row_index: i64,
    pub outcome: Option<String>,
    pub shipment_id: Option<String>,
    pub error: Option<String>,
}

impl OutcomeRow {
    pub fn into_domain(self) -> Result<RowResult, DieselError> {
        let outcome = match (self.outcome.as_deref(), self.shipment_id, self.error) {
            (Some(STORED), Some(id), _) => {
                RowOutcome::Success(parse_id::<ShipmentId>("shipment id", &id)?)
            }
            (Some(FAILED), _, Some(error)) => RowOutcome::Failed(error),
            (other, _, _) => return Err(corrupt("row outcome", other.unwrap_or("NULL"))),
        };
        Ok(RowResult {
            row_index: count("row index", self.row_index)?,
            outcome,
        })
    }
}

#[derive(Insertable)]
#[diesel(table_name = shipment_counterparties, treat_none_as_default_value = false)]
pub(super) struct CounterpartyRow {
    pub id: String,
    pub account_id: String,
    pub internal_id: Option<String>,
    pub name: String,
    pub created_at: PrimitiveDateTime,
}

pub(super) fn counterparty(id: &str, name: String) -> Result<Counterparty, DieselError> {
    Ok(Counterparty {
        id: parse_id::<CounterpartyId>("counterparty id", id)?,
        name,
    })
}

/// A shipment to insert.
#[derive(Insertable)]
#[diesel(table_name = shipments, treat_none_as_default_value = false)]
pub(super) struct ShipmentRow {
    pub id: String,
    pub account_id: String,
    pub batch_id: String,
    pub data_sheet_id: Option<String>,
    pub counterparty_id: String,
    pub reference: String,
    pub shipment_date: Option<String>,
    pub pre_modes: i16,
    pub main_modes: i16,
    pub on_modes: i16,
    pub has_emissions: bool,
    pub total_grams: Option<i64>,
    pub flagged: bool,
    pub emissions: Option<String>,
    pub body: String,
    pub created_at: PrimitiveDateTime,
}

/// The emissions columns of a shipment: JSON, whether any, total grams, flagged.
pub(super) type EmissionsColumns = (Option<String>, bool, Option<i64>, bool);

pub(super) fn emissions_columns(
    e: Option<&tonne_shipments::ShipmentEmissions>,
) -> Result<EmissionsColumns, DieselError> {
    Ok(match e {
        None => (None, false, None, false),
        Some(e) => (
            Some(encode_emissions(e).map_err(encode_error)?),
            true,
            Some(e.total.total().grams()),
            e.flagged,
        ),
    })
}

impl ShipmentRow {
    pub fn new(s: &NewShipment, data_sheet_id: Option<String>) -> Result<Self, DieselError> {
        let [pre, main, on] = s.facets.modes.map(|m| i16::from(m.bits()));
        let (emissions, has_emissions, total_grams, flagged) =
            emissions_columns(s.emissions.as_ref())?;
        Ok(Self {
            id: s.id.to_string(),
            account_id: s.account_id.to_string(),
            batch_id: s.batch_id.to_string(),
            data_sheet_id,
            counterparty_id: s.counterparty.id.to_string(),
            reference: s.facets.reference.clone(),
            shipment_date: s.facets.shipment_date.map(date_text),
            pre_modes: pre,
            main_modes: main,
            on_modes: on,
            has_emissions,
            total_grams,
            flagged,
            emissions,
            body: s.row.clone(),
            created_at: to_sql_time(s.created_at),
        })
    }
}

/// A listed shipment, with its shipper's and supplier's names (`list`'s SELECT).
#[derive(QueryableByName)]
pub(super) struct ListedRow {
    #[diesel(sql_type = Text)]
    pub id: String,
    #[diesel(sql_type = Text)]
    pub account_id: String,
    #[diesel(sql_type = Text)]
    pub account_name: String,
    #[diesel(sql_type = Text)]
    pub batch_id: String,
    #[diesel(sql_type = Text)]
    pub counterparty_id: String,
    #[diesel(sql_type = Text)]
    pub counterparty_name: String,
    #[diesel(sql_type = Text)]
    pub reference: String,
    #[diesel(sql_type = Nullable<Text>)]
    pub shipment_date: Option<String>,
    #[diesel(sql_type = SmallInt)]
    pub pre_modes: i16,
    #[diesel(sql_type = SmallInt)]
    pub main_modes: i16,
    #[diesel(sql_type = SmallInt)]
    pub on_modes: i16,
    #[diesel(sql_type = Nullable<Text>)]
    pub emissions: Option<String>,
    #[diesel(sql_type = Text)]
    pub body: String,
    #[diesel(sql_type = Timestamp)]
    pub created_at: PrimitiveDateTime,
}

fn modes(bits: i16) -> Result<ModeSet, DieselError> {
    u8::try_from(bits)
        .map(ModeSet::from_bits)
        .map_err(|_| corrupt("mode set", &bits.to_string()))
}

impl ListedRow {
    pub fn into_domain(self) -> Result<Shipment, DieselError> {
        let shipment_date = match &self.shipment_date {
            None => None,
            Some(d) => Some(parse_date(d).ok_or_else(|| corrupt("shipment date", d))?),
        };
        let emissions = match &self.emissions {
            None => None,
            Some(e) => Some(decode_emissions(e).ok_or_else(|| corrupt("emissions", &self.id))?),
        };
        Ok(Shipment {
            id: parse_id::<ShipmentId>("shipment id", &self.id)?,
            account_id: parse_id::<AccountId>("account id", &self.account_id)?,
            batch_id: parse_id::<ShipmentBatchId>("shipment batch id", &self.batch_id)?,
            shipper: Party {
                id: self.account_id,
                name: self.account_name,
            },
            supplier: Party {
                id: self.counterparty_id,
                name: self.counterparty_name,
            },
            facets: Facets {
                reference: self.reference,
                shipment_date,
                modes: [
                    modes(self.pre_modes)?,
                    modes(self.main_modes)?,
                    modes(self.on_modes)?,
                ],
            },
            row: self.body,
            emissions,
            created_at: from_sql_time(self.created_at),
        })
    }
}

/// A count (`list`'s capped count).
#[derive(QueryableByName)]
pub(super) struct Count {
    #[diesel(sql_type = BigInt)]
    pub n: i64,
}

/// All and with emissions (`list`'s counts).
#[derive(QueryableByName)]
pub(super) struct Counted {
    #[diesel(sql_type = BigInt)]
    pub n: i64,
    #[diesel(sql_type = BigInt)]
    pub with_emissions: i64,
}

/// A stored shipment's row (`calculation_rows`).
#[derive(QueryableByName)]
pub(super) struct BodyRow {
    #[diesel(sql_type = Text)]
    pub id: String,
    #[diesel(sql_type = Text)]
    pub body: String,
}

/// A claimed batch (`jobs`' claim, `RETURNING`).
#[derive(QueryableByName)]
pub(super) struct ClaimedBatch {
    #[diesel(sql_type = Text)]
    pub id: String,
    #[diesel(sql_type = Text)]
    pub account_id: String,
    #[diesel(sql_type = Text)]
    pub account_name: String,
    #[diesel(sql_type = Nullable<Text>)]
    pub contact_id: Option<String>,
    #[diesel(sql_type = Bool)]
    pub calculate: bool,
}

/// A claimed calculation (`jobs`' claim, `RETURNING`).
#[derive(QueryableByName)]
pub(super) struct ClaimedCalculation {
    #[diesel(sql_type = Text)]
    pub id: String,
    #[diesel(sql_type = Text)]
    pub account_id: String,
    #[diesel(sql_type = Text)]
    pub filter_json: String,
    #[diesel(sql_type = Nullable<Text>)]
    pub after_id: Option<String>,
}
