//! ListFootprints and GetFootprint: the account's calculated shipments as
//! PACT footprints, newest first, a page at a time with a `Link` to the next.

use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, web};
use serde::Serialize;
use time::Duration;
use tonne_shipments::{ReadError, ShipmentId};

use crate::auth::account;
use crate::error::PactError;
use crate::filter::Filter;
use crate::state::PactState;
use crate::wire::footprint::{ProductFootprint, company_id_of, product_footprint, product_id_of};

/// Footprints per page when the client names no `limit`.
const DEFAULT_LIMIT: u32 = 100;
/// The largest `limit`.
const MAX_LIMIT: u32 = 1_000;
/// Shipments read from storage at a time.
const READ_PAGE: u32 = 200;
/// The most shipments one request examines: a filter that passes few ends
/// a page early, with a `Link` onwards, rather than walk every shipment.
const SCAN_CAP: usize = 5_000;

#[derive(Serialize)]
struct Many {
    data: Vec<ProductFootprint>,
}

#[derive(Serialize)]
struct One {
    data: ProductFootprint,
}

struct ListQuery {
    limit: u32,
    filter: Filter,
    filter_text: Option<String>,
    after: Option<ShipmentId>,
}

/// A footprint id (a hyphenated UUID, as PACT writes them) as the shipment's.
fn footprint_id(text: &str) -> Option<ShipmentId> {
    uuid::Uuid::try_parse(text).ok().map(ShipmentId::from_uuid)
}

fn list_query(req: &HttpRequest) -> Result<ListQuery, PactError> {
    let pairs: Vec<(String, String)> = serde_urlencoded::from_str(req.query_string())
        .map_err(|_| PactError::bad_request("the query string is not valid"))?;
    let mut query = ListQuery {
        limit: DEFAULT_LIMIT,
        filter: Filter::default(),
        filter_text: None,
        after: None,
    };
    for (name, value) in pairs {
        match name.as_str() {
            "limit" => {
                query.limit = value
                    .parse::<u32>()
                    .ok()
                    .filter(|n| (1..=MAX_LIMIT).contains(n))
                    .ok_or_else(|| {
                        PactError::bad_request(format!("limit must be 1 to {MAX_LIMIT}"))
                    })?;
            }
            "$filter" => {
                query.filter = Filter::parse(&value).map_err(PactError::bad_request)?;
                query.filter_text = Some(value);
            }
            "after" => {
                query.after = Some(footprint_id(&value).ok_or_else(|| {
                    PactError::bad_request("after must be a footprint id from a Link header")
                })?);
            }
            _ => {}
        }
    }
    Ok(query)
}

pub(crate) async fn list(
    req: HttpRequest,
    state: web::Data<PactState>,
) -> Result<HttpResponse, PactError> {
    let account = account(&req, &state).await?;
    let query = list_query(&req)?;
    let wanted = usize::try_from(query.limit).unwrap_or(usize::MAX);
    // UUIDv7 ids follow creation: below the filter's floor (less a second
    // for ids made just before their shipment's time) nothing more passes
    let floor = query.filter.created_floor().map(|at| at - Duration::SECOND);
    let mut data = Vec::with_capacity(wanted.min(100));
    let mut cursor = query.after;
    let mut examined = 0_usize;
    let mut more = true;
    'walk: while data.len() < wanted && examined < SCAN_CAP {
        let page = state
            .shipments
            .calculated_after(account, cursor, READ_PAGE)
            .await
            .map_err(|e| PactError::internal(&e))?;
        let page_len = page.len();
        let short = page_len < usize::try_from(READ_PAGE).unwrap_or(usize::MAX);
        for (i, item) in page.into_iter().enumerate() {
            examined += 1;
            cursor = Some(item.shipment.id);
            if floor.is_some_and(|f| item.shipment.created_at < f) {
                more = false;
                break 'walk;
            }
            // the ids a filter compares are written only when there is one
            let passes = query.filter.0.is_empty()
                || query.filter.accepts(
                    item.shipment.created_at,
                    &product_id_of(&item),
                    &company_id_of(&item),
                );
            if passes && let Some(footprint) = product_footprint(&item) {
                data.push(footprint);
                if data.len() == wanted {
                    // the last of a short read: nothing follows
                    more = !(short && i + 1 == page_len);
                    break 'walk;
                }
            }
        }
        if short {
            more = false;
            break;
        }
    }
    let mut res = HttpResponse::Ok();
    if more && let Some(last) = cursor {
        let mut pairs = vec![
            ("limit", query.limit.to_string()),
            ("after", last.as_uuid().hyphenated().to_string()),
        ];
        if let Some(text) = query.filter_text {
            pairs.push(("$filter", text));
        }
        let next = serde_urlencoded::to_string(pairs).unwrap_or_default();
        res.insert_header((
            header::LINK,
            format!(
                "<{}/pact/2/footprints?{next}>; rel=\"next\"",
                state.public_url
            ),
        ));
    }
    Ok(res.json(Many { data }))
}

pub(crate) async fn get(
    req: HttpRequest,
    id: web::Path<String>,
    state: web::Data<PactState>,
) -> Result<HttpResponse, PactError> {
    let account = account(&req, &state).await?;
    let id = footprint_id(&id)
        .ok_or_else(|| PactError::bad_request("the footprint id must be a UUID"))?;
    let item = match state.shipments.shipment_lines(account, id).await {
        Ok(item) => item,
        Err(ReadError::NotFound) => return Err(PactError::no_such_footprint()),
        Err(ReadError::Store(e)) => return Err(PactError::internal(&e)),
    };
    let data = product_footprint(&item).ok_or_else(PactError::no_such_footprint)?;
    Ok(HttpResponse::Ok().json(One { data }))
}
