//! Shipment data sheets (a Tonne extension: the hosted API takes
//! spreadsheets only through its dashboard): `POST /v1/shipments/data-sheets`
//! uploads a CSV file as a shipment batch (source `data_sheet`), and
//! `GET /v1/shipments/data-sheets/template.csv` is the documented template.
//! The format is `tonne_wire::data_sheet`'s; see docs/API.md, "Shipment
//! data sheets".

mod wire;
pub use wire::*;

use actix_multipart::Multipart;
use actix_web::http::{StatusCode, header};
use actix_web::{HttpRequest, HttpResponse, web};
use tonne_shipments::{BatchSource, Owner, Upload, UploadError};
use tonne_wire::data_sheet::Problem;

use crate::data_sheets;
use crate::error::{ApiError, codes};
use crate::extract::{Authenticated, is_multipart};
use crate::state::AppState;
use crate::wire::{ErrorsResponse, KeyErrors};

/// The form's fields besides `file`.
const FIELDS: &[&str] = &["contact_id", "idempotency_key", "calculate_emissions"];

fn refused(problems: &[Problem]) -> HttpResponse {
    let message = match problems {
        [one] => format!("the data sheet has a problem: {one}"),
        _ => format!(
            "the data sheet has {} problems; nothing was uploaded",
            problems.len()
        ),
    };
    let item = SheetError {
        error_code: codes::VALIDATION_ERROR,
        message: &message,
        errors: problems,
    };
    HttpResponse::BadRequest().json(SheetErrors {
        error: item,
        errors: [item],
    })
}

fn too_large() -> ApiError {
    ApiError::new(
        StatusCode::PAYLOAD_TOO_LARGE,
        codes::PAYLOAD_TOO_LARGE,
        "a data sheet has at most 8 MiB",
    )
}

/// Uploads a CSV data sheet as a shipment batch (a Tonne extension): one
/// line per leg, consecutive lines of a `shipment_id` one shipment; the
/// batch's source is `data_sheet`. A refused file stores nothing and lists
/// every problem by line and column.
#[utoipa::path(post, path = "/v1/shipments/data-sheets", tag = "Shipments", operation_id = "uploadShipmentDataSheet",
    security(("BearerAuth" = [])), request_body(content = DataSheetUpload, content_type = "multipart/form-data"),
    responses((status = 200, description = "The batch", body = DataSheetBatch), (status = 400, description = "The file's problems, each with its line and column (validation_error), or a bad form field", body = DataSheetErrorsResponse), (status = 409, description = "The idempotency key was used (shipment_batch_idempotency_already_exists)", body = ErrorsResponse), (status = 413, description = "More than 8 MiB", body = ErrorsResponse), (status = 415, description = "Not multipart/form-data", body = ErrorsResponse), KeyErrors))]
pub async fn upload(
    state: web::Data<AppState>,
    who: Authenticated,
    req: HttpRequest,
    body: Multipart,
) -> Result<HttpResponse, ApiError> {
    if !is_multipart(&req) {
        return Err(ApiError::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            codes::UNSUPPORTED_MEDIA_TYPE,
            "Content-Type: the body must be multipart/form-data with a `file` part",
        ));
    }
    if data_sheets::declared_too_large(&req) {
        return Err(too_large());
    }
    let form = data_sheets::read_form(body).await;
    if let Some(problem) = &form.problem {
        if problem.too_large {
            return Err(too_large());
        }
        return Err(ApiError::validation(&problem.field, &problem.message));
    }
    if let Some(unknown) = form.fields.keys().find(|k| !FIELDS.contains(&k.as_str())) {
        return Err(ApiError::validation(
            unknown,
            "unknown form field; the fields are file, contact_id, idempotency_key and calculate_emissions",
        ));
    }
    let calculate = match form.field("calculate_emissions") {
        None | Some("false") => false,
        Some("true") => true,
        Some(_) => {
            return Err(ApiError::validation(
                "calculate_emissions",
                "must be true or false",
            ));
        }
    };
    let Some((filename, bytes)) = &form.file else {
        return Err(ApiError::validation("file", "a `file` part is required"));
    };
    let sheet = match data_sheets::rows(bytes) {
        Ok(sheet) => sheet,
        Err(problems) => return Ok(refused(&problems)),
    };
    let account = state.accounts.me(&who.0).await?;
    let owner = Owner {
        account_id: who.account_id(),
        account_name: account.name.as_str().to_owned(),
    };
    let text = |name: &str| form.field(name).map(str::to_owned);
    let upload = Upload {
        rows: sheet.rows(),
        contact_id: text("contact_id"),
        idempotency_key: text("idempotency_key"),
        calculate,
        source: BatchSource::DataSheet,
        data_sheet: Some((filename.clone(), Some(owner.account_name.clone()))),
    };
    match state.shipments.upload(&owner, upload).await {
        Ok(id) => Ok(HttpResponse::Ok().json(DataSheetBatch { id: id.to_string() })),
        Err(UploadError::Size(m)) => Err(ApiError::validation("file", m)),
        Err(UploadError::Invalid { field, message }) => Err(ApiError::validation(&field, message)),
        Err(UploadError::IdempotencyKeyUsed) => Err(ApiError::new(
            StatusCode::CONFLICT,
            "shipment_batch_idempotency_already_exists",
            "a shipment batch with this idempotency key already exists",
        )),
        Err(UploadError::Quota(e)) => Err(e.into()),
        Err(UploadError::Store(e)) => Err(match e {
            tonne_kernel::StoreError::Unexpected(cause) => ApiError::internal(&cause),
            other => ApiError::internal(&anyhow::anyhow!(other)),
        }),
    }
}

/// The documented data-sheet template (a Tonne extension).
#[utoipa::path(get, path = "/v1/shipments/data-sheets/template.csv", tag = "Shipments", operation_id = "getShipmentDataSheetTemplate",
    security(("BearerAuth" = [])),
    responses((status = 200, description = "The template", content_type = "text/csv", body = String), KeyErrors))]
pub async fn template(_who: Authenticated) -> HttpResponse {
    HttpResponse::Ok()
        .content_type("text/csv; charset=utf-8")
        .insert_header((
            header::CONTENT_DISPOSITION,
            "attachment; filename=\"tonne-shipments-template.csv\"",
        ))
        .body(tonne_wire::data_sheet::TEMPLATE)
}

/// Registers the routes (before `/shipments/{id}`, whose pattern would take
/// `data-sheets`).
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(web::resource("/shipments/data-sheets").route(web::post().to(upload)))
        .service(
            web::resource("/shipments/data-sheets/template.csv").route(web::get().to(template)),
        );
}
