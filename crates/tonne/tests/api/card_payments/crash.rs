//! kill -9 between the card's authorisation and the order's placement: the
//! server process dies after Stripe authorised the card and before Tonne
//! heard back; nothing is placed and nothing captured. The buyer's browser
//! resends the same checkout to a restarted server: Stripe answers the same
//! idempotency keys with the same PaymentIntent (as Stripe does for 24 h), so
//! the card is authorised once, the order placed once and the payment
//! captured once.
//!
//! localstripe keeps no idempotency keys, so the test puts a small proxy in
//! front of it that replays a key's first answer, as Stripe documents; the
//! proxy also holds back the confirmation's answer (the moment of the crash).

use std::collections::HashMap;
use std::process::Child;
use std::sync::{Arc, Mutex};

use serde_json::Value;
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
use tokio::net::TcpListener;
use tokio::sync::Notify;
use tonne_test_support::TestDb;

use super::{card_set_up, paid_link, stripe_url};
use crate::offset_links::Visitor;
use crate::support::{TestApp, json_of};

/// The answers given per idempotency key, and whether a confirmation's
/// answer is held back (then `confirmed` is told).
struct Proxy {
    upstream: String,
    replies: Mutex<HashMap<String, (u16, String)>>,
    hold_confirmations: Mutex<bool>,
    confirmed: Notify,
}

async fn read_request(
    stream: &mut tokio::net::TcpStream,
) -> Option<(String, String, Vec<(String, String)>, Vec<u8>)> {
    let mut buf = Vec::new();
    let mut chunk = [0_u8; 4096];
    let head_end = loop {
        let n = stream.read(&mut chunk).await.ok()?;
        if n == 0 {
            return None;
        }
        buf.extend_from_slice(&chunk[..n]);
        if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break i + 4;
        }
    };
    let head = String::from_utf8_lossy(&buf[..head_end]).into_owned();
    let mut lines = head.lines();
    let mut first = lines.next()?.split_whitespace();
    let (method, path) = (first.next()?.to_owned(), first.next()?.to_owned());
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    let length: usize = headers
        .iter()
        .find(|(k, _)| k == "content-length")
        .and_then(|(_, v)| v.parse().ok())
        .unwrap_or(0);
    let mut body = buf[head_end..].to_vec();
    while body.len() < length {
        let n = stream.read(&mut chunk).await.ok()?;
        if n == 0 {
            break;
        }
        body.extend_from_slice(&chunk[..n]);
    }
    Some((method, path, headers, body))
}

impl Proxy {
    async fn start(upstream: &str) -> (Arc<Self>, String) {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let proxy = Arc::new(Self {
            upstream: upstream.to_owned(),
            replies: Mutex::new(HashMap::new()),
            hold_confirmations: Mutex::new(true),
            confirmed: Notify::new(),
        });
        let p = proxy.clone();
        tokio::spawn(async move {
            loop {
                let Ok((mut stream, _)) = listener.accept().await else {
                    return;
                };
                let p = p.clone();
                tokio::spawn(async move { p.serve(&mut stream).await });
            }
        });
        (proxy, base)
    }

    async fn serve(&self, stream: &mut tokio::net::TcpStream) {
        let Some((method, path, headers, body)) = read_request(stream).await else {
            return;
        };
        let header = |name: &str| {
            headers
                .iter()
                .find(|(k, _)| k == name)
                .map(|(_, v)| v.clone())
        };
        let key = header("idempotency-key");
        let cached = key
            .as_ref()
            .and_then(|k| self.replies.lock().unwrap().get(k).cloned());
        let (status, reply) = match cached {
            Some(hit) => hit,
            None => {
                let mut req = reqwest::Client::new()
                    .request(method.parse().unwrap(), format!("{}{path}", self.upstream))
                    .body(body);
                for name in [
                    "authorization",
                    "content-type",
                    "stripe-version",
                    "idempotency-key",
                ] {
                    if let Some(v) = header(name) {
                        req = req.header(name, v);
                    }
                }
                let res = req.send().await.unwrap();
                let got = (res.status().as_u16(), res.text().await.unwrap());
                if let Some(k) = &key {
                    self.replies.lock().unwrap().insert(k.clone(), got.clone());
                }
                got
            }
        };
        let hold = path.ends_with("/confirm") && *self.hold_confirmations.lock().unwrap();
        if hold {
            // Stripe authorised the card; the server never hears it
            self.confirmed.notify_one();
            tokio::time::sleep(std::time::Duration::from_secs(600)).await;
            return;
        }
        let answer = format!(
            "HTTP/1.1 {status} X\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{reply}",
            reply.len()
        );
        let _ = stream.write_all(answer.as_bytes()).await;
    }
}

const SECRETS_KEY: &str = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";

