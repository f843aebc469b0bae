//! A member's shipment batches: the list with each batch's row results,
//! one batch, the data-sheet template, and the upload (acts once; CSRF in
//! the form; the file's problems listed by line and column, nothing
//! uploaded).

use crate::ConsoleState;
use actix_multipart::Multipart;
use actix_web::http::StatusCode;
use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, web};
use tonne_http::data_sheets;
use tonne_kernel::{AccountId, AccountMode};
use tonne_shipments::{BatchSource, Owner, ReadError, ShipmentBatchId, Upload, UploadError};

use crate::answers::{not_found, respond, see_other, unavailable};
use crate::error::ConsoleError;
use crate::once::{self, Claim};
use crate::scope::{AccountTarget, MemberAccount, MemberPage, MemberScope, member_account};
use crate::session::{SignedIn, same};
use crate::shipments::page;
use crate::views::{self, SheetProblem, UploadForm};

async fn batches_page(
    state: &ConsoleState,
    scope: &MemberScope,
    after: Option<&str>,
    form: &UploadForm,
    status: StatusCode,
) -> HttpResponse {
    let MemberScope {
        who,
        mode,
        accounts,
        chosen,
    } = scope;
    let Some(account) = *chosen else {
        return respond(
            status,
            views::shipment_batches(who, *mode, accounts, None, &[], None, form),
        );
    };
    let after = after.and_then(|a| a.parse::<ShipmentBatchId>().ok());
    match state.shipments.batches(account, vec![], page(after)).await {
        Ok(found) => {
            let next = found.last_if_more().map(|b| b.id.to_string());
            respond(
                status,
                views::shipment_batches(
                    who,
                    *mode,
                    accounts,
                    Some(account),
                    &found.items,
                    next.as_deref(),
                    form,
                ),
            )
        }
        Err(ReadError::NotFound) => see_other(&format!(
            "/console/shipments/batches?mode={}&account={account}",
            mode.as_str()
        )),
        Err(ReadError::Store(e)) => unavailable(e),
    }
}

fn fresh_form() -> UploadForm {
    UploadForm {
        once: views::once_key(),
        calculate: true,
        problems: Vec::new(),
    }
}

/// `GET /console/shipments/batches`: the account's batches and the upload form.
pub(super) async fn batches(
    state: web::Data<ConsoleState>,
    MemberPage(scope, query): MemberPage,
) -> Result<HttpResponse, ConsoleError> {
    let form = fresh_form();
    Ok(batches_page(
        &state,
        &scope,
        query.after.as_deref(),
        &form,
        StatusCode::OK,
    )
    .await)
}

/// `GET /console/shipments/batches/{id}?mode=…&account=…`.
pub(super) async fn batch(
    state: web::Data<ConsoleState>,
    id: web::Path<String>,
    MemberAccount(MemberScope { who, mode, .. }, account): MemberAccount,
) -> Result<HttpResponse, ConsoleError> {
    let Ok(id) = id.parse::<ShipmentBatchId>() else {
        return Err(ConsoleError::not_found(&who));
    };
    Ok(match state.shipments.batch(account, id).await {
        Ok(detail) => respond(StatusCode::OK, views::shipment_batch(&who, mode, &detail)),
        Err(ReadError::NotFound) => not_found(&who),
        Err(ReadError::Store(e)) => unavailable(e),
    })
}

