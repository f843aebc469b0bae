//! Snapshot tests of the error answers: every error code and every
//! `ApiError` constructor, and the domain errors mapped to them, rendered
//! through actix's `ResponseError` (status, `Retry-After`, JSON body). A change
//! to any answer shows as a snapshot diff under `tests/snapshots/`.

#![allow(clippy::expect_used)]

use actix_web::ResponseError;
use actix_web::body::MessageBody;
use actix_web::http::StatusCode;
use actix_web::http::header::RETRY_AFTER;
use serde_json::{Value, json};
use tonne_http::error::{ApiError, codes};

/// What a client sees of an error: its status, `Retry-After` and body.
fn rendered(error: &ApiError) -> Value {
    let response = error.error_response();
    let status = response.status().as_u16();
    let retry_after = response
        .headers()
        .get(RETRY_AFTER)
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    let Ok(bytes) = response.into_body().try_into_bytes() else {
        panic!("an error body is a JSON document in one piece");
    };
    let body: Value = serde_json::from_slice(&bytes).expect("the error body is JSON");
    json!({ "status": status, "retry_after": retry_after, "body": body })
}

fn check(name: &str, error: ApiError) {
    insta::assert_json_snapshot!(name, rendered(&error));
}

#[test]
fn constructors() {
    check(
        "new",
        ApiError::new(
            StatusCode::CONFLICT,
            codes::HANDLE_NOT_UNIQUE,
            "handle: taken",
        ),
    );
    check(
        "validation",
        ApiError::validation("name", "must not be empty"),
    );
    check(
        "unauthorised",
        ApiError::unauthorised("the API key is invalid or revoked"),
    );
    check("not_found", ApiError::not_found("order not found"));
    check("rate_limited", ApiError::rate_limited(7));
    check(
        "unavailable",
        ApiError::unavailable("the service is busy; retry in a moment", 1),
    );
    check(
        "internal",
        ApiError::internal(&anyhow::anyhow!(
            "a secret cause that never reaches the client"
        )),
    );
    check(
        "internal_store_unavailable",
        ApiError::internal(&anyhow::Error::new(tonne_kernel::Unavailable("database"))),
    );
}

/// Every code of the catalogue with the status its routes answer it with.
#[test]
fn every_code() {
    let cases = [
        (StatusCode::BAD_REQUEST, codes::VALIDATION_ERROR),
        (StatusCode::BAD_REQUEST, codes::API_VERSION_INVALID),
        (StatusCode::BAD_REQUEST, codes::TIME_RANGE_INVALID),
        (
            StatusCode::CONFLICT,
            codes::SUSTAINABILITY_PAGE_SLUG_NOT_UNIQUE,
        ),
        (StatusCode::CONFLICT, codes::SUSTAINABILITY_PAGE_EXISTS),
        (StatusCode::BAD_REQUEST, codes::PAGINATION_LIMIT_INVALID),
        (StatusCode::BAD_REQUEST, codes::ID_INVALID),
        (StatusCode::BAD_REQUEST, codes::ORDER_QUANTITY_INVALID),
        (
            StatusCode::BAD_REQUEST,
            codes::BUNDLE_SELECTION_RATIOS_INVALID,
        ),
        (
            StatusCode::BAD_REQUEST,
            codes::BUNDLE_SELECTION_RATIOS_INVALID_FORMAT,
        ),
        (StatusCode::BAD_REQUEST, codes::BUNDLE_ID_INVALID),
        (
            StatusCode::CONFLICT,
            codes::SHIPMENT_BATCH_IDEMPOTENCY_ALREADY_EXISTS,
        ),
        (
            StatusCode::CONFLICT,
            codes::ORDER_IDEMPOTENCY_ALREADY_EXISTS,
        ),
        (
            StatusCode::BAD_REQUEST,
            codes::TEST_ACCOUNT_NAME_UPDATE_DISALLOWED,
        ),
        (StatusCode::FORBIDDEN, codes::LIVE_ACCOUNT_REQUIRED),
        (StatusCode::UNAUTHORIZED, codes::UNAUTHORISED),
        (StatusCode::NOT_FOUND, codes::ESTIMATE_NOT_FOUND),
        (StatusCode::CONFLICT, codes::ESTIMATE_ORDER_ALREADY_PLACED),
        (
            StatusCode::CONFLICT,
            codes::ESTIMATE_IDEMPOTENCY_ALREADY_EXISTS,
        ),
        (StatusCode::BAD_REQUEST, codes::AIRPORT_INVALID),
        (StatusCode::BAD_REQUEST, codes::PORT_NOT_FOUND),
        (StatusCode::BAD_REQUEST, codes::ADDRESS_NOT_FOUND),
        (StatusCode::BAD_REQUEST, codes::EXCHANGE_RATE_NOT_FOUND),
        (StatusCode::BAD_REQUEST, codes::EMISSION_FACTOR_ID_INVALID),
        (
            StatusCode::BAD_REQUEST,
            codes::EMISSION_FACTOR_UNIT_MISMATCH,
        ),
        (StatusCode::BAD_REQUEST, codes::WEBHOOK_LIMIT_REACHED),
        (
            StatusCode::BAD_REQUEST,
            codes::OFFSET_LINK_BUNDLES_SIZE_INVALID,
        ),
        (StatusCode::BAD_REQUEST, codes::HANDLE_NOT_UNIQUE),
        (
            StatusCode::CONFLICT,
            codes::ACCOUNT_IDEMPOTENCY_ALREADY_EXISTS,
        ),
        (StatusCode::BAD_REQUEST, codes::ACCOUNT_SCOPE_INCORRECT),
        (StatusCode::BAD_REQUEST, codes::UNSUPPORTED_IMAGE_FORMAT),
        (StatusCode::NOT_FOUND, codes::NOT_FOUND),
        (StatusCode::METHOD_NOT_ALLOWED, codes::METHOD_NOT_ALLOWED),
        (StatusCode::NOT_IMPLEMENTED, codes::NOT_IMPLEMENTED),
        (StatusCode::PAYLOAD_TOO_LARGE, codes::PAYLOAD_TOO_LARGE),
        (
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            codes::UNSUPPORTED_MEDIA_TYPE,
        ),
        (StatusCode::TOO_MANY_REQUESTS, codes::RATE_LIMITED),
        (StatusCode::INTERNAL_SERVER_ERROR, codes::INTERNAL_ERROR),
    ];
    for (status, code) in cases {
        check(
            &format!("code_{code}"),
            ApiError::new(status, code, format!("field: what is wrong ({code})")),
        );
    }
    check(
        "code_service_unavailable",
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            codes::SERVICE_UNAVAILABLE,
            "the service is busy; retry in a moment",
        ),
    );
}

