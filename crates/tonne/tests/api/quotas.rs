//! Bounds per account end to end: past a limit the API answers a clear
//! `account_limit_reached` naming the limit and its value — 429 with
//! `Retry-After` for work waiting (calculations, batches, documents), 422
//! for what is stored (shipments, bytes) — and writes nothing. The limits
//! come from the settings' defaults or an organisation's own, and a live
//! account and its test sibling are counted apart.
//!
//! The background workers run meanwhile, so the transient limits are proved
//! at zero (a bound of 0 refuses the first request whatever the workers
//! did); the exact count under concurrency is the storage tests'.

use serde_json::{Value, json};
use tonne_kernel::{Actor, LimitOverrides, OrganisationId, Quota};
use tonne_test_support::on_both_backends;

use crate::support::{Reply, Tenant, TestApp, assert_error};

fn row(reference: &str) -> Value {
    json!({
        "shipment_id": reference,
        "target_internal_id": "carrier-2",
        "legs": [{"carriage": "main", "method": {"train_type": "electric_freight_train"},
                  "distance": {"amount": "800", "unit": "km"},
                  "load": {"mass": {"amount": "3", "unit": "t"}}}]
    })
}

async fn upload(app: &TestApp, key: &str, rows: usize) -> Reply {
    let rows: Vec<Value> = (0..rows).map(|i| row(&format!("S-{i}"))).collect();
    app.post(
        "/v1/shipments/batches",
        key,
        &json!({"shipments": rows, "calculate_emissions": false}),
    )
    .await
}

async fn set_limits(app: &TestApp, t: &Tenant, limits: &[(Quota, u64)]) {
    let mut o = LimitOverrides::default();
    for (q, v) in limits {
        o.set(*q, Some(*v));
    }
    let id: OrganisationId = t.organisation_id.parse().unwrap();
    app.services
        .quotas
        .set_limits(Actor::CommandLine, id, o)
        .await
        .unwrap();
}

/// A refusal naming the limit and its value.
fn refused(res: &Reply, status: u16, limit: &str, max: u64) {
    assert_error(res, status, "account_limit_reached");
    let message = res.body["error"]["message"].as_str().unwrap_or_default();
    assert!(
        message.starts_with(&format!("{limit}: ")) && message.contains(&format!("at most {max}")),
        "{message}"
    );
}

async fn batches(app: &TestApp, key: &str) -> usize {
    let res = app.get("/v1/shipments/batches", key).await;
    assert_eq!(res.status, 200, "{}", res.body);
    res.body["data"].as_array().unwrap().len()
}

async fn calculations_past_the_bound_are_429_with_retry_after_and_queue_nothing(app: TestApp) {
    let t = app.tenant().await;
    set_limits(&app, &t, &[(Quota::OutstandingCalculations, 0)]).await;
    for key in [&t.live_key, &t.test_key] {
        let res = app.post("/v1/shipments/calculate", key, &json!({})).await;
        refused(&res, 429, "max_outstanding_calculations", 0);
        assert_eq!(res.header("retry-after"), Some("30"));
    }
    let id: OrganisationId = t.organisation_id.parse().unwrap();
    let q = app.services.quotas.organisation(id).await.unwrap();
    assert!(
        q.accounts
            .iter()
            .all(|a| a.usage.outstanding_calculations == 0),
        "nothing queued"
    );
    // the organisation back on the default: queued
    set_limits(&app, &t, &[]).await;
    let res = app
        .post("/v1/shipments/calculate", &t.live_key, &json!({}))
        .await;
    assert_eq!(res.status, 200, "{}", res.body);
    // another organisation was never bound
    let other = app.tenant().await;
    let res = app
        .post("/v1/shipments/calculate", &other.live_key, &json!({}))
        .await;
    assert_eq!(res.status, 200, "{}", res.body);
}

async fn waiting_batches_and_documents_past_the_bound_are_429_and_write_nothing(app: TestApp) {
    let t = app.tenant().await;
    set_limits(
        &app,
        &t,
        &[(Quota::PendingBatches, 0), (Quota::PendingDocuments, 0)],
    )
    .await;
    let res = upload(&app, &t.live_key, 1).await;
    refused(&res, 429, "max_pending_batches", 0);
    assert_eq!(res.header("retry-after"), Some("10"));
    assert_eq!(batches(&app, &t.live_key).await, 0, "nothing stored");

    let before = app.count_estimates_and_orders().await;
    let receipt = crate::transaction_documents::receipt();
    let res = app
        .post(
            "/v1/estimates/transaction-documents/async",
            &t.live_key,
            &receipt,
        )
        .await;
    refused(&res, 429, "max_pending_documents", 0);
    assert_eq!(res.header("retry-after"), Some("5"));
    let id: OrganisationId = t.organisation_id.parse().unwrap();
    let q = app.services.quotas.organisation(id).await.unwrap();
    assert!(q.accounts.iter().all(|a| a.usage.pending_documents == 0));
    assert_eq!(app.count_estimates_and_orders().await, before);
}

