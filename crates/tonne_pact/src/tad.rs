//! iLEAP's `GET /2/ileap/tad`: the account's transport legs as transport
//! activity data, newest shipment first, a page at a time with a `Link` to
//! the next; `mode` narrows them to one mode.

use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, web};
use serde::Serialize;
use tonne_shipments::{ReadError, ShipmentId, ShipmentLines, TransportMode};

use crate::auth::account;
use crate::error::PactError;
use crate::state::PactState;
use crate::wire::tad::{Tad, mode_name, tads};

/// TADs per page when the client names no `limit`.
const DEFAULT_LIMIT: usize = 100;
/// The largest `limit`.
const MAX_LIMIT: usize = 1_000;
/// Shipments read from storage at a time.
const READ_PAGE: u32 = 100;
/// The most shipments one request examines (a `mode` that few legs have
/// ends a page early, with a `Link` onwards).
const SCAN_CAP: usize = 5_000;

#[derive(Serialize)]
struct Many {
    data: Vec<Tad>,
}

/// Where a page starts: after this shipment's leg (0-based), or after the
/// whole shipment.
#[derive(Clone, Copy)]
struct Cursor {
    shipment: ShipmentId,
    leg: Option<usize>,
}

impl Cursor {
    fn parse(text: &str) -> Option<Self> {
        let (id, leg) = match text.split_once('.') {
            Some((id, leg)) => (id, Some(leg.parse().ok()?)),
            None => (text, None),
        };
        let shipment = ShipmentId::from_uuid(uuid::Uuid::try_parse(id).ok()?);
        Some(Self { shipment, leg })
    }

    fn text(self) -> String {
        let id = self.shipment.as_uuid().hyphenated().to_string();
        match self.leg {
            Some(leg) => format!("{id}.{leg}"),
            None => id,
        }
    }
}

struct Query {
    limit: usize,
    mode: Option<&'static str>,
    after: Option<Cursor>,
}

fn query(req: &HttpRequest) -> Result<Query, PactError> {
    let pairs: Vec<(String, String)> = serde_urlencoded::from_str(req.query_string())
        .map_err(|_| PactError::bad_request("the query string is not valid"))?;
    let mut q = Query {
        limit: DEFAULT_LIMIT,
        mode: None,
        after: None,
    };
    for (name, value) in pairs {
        match name.as_str() {
            "limit" => {
                q.limit = value
                    .parse::<usize>()
                    .ok()
                    .filter(|n| (1..=MAX_LIMIT).contains(n))
                    .ok_or_else(|| {
                        PactError::bad_request(format!("limit must be 1 to {MAX_LIMIT}"))
                    })?;
            }
            "mode" => {
                let modes = TransportMode::ALL.map(mode_name);
                q.mode = Some(
                    modes
                        .into_iter()
                        .find(|m| m.eq_ignore_ascii_case(&value))
                        .ok_or_else(|| {
                            PactError::bad_request(format!("mode must be one of {modes:?}"))
                        })?,
                );
            }
            "after" => {
                q.after = Some(Cursor::parse(&value).ok_or_else(|| {
                    PactError::bad_request("after must be a cursor from a Link header")
                })?);
            }
            other => {
                return Err(PactError::bad_request(format!(
                    "{other} is not a filter of this endpoint (limit, mode, after)"
                )));
            }
        }
    }
    Ok(q)
}

/// Appends a shipment's TADs from leg `from` on; `true` once the page is full
/// (the cursor then names the last leg taken).
fn take(
    item: &ShipmentLines,
    from: usize,
    q: &Query,
    data: &mut Vec<Tad>,
    cursor: &mut Option<Cursor>,
) -> bool {
    *cursor = Some(Cursor {
        shipment: item.shipment.id,
        leg: None,
    });
    for (leg, tad) in tads(item, from) {
        if q.mode.is_some_and(|m| m != tad.mode) {
            continue;
        }
        data.push(tad);
        if data.len() == q.limit {
            *cursor = Some(Cursor {
                shipment: item.shipment.id,
                leg: Some(leg),
            });
            return true;
        }
    }
    false
}

pub(crate) async fn list(
    req: HttpRequest,
    state: web::Data<PactState>,
) -> Result<HttpResponse, PactError> {
    let account = account(&req, &state).await?;
    let q = query(&req)?;
    let mut data = Vec::with_capacity(q.limit.min(100));
    let mut cursor = None;
    let mut full = false;
    // a page that ended inside a shipment goes on with its next leg
    if let Some(Cursor {
        shipment,
        leg: Some(leg),
    }) = q.after
    {
        match state.shipments.shipment_lines(account, shipment).await {
            Ok(item) => full = take(&item, leg + 1, &q, &mut data, &mut cursor),
            Err(ReadError::NotFound) => {}
            Err(ReadError::Store(e)) => return Err(PactError::internal(&e)),
        }
    }
    let mut after = q.after.map(|c| c.shipment);
    let mut examined = 0_usize;
    let mut more = full;
    while !full && examined < SCAN_CAP {
        let page = state
            .shipments
            .calculated_after(account, after, READ_PAGE)
            .await
            .map_err(|e| PactError::internal(&e))?;
        let short = page.len() < usize::try_from(READ_PAGE).unwrap_or(usize::MAX);
        for item in &page {
            examined += 1;
            after = Some(item.shipment.id);
            if take(item, 0, &q, &mut data, &mut cursor) {
                full = true;
                break;
            }
        }
        more = !short || full;
        if short {
            break;
        }
    }
    let mut res = HttpResponse::Ok();
    if more && let Some(last) = cursor {
        let mut pairs = vec![("limit", q.limit.to_string()), ("after", last.text())];
        if let Some(mode) = q.mode {
            pairs.push(("mode", mode.to_owned()));
        }
        let next = serde_urlencoded::to_string(pairs).unwrap_or_default();
        res.insert_header((
            header::LINK,
            format!(
                "<{}/pact/2/ileap/tad?{next}>; rel=\"next\"",
                state.public_url
            ),
        ));
    }
    Ok(res.json(Many { data }))
}
