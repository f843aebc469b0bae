//! The operator's catalogue: stock with a reason, description and prices, on and off sale.

use serde_json::json;
use tonne_test_support::on_both_backends;

use super::{PASSWORD, Visitor, member, operator};
use crate::support::TestApp;

/// The id in the first console link to `/console/catalogue/{id}` whose text is `name`.
fn bundle_link(html: &str, name: &str) -> String {
    let end = html
        .find(&format!("\">{name}</a>"))
        .expect("a link to the bundle");
    let start = html[..end].rfind("/console/catalogue/").unwrap() + "/console/catalogue/".len();
    html[start..end].to_owned()
}

async fn an_operator_changes_stock_with_a_reason_and_takes_a_bundle_off_sale(app: TestApp) {
    app.demo_catalogue().await;
    operator(&app, "op@example.org").await;
    let mut v = Visitor::new(&app);
    v.sign_in("op@example.org", PASSWORD).await;
    let list = v.get("/console/catalogue").await;
    assert_eq!(list.status, 200);
    assert!(list.html.contains("Direct Air Capture") && list.html.contains("500 t"));
    let id = bundle_link(&list.html, "Direct Air Capture");
    let here = format!("/console/catalogue/{id}");
    let page = v.get(&here).await;
    assert_eq!(page.status, 200);
    let csrf = page.csrf();
    let stock = format!("{here}/stock");
    let bundle_path = format!("/v1/bundles/{id}");
    let t = app.tenant().await;
    let available =
        || async { app.get(&bundle_path, &t.live_key).await.body["available_quantity"].clone() };
    assert_eq!(available().await, "500");

    // Refused, with the message, and nothing written: no token, a bad
    // quantity, no reason, more than is left.
    assert_eq!(
        v.post(
            &stock,
            &[("direction", "add"), ("quantity", "1"), ("reason", "x")]
        )
        .await
        .status,
        403
    );
    for (form, message) in [
        (
            [
                ("direction", "add"),
                ("quantity", "-3"),
                ("reason", "bought"),
            ],
            "Quantity: a positive number of tonnes",
        ),
        (
            [("direction", "add"), ("quantity", "3"), ("reason", "  ")],
            "Reason: say why the stock changes.",
        ),
        (
            [
                ("direction", "remove"),
                ("quantity", "501"),
                ("reason", "gone"),
            ],
            "Quantity: only 500 t are available; nothing was removed.",
        ),
    ] {
        let mut fields = vec![("csrf", csrf.as_str())];
        fields.extend(form);
        let refused = v.post(&stock, &fields).await;
        assert_eq!(refused.status, 400, "{form:?}");
        assert!(
            refused.html.contains(message),
            "{message}: {}",
            refused.html
        );
        assert!(refused.html.contains("No stock change recorded yet."));
    }
    assert_eq!(available().await, "500");

    for (direction, quantity, reason) in [
        ("add", "250", "bought from the registry"),
        ("remove", "50.5", "sold outside Tonne"),
    ] {
        let done = v
            .post(
                &stock,
                &[
                    ("csrf", &csrf),
                    ("direction", direction),
                    ("quantity", quantity),
                    ("reason", reason),
                ],
            )
            .await;
        assert_eq!(done.status, 303, "{}", done.html);
    }
    assert_eq!(available().await, "699.5");
    let page = v.get(&here).await;
    for shown in [
        "bought from the registry",
        "+250 t",
        "sold outside Tonne",
        "−50.5 t",
        "699.5 t",
        "op@example.org",
    ] {
        assert!(page.html.contains(shown), "the ledger shows {shown}");
    }
    let log = v.get(&format!("/console/audit?object={id}")).await;
    assert!(log.html.contains("bundle.stock_changed") && log.html.contains("750 t"));

    // Off sale: the API stops quoting it; back on sale, it quotes again.
    let state = format!("{here}/state");
    let off = v
        .post(&state, &[("csrf", &csrf), ("enabled", "false")])
        .await;
    assert_eq!(off.status, 303);
    assert_eq!(
        v.post(&state, &[("csrf", &csrf), ("enabled", "false")])
            .await
            .status,
        303,
        "a double submit acts once"
    );
    let quote = json!({ "mass": { "amount": "1", "unit": "t" }, "bundle_selection": [ { "bundle_id": id, "percentage": 100 } ] });
    let refused = app
        .post("/v1/orders/by-mass/quote", &t.live_key, &quote)
        .await;
    assert_eq!(refused.status, 400, "{}", refused.body);
    assert!(v.get(&here).await.html.contains("Put back on sale"));
    v.post(&state, &[("csrf", &csrf), ("enabled", "true")])
        .await;
    let quoted = app
        .post("/v1/orders/by-mass/quote", &t.live_key, &quote)
        .await;
    assert_eq!(quoted.status, 200, "{}", quoted.body);
    let toggles = v
        .get(&format!("/console/audit?object={id}&action=bundle."))
        .await;
    assert_eq!(toggles.html.matches("bundle.disabled").count(), 1);
    assert_eq!(toggles.html.matches("bundle.enabled").count(), 1);

    // Description and prices: a bad price refuses the whole form (nothing
    // changes); a good one shows in the API at once and in the audit log.
    let edit = format!("{here}/edit");
    let gbp = || async { app.get(&bundle_path, &t.live_key).await.body["unit_price"].clone() };
    let before = gbp().await;
    let prices = |gbp: &'static str| {
        let mut form: Vec<(String, String)> = vec![
            ("csrf".into(), csrf.clone()),
            (
                "description".into(),
                "Removals stored for 1,000 years.".into(),
            ),
        ];
        for code in ["CHF", "DKK", "EUR", "NOK", "PLN", "SEK", "USD"] {
            form.push((format!("price_{code}"), "700.00".into()));
        }
        form.push(("price_GBP".into(), gbp.into()));
        form
    };
    let bad = prices("12.345");
    let bad: Vec<(&str, &str)> = bad.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let refused = v.post(&edit, &bad).await;
    assert_eq!(refused.status, 400);
    assert!(
        refused
            .html
            .contains("Price GBP: at most 2 decimals in GBP."),
        "{}",
        refused.html
    );
    assert!(
        refused.html.contains("12.345"),
        "the form keeps what was typed"
    );
    assert_eq!(gbp().await, before);
    let good = prices("480.00");
    let good: Vec<(&str, &str)> = good.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    assert_eq!(v.post(&edit, &good).await.status, 303);
    assert_eq!(gbp().await, "480.00");
    let shown = app.get(&bundle_path, &t.live_key).await;
    assert_eq!(
        shown.body["description"],
        "Removals stored for 1,000 years."
    );
    let edited = v
        .get(&format!("/console/audit?object={id}&action=bundle.edited"))
        .await;
    assert!(edited.html.contains("price GBP") && edited.html.contains("480.00"));

    // Members see none of it.
    member(&app, "ada@example.org", &t.organisation_id).await;
    let mut m = Visitor::new(&app);
    m.sign_in("ada@example.org", PASSWORD).await;
    assert_eq!(m.get("/console/catalogue").await.status, 404);
    assert_eq!(m.get(&here).await.status, 404);
    let member_csrf = m.get("/console/").await.csrf();
    let poke = m
        .post(
            &stock,
            &[
                ("csrf", &member_csrf),
                ("direction", "add"),
                ("quantity", "1"),
                ("reason", "x"),
            ],
        )
        .await;
    assert_eq!(poke.status, 404);
    assert_eq!(available().await, "699.5");
}

