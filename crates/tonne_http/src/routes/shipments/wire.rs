//! The bodies and query parameters the six Shipments routes speak (client
//! 3.9.2): the batch upload's request, the batch answers in their four
//! shapes, the two pages, and the list filters (read from the query string
//! as the client sends arrays: the key repeated, `key=a&key=b`; `key[]=` is
//! also accepted). The shipment itself is `tonne_wire::shipments`'s.

use actix_web::HttpRequest;
use serde::{Deserialize, Serialize};
use time::Date;
use time::macros::format_description;
use tonne_kernel::{Limit, Page, PageRequest};
use tonne_shipments::{
    Batch, BatchDetail, BatchSource, BatchStatus, DataSheetId, EmissionsFilter, ModeSet,
    RowOutcome, ShipmentBatchId, ShipmentCounts, ShipmentFilter, ShipmentId, TransportMode,
};
use tonne_wire::shipments::ShipmentResponse;
use utoipa::ToSchema;

use crate::error::ApiError;
use crate::extract::parse_limit;
use crate::wire::{paginated, rfc3339};

/// The client's `createShipmentBatch` body. Rows are kept as sent: only
/// their number and that each is a JSON object are checked here.
#[tonne_http_macros::request]
#[derive(Debug, Deserialize, ToSchema)]
pub struct CreateShipmentBatchRequest {
    /// 1 to 10,000 `CreateShipmentRequest` objects, each checked when the batch is processed.
    #[schema(value_type = Vec<Object>, min_items = 1, max_items = 10000)]
    pub shipments: Vec<serde_json::Value>,
    /// An existing contact (counterparty) of the account: every row's counterparty.
    #[schema(nullable = false)]
    pub contact_id: Option<String>,
    /// Unique per account (1 to 255 characters): a second upload with it is 409.
    #[schema(nullable = false)]
    pub idempotency_key: Option<String>,
    /// Keep each row's emissions as it is processed (default false).
    #[schema(nullable = false)]
    pub calculate_emissions: Option<bool>,
}

/// `{id}` of a new batch.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = CreatedBatchBody)]
pub struct CreatedBatchResponse {
    /// The batch's id.
    pub id: String,
}

/// `{calculation_batch_ids}` of a queued calculation.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = CalculationBody)]
pub struct CalculationResponse {
    /// The calculation batches created.
    pub calculation_batch_ids: Vec<String>,
}

/// The client's `ShipmentBatchSummary`.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = ShipmentBatchSummaryBody)]
pub struct ShipmentBatchSummaryResponse {
    id: String,
    /// `pending`, `processing` or `processed`.
    status: String,
    /// `api` or `data_sheet`.
    source: String,
    /// The uploading account's name.
    account_name: String,
    /// Who uploaded the data sheet, when known.
    user_name: Option<String>,
    /// The data sheet's file name.
    filename: Option<String>,
    created_at: String,
    /// Null until processed, or with a batch error.
    success_count: Option<u32>,
    /// Null until processed, or with a batch error.
    failed_count: Option<u32>,
    /// Why no row was processed.
    batch_error: Option<String>,
}

impl ShipmentBatchSummaryResponse {
    pub fn of(b: &Batch) -> Self {
        Self {
            id: b.id.to_string(),
            status: b.status.as_str().to_owned(),
            source: b.source.as_str().to_owned(),
            account_name: b.account_name.clone(),
            user_name: b.data_sheet.as_ref().and_then(|d| d.uploader.clone()),
            filename: b.data_sheet.as_ref().map(|d| d.filename.clone()),
            created_at: rfc3339(b.created_at),
            success_count: b.batch_error.is_none().then_some(b.success_count).flatten(),
            failed_count: b.batch_error.is_none().then_some(b.failed_count).flatten(),
            batch_error: b.batch_error.clone(),
        }
    }
}

paginated! {
    /// The client's `PaginatedShipmentBatches`, most recent first.
    PaginatedShipmentBatchesBody of ShipmentBatchSummaryResponse
}

