//! Handler tests over mocked domain services and ports (`AccountsService`,
//! `OrderingService`, `EstimateRepository`): how domain outcomes become statuses
//! and bodies, without a database.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

mod fixtures;
mod shipments;

use std::sync::Arc;

use actix_web::test;
use serde_json::{Value, json};
use tonne_accounts::{
    AuthError, Caller, CreateAccountError, MockAccountsService, ReadAccountError,
};
use tonne_http::AppState;
use tonne_http::test_support::{caller, signed_in_state};
use tonne_kernel::AccountMode;

use fixtures::{call_with, state};

async fn call(mock: MockAccountsService, req: test::TestRequest) -> (u16, Value) {
    let app = test::init_service(tonne_http::app(state(mock))).await;
    let res = test::call_service(&app, req.to_request()).await;
    let status = res.status().as_u16();
    let body: Value = serde_json::from_slice(&test::read_body(res).await).unwrap_or(Value::Null);
    (status, body)
}

#[actix_web::test]
async fn an_unexpected_failure_is_a_generic_500_that_leaks_nothing() {
    let mut mock = MockAccountsService::new();
    mock.expect_authenticate()
        .returning(|_, _| Ok(caller(AccountMode::Live)));
    mock.expect_me().returning(|_| {
        Err(ReadAccountError::Unexpected(anyhow::anyhow!(
            "password authentication failed for user \"secret_admin\""
        )))
    });
    let req = test::TestRequest::get()
        .uri("/v1/accounts/me")
        .insert_header(("Authorization", "Bearer tonne_live_x"));
    let (status, body) = call(mock, req).await;
    assert_eq!(status, 500);
    assert_eq!(body["errors"][0]["error_code"], "internal_error");
    assert!(!body.to_string().contains("secret_admin"));
}

#[actix_web::test]
async fn auth_outcomes_map_to_401_and_403() {
    for (error, status, code) in [
        (AuthError::InvalidKey, 401, "unauthorised"),
        (AuthError::AccountNotAllowed, 403, "unauthorised"),
    ] {
        let mut mock = MockAccountsService::new();
        let mut once = Some(error);
        mock.expect_authenticate()
            .returning(move |_, _| Err(once.take().unwrap_or(AuthError::InvalidKey)));
        let req = test::TestRequest::get()
            .uri("/v1/accounts/me")
            .insert_header(("Authorization", "Bearer k"));
        let (got, body) = call(mock, req).await;
        assert_eq!(
            (got, body["errors"][0]["error_code"].as_str()),
            (status, Some(code))
        );
    }
}

#[actix_web::test]
async fn a_refused_creation_is_403_live_account_required_and_the_body_was_parsed_first() {
    let mut mock = MockAccountsService::new();
    mock.expect_authenticate()
        .returning(|_, _| Ok(caller(AccountMode::Test)));
    mock.expect_create_pair()
        .withf(|_, new| new.name.as_str() == "Shop")
        .returning(|_, _| Err(CreateAccountError::LiveAccountRequired));
    let req = test::TestRequest::post()
        .uri("/v1/accounts")
        .insert_header(("Authorization", "Bearer k"))
        .set_json(json!({"name": "Shop", "currency": "GBP"}));
    let (status, body) = call(mock, req).await;
    assert_eq!(status, 403);
    assert_eq!(body["errors"][0]["error_code"], "live_account_required");
}

#[actix_web::test]
async fn ready_is_503_without_leaking_the_cause() {
    let (status, body) = call(
        MockAccountsService::new(),
        test::TestRequest::get().uri("/ready"),
    )
    .await;
    assert_eq!(status, 503);
    assert!(!body.to_string().contains("10.0.0.1"));
}

