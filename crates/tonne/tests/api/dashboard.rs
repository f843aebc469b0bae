//! The Grafana dashboard under `deploy/grafana/` reads only metrics Tonne
//! exports: every family its queries name is on a running server's
//! `/metrics` (or, for the families that appear with the first webhook or
//! with Redis, documented in docs/operations.md), and the definition is one
//! Grafana can import (unique panel ids, each panel queried through the
//! dashboard's data-source variable, balanced expressions).

use std::collections::BTreeSet;

use serde_json::Value;
use tonne_test_support::on_both_backends;

use crate::support::TestApp;

fn read(relative: &str) -> String {
    let path = format!("{}/../../{relative}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The metric families an expression names (`tonne_…`, without the
/// histogram suffixes).
fn families(expr: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = expr;
    while let Some(at) = rest.find("tonne_") {
        let tail = &rest[at..];
        let end = tail
            .find(|c: char| !(c.is_ascii_lowercase() || c == '_'))
            .unwrap_or(tail.len());
        let name = &tail[..end];
        let family = ["_bucket", "_sum", "_count"]
            .iter()
            .find_map(|s| name.strip_suffix(s))
            .unwrap_or(name);
        out.push(family.to_owned());
        rest = &tail[end..];
    }
    out
}

fn balanced(expr: &str) -> bool {
    let mut stack = Vec::new();
    let mut quoted = false;
    for c in expr.chars() {
        match c {
            '"' => quoted = !quoted,
            '(' | '{' | '[' if !quoted => stack.push(c),
            ')' | '}' | ']' if !quoted => {
                let open = stack.pop();
                if open
                    != Some(match c {
                        ')' => '(',
                        '}' => '{',
                        _ => '[',
                    })
                {
                    return false;
                }
            }
            _ => {}
        }
    }
    stack.is_empty() && !quoted
}

async fn the_dashboard_reads_only_metrics_tonne_exports(app: TestApp) {
    let t = app.tenant().await;
    app.get("/v1/accounts/me", &t.live_key).await;
    let metrics = app.metrics().await;
    let exported: BTreeSet<&str> = metrics
        .lines()
        .filter_map(|l| l.strip_prefix("# TYPE "))
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    let documented = read("docs/operations.md");

    let dashboard: Value = serde_json::from_str(&read("deploy/grafana/tonne-dashboard.json"))
        .expect("the dashboard is JSON");
    assert_eq!(dashboard["uid"], "tonne-overview");
    let panels = dashboard["panels"].as_array().unwrap();
    let ids: BTreeSet<i64> = panels.iter().map(|p| p["id"].as_i64().unwrap()).collect();
    assert_eq!(ids.len(), panels.len(), "panel ids are unique");
    let mut named = BTreeSet::new();
    for p in panels.iter().filter(|p| p["type"] != "row") {
        let targets = p["targets"].as_array().unwrap();
        assert!(!targets.is_empty(), "{}", p["title"]);
        for t in targets {
            assert_eq!(t["datasource"]["uid"], "${datasource}", "{}", p["title"]);
            let expr = t["expr"].as_str().unwrap();
            assert!(balanced(expr), "{expr}");
            named.extend(families(expr));
        }
    }
    // what the dashboard promises: traffic, errors and latency by route,
    // orders, webhook backlog and failures, pool saturation, rate-limit store
    for family in [
        "tonne_http_requests_total",
        "tonne_http_request_duration_seconds",
        "tonne_webhook_oldest_undelivered_event_age_seconds",
        "tonne_webhook_attempts_total",
        "tonne_db_pool_max_connections",
        "tonne_rate_limit_store_failures_total",
    ] {
        assert!(named.contains(family), "the dashboard shows {family}");
    }
    for family in &named {
        assert!(
            exported.contains(family.as_str()) || documented.contains(&format!("`{family}")),
            "{family} is neither exported now nor documented in docs/operations.md"
        );
    }
    // the families a fresh server exports are exported (not merely documented)
    for family in [
        "tonne_http_requests_total",
        "tonne_http_request_duration_seconds",
        "tonne_db_pool_connections",
        "tonne_db_pool_idle_connections",
        "tonne_db_pool_max_connections",
    ] {
        assert!(exported.contains(family), "{family}: {metrics}");
    }
}

on_both_backends!(
    with crate::support::TestApp::spawn;
    the_dashboard_reads_only_metrics_tonne_exports,
);
