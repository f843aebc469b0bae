//! The answer of the routes that read or store a document estimate.

use actix_web::HttpResponse;
use tonne_quoted::QuotedEstimate;

use crate::error::ApiError;
use crate::routes::estimates::quoting::answer;

/// A stored document estimate answered with its quote (never money
/// movement: a document that is only money movement is refused).
pub(super) fn answered(quoted: Option<QuotedEstimate>) -> Result<HttpResponse, ApiError> {
    match quoted.map(answer).transpose()?.flatten() {
        Some(a) => Ok(HttpResponse::Ok().json(a)),
        None => Err(ApiError::internal(&anyhow::anyhow!(
            "a transaction document estimate without a mass"
        ))),
    }
}
