//! A member's shipments: a data sheet uploaded once (CSRF, one-time key),
//! refused with its problems by line and column, processed into a batch whose
//! rows link to the shipments; the list's filters; a shipment's legs and
//! emissions; another organisation's member and an operator see none of it.

use tonne_test_support::on_both_backends;

use super::{PASSWORD, Visitor, eventually, member, operator};
use crate::support::TestApp;

/// The value of the form's hidden input `name`.
fn hidden(html: &str, name: &str) -> String {
    let marker = format!("name=\"{name}\" value=\"");
    let at = html.find(&marker).expect("the hidden field") + marker.len();
    html[at..].split('"').next().unwrap().to_owned()
}

async fn upload(
    v: &Visitor<'_>,
    fields: Vec<(&'static str, String)>,
    file: &str,
    name: &str,
) -> super::Page {
    let f: Vec<(&str, &str)> = fields.iter().map(|(k, v)| (*k, v.as_str())).collect();
    v.post_named_file(
        "/console/shipments/batches",
        &f,
        ("file", name, "text/csv", file.as_bytes()),
    )
    .await
}

const BAD: &str = "shipment_id,carriage,mode,train_type,distance_km,colour\nA,main,rail,diesel_freight_train,\"1,5\",red\n";

async fn a_member_uploads_a_data_sheet_once_and_follows_it_to_its_shipments(app: TestApp) {
    let acme = app.tenant().await;
    let rival = app.tenant().await;
    member(&app, "ada@acme.example", &acme.organisation_id).await;
    member(&app, "bob@rival.example", &rival.organisation_id).await;
    operator(&app, "op@tonne.example").await;
    let mut ada = Visitor::new(&app);
    ada.sign_in("ada@acme.example", PASSWORD).await;
    let scope = format!("mode=test&account={}", acme.test_account);

    // The section is in the member's navigation.
    let overview = ada.get("/console/").await;
    assert!(overview.html.contains(r#"href="/console/shipments""#));
    let page = ada
        .get(&format!("/console/shipments/batches?{scope}"))
        .await;
    assert_eq!(page.status, 200);
    assert!(
        page.html
            .contains(r#"href="/console/shipments" aria-current="page">Shipments</a>"#)
    );
    assert!(page.html.contains("No batch on this account yet."));
    assert!(
        page.html
            .contains(r#"href="/console/shipments/template.csv""#)
    );
    let template = ada.get("/console/shipments/template.csv").await;
    assert_eq!(template.status, 200);
    assert!(template.html.contains("shipment_id,target_internal_id"));
    let csrf = page.csrf();
    let once = hidden(&page.html, "once");
    let account = acme.test_account.as_str();
    let fields = |once: &str| {
        vec![
            ("csrf", csrf.clone()),
            ("once", once.to_owned()),
            ("mode", "test".to_owned()),
            ("account", account.to_owned()),
            ("calculate", "true".to_owned()),
        ]
    };
    // A bad sheet: every problem by line and column, nothing uploaded.
    let refused = upload(&ada, fields(&once), BAD, "bad.csv").await;
    assert_eq!(refused.status, 400);
    assert!(
        refused
            .html
            .contains("The data sheet was not uploaded: 2 problems")
    );
    assert!(refused.html.contains(r#"role="alert" id="sheet-problems""#));
    assert!(
        refused
            .html
            .contains("<strong>Line 1, column colour</strong>: unknown column"),
        "{}",
        refused.html
    );
    assert!(refused.html.contains("No batch on this account yet."));
    assert!(refused.html.contains(r#"aria-invalid="true""#));
    let bad_number = BAD.replace(",colour", "").replace(",red", "");
    let refused = upload(&ada, fields(&once), &bad_number, "bad.csv").await;
    assert_eq!(refused.status, 400);
    assert!(
        refused
            .html
            .contains("<strong>Line 2, column distance_km</strong>: &#39;1,5&#39; is not a number")
            || refused
                .html
                .contains("<strong>Line 2, column distance_km</strong>: '1,5' is not a number"),
        "{}",
        refused.html
    );
    // Without the session's token: 403, nothing uploaded.
    let mut forged = fields(&once);
    forged.retain(|(k, _)| *k != "csrf");
    let forged = upload(&ada, forged, tonne_wire::data_sheet::TEMPLATE, "legs.csv").await;
    assert_eq!(forged.status, 403);

    // The template uploads; the same form sent again uploads nothing more.
    let made = upload(
        &ada,
        fields(&once),
        tonne_wire::data_sheet::TEMPLATE,
        "march legs.csv",
    )
    .await;
    assert_eq!(made.status, 303, "{}", made.html);
    let location = made.location.clone().unwrap();
    assert!(
        location.starts_with("/console/shipments/batches/"),
        "{location}"
    );
    let again = upload(
        &ada,
        fields(&once),
        tonne_wire::data_sheet::TEMPLATE,
        "march legs.csv",
    )
    .await;
    assert_eq!(again.status, 303);
    assert_eq!(
        again.location.as_deref(),
        Some(format!("/console/shipments/batches?{scope}").as_str())
    );
    let list = ada
        .get(&format!("/console/shipments/batches?{scope}"))
        .await;
    assert_eq!(list.html.matches("march legs.csv").count(), 1, "one batch");
    assert!(list.html.contains("ada@acme.example"));
    assert!(list.html.contains("data sheet"));

    // Processed in the background: each row links to its shipment.
    eventually("the batch processed", || async {
        ada.get(&location).await.html.contains("<dd>processed</dd>")
    })
    .await;
    let batch = ada.get(&location).await;
    assert_eq!(batch.status, 200);
    assert!(batch.html.contains("march legs.csv"));
    assert!(
        batch.html.contains("<dt>Rows stored</dt><dd>3</dd>"),
        "{}",
        batch.html
    );
    assert!(
        batch
            .html
            .contains("<th scope=\"row\" class=\"num\">0</th>")
    );
    assert_eq!(batch.html.matches(">stored</td>").count(), 3);

    // The list, its filters, and a shipment's legs.
    let shipments = ada.get(&format!("/console/shipments?{scope}")).await;
    assert_eq!(shipments.status, 200);
    for reference in ["PO-1001", "AIR-7", "RAIL-3"] {
        assert!(shipments.html.contains(reference), "{reference}");
    }
    assert!(shipments.html.contains("3 shipments match"));
    let air = ada
        .get(&format!("/console/shipments?{scope}&main=air"))
        .await;
    assert!(air.html.contains("AIR-7"));
    assert!(!air.html.contains("PO-1001"));
    assert!(
        air.html
            .contains(r#"id="main-air" name="main" value="air" checked"#)
    );
    let none = ada
        .get(&format!("/console/shipments?{scope}&search=NOPE"))
        .await;
    assert!(none.html.contains("No shipment matches."));
    let bad = ada
        .get(&format!("/console/shipments?{scope}&date_from=March"))
        .await;
    assert_eq!(bad.status, 400);
    assert!(bad.html.contains("Shipment date from: March is not a date"));
    // the ISO 14083 report of the filter's shipments, as CSV and PDF
    let air_report = air
        .html
        .split("href=\"")
        .find(|h| h.starts_with("/console/shipments/report?") && h.contains("format=csv"))
        .and_then(|h| h.split('"').next())
        .unwrap_or_else(|| panic!("no report link: {}", air.html))
        .replace("&amp;", "&");
    assert!(air_report.contains("main=air"), "{air_report}");
    let csv = ada.get(&air_report).await;
    assert_eq!(csv.status, 200, "{air_report}");
    assert!(csv.html.starts_with("record,shipment_id,"), "{}", csv.html);
    assert!(csv.html.contains("AIR-7") && !csv.html.contains("PO-1001"));
    assert!(csv.html.contains("summary,,,,,,total,"));
    let pdf = ada
        .get(&air_report.replace("format=csv", "format=pdf"))
        .await;
    assert_eq!(pdf.status, 200);
    assert!(pdf.html.starts_with("%PDF-"));
    let bad_report = ada
        .get(&format!(
            "/console/shipments/report?{scope}&date_from=March"
        ))
        .await;
    assert_eq!(bad_report.status, 400);
    // the first shipment's own page (not the batches' nor the report's)
    let at = shipments
        .html
        .match_indices("href=\"/console/shipments/")
        .map(|(i, _)| i + 6)
        .find(|i| {
            let rest = &shipments.html[*i..];
            !rest.starts_with("/console/shipments/batches")
                && !rest.starts_with("/console/shipments/report")
        })
        .unwrap();
    let href = shipments.html[at..]
        .split('"')
        .next()
        .unwrap()
        .replace("&amp;", "&");
    let shipment = ada.get(&href).await;
    assert_eq!(shipment.status, 200, "{href}");
    for text in [
        "Leg 1:",
        "Tank-to-wheel (TTW)",
        "Well-to-tank (WTT)",
        "Well-to-wheel (total)",
        "Data quality",
        "Emissions by carriage phase (kg CO2e)",
    ] {
        assert!(shipment.html.contains(text), "{text}: {}", shipment.html);
    }

    // Another organisation's member and an operator see none of it.
    let mut bob = Visitor::new(&app);
    bob.sign_in("bob@rival.example", PASSWORD).await;
    assert_eq!(bob.get(&location).await.status, 404);
    assert_eq!(bob.get(&href).await.status, 404);
    let theirs = bob.get(&air_report).await;
    assert!(
        theirs.status == 404 || !theirs.html.contains("AIR-7"),
        "{}",
        theirs.status
    );
    let bobs = bob.get("/console/shipments?mode=test").await;
    assert_eq!(bobs.status, 200);
    assert!(!bobs.html.contains("PO-1001"));
    let mut op = Visitor::new(&app);
    op.sign_in("op@tonne.example", PASSWORD).await;
    assert_eq!(op.get("/console/shipments").await.status, 404);
    // Signed out: to the sign-in page.
    let visitor = Visitor::new(&app);
    assert_eq!(visitor.get("/console/shipments").await.status, 303);
    assert_eq!(
        visitor.get("/console/shipments/template.csv").await.status,
        303
    );
}

on_both_backends!(
    with crate::support::TestApp::spawn;
    a_member_uploads_a_data_sheet_once_and_follows_it_to_its_shipments,
);