async fn stored_shipments_past_the_default_are_422_and_modes_count_apart(app: TestApp) {
    // the settings' default is 3 shipments per account (spawned so)
    let t = app.tenant().await;
    let res = upload(&app, &t.live_key, 2).await;
    assert_eq!(res.status, 200, "{}", res.body);
    let res = upload(&app, &t.live_key, 2).await;
    refused(&res, 422, "max_stored_shipments", 3);
    assert_eq!(res.header("retry-after"), None);
    assert_eq!(
        batches(&app, &t.live_key).await,
        1,
        "the refused batch is not stored"
    );
    // the test account is another account: its own 3
    let res = upload(&app, &t.test_key, 3).await;
    assert_eq!(res.status, 200, "{}", res.body);
    // an operator raises the organisation's limit
    set_limits(&app, &t, &[(Quota::StoredShipments, 10)]).await;
    let res = upload(&app, &t.live_key, 2).await;
    assert_eq!(res.status, 200, "{}", res.body);
    // bytes bound alike: the stored rows' bytes as sent
    let other = app.tenant().await;
    set_limits(&app, &other, &[(Quota::StoredBytes, 100)]).await;
    let res = upload(&app, &other.live_key, 1).await;
    refused(&res, 422, "max_stored_bytes", 100);
    assert_eq!(batches(&app, &other.live_key).await, 0);
}

/// `tonne organisations limits {org} --max-pending-batches {value}` (off the
/// runtime's threads): its output.
async fn max_pending_batches(app: &TestApp, t: &Tenant, value: &str) -> String {
    let (url, org, value) = (
        app.database_url.clone(),
        t.organisation_id.clone(),
        value.to_owned(),
    );
    tokio::task::spawn_blocking(move || {
        crate::cli::tonne(
            &[
                "organisations",
                "limits",
                &org,
                "--max-pending-batches",
                &value,
            ],
            &url,
        )
    })
    .await
    .unwrap()
}

async fn an_operator_sets_and_clears_limits_with_the_cli(app: TestApp) {
    let t = app.tenant().await;
    let shown = max_pending_batches(&app, &t, "0").await;
    assert!(
        shown.contains("max_pending_batches: 0 (set for this organisation)"),
        "{shown}"
    );
    assert!(
        shown.contains("max_outstanding_calculations: 2 (default)"),
        "{shown}"
    );
    let res = upload(&app, &t.live_key, 1).await;
    refused(&res, 429, "max_pending_batches", 0);
    let shown = max_pending_batches(&app, &t, "default").await;
    assert!(
        shown.contains("max_pending_batches: 20 (default)"),
        "{shown}"
    );
    let res = upload(&app, &t.live_key, 1).await;
    assert_eq!(res.status, 200, "{}", res.body);
    // the change is audited as the command line's
    let audit: Vec<_> = crate::console::audit_of(&app, &t.organisation_id)
        .await
        .into_iter()
        .filter(|e| e.action == "organisation.limits_changed")
        .collect();
    assert_eq!(audit.len(), 2);
    assert!(audit.iter().all(|e| e.actor == Actor::CommandLine));
}

async fn spawn_with_three_shipments(db: tonne_test_support::TestDb) -> TestApp {
    TestApp::spawn_with(db, |o| o.quotas.stored_shipments = 3).await
}

on_both_backends!(
    with crate::support::TestApp::spawn;
    calculations_past_the_bound_are_429_with_retry_after_and_queue_nothing,
    waiting_batches_and_documents_past_the_bound_are_429_and_write_nothing,
    an_operator_sets_and_clears_limits_with_the_cli,
);

mod stored {
    use super::*;

    async fn stored_shipments_past_the_default_are_422_and_modes_count_apart(app: TestApp) {
        super::stored_shipments_past_the_default_are_422_and_modes_count_apart(app).await;
    }

    on_both_backends!(
        with super::spawn_with_three_shipments;
        stored_shipments_past_the_default_are_422_and_modes_count_apart,
    );
}
