//! The operator's catalogue: every bundle (enabled or not) with its stock, a
//! bundle's page with its projects and stock ledger, changing stock with a
//! reason, and enabling or disabling it. Members get 404.

use actix_multipart::Multipart;
use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use futures_util::StreamExt as _;
use serde::Deserialize;
use std::collections::HashMap;
use tonne_accounts::users::Principal;
use tonne_kernel::{Limit, PageRequest};

use crate::ConsoleState;
use tonne_ordering::{
    BundleEdit, BundleEditError, CatalogueError, StockChange, StockEntryId, StockError, StockReason,
};

use crate::answers::{
    ListQuery, PAGE_SIZE, not_found, page_after, respond, see_other, unavailable,
};
use crate::error::ConsoleError;
use crate::once::{self, Claim};
use crate::session::{Operator, OperatorForm, operator_form, same};
use crate::views;
use crate::views::{EditForm, StockForm};

/// `GET /console/catalogue`.
pub(super) async fn list(
    state: web::Data<ConsoleState>,
    query: web::Query<ListQuery>,
    Operator(who): Operator,
) -> Result<HttpResponse, ConsoleError> {
    Ok(
        match state
            .ordering
            .all_bundles(page_after(query.after.as_deref()))
            .await
        {
            Ok(found) => {
                let next = found.last_if_more().map(|b| b.id.to_string());
                let outcome = views::ImportOutcome::default();
                respond(
                    StatusCode::OK,
                    views::catalogue(&who, &found.items, next.as_deref(), &outcome),
                )
            }
            Err(CatalogueError::NotFound) => see_other("/console/catalogue"),
            Err(e) => unavailable(e),
        },
    )
}

async fn bundle_page(
    state: &ConsoleState,
    who: &Principal,
    id: &str,
    after: Option<&str>,
    form: &StockForm,
    edit: Option<&EditForm>,
    status: StatusCode,
) -> HttpResponse {
    let bundle = match state.ordering.bundle(id).await {
        Ok(b) => b,
        Err(CatalogueError::NotFound | CatalogueError::Invalid { .. }) => return not_found(who),
        Err(e) => return unavailable(e),
    };
    let page = PageRequest {
        limit: Limit::new(PAGE_SIZE).unwrap_or_default(),
        after: after.and_then(|a| a.parse::<StockEntryId>().ok()),
    };
    match state.ordering.stock_ledger(id, page).await {
        Ok(ledger) => {
            let next = ledger.last_if_more().map(|e| e.id.to_string());
            respond(
                status,
                views::bundle(who, &bundle, &ledger.items, next.as_deref(), form, edit),
            )
        }
        Err(StockError::NotFound) => see_other(&format!("/console/catalogue/{id}")),
        Err(e) => unavailable(e),
    }
}

/// `GET /console/catalogue/{id}`.
pub(super) async fn show(
    state: web::Data<ConsoleState>,
    id: web::Path<String>,
    query: web::Query<ListQuery>,
    Operator(who): Operator,
) -> Result<HttpResponse, ConsoleError> {
    let form = StockForm::default();
    Ok(bundle_page(
        &state,
        &who,
        &id,
        query.after.as_deref(),
        &form,
        None,
        StatusCode::OK,
    )
    .await)
}

#[derive(Debug, Default, Deserialize)]
pub(super) struct StockRequest {
    direction: Option<String>,
    quantity: Option<String>,
    reason: Option<String>,
    once: Option<String>,
}

/// `POST /console/catalogue/{id}/stock`: one ledger row, or the form again
/// with the message beside the field (nothing written).
pub(super) async fn stock(
    state: web::Data<ConsoleState>,
    id: web::Path<String>,
    OperatorForm(who, form): OperatorForm<StockRequest>,
) -> Result<HttpResponse, ConsoleError> {
    let here = format!("/console/catalogue/{}", id.as_str());
    // the same form sent twice adds or removes once
    let claim = match once::claim(&state, form.once.as_deref()).await? {
        Claim::Repeat => return Ok(see_other(&here)),
        claim => claim,
    };
    let mut shown = StockForm {
        direction: form.direction.clone().unwrap_or_default(),
        quantity: form.quantity.clone().unwrap_or_default(),
        reason: form.reason.clone().unwrap_or_default(),
        problem: None,
        once: form.once.clone().unwrap_or_default(),
    };
    let parsed = StockChange::parse(&shown.direction, &shown.quantity)
        .and_then(|change| Ok((change, StockReason::parse(&shown.reason)?)));
    let outcome = match parsed {
        Ok((change, reason)) => {
            state
                .ordering
                .adjust_stock(&id, change, reason, &who.actor())
                .await
        }
        Err(e) => Err(e.into()),
    };
    if outcome.is_err() {
        once::release(&state, &claim).await;
    }
    let problem = match outcome {
        Ok(_) => return Ok(see_other(&here)),
        Err(StockError::NotFound) => return Err(ConsoleError::not_found(&who)),
        Err(StockError::Invalid(e)) => {
            let field = match e.field {
                "quantity" => "Quantity",
                "reason" => "Reason",
                _ => "Change",
            };
            format!("{field}: {}.", e.reason)
        }
        Err(StockError::Unlimited) => {
            "This bundle is unlimited: it has no stock to change.".to_owned()
        }
        Err(StockError::Insufficient { available }) => {
            format!("Quantity: only {available} t are available; nothing was removed.")
        }
        Err(e @ StockError::Unexpected(_)) => return Err(ConsoleError::unavailable(e)),
    };
    shown.problem = Some(problem);
    Ok(bundle_page(
        &state,
        &who,
        &id,
        None,
        &shown,
        None,
        StatusCode::BAD_REQUEST,
    )
    .await)
}