/// State with mocked ordering and estimate store, for the estimate handlers.
fn estimate_state(
    ordering: tonne_ordering::MockOrderingService,
    repo: tonne_estimation::ports::MockEstimateRepository,
) -> AppState {
    let mut accounts = MockAccountsService::new();
    accounts
        .expect_authenticate()
        .returning(|_, _| Ok(caller(AccountMode::Live)));
    let ordering: Arc<dyn tonne_ordering::OrderingService> = Arc::new(ordering);
    let estimates: Arc<dyn tonne_estimation::ports::EstimationService> =
        Arc::new(tonne_estimation::service::Estimations::new(
            Arc::new(repo),
            Arc::new(tonne_estimation::service::Engines),
            Arc::new(tonne_kernel::SystemClock),
            Arc::new(tonne_kernel::UuidV7Generator),
        ));
    AppState {
        quoted: Arc::new(tonne_quoted::QuotedEstimates::new(
            estimates.clone(),
            ordering.clone(),
        )),
        ordering,
        estimates,
        ..state(accounts)
    }
}

async fn post_electricity(state: AppState) -> (u16, Value) {
    let app = test::init_service(tonne_http::app(state)).await;
    let req = test::TestRequest::post()
        .uri("/v1/estimates/electricity")
        .insert_header(("Authorization", "Bearer k"))
        .set_json(json!({"consumption": {"amount": "1000", "unit": "kWh"}, "country_code": "GBR"}));
    let res = test::call_service(&app, req.to_request()).await;
    let status = res.status().as_u16();
    (
        status,
        serde_json::from_slice(&test::read_body(res).await).unwrap_or(Value::Null),
    )
}

#[actix_web::test]
async fn a_quote_the_request_cannot_have_is_errors_in_quote_but_a_store_failure_is_500() {
    use tonne_ordering::QuoteError;
    let stored = || {
        let mut repo = tonne_estimation::ports::MockEstimateRepository::new();
        repo.expect_insert()
            .withf(|records| {
                records.len() == 1 && records[0].mass.map(|m| m.grams()) == Some(215_790)
            })
            .times(1)
            .returning(|_| Ok(()));
        repo
    };
    // an unpriced bundle: the estimate answers, its quote is the Errors object
    let mut ordering = tonne_ordering::MockOrderingService::new();
    ordering.expect_quote_by_mass().returning(|_, _| {
        Err(QuoteError::BundleInvalid(
            "bundle x is not sold in GBP".into(),
        ))
    });
    let (status, body) = post_electricity(estimate_state(ordering, stored())).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["mass"], json!({"amount": "0.21579", "unit": "t"}));
    assert_eq!(
        body["quote"]["errors"][0]["error_code"],
        "bundle_id_invalid"
    );
    // the catalogue store failing is not a quoting problem: 500, nothing leaked
    let mut ordering = tonne_ordering::MockOrderingService::new();
    ordering.expect_quote_by_mass().returning(|_, _| {
        Err(QuoteError::Unexpected(anyhow::anyhow!(
            "connection to 10.0.0.9 refused"
        )))
    });
    let (status, body) = post_electricity(estimate_state(ordering, stored())).await;
    assert_eq!(status, 500);
    assert_eq!(body["errors"][0]["error_code"], "internal_error");
    assert!(!body.to_string().contains("10.0.0.9"));
}

#[actix_web::test]
async fn an_estimate_store_failure_is_500_and_no_quote_is_asked() {
    let mut repo = tonne_estimation::ports::MockEstimateRepository::new();
    repo.expect_insert().returning(|_| {
        Err(tonne_kernel::StoreError::Unexpected(anyhow::anyhow!(
            "disk full"
        )))
    });
    // no expectation on quote_by_mass: a call would panic the mock
    let (status, body) = post_electricity(estimate_state(
        tonne_ordering::MockOrderingService::new(),
        repo,
    ))
    .await;
    assert_eq!(status, 500);
    assert!(!body.to_string().contains("disk full"));
}

fn authenticated(scope: tonne_accounts::AccountScope) -> MockAccountsService {
    let mut accounts = MockAccountsService::new();
    accounts.expect_authenticate().returning(move |_, _| {
        Ok(Caller {
            scope,
            ..caller(AccountMode::Test)
        })
    });
    accounts
}

