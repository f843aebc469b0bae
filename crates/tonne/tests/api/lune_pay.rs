//! Lune Pay end to end: an account's allowed return origins over the API, a
//! platform's `/pay/{account}` link paid on the page (test mode's simulator
//! here; `card_payments` pays through Stripe), the buyer sent back with
//! `external_id` and `temporary_id`, and the payment read by that id without
//! a key as client 3.9.2's `Payment` — 404 for an id never issued or expired.

use reqwest::Method;
use serde_json::{Value, json};
use tonne_links::ports::OffsetLinkRepository as _;

use crate::offset_links::{hidden_field, send_with_csrf_cookie};
use crate::support::{TestApp, assert_error, conforms_2024};

/// A buyer's browser: keeps the CSRF cookie, follows no redirect.
struct Buyer<'a> {
    app: &'a TestApp,
    http: reqwest::Client,
    cookie: Option<String>,
}

struct Answer {
    status: u16,
    location: Option<String>,
    html: String,
}

impl Answer {
    fn field(&self, name: &str) -> String {
        hidden_field(&self.html, name).replace("&amp;", "&")
    }
}

impl<'a> Buyer<'a> {
    fn new(app: &'a TestApp) -> Self {
        Self {
            app,
            http: crate::support::client_without_redirects(),
            cookie: None,
        }
    }

    async fn send(&mut self, req: reqwest::RequestBuilder) -> Answer {
        let res = send_with_csrf_cookie(req, &mut self.cookie, |text| {
            // a browser sends it back to the payment page only if its path covers it
            assert!(
                text.contains("Path=/pay/") && text.contains("SameSite=Strict"),
                "{text}"
            );
        })
        .await;
        Answer {
            status: res.status().as_u16(),
            location: res
                .headers()
                .get("location")
                .map(|l| l.to_str().unwrap().to_owned()),
            html: res.text().await.unwrap(),
        }
    }

    async fn open(&mut self, path: &str) -> Answer {
        let req = self.http.get(format!("{}{path}", self.app.base));
        self.send(req).await
    }

    async fn pay(&mut self, account: &str, page: &Answer, card: &str) -> Answer {
        let mut form: Vec<(&str, String)> =
            ["csrf", "token", "quantity", "bundle_id", "redirect_url"]
                .into_iter()
                .map(|f| (f, page.field(f)))
                .collect();
        for optional in ["redirect_label", "external_id"] {
            if page.html.contains(&format!("name=\"{optional}\"")) {
                form.push((optional, page.field(optional)));
            }
        }
        form.push(("card", card.to_owned()));
        let req = self
            .http
            .post(format!("{}/pay/{account}", self.app.base))
            .form(&form);
        self.send(req).await
    }
}

fn query_of(location: &str) -> Vec<(String, String)> {
    url::Url::parse(location)
        .unwrap()
        .query_pairs()
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect()
}

