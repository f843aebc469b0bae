//! Shipments over a mocked `ShipmentsService`: the state, a request sent
//! with a key, and a batch and a shipment as the use case answers them.

use std::sync::Arc;

use actix_web::test;
use serde_json::{Value, json};
use time::macros::datetime;
use tonne_accounts::MockAccountsService;
use tonne_http::AppState;
use tonne_http::test_support::caller;
use tonne_kernel::AccountMode;
use tonne_shipments::{
    Batch, BatchSource, BatchStatus, Facets, MockShipmentsService, Party, Shipment,
    ShipmentBatchId, ShipmentId,
};
use uuid::Uuid;

use crate::fixtures::{call_with, state};

pub(super) fn batch_id() -> ShipmentBatchId {
    ShipmentBatchId::from_uuid(Uuid::from_u128(77))
}

pub(super) fn shipment_id() -> ShipmentId {
    ShipmentId::from_uuid(Uuid::from_u128(88))
}

pub(super) fn app_state(service: MockShipmentsService) -> AppState {
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

pub(super) async fn send(service: MockShipmentsService, req: test::TestRequest) -> (u16, Value) {
    call_with(
        app_state(service),
        req.insert_header(("Authorization", "Bearer k")),
    )
    .await
}

pub(super) fn batch(status: BatchStatus, error: Option<&str>) -> Batch {
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

pub(super) fn shipment() -> Shipment {
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