/// `GET /console/shipments/template.csv`: the documented template.
pub(super) async fn template(_: SignedIn) -> Result<HttpResponse, ConsoleError> {
    Ok(HttpResponse::Ok()
        .content_type("text/csv; charset=utf-8")
        .insert_header((
            header::CONTENT_DISPOSITION,
            "attachment; filename=\"tonne-shipments-template.csv\"",
        ))
        .insert_header((header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .body(tonne_wire::data_sheet::TEMPLATE))
}

fn sheet_problems(problems: Vec<tonne_wire::data_sheet::Problem>) -> Vec<SheetProblem> {
    problems
        .into_iter()
        .map(|p| SheetProblem {
            line: p.line,
            column: p.column,
            message: p.message,
        })
        .collect()
}

fn file_problem(message: impl Into<String>) -> Vec<SheetProblem> {
    vec![SheetProblem {
        line: None,
        column: None,
        message: message.into(),
    }]
}

fn batches_href(mode: AccountMode, account: AccountId) -> String {
    format!(
        "/console/shipments/batches?mode={}&account={account}",
        mode.as_str()
    )
}

/// `POST /console/shipments/batches` (multipart: `csrf`, `once`, `mode`,
/// `account`, `calculate`, `file`): the data sheet becomes a batch, whose
/// page follows (303); or the batches page again (400) with every problem
/// of the file by line and column, nothing uploaded. The session is checked
/// before the body is read, a body declared too large is refused unread
/// (413); the CSRF token, inside the body, is checked before anything else
/// happens.
pub(super) async fn upload(
    state: web::Data<ConsoleState>,
    req: HttpRequest,
    body: Multipart,
    SignedIn(who): SignedIn,
) -> Result<HttpResponse, ConsoleError> {
    if data_sheets::declared_too_large(&req) {
        return Ok(respond(
            StatusCode::PAYLOAD_TOO_LARGE,
            views::message(
                "This file is too large",
                "A data sheet has at most 8 MB. Nothing was uploaded.",
            ),
        ));
    }
    let form = data_sheets::read_form(body).await;
    if !form
        .field("csrf")
        .is_some_and(|c| same(c, &who.session.csrf_token))
    {
        return Err(ConsoleError::Forbidden);
    }
    let target = AccountTarget {
        mode: form.field("mode").map(str::to_owned),
        account: form.field("account").map(str::to_owned),
    };
    let (scope, account) = member_account(&state, who, &target).await?;
    let here = batches_href(scope.mode, account);
    // the same form sent twice uploads once
    let claim = match once::claim(&state, form.field("once")).await? {
        Claim::Repeat => return Ok(see_other(&here)),
        claim => claim,
    };
    let calculate = form.field("calculate") == Some("true");
    let refuse = |problems: Vec<SheetProblem>| UploadForm {
        once: form.field("once").unwrap_or_default().to_owned(),
        calculate,
        problems,
    };
    let sheet = match (&form.problem, &form.file) {
        (Some(p), _) => Err(file_problem(p.to_string())),
        (None, None) => Err(file_problem("choose a file")),
        (None, Some((name, bytes))) => data_sheets::rows(bytes)
            .map(|sheet| (name.clone(), sheet))
            .map_err(sheet_problems),
    };
    let (filename, sheet) = match sheet {
        Ok(found) => found,
        Err(problems) => {
            once::release(&state, &claim).await;
            let shown = refuse(problems);
            return Ok(batches_page(&state, &scope, None, &shown, StatusCode::BAD_REQUEST).await);
        }
    };
    let account_name = scope
        .accounts
        .iter()
        .find(|a| a.id == account)
        .map(|a| a.name.as_str().to_owned())
        .unwrap_or_default();
    let owner = Owner {
        account_id: account,
        account_name,
    };
    let upload = Upload {
        rows: sheet.rows(),
        contact_id: None,
        idempotency_key: None,
        calculate,
        source: BatchSource::DataSheet,
        data_sheet: Some((filename, Some(scope.who.user.email.to_string()))),
    };
    let uploaded = state.shipments.upload(&owner, upload).await;
    if uploaded.is_err() {
        once::release(&state, &claim).await;
    }
    Ok(match uploaded {
        Ok(id) => see_other(&format!(
            "/console/shipments/batches/{id}?mode={}&account={account}",
            scope.mode.as_str()
        )),
        Err(e @ (UploadError::Size(_) | UploadError::Invalid { .. })) => {
            let shown = refuse(file_problem(e.to_string()));
            batches_page(&state, &scope, None, &shown, StatusCode::BAD_REQUEST).await
        }
        // a bound of the account (docs/operations.md "Quotas"), named
        Err(UploadError::Quota(e)) => {
            let status = if e.limit.is_transient() {
                StatusCode::TOO_MANY_REQUESTS
            } else {
                StatusCode::UNPROCESSABLE_ENTITY
            };
            let shown = refuse(file_problem(e.to_string()));
            batches_page(&state, &scope, None, &shown, status).await
        }
        // no idempotency key is sent
        Err(e @ UploadError::IdempotencyKeyUsed) => unavailable(e),
        Err(UploadError::Store(e)) => unavailable(e),
    })
}