async fn a_platform_sends_its_buyer_to_pay_and_reads_the_payment_back(app: TestApp) {
    app.demo_catalogue().await;
    let t = app.tenant().await;
    let bundle = app.bundle_ids(&t.test_key).await[0].clone();

    // the account's allowed origins: checked, deduplicated, sorted
    let put = |origins: Value| {
        app.send(
            app.request(Method::PUT, "/v1/lune-pay/origins", Some(&t.test_key))
                .json(&json!({ "origins": origins })),
        )
    };
    let set = put(json!([
        "https://shop.example/",
        "http://localhost:3000",
        "https://SHOP.example"
    ]))
    .await;
    assert_eq!(set.status, 200, "{}", set.body);
    assert_eq!(
        set.body["origins"],
        json!(["http://localhost:3000", "https://shop.example"])
    );
    for bad in [
        json!(["http://shop.example"]),
        json!(["https://shop.example/checkout"]),
        json!(["https://user:pw@shop.example"]),
        json!(
            (0..21)
                .map(|i| format!("https://s{i}.example"))
                .collect::<Vec<_>>()
        ),
    ] {
        let r = put(bad.clone()).await;
        assert_error(&r, 400, "validation_error");
    }
    let unknown = app
        .send(
            app.request(Method::PUT, "/v1/lune-pay/origins", Some(&t.test_key))
                .json(&json!({ "origins": [], "extra": 1 })),
        )
        .await;
    assert_eq!(unknown.status, 400, "{}", unknown.body);
    let got = app.get("/v1/lune-pay/origins", &t.test_key).await;
    assert_eq!(
        got.body["origins"],
        json!(["http://localhost:3000", "https://shop.example"])
    );
    assert_eq!(app.get("/v1/lune-pay/origins", "wrong").await.status, 401);

    let account = &t.test_account;
    let link = |redirect: &str| {
        format!(
            "/pay/{account}?quantity=1.5&bundle_id={bundle}&redirect_url={}&redirect_label=Back%20to%20the%20shop&external_id=cart-7",
            urlencode(redirect)
        )
    };
    let mut buyer = Buyer::new(&app);
    // never an open redirect: another origin, a look-alike, a script address
    for elsewhere in [
        "https://evil.example/done",
        "https://shop.example.evil.example/done",
        "javascript:alert(1)",
        "https://shop.example@evil.example/",
    ] {
        let page = buyer.open(&link(elsewhere)).await;
        assert_eq!(page.status, 400, "{elsewhere}: {}", page.html);
    }
    let missing = buyer
        .open(&format!("/pay/{}?quantity=1", "0".repeat(32)))
        .await;
    assert_eq!(missing.status, 404);
    let zero = buyer
        .open(&link("https://shop.example/done").replace("quantity=1.5", "quantity=0"))
        .await;
    assert_eq!(zero.status, 400);

    let page = buyer.open(&link("https://shop.example/done?cart=7")).await;
    assert_eq!(page.status, 200, "{}", page.html);
    assert!(page.html.contains("Offset 1.5 t of CO₂e"), "{}", page.html);
    assert!(page.html.contains("Back to the shop"));
    assert!(
        page.html
            .contains("<label for=\"card\">Card number</label>"),
        "the test simulator"
    );
    let (_, before) = app.count_estimates_and_orders().await;

    // a declined card: the page again with the reason, nothing placed
    let declined = buyer.pay(account, &page, "4000 0000 0000 0002").await;
    assert_eq!(declined.status, 402, "{}", declined.html);
    assert!(declined.html.contains("declined"));
    assert_eq!(app.count_estimates_and_orders().await.1, before);

    // paid: back to the shop with its reference and a temporary id
    let paid = buyer.pay(account, &declined, "4242 4242 4242 4242").await;
    assert_eq!(paid.status, 303, "{}", paid.html);
    let location = paid.location.clone().unwrap();
    assert!(
        location.starts_with("https://shop.example/done?cart=7&"),
        "{location}"
    );
    let query = query_of(&location);
    assert!(
        query.contains(&("external_id".into(), "cart-7".into())),
        "{query:?}"
    );
    let temporary_id = query
        .iter()
        .find(|(k, _)| k == "temporary_id")
        .map(|(_, v)| v.clone())
        .unwrap();
    // the same page sent twice: one order, the same temporary id
    let again = buyer.pay(account, &declined, "4242 4242 4242 4242").await;
    assert_eq!(again.location.as_deref(), Some(location.as_str()));
    assert_eq!(app.count_estimates_and_orders().await.1, before + 1);

    // the platform reads the payment back, without a key
    let payment = app
        .get_without_key(&format!("/v1/payments/by-temporary-id/{temporary_id}"))
        .await;
    assert_eq!(payment.status, 200, "{}", payment.body);
    assert_eq!(payment.body["type"], "order");
    let order = &payment.body["order"];
    assert_eq!(order["quantity"], "1.5");
    assert_eq!(order["payment_method"], "card");
    assert_eq!(order["metadata"]["external_id"], "cart-7");
    conforms_2024("Payment", &payment.body);
    let keyed = app
        .get(
            &format!("/v1/payments/by-temporary-id/{temporary_id}"),
            &t.live_key,
        )
        .await;
    assert_eq!(keyed.body, payment.body, "the same with or without a key");
    // an id never issued is 404; one issued over 15 minutes ago too
    let never = app
        .get_without_key(&format!(
            "/v1/payments/by-temporary-id/{}",
            uuid::Uuid::new_v4()
        ))
        .await;
    assert_error(&never, 404, "not_found");
    let store = tonne_storage::OffsetLinkStore::new(app.services.db.clone());
    let id: uuid::Uuid = temporary_id.parse().unwrap();
    let later = time::OffsetDateTime::now_utc() + time::Duration::minutes(1);
    assert_eq!(
        store.order_by_temporary_id(id, later).await.unwrap(),
        None,
        "past its time"
    );
    let order_id: tonne_ordering::OrderId = order["id"].as_str().unwrap().parse().unwrap();
    assert_eq!(
        store
            .order_by_temporary_id(
                id,
                time::OffsetDateTime::now_utc() - time::Duration::minutes(15)
            )
            .await
            .unwrap(),
        Some(order_id)
    );
    let not_uuid = app
        .get_without_key("/v1/payments/by-temporary-id/abc")
        .await;
    assert_error(&not_uuid, 400, "validation_error");

    // a live account without a card processor takes no payment here
    app.send(
        app.request(Method::PUT, "/v1/lune-pay/origins", Some(&t.live_key))
            .json(&json!({ "origins": ["https://shop.example"] })),
    )
    .await;
    let live = buyer
        .open(&format!(
            "/pay/{}?quantity=1&bundle_id={bundle}&redirect_url=https%3A%2F%2Fshop.example%2F",
            t.live_account
        ))
        .await;
    assert_eq!(live.status, 400, "{}", live.html);
    assert!(live.html.contains("not set up"), "{}", live.html);
}

fn urlencode(s: &str) -> String {
    url::form_urlencoded::byte_serialize(s.as_bytes()).collect()
}

tonne_test_support::on_both_backends!(
    with crate::support::TestApp::spawn;
    a_platform_sends_its_buyer_to_pay_and_reads_the_payment_back,
);