/// A row's outcome: `ShipmentBatchRowSuccess` or `ShipmentBatchRowFailure`.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = RowResultBody)]
#[serde(untagged)]
pub enum RowResultResponse {
    /// The row became a shipment.
    Success {
        row_index: u32,
        /// `success`.
        status: &'static str,
        /// The shipment's id.
        shipment_id: String,
    },
    /// The row failed: `error` names the field (`legs[1].method.fuel: …`).
    Failed {
        row_index: u32,
        /// `failed`.
        status: &'static str,
        error: String,
    },
}

/// The client's `ShipmentBatch`: `PendingShipmentBatch`,
/// `ProcessingShipmentBatch`, `ProcessedShipmentBatchWithError` or
/// `ProcessedShipmentBatchWithResults`.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = ShipmentBatchBody)]
#[serde(untagged)]
pub enum ShipmentBatchResponse {
    /// Pending or processing.
    Waiting {
        id: String,
        /// `pending` or `processing`.
        status: &'static str,
        source: &'static str,
    },
    /// Processed, no row processed.
    ProcessedWithError {
        id: String,
        /// `processed`.
        status: &'static str,
        source: &'static str,
        batch_error: String,
    },
    /// Processed, with every row's outcome in upload order.
    ProcessedWithResults {
        id: String,
        /// `processed`.
        status: &'static str,
        source: &'static str,
        success_count: u32,
        failed_count: u32,
        results: Vec<RowResultResponse>,
    },
}

