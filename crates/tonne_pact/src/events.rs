//! `POST /pact/2/events`: the asynchronous events a data recipient or
//! owner sends. Each is checked whole (the envelope, the type, its data)
//! and acknowledged with 200; a malformed one is 400 `BadRequest` and
//! nothing is done. Tonne serves footprints and asks for none, so of the
//! four types it accepts a footprint request (`…Request.Created.v1`: its
//! product ids must be URNs) and a publication (`…Published.v1`: its ids
//! must be UUIDs); the answers to a request (`…Fulfilled`, `…Rejected`) are
//! refused, as Tonne never asked. A request whose `source` is a partner the
//! account registered is stored and answered by a job
//! ([`crate::answers`]); from anywhere else it is acknowledged, never
//! answered (Tonne calls no address a requester merely names).

use actix_web::{HttpRequest, HttpResponse, web};
use serde_json::Value;
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use tonne_accounts::pact::partners::Received;

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

/// Checks an event whole; a request's product ids (none for other types).
fn check(event: &Event) -> Result<Vec<String>, PactError> {
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
            Ok(Vec::new())
        }
        REQUEST_CREATED => product_ids(event),
        REQUEST_FULFILLED | REQUEST_REJECTED => Err(PactError::bad_request(
            "Tonne asks no one for footprints: there is no request to answer",
        )),
        _ => Err(PactError::bad_request("unknown event type")),
    }
}

/// A request's product ids (none when its fragment names none).
fn product_ids(event: &Event) -> Result<Vec<String>, PactError> {
    let pf = event
        .data
        .as_ref()
        .and_then(|d| d.get("pf"))
        .filter(|pf| pf.is_object())
        .ok_or_else(|| PactError::bad_request("data.pf must be an object"))?;
    let mut out = Vec::new();
    if let Some(ids) = pf.get("productIds") {
        for id in strings(Some(ids), "data.pf.productIds")? {
            if !id.to_ascii_lowercase().starts_with("urn:") {
                return Err(PactError::bad_request("data.pf.productIds must hold URNs"));
            }
            out.push(id.to_owned());
        }
    }
    Ok(out)
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
    let ids = check(&event)?;
    tracing::info!(
        account_id = %account,
        event_type = %event.kind,
        "PACT event received"
    );
    let mut message = "The event was received";
    if event.kind == REQUEST_CREATED {
        let received = state
            .partners
            .receive(account, &event.source, &event.id, ids)
            .await
            .map_err(|e| PactError::internal(&e))?;
        message = match received {
            Received::Queued(_) => {
                "The request was received; its answer will be sent to the source's events endpoint"
            }
            Received::Repeated => "The request was received before; its answer is sent once",
            Received::NoPartner => {
                "The event was received; its source is not a partner of this account, so no answer will be sent"
            }
            Received::TooMany => {
                return Err(PactError::too_many(
                    "too many requests of this account wait for their answer; send it again later",
                ));
            }
        };
    }
    Ok(HttpResponse::Ok().json(serde_json::json!({
        "code": "Ok",
        "message": message
    })))
}