async fn an_operator_imports_a_catalogue_file_whole_or_not_at_all(app: TestApp) {
    operator(&app, "op@example.org").await;
    let mut v = Visitor::new(&app);
    v.sign_in("op@example.org", PASSWORD).await;
    let page = v.get("/console/catalogue").await;
    assert!(page.html.contains("The catalogue is empty"));
    let csrf = page.csrf();

    // Two bad items (and one good): every problem listed, nothing imported.
    let bad = br#"{"format": "tonne-catalogue/1", "projects": [], "bundles": [
        {"key": "good", "name": "Good", "projects": [], "unit_prices": {"GBP": "10.00"}},
        {"key": "a", "name": "A", "projects": ["nowhere"], "unit_prices": {"GBP": "10.00"}},
        {"key": "b", "name": "B", "projects": [], "unit_prices": {"XYZ": "1"}}]}"#;
    let refused = v
        .post_file(
            "/console/catalogue/import",
            &[("csrf", &csrf)],
            ("file", bad),
        )
        .await;
    assert_eq!(refused.status, 400);
    assert!(refused.html.contains("2 problems"), "{}", refused.html);
    assert!(
        refused
            .html
            .contains("bundle `a`: project `nowhere` is not in the file")
    );
    assert!(refused.html.contains("bundle `b`: unknown currency `XYZ`"));
    assert!(
        v.get("/console/catalogue")
            .await
            .html
            .contains("The catalogue is empty")
    );

    // Without the session's token: 403, nothing imported.
    let forged = v
        .post_file(
            "/console/catalogue/import",
            &[("csrf", "x")],
            ("file", tonne::catalogue_file::DEMO.as_bytes()),
        )
        .await;
    assert_eq!(forged.status, 403);

    // The demo catalogue: imported in one go, and audited.
    let done = v
        .post_file(
            "/console/catalogue/import",
            &[("csrf", &csrf)],
            ("file", tonne::catalogue_file::DEMO.as_bytes()),
        )
        .await;
    assert_eq!(done.status, 200, "{}", done.html);
    assert!(done.html.contains("Imported:") && done.html.contains("Direct Air Capture"));
    let log = v.get("/console/audit?action=catalogue.").await;
    assert!(log.html.contains("catalogue.imported") && log.html.contains("bundles created"));

    // Too large: refused before parsing.
    let huge = vec![b' '; 2 * 1024 * 1024 + 1];
    let big = v
        .post_file(
            "/console/catalogue/import",
            &[("csrf", &csrf)],
            ("file", &huge),
        )
        .await;
    assert_eq!(big.status, 400);
    assert!(big.html.contains("larger than 2 MB"));
}

on_both_backends!(
    with crate::support::TestApp::spawn;
    an_operator_changes_stock_with_a_reason_and_takes_a_bundle_off_sale,
    an_operator_imports_a_catalogue_file_whole_or_not_at_all,
);
