//! Handler tests over mocked domain services and ports (`AccountsService`,
//! `OrderingService`, `EstimateRepository`): how domain outcomes become statuses
//! and bodies, without a database.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use std::sync::Arc;

use actix_web::test;
use serde_json::{Value, json};
use tonne_accounts::{
    AuthError, Caller, CreateAccountError, MockAccountsService, ReadAccountError,
};
use tonne_http::AppState;
use tonne_http::test_support::{caller, mocked_state, pinned_latest};
use tonne_kernel::AccountMode;
use uuid::Uuid;

fn state(mock: MockAccountsService) -> AppState {
    mocked_state(mock)
}

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

#[actix_web::test]
async fn a_webhook_store_failure_is_a_500_that_leaks_nothing() {
    let mut webhooks = tonne_webhooks::MockWebhooksService::new();
    webhooks.expect_list().returning(|_, _| {
        Err(tonne_webhooks::ListWebhooksError::Unexpected(
            anyhow::anyhow!("connection refused to db.internal:5432 password=hunter2"),
        ))
    });
    let mut st = state(authenticated(tonne_accounts::AccountScope::Account));
    st.webhooks = Arc::new(webhooks);
    let app = test::init_service(tonne_http::app(st)).await;
    let req = test::TestRequest::get()
        .uri("/v1/webhooks")
        .insert_header(("Authorization", "Bearer tonne_test_x"));
    let res = test::call_service(&app, req.to_request()).await;
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
    let mut st = state(authenticated(tonne_accounts::AccountScope::ClientAccount));
    st.webhooks = Arc::new(webhooks);
    let app = test::init_service(tonne_http::app(st)).await;
    let req = test::TestRequest::get()
        .uri("/v1/webhooks")
        .insert_header(("Authorization", "Bearer tonne_test_x"));
    let res = test::call_service(&app, req.to_request()).await;
    assert_eq!(res.status().as_u16(), 403);
}

async fn call_with(state: AppState, req: test::TestRequest) -> (u16, Value) {
    let app = test::init_service(tonne_http::app(state)).await;
    let res = test::call_service(&app, req.to_request()).await;
    let status = res.status().as_u16();
    (
        status,
        serde_json::from_slice(&test::read_body(res).await).unwrap_or(Value::Null),
    )
}

