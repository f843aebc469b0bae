//! The error answers the estimate routes document alike, as shared response
//! sets of the OpenAPI document (each is one or more entries of `responses`).

use utoipa::IntoResponses;

use crate::wire::ErrorsResponse;

/// 400 of a create route.
#[derive(IntoResponses)]
pub enum Invalid {
    /// Invalid request
    #[response(status = 400)]
    Invalid(ErrorsResponse),
}

/// 404 of a read route.
#[derive(IntoResponses)]
pub enum NotFound {
    /// Not found
    #[response(status = 404)]
    NotFound(ErrorsResponse),
}

/// 400, 404 and 409 of a recompute (`PUT`) route.
#[derive(IntoResponses)]
pub enum Recompute {
    /// Invalid request
    #[response(status = 400)]
    Invalid(ErrorsResponse),
    /// Not found
    #[response(status = 404)]
    NotFound(ErrorsResponse),
    /// Ordered already
    #[response(status = 409)]
    Ordered(ErrorsResponse),
}

/// 400, 404 and 409 of an annotations (`PATCH`) route.
#[derive(IntoResponses)]
pub enum Annotate {
    /// Invalid request
    #[response(status = 400)]
    Invalid(ErrorsResponse),
    /// Not found
    #[response(status = 404)]
    NotFound(ErrorsResponse),
    /// The idempotency key is another estimate's
    #[response(status = 409)]
    KeyTaken(ErrorsResponse),
}