#[derive(Debug, Default, Deserialize)]
pub(super) struct StateRequest {
    enabled: Option<String>,
}

/// `POST /console/catalogue/{id}/state`: enables or disables the bundle.
pub(super) async fn set_state(
    state: web::Data<ConsoleState>,
    id: web::Path<String>,
    OperatorForm(who, form): OperatorForm<StateRequest>,
) -> Result<HttpResponse, ConsoleError> {
    let enabled = match form.enabled.as_deref() {
        Some("true") => true,
        Some("false") => false,
        _ => {
            let form = StockForm {
                problem: Some("Choose to enable or to disable the bundle.".into()),
                ..StockForm::default()
            };
            let bad = StatusCode::BAD_REQUEST;
            return Ok(bundle_page(&state, &who, &id, None, &form, None, bad).await);
        }
    };
    Ok(
        match state
            .ordering
            .set_bundle_enabled(&id, enabled, &who.actor())
            .await
        {
            Ok(_) => see_other(&format!("/console/catalogue/{}", id.as_str())),
            Err(CatalogueError::NotFound | CatalogueError::Invalid { .. }) => not_found(&who),
            Err(e) => unavailable(e),
        },
    )
}

/// `POST /console/catalogue/{id}/edit`: the description and the price in each
/// currency the bundle is sold in; the form again, as typed, on error.
pub(super) async fn edit(
    state: web::Data<ConsoleState>,
    req: HttpRequest,
    id: web::Path<String>,
    form: web::Form<HashMap<String, String>>,
) -> Result<HttpResponse, ConsoleError> {
    let field = |name: &str| form.get(name).cloned().unwrap_or_default();
    let who = operator_form(&state, &req, form.get("csrf").map(String::as_str)).await?;
    let current = match state.ordering.bundle(&id).await {
        Ok(view) => view.bundle,
        Err(CatalogueError::NotFound | CatalogueError::Invalid { .. }) => {
            return Err(ConsoleError::not_found(&who));
        }
        Err(e) => return Err(ConsoleError::unavailable(e)),
    };
    let mut typed = EditForm {
        description: field("description"),
        prices: current
            .prices
            .iter()
            .map(|p| {
                let currency = p.unit_price.currency();
                (currency, field(&format!("price_{}", currency.code())))
            })
            .collect(),
        problem: None,
    };
    let prices: Vec<_> = typed.prices.iter().map(|(c, p)| (*c, p.as_str())).collect();
    let outcome = match BundleEdit::parse(&typed.description, &prices) {
        Ok(edit) => state.ordering.edit_bundle(&id, edit, &who.actor()).await,
        Err(e) => Err(e.into()),
    };
    let problem = match outcome {
        Ok(_) => return Ok(see_other(&format!("/console/catalogue/{}", id.as_str()))),
        Err(BundleEditError::NotFound) => return Err(ConsoleError::not_found(&who)),
        Err(BundleEditError::Invalid(e)) => {
            let mut name = e.field.to_owned();
            if let Some(first) = name.get_mut(0..1) {
                first.make_ascii_uppercase();
            }
            format!("{name}: {}.", e.reason)
        }
        Err(e @ BundleEditError::Unexpected(_)) => return Err(ConsoleError::unavailable(e)),
    };
    typed.problem = Some(problem);
    let stock = StockForm::default();
    let bad = StatusCode::BAD_REQUEST;
    Ok(bundle_page(&state, &who, &id, None, &stock, Some(&typed), bad).await)
}

