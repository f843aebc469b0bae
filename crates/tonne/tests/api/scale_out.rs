//! Several server processes as one service: the rate limit shared through
//! Redis, a key revoked through one process refused by another within 1 s,
//! an account changed through one answered changed by another within 1 s.

use std::time::{Duration, Instant};

use serde_json::json;
use tonne_http::rate_limit::RatePolicy;
use tonne_kernel::{AccountMode, OrganisationId};
use tonne_test_support::{TestDb, redis_url, unique_prefix};

use crate::support::{TestApp, assert_error};

/// Two servers on one database and one Redis draw on one budget per key: a
/// burst of 4 is spent across both, the 5th request is refused by either.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_servers_share_one_rate_limit_through_redis() {
    let Some(db) = TestDb::postgres() else { return };
    let Some(redis) = redis_url() else { return };
    let prefix = unique_prefix();
    let tweak = |o: &mut tonne::server::ServeOptions| {
        o.rate = RatePolicy {
            per_second: 1,
            burst: 4,
        };
        o.redis_url = Some(redis.clone());
        o.redis_prefix.clone_from(&prefix);
    };
    let a = TestApp::spawn_with(db, tweak).await;
    let b = a.sibling(tweak).await;
    let t = a.tenant().await;
    let mut statuses = Vec::new();
    for i in 0..4 {
        let app = if i % 2 == 0 { &a } else { &b };
        let res = app.get("/v1/accounts/me", &t.live_key).await;
        statuses.push(res.status.as_u16());
        assert_eq!(
            res.header("ratelimit").map(str::to_owned),
            Some(format!("limit=4, remaining={}, reset={}", 3 - i, i + 1)),
            "request {i}"
        );
    }
    assert_eq!(statuses, [200, 200, 200, 200]);
    for app in [&a, &b] {
        let res = app.get("/v1/accounts/me", &t.live_key).await;
        assert_error(&res, 429, "rate_limit_exceeded");
        assert_eq!(res.header("retry-after"), Some("1"));
    }
    // Another key has its own budget.
    assert_eq!(
        b.get("/v1/accounts/me", &t.test_key).await.status.as_u16(),
        200
    );
}

/// Server A caches a key (for a minute); the key is revoked through server B;
/// A refuses it within a second, long before its cache would expire.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_key_revoked_through_one_server_is_refused_by_another_within_a_second() {
    let Some(db) = TestDb::postgres() else { return };
    let tweak = |o: &mut tonne::server::ServeOptions| o.key_cache_ttl = Duration::from_secs(60);
    let a = TestApp::spawn_with(db, tweak).await;
    let b = a.sibling(tweak).await;
    let t = a.tenant().await;
    assert_eq!(
        a.get("/v1/accounts/me", &t.live_key).await.status.as_u16(),
        200
    );
    assert_eq!(
        b.get("/v1/accounts/me", &t.live_key).await.status.as_u16(),
        200
    );

    let org: OrganisationId = t.organisation_id.parse().unwrap();
    let keys = b.services.accounts.list_keys(org).await.unwrap();
    let live = keys
        .iter()
        .find(|k| k.mode == AccountMode::Live)
        .expect("the live key");
    let revoked_at = Instant::now();
    b.services
        .accounts
        .revoke_key(live.id, &tonne_kernel::Actor::CommandLine)
        .await
        .unwrap();

    let waited = loop {
        let res = a.get("/v1/accounts/me", &t.live_key).await;
        let waited = revoked_at.elapsed();
        if res.status.as_u16() == 401 {
            break waited;
        }
        assert!(
            waited < Duration::from_secs(5),
            "still accepted after {waited:?}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    eprintln!("revocation reached the other server after {waited:?}");
    assert!(
        waited < Duration::from_secs(1),
        "refused only after {waited:?}"
    );
    // The test key of the organisation still works on both.
    assert_eq!(
        a.get("/v1/accounts/me", &t.test_key).await.status.as_u16(),
        200
    );
}

/// Two servers over one PostgreSQL database, each caching accounts for a
/// minute: an account renamed through B is answered with its new name by A
/// within a second (the change is announced on commit), and so is the other
/// account of its pair, renamed with it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_account_changed_through_one_server_is_answered_changed_by_another_within_a_second() {
    let Some(db) = TestDb::postgres() else { return };
    let tweak = |o: &mut tonne::server::ServeOptions| o.key_cache_ttl = Duration::from_secs(60);
    let a = TestApp::spawn_with(db, tweak).await;
    let b = a.sibling(tweak).await;
    let t = a.tenant().await;
    for key in [&t.live_key, &t.test_key] {
        let me = a.get("/v1/accounts/me", key).await;
        assert_eq!(me.body["name"], "Acme", "{}", me.body);
    }

    let changed_at = Instant::now();
    let res = b
        .put(
            &format!("/v1/accounts/{}", t.live_account),
            &t.live_key,
            &json!({"name": "Renamed"}),
        )
        .await;
    assert_eq!(res.status.as_u16(), 200, "{}", res.body);
    for key in [&t.live_key, &t.test_key] {
        let waited = loop {
            let me = a.get("/v1/accounts/me", key).await;
            let waited = changed_at.elapsed();
            if me.body["name"] == "Renamed" {
                break waited;
            }
            assert!(
                waited < Duration::from_secs(5),
                "still the old name after {waited:?}: {}",
                me.body
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        };
        assert!(
            waited < Duration::from_secs(1),
            "renamed only after {waited:?}"
        );
    }
}
