//! The one error type of the HTTP adapter and its mapping from every domain error.
//!
//! Each `From<…Error> for ApiError` is an exhaustive `match`, so a new domain
//! variant cannot compile until it has a status and a code.

use std::borrow::Cow;

use actix_web::http::StatusCode;
use actix_web::http::header::{self, HeaderValue};
use actix_web::{HttpResponse, ResponseError};
use serde::Serialize;
use tonne_accounts::versions::{ChooseVersionError, InvalidVersion};
use tonne_accounts::{
    AuthError, CreateAccountError, InvalidField, ListAccountsError, ReadAccountError,
    UpdateAccountError,
};
use tonne_ordering::{CatalogueError, CreateOrderError, QuoteError, ReadOrderError};

/// Error codes of the contract's `Error.error_code` enum that Tonne uses, plus the
/// few it adds for statuses whose contract response has no body schema (404 of an
/// unknown route, 405, 413, 415, 429, 5xx).
pub mod codes {
    /// 400: a field is invalid (the message names it).
    pub const VALIDATION_ERROR: &str = "validation_error";
    /// 400: `Lune-Version` names no version of the API.
    pub const API_VERSION_INVALID: &str = "api_version_invalid";
    /// 400: a time range whose start follows its end, or given by half.
    pub const TIME_RANGE_INVALID: &str = "time_range_invalid";
    /// 409: another sustainability page of the mode has this slug.
    pub const SUSTAINABILITY_PAGE_SLUG_NOT_UNIQUE: &str = "sustainability_page_slug_not_unique";
    /// 409: the account already has a sustainability page.
    pub const SUSTAINABILITY_PAGE_EXISTS: &str = "sustainability_page_exists";
    /// 400: `limit` is not an integer between 1 and 100.
    pub const PAGINATION_LIMIT_INVALID: &str = "pagination_limit_invalid";
    /// 400: an id outside the caller's organisation and mode.
    pub const ID_INVALID: &str = "id_invalid";
    /// 400: a mass or value that is zero, too precise, too large, or buys nothing.
    pub const ORDER_QUANTITY_INVALID: &str = "order_quantity_invalid";
    /// 400: selection percentages do not sum to 100.
    pub const BUNDLE_SELECTION_RATIOS_INVALID: &str = "bundle_selection_ratios_invalid";
    /// 400: percentages malformed, or given for some bundles only.
    pub const BUNDLE_SELECTION_RATIOS_INVALID_FORMAT: &str =
        "bundle_selection_ratios_invalid_format";
    /// 400: a bundle is unknown, disabled, repeated, or not sold in the account's currency.
    pub const BUNDLE_ID_INVALID: &str = "bundle_id_invalid";
    /// 409: the account already uploaded a shipment batch with this idempotency key.
    pub const SHIPMENT_BATCH_IDEMPOTENCY_ALREADY_EXISTS: &str =
        "shipment_batch_idempotency_already_exists";
    /// 409: the account already has an order with this idempotency key.
    pub const ORDER_IDEMPOTENCY_ALREADY_EXISTS: &str = "order_idempotency_already_exists";
    /// 400: a test account's name cannot change.
    pub const TEST_ACCOUNT_NAME_UPDATE_DISALLOWED: &str = "test_account_name_update_disallowed";
    /// 403: a live key is required.
    pub const LIVE_ACCOUNT_REQUIRED: &str = "live_account_required";
    /// 401/403: bad key, or a key not allowed to do this.
    pub const UNAUTHORISED: &str = "unauthorised";
    /// 404 on an estimate id (400 where the contract has no 404, as for orders by estimate).
    pub const ESTIMATE_NOT_FOUND: &str = "estimate_not_found";
    /// 409: the estimate has an order (it cannot be ordered again or updated).
    pub const ESTIMATE_ORDER_ALREADY_PLACED: &str = "estimate_order_already_placed";
    /// 409: the account has an estimate with this idempotency key.
    pub const ESTIMATE_IDEMPOTENCY_ALREADY_EXISTS: &str = "estimate_idempotency_already_exists";
    /// 400: a well-formed airport code Tonne does not know.
    pub const AIRPORT_INVALID: &str = "airport_invalid";
    /// 400: a well-formed UN/LOCODE that is not a known seaport.
    pub const PORT_NOT_FOUND: &str = "port_not_found";
    /// 400: an address (Tonne cannot geocode offline).
    pub const ADDRESS_NOT_FOUND: &str = "address_not_found";
    /// 400: no exchange rate for the currency.
    pub const EXCHANGE_RATE_NOT_FOUND: &str = "exchange_rate_not_found";
    pub const EMISSION_FACTOR_ID_INVALID: &str = "emission_factor_id_invalid";
    pub const EMISSION_FACTOR_UNIT_MISMATCH: &str = "emission_factor_unit_mismatch";
    /// 400: the organisation has the most webhooks allowed in this mode.
    pub const WEBHOOK_LIMIT_REACHED: &str = "webhook_limit_reached";
    /// An offset link names fewer than 1 or more than 24 bundles.
    pub const OFFSET_LINK_BUNDLES_SIZE_INVALID: &str = "offset_link_bundles_size_invalid";
    /// 400: another account of the organisation and type has this handle.
    pub const HANDLE_NOT_UNIQUE: &str = "handle_not_unique";
    /// 409: a client account was already created with this idempotency key (3.9.2's code).
    pub const ACCOUNT_IDEMPOTENCY_ALREADY_EXISTS: &str = "account_idempotency_already_exists";
    /// 400: a client-account route called by a key that does not act as a client account.
    pub const ACCOUNT_SCOPE_INCORRECT: &str = "account_scope_incorrect";
    /// 400: an uploaded logo that is not a PNG or JPEG that decodes.
    pub const UNSUPPORTED_IMAGE_FORMAT: &str = "unsupported_image_format";
    /// 404 (outside the contract's enum).
    pub const NOT_FOUND: &str = "not_found";
    /// 405 (outside the contract's enum).
    pub const METHOD_NOT_ALLOWED: &str = "method_not_allowed";
    /// 413 (outside the contract's enum).
    pub const PAYLOAD_TOO_LARGE: &str = "payload_too_large";
    /// 415 (outside the contract's enum).
    pub const UNSUPPORTED_MEDIA_TYPE: &str = "unsupported_media_type";
    /// 429 (outside the contract's enum).
    pub const RATE_LIMITED: &str = "rate_limit_exceeded";
    /// 500 (outside the contract's enum).
    pub const INTERNAL_ERROR: &str = "internal_error";
    /// 503 (outside the contract's enum).
    pub const SERVICE_UNAVAILABLE: &str = "service_unavailable";
}

