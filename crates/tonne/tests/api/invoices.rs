//! Invoices end to end: live orders placed over the API, invoiced by the
//! operator's `tonne invoices issue`, read over `/v1/invoices` (JSON and
//! PDF) by the organisation's live key only, paid with `tonne invoices pay`
//! (which pays the orders), never invoiced twice; a webhook may ask for
//! `invoice.issued`.

use std::process::Command;

use rust_decimal::Decimal;
use serde_json::{Value, json};

use crate::support::{TestApp, assert_error};

/// `tonne ARGS` with the seller configured as an operator would.
fn tonne(args: &[&str], database_url: &str) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_tonne"))
        .args(args)
        .args(["--database-url", database_url])
        .env_remove("DATABASE_URL")
        .env("TONNE_INVOICE_SELLER_NAME", "Tonne Operator Ltd")
        .env("TONNE_INVOICE_SELLER_ADDRESS", "1 High Street;London EC1")
        .env("TONNE_INVOICE_SELLER_TAX_ID", "GB123456789")
        .env("TONNE_INVOICE_TAX_RATE", "20")
        .output()
        .expect("run tonne");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn money(v: &Value) -> Decimal {
    v.as_str().unwrap().parse().unwrap()
}

async fn an_organisation_is_invoiced_for_its_live_orders_and_pays(app: TestApp) {
    app.demo_catalogue().await;
    let t = app.tenant().await;
    let other = app.tenant().await;

    let empty = app.get("/v1/invoices", &t.live_key).await;
    assert_eq!(empty.status, 200, "{}", empty.body);
    assert_eq!(
        empty.body,
        json!({ "has_more": false, "next_cursor": null, "data": [] })
    );

    let mut orders = Vec::new();
    for tonnes in ["1.5", "0.25"] {
        let o = app
            .post(
                "/v1/orders/by-mass",
                &t.live_key,
                &json!({ "mass": { "amount": tonnes, "unit": "t" } }),
            )
            .await;
        assert_eq!(o.status, 200, "{}", o.body);
        orders.push(o.body);
    }
    let today = time::OffsetDateTime::now_utc().date().to_string();
    let issue = [
        "invoices",
        "issue",
        "--from",
        today.as_str(),
        "--to",
        today.as_str(),
    ];

    // without a seller the operator is told what to set
    let out = Command::new(env!("CARGO_BIN_EXE_tonne"))
        .args(issue)
        .args(["--database-url", &app.database_url])
        .env_remove("DATABASE_URL")
        .env_remove("TONNE_INVOICE_SELLER_NAME")
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("TONNE_INVOICE_SELLER_NAME"));

    let mut for_acme = issue.to_vec();
    for_acme.extend(["--organisation", t.organisation_id.as_str()]);
    let (ok, stdout, stderr) = tonne(&for_acme, &app.database_url);
    assert!(ok, "{stderr}");
    assert!(stdout.contains("1 invoice(s) issued"), "{stdout}");
    let (_, again, _) = tonne(&issue, &app.database_url);
    assert!(
        again.contains("0 invoice(s) issued"),
        "issued once: {again}"
    );

    let list = app.get("/v1/invoices", &t.live_key).await;
    assert_eq!(list.status, 200, "{}", list.body);
    let invoice = list.body["data"][0].clone();
    assert_eq!(list.body["data"].as_array().unwrap().len(), 1);
    assert_eq!(invoice["number"], "INV-000001");
    assert_eq!(
        (invoice["type"].as_str(), invoice["status"].as_str()),
        (Some("invoice"), Some("issued"))
    );
    assert_eq!(invoice["organisation_id"], t.organisation_id.as_str());
    assert_eq!(invoice["seller"]["name"], "Tonne Operator Ltd");
    assert_eq!(invoice["seller"]["address"], "1 High Street\nLondon EC1");
    assert_eq!(invoice["seller"]["tax_id"], "GB123456789");
    assert_eq!(
        invoice["buyer"]["name"], "Acme",
        "the organisation's name until billing details are given"
    );
    let lines = invoice["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 2);
    // totals to the cent equal to the orders'
    let orders_total: Decimal = orders.iter().map(|o| money(&o["total_cost"])).sum();
    let orders_commission: Decimal = orders.iter().map(|o| money(&o["commission"])).sum();
    assert_eq!(money(&invoice["subtotal"]), orders_total);
    assert_eq!(money(&invoice["commission"]), orders_commission);
    assert_eq!(
        money(&invoice["tax"]),
        (orders_total * Decimal::new(20, 2)).round_dp(2)
    );
    assert_eq!(
        money(&invoice["total"]),
        money(&invoice["subtotal"]) + money(&invoice["tax"])
    );
    for o in &orders {
        assert!(
            lines
                .iter()
                .any(|l| l["order_id"] == o["id"] && l["total"] == o["total_cost"]),
            "{o}"
        );
    }

    let id = invoice["id"].as_str().unwrap().to_owned();
    let one = app.get(&format!("/v1/invoices/{id}"), &t.live_key).await;
    assert_eq!(one.body, invoice);
    // only the organisation's live key reads it
    for key in [&t.test_key, &other.live_key] {
        assert_error(
            &app.get(&format!("/v1/invoices/{id}"), key).await,
            404,
            "not_found",
        );
        assert_error(
            &app.get(&format!("/v1/invoices/{id}/pdf"), key).await,
            404,
            "not_found",
        );
        assert_eq!(app.get("/v1/invoices", key).await.body["data"], json!([]));
    }
    let anonymous = app.get_without_key(&format!("/v1/invoices/{id}")).await;
    assert_eq!(anonymous.status, 401);
    assert_error(
        &app.get("/v1/invoices/not-an-id", &t.live_key).await,
        404,
        "not_found",
    );
    assert_error(
        &app.get("/v1/invoices?limit=0", &t.live_key).await,
        400,
        "pagination_limit_invalid",
    );

    let pdf = app
        .fetch(&format!("/v1/invoices/{id}/pdf"), Some(&t.live_key))
        .await;
    assert_eq!(pdf.status(), 200);
    assert_eq!(pdf.headers()["content-type"], "application/pdf");
    let bytes = pdf.bytes().await.unwrap();
    let doc = lopdf::Document::load_mem(&bytes).unwrap();
    let text = doc.extract_text(&[1]).unwrap();
    for want in [
        "Invoice INV-000001",
        "Tonne Operator Ltd",
        "Total due",
        invoice["total"].as_str().unwrap(),
    ] {
        assert!(text.contains(want), "{want} not in {text}");
    }

    // paying the invoice pays its orders
    let (ok, stdout, stderr) = tonne(&["invoices", "pay", &id], &app.database_url);
    assert!(ok, "{stderr}");
    assert!(stdout.contains("INV-000001 is paid"), "{stdout}");
    for o in &orders {
        let now = app
            .get(
                &format!("/v1/orders/{}", o["id"].as_str().unwrap()),
                &t.live_key,
            )
            .await;
        assert_eq!(now.body["status"], "paid", "{}", now.body);
    }
    let paid = app.get(&format!("/v1/invoices/{id}"), &t.live_key).await;
    assert_eq!(paid.body["status"], "paid");
    assert!(paid.body["paid_at"].is_string());
    let (ok, _, stderr) = tonne(&["invoices", "credit", &id], &app.database_url);
    assert!(
        !ok && stderr.contains("paid"),
        "a paid invoice is not credited: {stderr}"
    );

    // a webhook may ask for invoice.issued (never sent unasked)
    let hook = app
        .post(
            "/v1/webhooks",
            &t.live_key,
            &json!({ "url": "http://127.0.0.1:9/hook", "event_types": ["invoice.issued", "order.paid"] }),
        )
        .await;
    assert_eq!(hook.status, 200, "{}", hook.body);
    assert_eq!(
        hook.body["event_types"],
        json!(["order.paid", "invoice.issued"])
    );
}

tonne_test_support::on_both_backends!(
    with crate::support::TestApp::spawn;
    an_organisation_is_invoiced_for_its_live_orders_and_pays,
);