#[test]
fn account_errors() {
    use tonne_accounts::{
        AuthError, CreateAccountError, InvalidField, ListAccountsError, ReadAccountError,
        UpdateAccountError,
    };
    let invalid = || InvalidField {
        field: "name",
        reason: "must not be empty".into(),
    };
    check("auth_missing_key", AuthError::MissingKey.into());
    check("auth_invalid_key", AuthError::InvalidKey.into());
    check(
        "auth_account_not_allowed",
        AuthError::AccountNotAllowed.into(),
    );
    check(
        "read_account_not_a_client_account",
        ReadAccountError::NotAClientAccount.into(),
    );
    check(
        "list_accounts_invalid",
        ListAccountsError::Invalid(invalid()).into(),
    );
    check(
        "list_accounts_client_account_key",
        ListAccountsError::ClientAccountKey.into(),
    );
    check(
        "create_account_invalid",
        CreateAccountError::Invalid(invalid()).into(),
    );
    check(
        "create_account_live_account_required",
        CreateAccountError::LiveAccountRequired.into(),
    );
    check(
        "create_account_client_account_key",
        CreateAccountError::ClientAccountKey.into(),
    );
    check(
        "create_account_handle_taken",
        CreateAccountError::HandleTaken.into(),
    );
    check(
        "create_account_idempotency_key_taken",
        CreateAccountError::IdempotencyKeyTaken.into(),
    );
    check(
        "update_account_not_found",
        UpdateAccountError::NotFound.into(),
    );
    check(
        "update_account_id_invalid",
        UpdateAccountError::IdInvalid.into(),
    );
    check(
        "update_account_test_account_name",
        UpdateAccountError::TestAccountNameUpdateDisallowed.into(),
    );
    check(
        "update_account_client_account_key",
        UpdateAccountError::ClientAccountKey.into(),
    );
    check(
        "update_account_handle_taken",
        UpdateAccountError::HandleTaken.into(),
    );
}

#[test]
fn logo_errors() {
    use tonne_http::logo_image::LogoImageError;
    check(
        "logo_unsupported",
        LogoImageError::Unsupported("not a PNG or JPEG".into()).into(),
    );
    check(
        "logo_too_large",
        LogoImageError::TooLarge("5000×5000".into()).into(),
    );
    check("logo_oversize", LogoImageError::Oversize.into());
}

#[test]
fn ordering_errors() {
    use tonne_ordering::{CatalogueError, CreateOrderError, QuoteError, ReadOrderError};
    check("catalogue_not_found", CatalogueError::NotFound.into());
    check(
        "catalogue_invalid",
        CatalogueError::Invalid {
            field: "limit",
            reason: "must be 1 to 100".into(),
        }
        .into(),
    );
    check(
        "quote_quantity_invalid",
        QuoteError::QuantityInvalid("mass.amount: must be positive".into()).into(),
    );
    check(
        "quote_ratios_invalid",
        QuoteError::RatiosInvalid("bundle_selection: must add up to 100".into()).into(),
    );
    check(
        "quote_ratios_format",
        QuoteError::RatiosFormat("bundle_selection[0].percentage: two decimals at most".into())
            .into(),
    );
    check(
        "quote_bundle_invalid",
        QuoteError::BundleInvalid("bundle_selection[0].bundle_id: unknown bundle".into()).into(),
    );
    check(
        "create_order_estimate_already_ordered",
        CreateOrderError::EstimateAlreadyOrdered.into(),
    );
    check(
        "create_order_idempotency_key_exists",
        CreateOrderError::IdempotencyKeyExists.into(),
    );
    check("read_order_not_found", ReadOrderError::NotFound.into());
}