/// `tonne serve` as its own process over `database_url`, its live mode's
/// Stripe at `stripe`; its address. The caller kills and waits for it.
fn serve(database_url: &str, stripe: &str, js: &str) -> (Child, String) {
    let (child, addr) = crate::support::process::serve(
        crate::support::process::serve_command(database_url)
            .args([
                "--stripe-secret-key",
                "sk_live_tonne",
                "--stripe-publishable-key",
                "pk_live_tonne",
            ])
            .args(["--stripe-api-url", stripe, "--stripe-js-url", js])
            .env("TONNE_METRICS_BIND", "127.0.0.1:0")
            .env("TONNE_SECRETS_KEY", SECRETS_KEY),
    );
    (child, format!("http://{addr}"))
}

async fn intents_of(url: &str, checkout: &str) -> Vec<Value> {
    let list = json_of(
        reqwest::Client::new()
            .get(format!("{url}/v1/payment_intents?limit=100"))
            .bearer_auth("sk_live_tonne"),
    )
    .await;
    list["data"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|pi| pi["metadata"]["tonne_checkout"] == checkout)
        .cloned()
        .collect()
}

async fn a_crash_between_authorisation_and_placement_loses_nothing(db: TestDb) {
    let Some(url) = stripe_url() else { return };
    let app = TestApp::spawn(db).await;
    app.demo_catalogue().await;
    let t = app.tenant().await;
    let bundles = app.bundle_ids(&t.live_key).await;
    let link = paid_link(&app, &t.live_key, &bundles[0], "20.00").await;
    assert_eq!(link.status, 200, "{}", link.body);
    let id = link.body["id"].as_str().unwrap().to_owned();
    let (proxy, stripe) = Proxy::start(&url).await;
    let js = format!("{url}/js.stripe.com/v3/");

    let (mut first, base) = serve(&app.database_url, &stripe, &js);
    let mut v = Visitor::at(&base);
    let (chosen, confirm) = v.quote(&id, &bundles[0]).await;
    let choice = chosen.form();
    assert_eq!(confirm.status, 200, "{}", confirm.html);
    let token = confirm.field("token");
    let pm = card_set_up(&url, &confirm, "4242424242424242").await;
    let mut form: Vec<(String, String)> = choice
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect();
    form.push(("token".into(), token.clone()));
    form.push(("payment_method".into(), pm));

    // the order's submit: Stripe authorises, and the server is killed before it hears
    let submit = {
        let (base, id, form, cookie) = (
            base.clone(),
            id.clone(),
            form.clone(),
            v.cookie.clone().unwrap(),
        );
        tokio::spawn(async move {
            reqwest::Client::new()
                .post(format!("{base}/l/{id}/order"))
                .header("Cookie", format!("tonne_csrf={cookie}"))
                .form(&form)
                .send()
                .await
        })
    };
    tokio::time::timeout(
        std::time::Duration::from_secs(60),
        proxy.confirmed.notified(),
    )
    .await
    .expect("Stripe was asked to confirm the card");
    first.kill().unwrap(); // SIGKILL: no shutdown, no cleanup
    first.wait().unwrap();
    assert!(
        submit.await.unwrap().is_err(),
        "the buyer's browser saw the connection drop"
    );

    let checkout = format!("offset-link-{token}");
    let authorised = intents_of(&url, &checkout).await;
    assert_eq!(authorised.len(), 1, "{authorised:?}");
    assert_eq!(
        authorised[0]["status"], "requires_capture",
        "authorised, not captured"
    );
    let (_, orders) = app.count_estimates_and_orders().await;
    assert_eq!(orders, 0, "nothing placed");

    // restarted; the browser resends the same form
    *proxy.hold_confirmations.lock().unwrap() = false;
    let (mut second, base) = serve(&app.database_url, &stripe, &js);
    let mut again = Visitor::at(&base);
    again.cookie = v.cookie.clone();
    let form: Vec<(&str, &str)> = form.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let placed = again.post(&id, "order", &form).await;
    assert_eq!(placed.status, 200, "{}", placed.html);
    let order_id = placed.order_id();
    // and once more (a reload of the answer): the same order
    assert_eq!(again.post(&id, "order", &form).await.order_id(), order_id);

    let (_, orders) = app.count_estimates_and_orders().await;
    assert_eq!(orders, 1, "placed once");
    let order = app
        .get(&format!("/v1/orders/{order_id}"), &t.live_key)
        .await;
    assert_eq!(
        (
            order.body["status"].as_str(),
            order.body["payment_method"].as_str()
        ),
        (Some("paid"), Some("card"))
    );
    let intents = intents_of(&url, &checkout).await;
    assert_eq!(intents.len(), 1, "authorised once: {intents:?}");
    assert_eq!(intents[0]["status"], "succeeded", "captured once");
    assert_eq!(intents[0]["amount"], 2_000);
    let stored = app.services.ordering.order(&order_id).await.unwrap();
    assert_eq!(
        stored.payment_reference.as_deref(),
        intents[0]["id"].as_str()
    );
    second.kill().unwrap();
    second.wait().unwrap();
}

tonne_test_support::on_both_backends!(a_crash_between_authorisation_and_placement_loses_nothing);