/// An error as the API answers it: a status and the contract's `Errors` body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    status: StatusCode,
    code: &'static str,
    message: Cow<'static, str>,
    retry_after_secs: Option<u64>,
}

/// The 2024 `ErrorResponse`: `error` for today's clients, and the same element
/// alone in `errors` for the clients of 2023.
#[derive(Serialize)]
struct ErrorsBody<'a> {
    error: ErrorItem<'a>,
    errors: [ErrorItem<'a>; 1],
}

#[derive(Serialize, Clone, Copy)]
struct ErrorItem<'a> {
    error_code: &'a str,
    message: &'a str,
}

impl ApiError {
    /// Any status, code and message.
    pub fn new(
        status: StatusCode,
        code: &'static str,
        message: impl Into<Cow<'static, str>>,
    ) -> Self {
        Self {
            status,
            code,
            message: message.into(),
            retry_after_secs: None,
        }
    }

    /// 400 `validation_error` naming the field.
    pub fn validation(field: &str, reason: impl std::fmt::Display) -> Self {
        Self::new(
            StatusCode::BAD_REQUEST,
            codes::VALIDATION_ERROR,
            format!("{field}: {reason}"),
        )
    }

    /// 401.
    pub fn unauthorised(message: &'static str) -> Self {
        Self::new(StatusCode::UNAUTHORIZED, codes::UNAUTHORISED, message)
    }

