//! The Shipments routes over a mocked `ShipmentsService`: what reaches the
//! use case, and how its answers and errors read.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

mod fixtures;

use actix_web::test;
use serde_json::json;
use tonne_http::test_support::caller;
use tonne_kernel::AccountMode;
use tonne_kernel::{Page, StoreError};
use tonne_shipments::{
    BatchDetail, BatchSource, BatchStatus, CalculateError, CalculationId, EmissionsFilter,
    MockShipmentsService, ModeSet, ReadError, RowOutcome, RowResult, ShipmentCounts, ShipmentList,
    TransportMode, UploadError,
};
use uuid::Uuid;

use crate::fixtures::call_with;
use fixtures::{app_state, batch, batch_id, send, shipment, shipment_id};

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
    assert!(b["success_count"].is_null() && b["filename"].is_null() && b["user_name"].is_null());
    assert_eq!(b["created_at"], "2026-11-26T12:00:00Z");
    assert_eq!(b.as_object().unwrap().len(), 10);
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
