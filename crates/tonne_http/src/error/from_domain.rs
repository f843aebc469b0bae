//! The mapping from every domain error to an [`ApiError`].
//!
//! Each `From<…Error> for ApiError` is an exhaustive `match`, so a new domain
//! variant cannot compile until it has a status and a code.

use actix_web::http::StatusCode;
use tonne_accounts::versions::{ChooseVersionError, InvalidVersion};
use tonne_accounts::{
    AuthError, CreateAccountError, InvalidField, ListAccountsError, ReadAccountError,
    UpdateAccountError,
};
use tonne_ordering::{CatalogueError, CreateOrderError, QuoteError, ReadOrderError};

use super::{ApiError, codes};

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

impl From<tonne_ordering::ports::InvoiceError> for ApiError {
    fn from(e: tonne_ordering::ports::InvoiceError) -> Self {
        use tonne_ordering::ports::InvoiceError;
        match e {
            InvoiceError::NotFound => Self::not_found("invoice not found"),
            InvoiceError::Invalid(field, reason) => Self::validation(field, reason),
            InvoiceError::Conflict(i) => Self::new(
                StatusCode::CONFLICT,
                codes::VALIDATION_ERROR,
                format!("the invoice is {}", i.status().as_str()),
            ),
            InvoiceError::Order(id, e) => Self::validation("order", format!("{id}: {e}")),
            InvoiceError::Store(e) => Self::internal(&e.unexpected()),
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
            E::Quota(e) => e.into(),
            E::Unexpected(cause) => Self::internal(&cause),
        }
    }
}

impl From<tonne_kernel::Exceeded> for ApiError {
    /// A bound per account: 429 with `Retry-After` while the account waits
    /// for its work to be processed, 422 when it stores the most it may (403
    /// bodies carry only the contract's codes, which have none for this).
    fn from(e: tonne_kernel::Exceeded) -> Self {
        if e.limit.is_transient() {
            Self {
                retry_after_secs: Some(e.limit.retry_after_secs()),
                ..Self::new(
                    StatusCode::TOO_MANY_REQUESTS,
                    codes::ACCOUNT_LIMIT_REACHED,
                    e.to_string(),
                )
            }
        } else {
            Self::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                codes::ACCOUNT_LIMIT_REACHED,
                e.to_string(),
            )
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
            UploadError::Quota(e) => e.into(),
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
            tonne_shipments::CalculateError::Quota(e) => e.into(),
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