    /// 404.
    pub fn not_found(message: impl Into<Cow<'static, str>>) -> Self {
        Self::new(StatusCode::NOT_FOUND, codes::NOT_FOUND, message)
    }

    /// 429 with `Retry-After`.
    pub fn rate_limited(retry_after_secs: u64) -> Self {
        Self {
            retry_after_secs: Some(retry_after_secs),
            ..Self::new(
                StatusCode::TOO_MANY_REQUESTS,
                codes::RATE_LIMITED,
                "too many requests; retry later",
            )
        }
    }

    /// 503 `service_unavailable` with `Retry-After`.
    pub fn unavailable(message: &'static str, retry_after_secs: u64) -> Self {
        Self {
            retry_after_secs: Some(retry_after_secs),
            ..Self::new(
                StatusCode::SERVICE_UNAVAILABLE,
                codes::SERVICE_UNAVAILABLE,
                message,
            )
        }
    }

    /// Logs the full cause and answers a generic 500: internals never reach the
    /// client. A store that is only busy or unreachable for now
    /// ([`tonne_kernel::Unavailable`] in the chain) answers 503 with
    /// `Retry-After: 1` instead.
    pub fn internal(cause: &anyhow::Error) -> Self {
        if cause.chain().any(|e| e.is::<tonne_kernel::Unavailable>()) {
            tracing::warn!(error = %format!("{cause:#}"), "store unavailable; answering 503");
            return Self::unavailable("the service is busy; retry in a moment", 1);
        }
        tracing::error!(error = ?cause, "unexpected error");
        Self::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            codes::INTERNAL_ERROR,
            "internal error; the request id identifies it in the logs",
        )
    }

    /// The `Errors` body as a JSON value (for errors inside a 200 answer:
    /// an estimate's `quote`, a batch entry).
    pub fn body_json(&self) -> serde_json::Value {
        serde_json::to_value(self.body()).unwrap_or(serde_json::Value::Null)
    }

    fn body(&self) -> ErrorsBody<'_> {
        let item = ErrorItem {
            error_code: self.code,
            message: &self.message,
        };
        ErrorsBody {
            error: item,
            errors: [item],
        }
    }

    /// The status.
    pub fn status(&self) -> StatusCode {
        self.status
    }

    /// The error code.
    pub fn code(&self) -> &'static str {
        self.code
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} {}: {}",
            self.status.as_u16(),
            self.code,
            self.message
        )
    }
}

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        self.status
    }

    fn error_response(&self) -> HttpResponse {
        let mut response = HttpResponse::build(self.status);
        if let Some(secs) = self.retry_after_secs {
            response.insert_header((header::RETRY_AFTER, HeaderValue::from(secs)));
        }
        response.json(self.body())
    }
}

impl From<InvalidVersion> for ApiError {
    fn from(e: InvalidVersion) -> Self {
        Self::new(
            StatusCode::BAD_REQUEST,
            codes::API_VERSION_INVALID,
            e.to_string(),
        )
    }
}

impl From<ChooseVersionError> for ApiError {
    fn from(e: ChooseVersionError) -> Self {
        match e {
            ChooseVersionError::Invalid(invalid) => invalid.into(),
            ChooseVersionError::Unexpected(cause) => Self::internal(&cause),
        }
    }
}

impl From<InvalidField> for ApiError {
    fn from(e: InvalidField) -> Self {
        Self::validation(e.field, e.reason)
    }
}

impl From<AuthError> for ApiError {
    fn from(e: AuthError) -> Self {
        match e {
            AuthError::MissingKey => {
                Self::unauthorised("an API key is required: Authorization: Bearer <key>")
            }
            AuthError::InvalidKey => Self::unauthorised("the API key is invalid or revoked"),
            AuthError::AccountNotAllowed => Self::new(
                StatusCode::FORBIDDEN,
                codes::UNAUTHORISED,
                "Lune-Account: this key may not act as that account",
            ),
            AuthError::Unexpected(cause) => Self::internal(&cause),
        }
    }
}

