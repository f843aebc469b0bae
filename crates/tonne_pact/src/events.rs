//! `POST /pact/2/events`: the asynchronous events a data recipient or
//! owner sends. Each is checked whole (the envelope, the type, its data)
//! and acknowledged with 200; a malformed one is 400 `BadRequest` and
//! nothing is done. Tonne serves footprints and asks for none, so of the
//! four types it accepts a footprint request (`…Request.Created.v1`: its
//! product ids must be URNs) and a publication (`…Published.v1`: its ids
//! must be UUIDs); the answers to a request (`…Fulfilled`, `…Rejected`) are
//! refused, as Tonne never asked.

use actix_web::{HttpRequest, HttpResponse, web};
use serde_json::Value;
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use crate::auth::account;
use crate::error::PactError;
use crate::state::PactState;
use crate::wire::events::{Event, PUBLISHED, REQUEST_CREATED, REQUEST_FULFILLED, REQUEST_REJECTED};

/// The most ids an event may name.
const MAX_IDS: usize = 1_000;

fn strings<'a>(value: Option<&'a Value>, what: &str) -> Result<Vec<&'a str>, PactError> {
    let list = value
        .and_then(Value::as_array)
        .filter(|l| !l.is_empty() && l.len() <= MAX_IDS)
        .ok_or_else(|| {
            PactError::bad_request(format!("{what} must be a list of 1 to {MAX_IDS} strings"))
        })?;
    list.iter()
        .map(|v| {
            v.as_str()
                .ok_or_else(|| PactError::bad_request(format!("{what} must hold strings")))
        })
        .collect()
}

fn check(event: &Event) -> Result<(), PactError> {
    if event.specversion != "1.0" {
        return Err(PactError::bad_request("specversion must be \"1.0\""));
    }
    if event.id.trim().is_empty() || event.source.trim().is_empty() {
        return Err(PactError::bad_request("id and source must not be empty"));
    }
    if let Some(time) = &event.time
        && OffsetDateTime::parse(time, &Rfc3339).is_err()
    {
        return Err(PactError::bad_request("time must be an RFC 3339 date-time"));
    }
    let data = event.data.as_ref();
    match event.kind.as_str() {
        PUBLISHED => {
            for id in strings(data.and_then(|d| d.get("pfIds")), "data.pfIds")? {
                if uuid::Uuid::try_parse(id).is_err() {
                    return Err(PactError::bad_request(format!(
                        "data.pfIds: `{}` is not a footprint id (a UUID)",
                        id.chars().take(80).collect::<String>()
                    )));
                }
            }
            Ok(())
        }
        REQUEST_CREATED => {
            let pf = data
                .and_then(|d| d.get("pf"))
                .filter(|pf| pf.is_object())
                .ok_or_else(|| PactError::bad_request("data.pf must be an object"))?;
            if let Some(ids) = pf.get("productIds") {
                for id in strings(Some(ids), "data.pf.productIds")? {
                    if !id.to_ascii_lowercase().starts_with("urn:") {
                        return Err(PactError::bad_request("data.pf.productIds must hold URNs"));
                    }
                }
            }
            Ok(())
        }
        REQUEST_FULFILLED | REQUEST_REJECTED => Err(PactError::bad_request(
            "Tonne asks no one for footprints: there is no request to answer",
        )),
        _ => Err(PactError::bad_request("unknown event type")),
    }
}

pub(crate) async fn receive(
    req: HttpRequest,
    body: web::Bytes,
    state: web::Data<PactState>,
) -> Result<HttpResponse, PactError> {
    let account = account(&req, &state).await?;
    let json = req
        .headers()
        .get(actix_web::http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .map(|m| m.trim().to_ascii_lowercase())
        .is_some_and(|m| m == "application/json" || m == "application/cloudevents+json");
    if !json {
        return Err(PactError::bad_request(
            "the body must be application/cloudevents+json (or application/json)",
        ));
    }
    let event: Event = serde_json::from_slice(&body)
        .map_err(|_| PactError::bad_request("the body must be a CloudEvents 1.0 event (JSON)"))?;
    check(&event)?;
    tracing::info!(
        account_id = %account,
        event_type = %event.kind,
        "PACT event received"
    );
    Ok(HttpResponse::Ok().json(serde_json::json!({
        "code": "Ok",
        "message": "The event was received"
    })))
}