fn count(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

impl ShipmentBatchResponse {
    pub fn of(d: &BatchDetail) -> Self {
        let b = &d.batch;
        let id = b.id.to_string();
        let source = b.source.as_str();
        match (b.status, &b.batch_error) {
            (BatchStatus::Pending | BatchStatus::Processing, _) => Self::Waiting {
                id,
                status: b.status.as_str(),
                source,
            },
            (BatchStatus::Processed, Some(error)) => Self::ProcessedWithError {
                id,
                status: "processed",
                source,
                batch_error: error.clone(),
            },
            (BatchStatus::Processed, None) => {
                let mut results: Vec<_> = d.results.iter().collect();
                results.sort_by_key(|r| r.row_index);
                let ok = results
                    .iter()
                    .filter(|r| matches!(r.outcome, RowOutcome::Success(_)))
                    .count();
                Self::ProcessedWithResults {
                    id,
                    status: "processed",
                    source,
                    success_count: b.success_count.unwrap_or(count(ok)),
                    failed_count: b
                        .failed_count
                        .unwrap_or(count(results.len().saturating_sub(ok))),
                    results: results
                        .into_iter()
                        .map(|r| match &r.outcome {
                            RowOutcome::Success(s) => RowResultResponse::Success {
                                row_index: r.row_index,
                                status: "success",
                                shipment_id: s.to_string(),
                            },
                            RowOutcome::Failed(e) => RowResultResponse::Failed {
                                row_index: r.row_index,
                                status: "failed",
                                error: e.clone(),
                            },
                        })
                        .collect(),
                }
            }
        }
    }
}

/// `total` of a shipments page.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = TotalBody)]
pub struct TotalResponse {
    all: u64,
    with_co2e: u64,
    without_co2e: u64,
}

/// The client's `PaginatedShipments`.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = PaginatedShipmentsBody)]
pub struct PaginatedShipmentsResponse {
    /// Whether more follow.
    has_more: bool,
    /// Pass as `after` to get the next page; null on the last page.
    next_cursor: Option<String>,
    /// The page, most recent first.
    data: Vec<ShipmentResponse>,
    /// The filter's counts with `include_totals=true`, else null.
    total: Option<TotalResponse>,
}

impl PaginatedShipmentsResponse {
    pub fn of(page: &Page<tonne_shipments::Shipment>, counts: Option<ShipmentCounts>) -> Self {
        Self {
            has_more: page.has_more,
            next_cursor: page.last_if_more().map(|s| s.id.to_string()),
            data: page
                .items
                .iter()
                .map(tonne_wire::shipments::render::render)
                .collect(),
            total: counts.map(|c| TotalResponse {
                all: c.all,
                with_co2e: c.with_co2e,
                without_co2e: c.without_co2e,
            }),
        }
    }
}

/// A query string's pairs, read once.
pub struct Query(Vec<(String, String)>);

impl Query {
    pub fn of(req: &HttpRequest) -> Result<Self, ApiError> {
        serde_urlencoded::from_str(req.query_string())
            .map(Self)
            .map_err(|e| ApiError::validation("query", e))
    }

    /// Every value of an array parameter (`key=a&key=b`, or `key[]=a`).
    pub fn all(&self, key: &str) -> Vec<&str> {
        let bracketed = format!("{key}[]");
        self.0
            .iter()
            .filter(|(k, _)| k == key || *k == bracketed)
            .map(|(_, v)| v.as_str())
            .filter(|v| !v.is_empty())
            .collect()
    }

    /// A scalar parameter (its first value; empty is absent).
    pub fn one(&self, key: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
            .filter(|v| !v.is_empty())
    }

    /// `true` or `false`.
    pub fn flag(&self, key: &str) -> Result<Option<bool>, ApiError> {
        self.one(key)
            .map(|v| match v {
                "true" => Ok(true),
                "false" => Ok(false),
                _ => Err(ApiError::validation(key, "must be true or false")),
            })
            .transpose()
    }

    /// `limit` and `after` as a page of items with ids `I`.
    pub fn page<I: std::str::FromStr>(&self) -> Result<PageRequest<I>, ApiError> {
        let limit = match self.one("limit") {
            None => Limit::default(),
            Some(raw) => parse_limit(raw)?,
        };
        let after = self
            .one("after")
            .map(|raw| {
                raw.parse::<I>().map_err(|_| {
                    ApiError::validation(
                        "after",
                        "not a cursor: expected the next_cursor of the previous page",
                    )
                })
            })
            .transpose()?;
        Ok(PageRequest { limit, after })
    }

    /// `source` of the batch list.
    pub fn sources(&self) -> Result<Vec<BatchSource>, ApiError> {
        self.all("source")
            .into_iter()
            .map(|s| {
                BatchSource::parse(s).ok_or_else(|| {
                    ApiError::validation("source", format!("'{s}' is not one of: api, data_sheet"))
                })
            })
            .collect()
    }

    fn ids<I: std::str::FromStr>(&self, key: &str) -> Result<Vec<I>, ApiError> {
        self.all(key)
            .into_iter()
            .map(|s| {
                s.parse::<I>()
                    .map_err(|_| ApiError::validation(key, format!("'{s}' is not an id")))
            })
            .collect()
    }

    pub(super) fn date(&self, key: &str) -> Result<Option<Date>, ApiError> {
        self.one(key)
            .map(|s| {
                Date::parse(s, format_description!("[year]-[month]-[day]"))
                    .map_err(|_| ApiError::validation(key, "must be a date (YYYY-MM-DD)"))
            })
            .transpose()
    }

    fn modes(&self, key: &str) -> Result<ModeSet, ApiError> {
        let modes = self
            .all(key)
            .into_iter()
            .map(|s| {
                TransportMode::parse(s).ok_or_else(|| {
                    ApiError::validation(
                        key,
                        format!("'{s}' is not one of: road, sea, air, rail, inland_waterway"),
                    )
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(ModeSet::of(&modes))
    }

    /// The filters of `listShipments` and `calculateShipments`.
    pub fn filter(&self) -> Result<ShipmentFilter, ApiError> {
        let date_from = self.date("shipment_date_from")?;
        let date_to = self.date("shipment_date_to")?;
        if let (Some(from), Some(to)) = (date_from, date_to)
            && from > to
        {
            return Err(ApiError::validation(
                "shipment_date_from",
                "is later than shipment_date_to",
            ));
        }
        Ok(ShipmentFilter {
            date_from,
            date_to,
            ..self.filter_without_dates()?
        })
    }

    /// The list's filters but its dates (the report names its period).
    pub fn filter_without_dates(&self) -> Result<ShipmentFilter, ApiError> {
        let (date_from, date_to) = (None, None);
        let emissions = match self.one("emissions") {
            None | Some("all") => EmissionsFilter::All,
            Some("with_co2e") => EmissionsFilter::WithCo2e,
            Some("without_co2e") => EmissionsFilter::WithoutCo2e,
            Some(other) => {
                return Err(ApiError::validation(
                    "emissions",
                    format!("'{other}' is not one of: all, with_co2e, without_co2e"),
                ));
            }
        };
        Ok(ShipmentFilter {
            search: self.one("search").map(str::to_owned),
            date_from,
            date_to,
            modes: [
                self.modes("pre_carriage_mot")?,
                self.modes("main_carriage_mot")?,
                self.modes("post_carriage_mot")?,
            ],
            supplier_ids: self
                .all("supplier_id")
                .into_iter()
                .map(str::to_owned)
                .collect(),
            shipper_ids: self
                .all("shipper_id")
                .into_iter()
                .map(str::to_owned)
                .collect(),
            batch_ids: self.ids::<ShipmentBatchId>("shipment_batch_id")?,
            data_sheet_ids: self.ids::<DataSheetId>("data_sheet_id")?,
            ids: self.ids::<ShipmentId>("id")?,
            flagged: self.flag("flagged")?,
            emissions,
        })
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use actix_web::test::TestRequest;

    use super::*;

    fn query(q: &str) -> Query {
        Query::of(
            &TestRequest::get()
                .uri(&format!("/v1/shipments?{q}"))
                .to_http_request(),
        )
        .unwrap()
    }

    #[test]
    fn arrays_come_as_repeated_keys_or_brackets() {
        let f = query("main_carriage_mot=sea&main_carriage_mot=rail&pre_carriage_mot[]=road&supplier_id=a&supplier_id=b")
            .filter()
            .unwrap();
        assert_eq!(
            f.modes[1],
            ModeSet::of(&[TransportMode::Sea, TransportMode::Rail])
        );
        assert_eq!(f.modes[0], ModeSet::of(&[TransportMode::Road]));
        assert!(f.modes[2].is_empty());
        assert_eq!(f.supplier_ids, vec!["a", "b"]);
    }

    #[test]
    fn every_filter_is_read() {
        let id = ShipmentId::from_uuid(uuid::Uuid::from_u128(1));
        let f = query(&format!(
            "search=PO&shipment_date_from=2026-01-01&shipment_date_to=2026-02-01&post_carriage_mot=air&flagged=true&emissions=with_co2e&id={id}&shipper_id=s"
        ))
        .filter()
        .unwrap();
        assert_eq!(f.search.as_deref(), Some("PO"));
        assert_eq!(f.date_to.unwrap().to_string(), "2026-02-01");
        assert_eq!(f.modes[2], ModeSet::of(&[TransportMode::Air]));
        assert_eq!(f.flagged, Some(true));
        assert_eq!(f.emissions, EmissionsFilter::WithCo2e);
        assert_eq!(f.ids, vec![id]);
        assert_eq!(f.shipper_ids, vec!["s"]);
    }

    #[test]
    fn bad_filters_name_their_parameter() {
        for (q, field) in [
            ("main_carriage_mot=boat", "main_carriage_mot"),
            ("shipment_date_from=01-01-2026", "shipment_date_from"),
            (
                "shipment_date_from=2026-02-01&shipment_date_to=2026-01-01",
                "shipment_date_from",
            ),
            ("flagged=yes", "flagged"),
            ("emissions=some", "emissions"),
            ("shipment_batch_id=nope", "shipment_batch_id"),
        ] {
            let e = query(q).filter().unwrap_err();
            assert!(e.to_string().contains(&format!("{field}:")), "{q}: {e}");
        }
        assert!(query("source=csv").sources().is_err());
        assert_eq!(
            query("source=api&source[]=data_sheet").sources().unwrap(),
            vec![BatchSource::Api, BatchSource::DataSheet]
        );
        assert!(query("after=xyz").page::<ShipmentId>().is_err());
        assert!(query("limit=500").page::<ShipmentId>().is_err());
    }
}