impl From<ReadAccountError> for ApiError {
    fn from(e: ReadAccountError) -> Self {
        match e {
            ReadAccountError::NotAClientAccount => Self::new(
                StatusCode::BAD_REQUEST,
                codes::ACCOUNT_SCOPE_INCORRECT,
                "this key does not act as a client account: send Lune-Account with a client account's id, or use a client account's key",
            ),
            ReadAccountError::Unexpected(cause) => Self::internal(&cause),
        }
    }
}

impl From<ListAccountsError> for ApiError {
    fn from(e: ListAccountsError) -> Self {
        match e {
            ListAccountsError::Invalid(field) => field.into(),
            ListAccountsError::ClientAccountKey => {
                Self::new(StatusCode::FORBIDDEN, codes::UNAUTHORISED, e.to_string())
            }
            ListAccountsError::Unexpected(cause) => Self::internal(&cause),
        }
    }
}

impl From<CreateAccountError> for ApiError {
    fn from(e: CreateAccountError) -> Self {
        match e {
            CreateAccountError::Invalid(field) => field.into(),
            CreateAccountError::LiveAccountRequired => Self::new(
                StatusCode::FORBIDDEN,
                codes::LIVE_ACCOUNT_REQUIRED,
                e.to_string(),
            ),
            CreateAccountError::ClientAccountKey => {
                Self::new(StatusCode::FORBIDDEN, codes::UNAUTHORISED, e.to_string())
            }
            CreateAccountError::HandleTaken => Self::new(
                StatusCode::BAD_REQUEST,
                codes::HANDLE_NOT_UNIQUE,
                e.to_string(),
            ),
            CreateAccountError::IdempotencyKeyTaken => Self::new(
                StatusCode::CONFLICT,
                codes::ACCOUNT_IDEMPOTENCY_ALREADY_EXISTS,
                e.to_string(),
            ),
            CreateAccountError::Unexpected(cause) => Self::internal(&cause),
        }
    }
}

impl From<UpdateAccountError> for ApiError {
    fn from(e: UpdateAccountError) -> Self {
        match e {
            UpdateAccountError::Invalid(field) => field.into(),
            UpdateAccountError::NotFound => Self::not_found("id: no account has this id"),
            UpdateAccountError::IdInvalid => Self::new(
                StatusCode::BAD_REQUEST,
                codes::ID_INVALID,
                "id: the account is of the other kind (account or client account)",
            ),
            UpdateAccountError::TestAccountNameUpdateDisallowed => Self::new(
                StatusCode::BAD_REQUEST,
                codes::TEST_ACCOUNT_NAME_UPDATE_DISALLOWED,
                "name: a test account's name follows its live sibling; rename the live account",
            ),
            UpdateAccountError::ClientAccountKey => {
                Self::new(StatusCode::FORBIDDEN, codes::UNAUTHORISED, e.to_string())
            }
            UpdateAccountError::HandleTaken => Self::new(
                StatusCode::BAD_REQUEST,
                codes::HANDLE_NOT_UNIQUE,
                e.to_string(),
            ),
            UpdateAccountError::Unexpected(cause) => Self::internal(&cause),
        }
    }
}

impl From<crate::logo_image::LogoImageError> for ApiError {
    fn from(e: crate::logo_image::LogoImageError) -> Self {
        use crate::logo_image::LogoImageError;
        match e {
            LogoImageError::Unsupported(_) => Self::new(
                StatusCode::BAD_REQUEST,
                codes::UNSUPPORTED_IMAGE_FORMAT,
                e.to_string(),
            ),
            LogoImageError::TooLarge(_) => Self::new(
                StatusCode::BAD_REQUEST,
                codes::VALIDATION_ERROR,
                e.to_string(),
            ),
            LogoImageError::Oversize => Self::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                codes::PAYLOAD_TOO_LARGE,
                e.to_string(),
            ),
        }
    }
}