fn live_state() -> AppState {
    let mut accounts = MockAccountsService::new();
    accounts
        .expect_authenticate()
        .returning(|_, _| Ok(caller(AccountMode::Live)));
    AppState {
        versions: pinned_latest(),
        ..state(accounts)
    }
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
            live_state(),
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
            live_state(),
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

mod shipments {
    //! The Shipments routes over a mocked `ShipmentsService`: what reaches the
    //! use case, and how its answers and errors read.
    use super::*;
    use time::macros::datetime;
    use tonne_kernel::{Page, StoreError};
    use tonne_shipments::{
        Batch, BatchDetail, BatchSource, BatchStatus, CalculateError, CalculationId,
        EmissionsFilter, Facets, MockShipmentsService, ModeSet, Party, ReadError, RowOutcome,
        RowResult, Shipment, ShipmentBatchId, ShipmentCounts, ShipmentId, ShipmentList,
        TransportMode, UploadError,
    };

    fn batch_id() -> ShipmentBatchId {
        ShipmentBatchId::from_uuid(Uuid::from_u128(77))
    }

    fn shipment_id() -> ShipmentId {
        ShipmentId::from_uuid(Uuid::from_u128(88))
    }

    fn app_state(service: MockShipmentsService) -> AppState {
        let mut accounts = MockAccountsService::new();
        accounts
            .expect_authenticate()
            .returning(|_, _| Ok(caller(AccountMode::Live)));
        accounts.expect_me().returning(|c| {
            Ok(tonne_accounts::Account::sample(
                c.account_id,
                c.organisation_id,
                c.mode,
                c.scope,
                datetime!(2026-01-01 0:00 UTC),
            ))
        });
        AppState {
            shipments: Arc::new(service),
            ..state(accounts)
        }
    }

    async fn send(service: MockShipmentsService, req: test::TestRequest) -> (u16, Value) {
        call_with(
            app_state(service),
            req.insert_header(("Authorization", "Bearer k")),
        )
        .await
    }

    fn batch(status: BatchStatus, error: Option<&str>) -> Batch {
        Batch {
            id: batch_id(),
            account_id: caller(AccountMode::Live).account_id,
            status,
            source: BatchSource::Api,
            account_name: "Acme".into(),
            data_sheet: None,
            created_at: datetime!(2026-11-26 12:00 UTC),
            success_count: (status == BatchStatus::Processed && error.is_none()).then_some(1),
            failed_count: (status == BatchStatus::Processed && error.is_none()).then_some(1),
            batch_error: error.map(str::to_owned),
        }
    }

    #[actix_web::test]
    async fn an_upload_stores_each_row_as_its_canonical_text_and_answers_the_id() {
        let mut service = MockShipmentsService::new();
        service
            .expect_upload()
            .withf(|owner, u| {
                u.rows == vec![r#"{"a":1,"legs":[]}"#.to_owned(), "{}".to_owned()]
                    && u.calculate
                    && u.contact_id.as_deref() == Some("c1")
                    && u.idempotency_key.as_deref() == Some("k1")
                    && u.source == BatchSource::Api
                    && owner.account_id == caller(AccountMode::Live).account_id
            })
            .times(1)
            .returning(|_, _| Ok(batch_id()));
        let (status, body) = send(
            service,
            test::TestRequest::post()
                .uri("/v1/shipments/batches")
                .set_json(json!({
                    "shipments": [{"legs": [], "a": 1}, {}],
                    "contact_id": "c1", "idempotency_key": "k1", "calculate_emissions": true
                })),
        )
        .await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(body, json!({"id": batch_id().to_string()}));
    }

    #[actix_web::test]
    async fn an_upload_checks_structure_only_and_names_the_field() {
        for (body, field) in [
            (json!({"shipments": [{}, 3]}), "shipments[1]"),
            (json!({"shipments": {}}), "shipments"),
            (json!({}), "shipments"),
            (
                json!({"shipments": [{}], "calculate_emissions": "yes"}),
                "calculate_emissions",
            ),
            (json!({"shipments": [{}], "extra": 1}), "extra"),
        ] {
            let (status, answer) = send(
                MockShipmentsService::new(),
                test::TestRequest::post()
                    .uri("/v1/shipments/batches")
                    .set_json(&body),
            )
            .await;
            assert_eq!(status, 400, "{body}: {answer}");
            assert_eq!(answer["error"]["error_code"], "validation_error");
            let message = answer["error"]["message"].as_str().unwrap();
            assert!(message.contains(field), "{body}: {message}");
        }
    }

    #[actix_web::test]
    async fn upload_refusals_of_the_use_case() {
        for (error, status, code) in [
            (
                UploadError::Size("must hold 1 to 10000 shipments".into()),
                400,
                "validation_error",
            ),
            (
                UploadError::IdempotencyKeyUsed,
                409,
                "shipment_batch_idempotency_already_exists",
            ),
            (
                UploadError::Store(StoreError::Unexpected(anyhow::anyhow!("db secret"))),
                500,
                "internal_error",
            ),
        ] {
            let mut service = MockShipmentsService::new();
            let mut error = Some(error);
            service
                .expect_upload()
                .returning(move |_, _| Err(error.take().unwrap()));
            let (got, body) = send(
                service,
                test::TestRequest::post()
                    .uri("/v1/shipments/batches")
                    .set_json(json!({"shipments": [{}]})),
            )
            .await;
            assert_eq!(got, status, "{body}");
            assert_eq!(body["error"]["error_code"], code);
            assert!(!body.to_string().contains("secret"));
        }
    }

    #[actix_web::test]
    async fn the_batch_route_takes_bodies_above_the_server_limit_up_to_32_mib() {
        let mut service = MockShipmentsService::new();
        service.expect_upload().returning(|_, _| Ok(batch_id()));
        let row = json!({"shipment_id": "x".repeat(1000)});
        let rows = vec![row; 2_000]; // about 2 MB, above the 1 MiB default
        let (status, body) = send(
            service,
            test::TestRequest::post()
                .uri("/v1/shipments/batches")
                .set_json(json!({ "shipments": rows })),
        )
        .await;
        assert_eq!(status, 200, "{body}");
        let (status, body) = send(
            MockShipmentsService::new(),
            test::TestRequest::post()
                .uri("/v1/shipments/batches")
                .insert_header(("Content-Type", "application/json"))
                .set_payload(format!(
                    r#"{{"shipments":[{{"shipment_id":"{}"}}]}}"#,
                    "x".repeat(32 * 1024 * 1024)
                )),
        )
        .await;
        assert_eq!(status, 413, "{body}");
    }

    #[actix_web::test]
    async fn a_batch_reads_in_its_four_shapes() {
        let detail = |status, error: Option<&str>, results| BatchDetail {
            batch: batch(status, error),
            results,
        };
        let done = vec![
            RowResult {
                row_index: 1,
                outcome: RowOutcome::Failed("legs[0].carriage: is required".into()),
            },
            RowResult {
                row_index: 0,
                outcome: RowOutcome::Success(shipment_id()),
            },
        ];
        let id = batch_id().to_string();
        for (d, expected) in [
            (
                detail(BatchStatus::Pending, None, vec![]),
                json!({"id": id, "status": "pending", "source": "api"}),
            ),
            (
                detail(BatchStatus::Processing, None, vec![]),
                json!({"id": id, "status": "processing", "source": "api"}),
            ),
            (
                detail(
                    BatchStatus::Processed,
                    Some("contact_id: no contact"),
                    vec![],
                ),
                json!({"id": id, "status": "processed", "source": "api", "batch_error": "contact_id: no contact"}),
            ),
            (
                detail(BatchStatus::Processed, None, done),
                json!({"id": id, "status": "processed", "source": "api", "success_count": 1, "failed_count": 1,
                "results": [
                    {"row_index": 0, "status": "success", "shipment_id": shipment_id().to_string()},
                    {"row_index": 1, "status": "failed", "error": "legs[0].carriage: is required"}
                ]}),
            ),
        ] {
            let mut service = MockShipmentsService::new();
            service
                .expect_batch()
                .withf(|_, id| *id == batch_id())
                .returning(move |_, _| Ok(d.clone()));
            let (status, body) = send(
                service,
                test::TestRequest::get().uri(&format!("/v1/shipments/batches/{id}")),
            )
            .await;
            assert_eq!((status, body), (200, expected));
        }
    }

    #[actix_web::test]
    async fn unknown_or_malformed_ids_are_404_not_found() {
        let mut service = MockShipmentsService::new();
        service
            .expect_batch()
            .returning(|_, _| Err(ReadError::NotFound));
        service
            .expect_shipment()
            .returning(|_, _| Err(ReadError::NotFound));
        let state = app_state(service);
        for uri in [
            format!("/v1/shipments/batches/{}", batch_id()),
            "/v1/shipments/batches/nope".to_owned(),
            format!("/v1/shipments/{}", shipment_id()),
            "/v1/shipments/nope".to_owned(),
        ] {
            let (status, body) = call_with(
                state.clone(),
                test::TestRequest::get()
                    .uri(&uri)
                    .insert_header(("Authorization", "Bearer k")),
            )
            .await;
            assert_eq!(status, 404, "{uri}: {body}");
            assert_eq!(body["error"]["error_code"], "not_found");
        }
    }

    #[actix_web::test]
    async fn the_batch_list_reads_sources_and_pages() {
        let mut service = MockShipmentsService::new();
        service
            .expect_batches()
            .withf(|_, sources, page| {
                sources == &vec![BatchSource::Api, BatchSource::DataSheet]
                    && page.limit.get() == 2
                    && page.after == Some(batch_id())
            })
            .returning(|_, _, _| {
                Ok(Page {
                    items: vec![batch(BatchStatus::Pending, None)],
                    has_more: false,
                })
            });
        let (status, body) = send(
            service,
            test::TestRequest::get().uri(&format!(
                "/v1/shipments/batches?limit=2&after={}&source=api&source=data_sheet",
                batch_id()
            )),
        )
        .await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["has_more"], false);
        assert!(body["next_cursor"].is_null());
        let b = &body["data"][0];
        assert_eq!(b["account_name"], "Acme");
        assert!(
            b["success_count"].is_null() && b["filename"].is_null() && b["user_name"].is_null()
        );
        assert_eq!(b["created_at"], "2026-11-26T12:00:00Z");
        assert_eq!(b.as_object().unwrap().len(), 10);
    }

    fn shipment() -> Shipment {
        Shipment {
            id: shipment_id(),
            account_id: caller(AccountMode::Live).account_id,
            batch_id: batch_id(),
            shipper: Party {
                id: "acc".into(),
                name: "Acme".into(),
            },
            supplier: Party {
                id: "cp".into(),
                name: "Carrier".into(),
            },
            facets: Facets::default(),
            row: json!({"shipment_id": "S-1", "legs": [{"carriage": "main", "method": "plane"}]})
                .to_string(),
            emissions: None,
            created_at: datetime!(2026-11-26 12:00 UTC),
        }
    }

    #[actix_web::test]
    async fn the_shipment_list_passes_every_filter_and_answers_totals_when_asked() {
        let mut service = MockShipmentsService::new();
        service
            .expect_shipments()
            .withf(|_, f, page, counts| {
                f.search.as_deref() == Some("S-")
                    && f.modes[1] == ModeSet::of(&[TransportMode::Sea, TransportMode::Air])
                    && f.modes[2] == ModeSet::of(&[TransportMode::Road])
                    && f.batch_ids == vec![batch_id()]
                    && f.emissions == EmissionsFilter::WithoutCo2e
                    && f.flagged == Some(false)
                    && page.limit.get() == 10
                    && *counts
            })
            .returning(|_, _, _, _| {
                Ok(ShipmentList {
                    page: Page {
                        items: vec![shipment()],
                        has_more: true,
                    },
                    counts: Some(ShipmentCounts {
                        all: 5,
                        with_co2e: 2,
                        without_co2e: 3,
                    }),
                })
            });
        let (status, body) = send(
            service,
            test::TestRequest::get().uri(&format!(
                "/v1/shipments?search=S-&main_carriage_mot=sea&main_carriage_mot=air&post_carriage_mot=road&shipment_batch_id={}&emissions=without_co2e&flagged=false&include_totals=true",
                batch_id()
            )),
        )
        .await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(
            body["total"],
            json!({"all": 5, "with_co2e": 2, "without_co2e": 3})
        );
        assert_eq!(body["next_cursor"], shipment_id().to_string());
        assert_eq!(body["data"][0]["shipment_id"], "S-1");
        assert_eq!(body["data"][0]["legs"][0]["method"], "plane");
        assert!(body["data"][0]["emissions_source"].is_null());

        let mut service = MockShipmentsService::new();
        service
            .expect_shipments()
            .withf(|_, _, _, counts| !*counts)
            .returning(|_, _, _, _| {
                Ok(ShipmentList {
                    page: Page {
                        items: vec![],
                        has_more: false,
                    },
                    counts: None,
                })
            });
        let (status, body) = send(service, test::TestRequest::get().uri("/v1/shipments")).await;
        assert_eq!(status, 200, "{body}");
        assert!(body["total"].is_null());
        assert_eq!(body["data"], json!([]));
    }

    #[actix_web::test]
    async fn a_bad_filter_is_400_naming_it_before_the_use_case() {
        for uri in [
            "/v1/shipments?main_carriage_mot=boat",
            "/v1/shipments?include_totals=1",
            "/v1/shipments?limit=0",
        ] {
            let (status, body) = send(
                MockShipmentsService::new(),
                test::TestRequest::get().uri(uri),
            )
            .await;
            assert_eq!(status, 400, "{uri}: {body}");
        }
        let (status, body) = send(
            MockShipmentsService::new(),
            test::TestRequest::post().uri("/v1/shipments/calculate?shipment_date_to=soon"),
        )
        .await;
        assert_eq!(status, 400, "{body}");
        assert!(
            body["error"]["message"]
                .as_str()
                .unwrap()
                .starts_with("shipment_date_to:")
        );
    }

    #[actix_web::test]
    async fn calculate_reads_the_filters_of_the_query() {
        let mut service = MockShipmentsService::new();
        service
            .expect_calculate()
            .withf(|_, f| {
                f.ids == vec![shipment_id()] && f.modes[0] == ModeSet::of(&[TransportMode::Rail])
            })
            .returning(|_, _| Ok(vec![CalculationId::from_uuid(Uuid::from_u128(5))]));
        let (status, body) = send(
            service,
            test::TestRequest::post().uri(&format!(
                "/v1/shipments/calculate?id={}&pre_carriage_mot=rail",
                shipment_id()
            )),
        )
        .await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(
            body,
            json!({"calculation_batch_ids": [CalculationId::from_uuid(Uuid::from_u128(5)).to_string()]})
        );
        let mut service = MockShipmentsService::new();
        service
            .expect_calculate()
            .returning(|_, _| Err(CalculateError::TooMany { max: 200_000 }));
        let (status, body) = send(
            service,
            test::TestRequest::post().uri("/v1/shipments/calculate"),
        )
        .await;
        assert_eq!(status, 400, "{body}");
        assert_eq!(body["error"]["error_code"], "validation_error");
        assert!(
            body["error"]["message"]
                .as_str()
                .unwrap()
                .contains("more than 200000 shipments")
        );
    }

    #[actix_web::test]
    async fn a_shipment_of_the_account_is_rendered() {
        let mut service = MockShipmentsService::new();
        service
            .expect_shipment()
            .withf(|account, id| {
                *account == caller(AccountMode::Live).account_id && *id == shipment_id()
            })
            .returning(|_, _| Ok(shipment()));
        let (status, body) = send(
            service,
            test::TestRequest::get().uri(&format!("/v1/shipments/{}", shipment_id())),
        )
        .await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["id"], shipment_id().to_string());
        assert_eq!(body["supplier_name"], "Carrier");
        assert_eq!(body["shipper_name"], "Acme");
    }
}