/// `GET /v1/webhooks` with a test key acting as `scope`, over `webhooks`.
async fn list_webhooks(
    scope: tonne_accounts::AccountScope,
    webhooks: tonne_webhooks::MockWebhooksService,
) -> actix_web::dev::ServiceResponse<impl actix_web::body::MessageBody> {
    let mut st = state(authenticated(scope));
    st.webhooks = Arc::new(webhooks);
    let app = test::init_service(tonne_http::app(st)).await;
    let req = test::TestRequest::get()
        .uri("/v1/webhooks")
        .insert_header(("Authorization", "Bearer tonne_test_x"));
    test::call_service(&app, req.to_request()).await
}

#[actix_web::test]
async fn a_webhook_store_failure_is_a_500_that_leaks_nothing() {
    let mut webhooks = tonne_webhooks::MockWebhooksService::new();
    webhooks.expect_list().returning(|_, _| {
        Err(tonne_webhooks::ListWebhooksError::Unexpected(
            anyhow::anyhow!("connection refused to db.internal:5432 password=hunter2"),
        ))
    });
    let res = list_webhooks(tonne_accounts::AccountScope::Account, webhooks).await;
    assert_eq!(res.status().as_u16(), 500);
    let body = String::from_utf8(test::read_body(res).await.to_vec()).unwrap();
    assert!(
        !body.contains("hunter2") && !body.contains("db.internal"),
        "{body}"
    );
}

#[actix_web::test]
async fn a_client_account_key_may_not_manage_webhooks() {
    let mut webhooks = tonne_webhooks::MockWebhooksService::new();
    webhooks.expect_list().never();
    webhooks.expect_create().never();
    let res = list_webhooks(tonne_accounts::AccountScope::ClientAccount, webhooks).await;
    assert_eq!(res.status().as_u16(), 403);
}

#[actix_web::test]
async fn analytics_parameters_are_checked_before_the_use_case_runs() {
    // The impact mock has no expectations: reaching it would answer 500.
    for (uri, field) in [
        ("/v1/analytics/metrics?from=2026-13-01", "from"),
        (
            "/v1/analytics/aggregated-by-property?through=yesterday",
            "through",
        ),
        (
            "/v1/analytics/emission-calculations?interval=week",
            "interval",
        ),
        (
            "/v1/analytics/emission-calculations?all_accounts=yes",
            "all_accounts",
        ),
    ] {
        let (status, body) = call_with(
            signed_in_state(AccountMode::Live),
            test::TestRequest::get()
                .uri(uri)
                .insert_header(("Authorization", "Bearer k")),
        )
        .await;
        assert_eq!(status, 400, "{uri}: {body}");
        assert_eq!(body["error"]["error_code"], "validation_error", "{uri}");
        assert!(
            body["error"]["message"]
                .as_str()
                .unwrap()
                .starts_with(field),
            "{uri}: {body}"
        );
    }
}

#[actix_web::test]
async fn a_bad_sustainability_page_body_is_refused_before_the_use_case_runs() {
    for (body, field) in [
        (
            json!({"status": "enabled", "slug": "Not A Slug", "title": "by_volume", "sections": []}),
            "slug",
        ),
        (
            json!({"status": "on", "slug": "acme", "title": "by_volume", "sections": []}),
            "status",
        ),
        (
            json!({"status": "enabled", "slug": "acme", "title": "by_weight", "sections": []}),
            "title",
        ),
        (
            json!({"status": "enabled", "slug": "acme", "title": "by_volume", "sections": ["unsdg", "unsdg"]}),
            "sections",
        ),
        (
            json!({"status": "enabled", "slug": "acme", "title": "by_volume", "sections": [], "description": "by_custom_description"}),
            "custom_description",
        ),
    ] {
        let (status, answer) = call_with(
            signed_in_state(AccountMode::Live),
            test::TestRequest::post()
                .uri("/v1/sustainability-pages")
                .insert_header(("Authorization", "Bearer k"))
                .set_json(&body),
        )
        .await;
        assert_eq!(status, 400, "{body}: {answer}");
        assert_eq!(answer["error"]["error_code"], "validation_error");
        assert!(
            answer["error"]["message"]
                .as_str()
                .unwrap()
                .starts_with(field),
            "{body}: {answer}"
        );
    }
}