impl From<CatalogueError> for ApiError {
    fn from(e: CatalogueError) -> Self {
        match e {
            CatalogueError::NotFound => Self::not_found("no such catalogue item"),
            CatalogueError::Invalid { field, reason } => Self::validation(field, reason),
            CatalogueError::Unexpected(cause) => Self::internal(&cause),
        }
    }
}

impl From<QuoteError> for ApiError {
    fn from(e: QuoteError) -> Self {
        let bad =
            |code: &'static str, message: String| Self::new(StatusCode::BAD_REQUEST, code, message);
        match e {
            QuoteError::QuantityInvalid(m) => bad(codes::ORDER_QUANTITY_INVALID, m),
            QuoteError::RatiosInvalid(m) => bad(codes::BUNDLE_SELECTION_RATIOS_INVALID, m),
            QuoteError::RatiosFormat(m) => bad(codes::BUNDLE_SELECTION_RATIOS_INVALID_FORMAT, m),
            QuoteError::BundleInvalid(m) => bad(codes::BUNDLE_ID_INVALID, m),
            QuoteError::Invalid { field, reason } => Self::validation(field, reason),
            QuoteError::Unexpected(cause) => Self::internal(&cause),
        }
    }
}

impl From<CreateOrderError> for ApiError {
    fn from(e: CreateOrderError) -> Self {
        match e {
            CreateOrderError::Quote(e) => e.into(),
            CreateOrderError::EstimateAlreadyOrdered => Self::new(
                StatusCode::CONFLICT,
                codes::ESTIMATE_ORDER_ALREADY_PLACED,
                "estimate_id: an order was already placed for this estimate",
            ),
            CreateOrderError::IdempotencyKeyExists => Self::new(
                StatusCode::CONFLICT,
                codes::ORDER_IDEMPOTENCY_ALREADY_EXISTS,
                "idempotency_key: this account already has an order with this key; GET /v1/orders/by-idempotency-key/{key} returns it",
            ),
        }
    }
}

impl From<ReadOrderError> for ApiError {
    fn from(e: ReadOrderError) -> Self {
        match e {
            ReadOrderError::NotFound => Self::not_found("order not found"),
            ReadOrderError::Invalid { field, reason } => Self::validation(field, reason),
            ReadOrderError::Unexpected(cause) => Self::internal(&cause),
        }
    }
}

impl From<tonne_estimation::EstimateError> for ApiError {
    fn from(e: tonne_estimation::EstimateError) -> Self {
        use tonne_estimation::EstimateError as E;
        let bad =
            |code: &'static str, message: String| Self::new(StatusCode::BAD_REQUEST, code, message);
        let message = e.to_string();
        match e {
            E::Invalid { .. } | E::UnknownCountry { .. } => bad(codes::VALIDATION_ERROR, message),
            E::AirportInvalid { .. } => bad(codes::AIRPORT_INVALID, message),
            E::PortNotFound { .. } => bad(codes::PORT_NOT_FOUND, message),
            E::AddressNotFound { .. } => bad(codes::ADDRESS_NOT_FOUND, message),
            E::ExchangeRateNotFound(_) => bad(codes::EXCHANGE_RATE_NOT_FOUND, message),
            E::EmissionFactorIdInvalid(_) => bad(codes::EMISSION_FACTOR_ID_INVALID, message),
            E::EmissionFactorUnitMismatch { .. } => {
                bad(codes::EMISSION_FACTOR_UNIT_MISMATCH, message)
            }
        }
    }
}