#[test]
fn estimate_errors() {
    use tonne_estimation::EstimateError;
    use tonne_estimation::ports::EstimationError;
    check(
        "estimate_invalid",
        EstimateError::Invalid {
            field: "electricity_amount.value".into(),
            reason: "must be positive".into(),
        }
        .into(),
    );
    check(
        "estimate_unknown_country",
        EstimateError::UnknownCountry {
            field: "country_code".into(),
            code: "XXX".into(),
        }
        .into(),
    );
    check(
        "estimate_airport_invalid",
        EstimateError::AirportInvalid {
            field: "route.source".into(),
            code: "ZZZ".into(),
        }
        .into(),
    );
    check(
        "estimate_port_not_found",
        EstimateError::PortNotFound {
            field: "route.source.locode".into(),
            code: "XXAAA".into(),
        }
        .into(),
    );
    check(
        "estimate_address_not_found",
        EstimateError::AddressNotFound {
            field: "route.source".into(),
            city: "Nowhere".into(),
            country_code: "GBR".into(),
        }
        .into(),
    );
    check(
        "estimate_exchange_rate_not_found",
        EstimateError::ExchangeRateNotFound("XYZ".into()).into(),
    );
    check(
        "estimate_emission_factor_id_invalid",
        EstimateError::EmissionFactorIdInvalid("no_such_factor".into()).into(),
    );
    check(
        "estimate_emission_factor_unit_mismatch",
        EstimateError::EmissionFactorUnitMismatch {
            activity: "kg".into(),
            factor: "km".into(),
        }
        .into(),
    );
    check("estimation_not_found", EstimationError::NotFound.into());
    check(
        "estimation_already_ordered",
        EstimationError::AlreadyOrdered.into(),
    );
    check(
        "estimation_idempotency_key_exists",
        EstimationError::IdempotencyKeyExists.into(),
    );
    check(
        "estimation_unknown_cursor",
        EstimationError::UnknownCursor.into(),
    );
}

#[test]
fn webhook_errors() {
    use tonne_webhooks::{
        CreateWebhookError, InvalidField, ListWebhooksError, RecoverError, UpdateWebhookError,
        WebhookError,
    };
    let invalid = |field: &str| InvalidField {
        field: field.into(),
        reason: "not an https URL".into(),
    };
    check(
        "webhook_invalid",
        CreateWebhookError::Invalid(invalid("url")).into(),
    );
    check(
        "webhook_limit_reached",
        CreateWebhookError::LimitReached { limit: 10 }.into(),
    );
    check(
        "webhook_update_not_found",
        UpdateWebhookError::NotFound.into(),
    );
    check(
        "webhook_list_invalid",
        ListWebhooksError::Invalid(invalid("account_ids[0]")).into(),
    );
    check("webhook_not_found", WebhookError::NotFound.into());
    check("webhook_recover_not_found", RecoverError::NotFound.into());
}

#[test]
fn link_shipment_and_impact_errors() {
    use tonne_links::LinkError;
    check("link_not_found", LinkError::NotFound.into());
    check(
        "link_invalid",
        LinkError::Invalid {
            field: "expires_at",
            reason: "must be in the future".into(),
        }
        .into(),
    );
    check(
        "link_bundles_size",
        LinkError::BundlesSize("bundles: 1 to 24 distinct bundle ids".into()).into(),
    );
    check(
        "link_bundle_invalid",
        LinkError::BundleInvalid("bundles[0]: unknown bundle".into()).into(),
    );
    check(
        "link_name_taken",
        LinkError::NameTaken("Spring".into()).into(),
    );

    use tonne_shipments::{CalculateError, ReadError, UploadError};
    check(
        "shipments_upload_size",
        UploadError::Size("1 to 1000 rows".into()).into(),
    );
    check(
        "shipments_upload_idempotency_key_used",
        UploadError::IdempotencyKeyUsed.into(),
    );
    check(
        "shipments_upload_invalid",
        UploadError::Invalid {
            field: "shipments[0].mass".into(),
            message: "must be positive".into(),
        }
        .into(),
    );
    check("shipments_read_not_found", ReadError::NotFound.into());
    check(
        "shipments_calculate_too_many",
        CalculateError::TooMany { max: 1000 }.into(),
    );

    use tonne_impact::{AnalyticsError, PageError, RangeError};
    check(
        "analytics_range_reversed",
        AnalyticsError::Range(RangeError::Reversed).into(),
    );
    check(
        "analytics_range_too_long",
        AnalyticsError::Range(RangeError::TooLong).into(),
    );
    check("analytics_not_public", AnalyticsError::NotPublic.into());
    check(
        "page_invalid",
        PageError::Invalid {
            field: "slug",
            reason: "lower-case letters, digits and hyphens",
        }
        .into(),
    );
    check("page_slug_taken", PageError::SlugTaken.into());
    check("page_exists", PageError::Exists.into());
    check("page_not_found", PageError::NotFound.into());
}
