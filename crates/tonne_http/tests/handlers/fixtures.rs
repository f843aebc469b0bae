//! The application over mocked services, and a request sent to it.

use actix_web::test;
use serde_json::Value;
use tonne_accounts::MockAccountsService;
use tonne_http::AppState;
use tonne_http::test_support::mocked_state;

pub(crate) fn state(mock: MockAccountsService) -> AppState {
    mocked_state(mock)
}

pub(crate) async fn call_with(state: AppState, req: test::TestRequest) -> (u16, Value) {
    let app = test::init_service(tonne_http::app(state)).await;
    let res = test::call_service(&app, req.to_request()).await;
    let status = res.status().as_u16();
    (
        status,
        serde_json::from_slice(&test::read_body(res).await).unwrap_or(Value::Null),
    )
}