impl From<tonne_estimation::ports::EstimationError> for ApiError {
    fn from(e: tonne_estimation::ports::EstimationError) -> Self {
        use tonne_estimation::ports::EstimationError as E;
        match e {
            E::Invalid(e) => e.into(),
            E::NotFound => Self::new(
                StatusCode::NOT_FOUND,
                codes::ESTIMATE_NOT_FOUND,
                "id: this account has no estimate of this kind with this id",
            ),
            E::AlreadyOrdered => Self::new(
                StatusCode::CONFLICT,
                codes::ESTIMATE_ORDER_ALREADY_PLACED,
                "id: the estimate has been ordered and can no longer be updated",
            ),
            E::IdempotencyKeyExists => Self::new(
                StatusCode::CONFLICT,
                codes::ESTIMATE_IDEMPOTENCY_ALREADY_EXISTS,
                "idempotency_key: this account already has an estimate with this key",
            ),
            E::UnknownCursor => {
                Self::validation("after", "no estimate of this account has that id")
            }
            E::Unexpected(cause) => Self::internal(&cause),
        }
    }
}

impl From<tonne_webhooks::InvalidField> for ApiError {
    fn from(e: tonne_webhooks::InvalidField) -> Self {
        Self::validation(&e.field, e.reason)
    }
}

/// 404 of an unknown webhook id (the contract lists 404 without a body schema).
fn webhook_not_found() -> ApiError {
    ApiError::not_found("id: no webhook of this organisation and mode has this id")
}

impl From<tonne_webhooks::CreateWebhookError> for ApiError {
    fn from(e: tonne_webhooks::CreateWebhookError) -> Self {
        use tonne_webhooks::CreateWebhookError as E;
        match e {
            E::Invalid(field) => field.into(),
            E::LimitReached { limit } => Self::new(
                StatusCode::BAD_REQUEST,
                codes::WEBHOOK_LIMIT_REACHED,
                format!(
                    "url: this organisation already has {limit} webhooks in this mode, the most allowed; delete one first"
                ),
            ),
            E::Unexpected(cause) => Self::internal(&cause),
        }
    }
}

impl From<tonne_webhooks::UpdateWebhookError> for ApiError {
    fn from(e: tonne_webhooks::UpdateWebhookError) -> Self {
        use tonne_webhooks::UpdateWebhookError as E;
        match e {
            E::Invalid(field) => field.into(),
            E::NotFound => webhook_not_found(),
            E::Unexpected(cause) => Self::internal(&cause),
        }
    }
}

impl From<tonne_webhooks::ListWebhooksError> for ApiError {
    fn from(e: tonne_webhooks::ListWebhooksError) -> Self {
        use tonne_webhooks::ListWebhooksError as E;
        match e {
            E::Invalid(field) => {
                // the query parameter is `account_id`, repeated
                Self::validation(
                    &field.field.replace("account_ids", "account_id"),
                    field.reason,
                )
            }
            E::Unexpected(cause) => Self::internal(&cause),
        }
    }
}

impl From<tonne_webhooks::WebhookError> for ApiError {
    fn from(e: tonne_webhooks::WebhookError) -> Self {
        use tonne_webhooks::WebhookError as E;
        match e {
            E::NotFound => webhook_not_found(),
            E::Unexpected(cause) => Self::internal(&cause),
        }
    }
}

impl From<tonne_webhooks::RecoverError> for ApiError {
    fn from(e: tonne_webhooks::RecoverError) -> Self {
        use tonne_webhooks::RecoverError as E;
        match e {
            E::NotFound => webhook_not_found(),
            E::Invalid(field) => field.into(),
            E::Unexpected(cause) => Self::internal(&cause),
        }
    }
}

