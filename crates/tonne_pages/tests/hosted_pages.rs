//! The hosted pages over mocked domain services, composed with the API as the
//! binary composes them: how a store failure behind them (offset links,
//! sustainability pages) becomes a page that leaks nothing, without a database.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use std::sync::Arc;

use actix_web::test;
use tonne_http::AppState;
use tonne_http::test_support::signed_in_state;
use tonne_kernel::AccountMode;

/// The API and the hosted pages, registered in the binary's order.
fn app(
    state: AppState,
) -> actix_web::App<
    impl actix_web::dev::ServiceFactory<
        actix_web::dev::ServiceRequest,
        Config = (),
        Response = actix_web::dev::ServiceResponse<impl actix_web::body::MessageBody>,
        Error = actix_web::Error,
        InitError = (),
    >,
> {
    actix_web::App::new()
        .app_data(actix_web::web::Data::new(state))
        .configure(tonne_http::configure_api)
        .configure(tonne_pages::configure)
}

fn failing_links() -> tonne_links::MockOffsetLinksService {
    let mut links = tonne_links::MockOffsetLinksService::new();
    links.expect_now().returning(time::OffsetDateTime::now_utc);
    links.expect_open().returning(|_, _| {
        Err(tonne_links::CheckoutError::Unexpected(anyhow::anyhow!(
            "db password=hunter2 unreachable"
        )))
    });
    links.expect_get().returning(|_, _| {
        Err(tonne_links::LinkError::Unexpected(anyhow::anyhow!(
            "db password=hunter2 unreachable"
        )))
    });
    links
}

#[actix_web::test]
async fn a_store_failure_behind_offset_links_is_a_500_that_leaks_nothing() {
    let app = test::init_service(app(AppState {
        links: Arc::new(failing_links()),
        ..signed_in_state(AccountMode::Test)
    }))
    .await;
    let api = test::TestRequest::get()
        .uri("/v1/offset-links/0190c6f1a7b27c3e9f2d4b1a2c3d4e5f")
        .insert_header(("Authorization", "Bearer k"))
        .to_request();
    let res = test::call_service(&app, api).await;
    assert_eq!(res.status().as_u16(), 500);
    let body = String::from_utf8(test::read_body(res).await.to_vec()).unwrap();
    assert!(!body.contains("hunter2"), "{body}");
    assert!(body.contains("internal_error"), "{body}");

    let page = test::TestRequest::get()
        .uri("/l/0190c6f1a7b27c3e9f2d4b1a2c3d4e5f")
        .peer_addr("203.0.113.7:5000".parse().unwrap())
        .to_request();
    let res = test::call_service(&app, page).await;
    assert_eq!(res.status().as_u16(), 500);
    let html = String::from_utf8(test::read_body(res).await.to_vec()).unwrap();
    assert!(
        html.contains("<html lang=\"en\">") && !html.contains("hunter2"),
        "{html}"
    );
    assert!(!html.contains("<form"), "no form on an error page");
}

#[actix_web::test]
async fn a_store_failure_behind_analytics_and_pages_is_a_500_that_leaks_nothing() {
    let mut impact = tonne_impact::ports::MockImpactService::new();
    impact.expect_metrics().returning(|_, _| {
        Err(tonne_impact::AnalyticsError::Store(
            tonne_kernel::StoreError::Unexpected(anyhow::anyhow!("secret table name")),
        ))
    });
    impact.expect_public_by_slug().returning(|_, _| {
        Err(tonne_impact::PageError::Store(
            tonne_kernel::StoreError::Unexpected(anyhow::anyhow!("secret table name")),
        ))
    });
    let impact = Arc::new(impact);
    for uri in [
        "/v1/analytics/metrics",
        "/v1/sustainability-pages/public/live/acme",
        "/sustainability/live/acme",
    ] {
        let state = AppState {
            impact: impact.clone(),
            ..signed_in_state(AccountMode::Live)
        };
        let app = test::init_service(app(state)).await;
        let res = test::call_service(
            &app,
            test::TestRequest::get()
                .uri(uri)
                .insert_header(("Authorization", "Bearer k"))
                .to_request(),
        )
        .await;
        assert_eq!(res.status().as_u16(), 500, "{uri}");
        let body = String::from_utf8(test::read_body(res).await.to_vec()).unwrap();
        assert!(!body.contains("secret"), "{uri}: {body}");
    }
}