/// Largest catalogue file the console accepts.
const MAX_IMPORT_BYTES: usize = 2 * 1024 * 1024;

/// Largest import request: the file and the form around it.
const MAX_IMPORT_BODY: usize = MAX_IMPORT_BYTES + 64 * 1024;

/// The parts of the import form: its CSRF token (the form's first field), and
/// the file or why it could not be read (a part sent twice included). At most
/// [`MAX_IMPORT_BODY`] bytes are read in all, whatever the parts.
async fn import_parts(mut form: Multipart) -> (String, Result<Vec<u8>, String>) {
    let mut csrf = String::new();
    let mut file = None::<Vec<u8>>;
    let mut seen: Vec<String> = Vec::new();
    let mut read = 0_usize;
    while let Some(field) = form.next().await {
        let Ok(mut field) = field else {
            return (csrf, Err("the upload could not be read".to_owned()));
        };
        let name = field.name().unwrap_or_default().to_owned();
        // a repeated part is refused, never one of the two silently dropped
        if seen.contains(&name) {
            return (csrf, Err(format!("the part {name} is sent more than once")));
        }
        seen.push(name.clone());
        let limit = if name == "file" {
            MAX_IMPORT_BYTES
        } else {
            256
        };
        let mut bytes = Vec::new();
        while let Some(chunk) = field.next().await {
            let Ok(chunk) = chunk else {
                return (csrf, Err("the upload could not be read".to_owned()));
            };
            read = read.saturating_add(chunk.len());
            if bytes.len().saturating_add(chunk.len()) > limit || read > MAX_IMPORT_BODY {
                return (csrf, Err("the file is larger than 2 MB".to_owned()));
            }
            bytes.extend_from_slice(&chunk);
        }
        match name.as_str() {
            "csrf" => csrf = String::from_utf8_lossy(&bytes).into_owned(),
            "file" => file = Some(bytes),
            _ => {}
        }
    }
    (csrf, file.ok_or_else(|| "choose a file".to_owned()))
}

/// Whether the request says its body is larger than an import may be.
fn declared_too_large(req: &HttpRequest) -> bool {
    req.headers()
        .get(actix_web::http::header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok())
        .is_some_and(|length| length > u64::try_from(MAX_IMPORT_BODY).unwrap_or(u64::MAX))
}

/// `POST /console/catalogue/import` (multipart): the whole file checked, then
/// imported in one transaction, or nothing and every problem listed. The
/// session (an operator's) is checked before any of the body is read, a body
/// declared larger than the limit is refused unread (413), and no more than
/// the limit is ever read; the CSRF token, inside the body, is checked after.
pub(super) async fn import(
    state: web::Data<ConsoleState>,
    req: HttpRequest,
    form: Multipart,
    Operator(who): Operator,
) -> Result<HttpResponse, ConsoleError> {
    if declared_too_large(&req) {
        return Ok(respond(
            StatusCode::PAYLOAD_TOO_LARGE,
            views::message(
                "This file is too large",
                "A catalogue file has at most 2 MB. Nothing was imported.",
            ),
        ));
    }
    let (csrf, parts) = import_parts(form).await;
    if !same(&csrf, &who.session.csrf_token) {
        return Err(ConsoleError::Forbidden);
    }
    let outcome = match parts {
        Err(problem) => views::ImportOutcome {
            problems: vec![problem],
            summary: None,
        },
        Ok(bytes) => match std::str::from_utf8(&bytes) {
            Err(_) => views::ImportOutcome {
                problems: vec!["the file is not UTF-8 text".to_owned()],
                summary: None,
            },
            Ok(text) => match tonne_catalogue_file::parse(text, time::OffsetDateTime::now_utc()) {
                Err(errors) => views::ImportOutcome {
                    problems: errors.0,
                    summary: None,
                },
                Ok(catalogue) => {
                    match state
                        .ordering
                        .import_catalogue(catalogue, &who.actor())
                        .await
                    {
                        Ok(summary) => views::ImportOutcome {
                            problems: Vec::new(),
                            summary: Some(summary),
                        },
                        Err(e) => return Err(ConsoleError::unavailable(e)),
                    }
                }
            },
        },
    };
    let status = if outcome.problems.is_empty() {
        StatusCode::OK
    } else {
        StatusCode::BAD_REQUEST
    };
    Ok(match state.ordering.all_bundles(page_after(None)).await {
        Ok(found) => {
            let next = found.last_if_more().map(|b| b.id.to_string());
            respond(
                status,
                views::catalogue(&who, &found.items, next.as_deref(), &outcome),
            )
        }
        Err(e) => unavailable(e),
    })
}