impl From<tonne_links::LinkError> for ApiError {
    fn from(e: tonne_links::LinkError) -> Self {
        use tonne_links::LinkError;
        match e {
            LinkError::NotFound => Self::not_found("offset link not found"),
            LinkError::Invalid { field, reason } => Self::validation(field, reason),
            LinkError::BundlesSize(m) => Self::new(
                StatusCode::BAD_REQUEST,
                codes::OFFSET_LINK_BUNDLES_SIZE_INVALID,
                m,
            ),
            LinkError::BundleInvalid(m) => {
                Self::new(StatusCode::BAD_REQUEST, codes::BUNDLE_ID_INVALID, m)
            }
            LinkError::NameTaken(name) => Self::new(
                StatusCode::CONFLICT,
                codes::VALIDATION_ERROR,
                format!("name: another offset link of this account is named `{name}`"),
            ),
            LinkError::Unexpected(cause) => Self::internal(&cause),
        }
    }
}

impl From<tonne_shipments::UploadError> for ApiError {
    fn from(e: tonne_shipments::UploadError) -> Self {
        use tonne_shipments::UploadError;
        match e {
            UploadError::Size(_) => Self::new(
                StatusCode::BAD_REQUEST,
                codes::VALIDATION_ERROR,
                e.to_string(),
            ),
            UploadError::IdempotencyKeyUsed => Self::new(
                StatusCode::CONFLICT,
                codes::SHIPMENT_BATCH_IDEMPOTENCY_ALREADY_EXISTS,
                "idempotency_key: this account already uploaded a shipment batch with this key",
            ),
            UploadError::Invalid { field, message } => Self::validation(&field, message),
            UploadError::Store(e) => store_failure(e),
        }
    }
}

impl From<tonne_shipments::ReadError> for ApiError {
    fn from(e: tonne_shipments::ReadError) -> Self {
        match e {
            tonne_shipments::ReadError::NotFound => Self::not_found("id: not found"),
            tonne_shipments::ReadError::Store(e) => store_failure(e),
        }
    }
}

impl From<tonne_shipments::CalculateError> for ApiError {
    fn from(e: tonne_shipments::CalculateError) -> Self {
        match e {
            tonne_shipments::CalculateError::TooMany { max } => Self::validation(
                "filters",
                format!(
                    "select more than {max} shipments; narrow them (for instance by shipment_date_from and shipment_date_to) and calculate in several requests"
                ),
            ),
            tonne_shipments::CalculateError::Store(e) => store_failure(e),
        }
    }
}

fn store_failure(e: tonne_kernel::StoreError) -> ApiError {
    match e {
        tonne_kernel::StoreError::Unexpected(cause) => ApiError::internal(&cause),
        other => ApiError::internal(&anyhow::anyhow!(other)),
    }
}

impl From<tonne_impact::AnalyticsError> for ApiError {
    fn from(e: tonne_impact::AnalyticsError) -> Self {
        match e {
            tonne_impact::AnalyticsError::Range(range) => Self::new(
                StatusCode::BAD_REQUEST,
                codes::TIME_RANGE_INVALID,
                match range {
                    tonne_impact::RangeError::Reversed => "from: later than through",
                    tonne_impact::RangeError::TooLong => {
                        "from, through: the range may cover at most 3660 days"
                    }
                },
            ),
            tonne_impact::AnalyticsError::NotPublic => {
                Self::not_found("account_id: no account with public external pages has this id")
            }
            tonne_impact::AnalyticsError::Store(e) => store_failure(e),
        }
    }
}

impl From<tonne_impact::PageError> for ApiError {
    fn from(e: tonne_impact::PageError) -> Self {
        match e {
            tonne_impact::PageError::Invalid { field, reason } => Self::validation(field, reason),
            tonne_impact::PageError::SlugTaken => Self::new(
                StatusCode::CONFLICT,
                codes::SUSTAINABILITY_PAGE_SLUG_NOT_UNIQUE,
                "slug: another sustainability page has this slug",
            ),
            tonne_impact::PageError::Exists => Self::new(
                StatusCode::CONFLICT,
                codes::SUSTAINABILITY_PAGE_EXISTS,
                "this account already has a sustainability page; PUT /v1/sustainability-pages changes it",
            ),
            tonne_impact::PageError::NotFound => Self::not_found("sustainability page not found"),
            tonne_impact::PageError::Store(e) => store_failure(e),
        }
    }
}
