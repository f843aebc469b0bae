//! Account logos: `POST /v1/accounts/{id}/logo` and
//! `POST /v1/accounts/client/{id}/logo` (multipart upload, re-encoded by Tonne),
//! the public `GET /logos/{id}`, and the `UploadLogoRequest`/`UploadLogoResponse`
//! wire types the upload and the deletion speak.

use actix_multipart::Multipart;
use actix_web::http::StatusCode;
use actix_web::http::header::{self, HeaderValue};
use actix_web::{HttpRequest, HttpResponse, web};
use futures_util::StreamExt as _;
use serde::Serialize;
use tonne_accounts::AccountScope;
use utoipa::{IntoResponses, ToSchema};

use super::responses::NoSuchAccount;
use crate::error::{ApiError, codes};
use crate::extract::{Authenticated, is_multipart};
use crate::logo_image::{self, MAX_LOGO_BYTES};
use crate::state::AppState;
use crate::wire::{ClientKeyForbidden, ErrorsResponse, KeyErrors};

/// The contract's `UploadLogoResponse`.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = UploadLogoResponse)]
pub struct UploadLogoResponse {
    /// The logo's absolute URL (also the account's `logo` from now on); absent
    /// in the answer of a deletion (the account has no logo).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) url: Option<String>,
}

/// The contract's `UploadLogoRequest` (documentation of the multipart form).
#[derive(ToSchema)]
#[schema(as = UploadLogoRequest)]
pub struct UploadLogoRequest {
    /// A PNG or JPEG of at most 1 MiB and 4096×4096 pixels.
    #[schema(value_type = String, format = Binary)]
    pub logo: Vec<u8>,
}

/// What a logo upload may answer about its form besides the account's errors.
#[derive(IntoResponses)]
pub enum LogoUploadErrors {
    /// Not a PNG or JPEG that decodes (unsupported_image_format), too many pixels, or an id of another organisation, mode or kind (id_invalid)
    #[response(status = 400)]
    Invalid(ErrorsResponse),
    /// More than 1 MiB
    #[response(status = 413)]
    TooLarge(ErrorsResponse),
    /// Not multipart/form-data
    #[response(status = 415)]
    NotMultipart(ErrorsResponse),
}

/// Reads the `logo` part of a `multipart/form-data` body, bounded by [`MAX_LOGO_BYTES`].
async fn logo_part(req: &HttpRequest, mut form: Multipart) -> Result<Vec<u8>, ApiError> {
    if !is_multipart(req) {
        return Err(ApiError::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            codes::UNSUPPORTED_MEDIA_TYPE,
            "Content-Type: the body must be multipart/form-data with a `logo` part",
        ));
    }
    let mut logo: Option<Vec<u8>> = None;
    while let Some(field) = form.next().await {
        let mut field = field.map_err(|e| ApiError::validation("body", e))?;
        let name = field.name().unwrap_or_default().to_owned();
        if name != "logo" {
            return Err(ApiError::validation(
                &name,
                "unknown form field; the only field is `logo`",
            ));
        }
        if logo.is_some() {
            return Err(ApiError::validation("logo", "sent more than once"));
        }
        let mut bytes = Vec::new();
        while let Some(chunk) = field.next().await {
            let chunk = chunk.map_err(|e| ApiError::validation("logo", e))?;
            if bytes.len().saturating_add(chunk.len()) > MAX_LOGO_BYTES {
                return Err(logo_image::LogoImageError::Oversize.into());
            }
            bytes.extend_from_slice(&chunk);
        }
        logo = Some(bytes);
    }
    logo.ok_or_else(|| ApiError::validation("logo", "a `logo` part is required"))
}

async fn upload_logo(
    state: web::Data<AppState>,
    who: Authenticated,
    req: HttpRequest,
    id: web::Path<String>,
    form: Multipart,
    scope: AccountScope,
) -> Result<HttpResponse, ApiError> {
    let bytes = logo_part(&req, form).await?;
    let image = web::block(move || logo_image::reencode(&bytes))
        .await
        .map_err(|e| ApiError::internal(&anyhow::anyhow!("logo re-encoding panicked: {e}")))??;
    let account = state
        .accounts
        .set_logo(&who.0, scope, &id, image, &state.pages.public_url)
        .await?;
    Ok(HttpResponse::Ok().json(UploadLogoResponse {
        url: Some(account.logo.unwrap_or_default()),
    }))
}

/// Replaces an account's logo (PNG or JPEG, re-encoded by Tonne).
#[utoipa::path(post, path = "/v1/accounts/{id}/logo", tag = "Accounts", operation_id = "updateAccountLogo",
    security(("BearerAuth" = [])), params(("id" = String, Path, description = "The account's id")), request_body(content = UploadLogoRequest, content_type = "multipart/form-data"),
    responses((status = 200, description = "OK", body = UploadLogoResponse), LogoUploadErrors, NoSuchAccount, ClientKeyForbidden, KeyErrors))]
pub async fn account_logo(
    state: web::Data<AppState>,
    who: Authenticated,
    req: HttpRequest,
    id: web::Path<String>,
    form: Multipart,
) -> Result<HttpResponse, ApiError> {
    upload_logo(state, who, req, id, form, AccountScope::Account).await
}

/// Replaces a client account's logo (PNG or JPEG, re-encoded by Tonne).
#[utoipa::path(post, path = "/v1/accounts/client/{id}/logo", tag = "Client accounts", operation_id = "updateClientAccountLogo",
    security(("BearerAuth" = [])), params(("id" = String, Path, description = "The client account's id")), request_body(content = UploadLogoRequest, content_type = "multipart/form-data"),
    responses((status = 200, description = "OK", body = UploadLogoResponse), LogoUploadErrors, NoSuchAccount, ClientKeyForbidden, KeyErrors))]
pub async fn client_logo(
    state: web::Data<AppState>,
    who: Authenticated,
    req: HttpRequest,
    id: web::Path<String>,
    form: Multipart,
) -> Result<HttpResponse, ApiError> {
    upload_logo(state, who, req, id, form, AccountScope::ClientAccount).await
}

/// `GET /logos/{id}`: a stored logo, public (its URL is the account's `logo`).
pub async fn serve_logo(
    state: web::Data<AppState>,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let logo = state
        .accounts
        .logo(&id)
        .await?
        .ok_or_else(|| ApiError::not_found("no logo has this id"))?;
    Ok(HttpResponse::Ok()
        .insert_header((
            header::CONTENT_TYPE,
            HeaderValue::from_static(logo.image.format.content_type()),
        ))
        // A new upload gets a new id, so a logo's bytes never change.
        .insert_header((
            header::CACHE_CONTROL,
            HeaderValue::from_static("public, max-age=31536000, immutable"),
        ))
        .insert_header((
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ))
        .body(logo.image.bytes))
}
