//! Offset links end to end: the API against the contract (every 4xx, isolation
//! between accounts and organisations, nothing written when refused), and the
//! hosted pages over plain HTTP — CSRF, the allow-list, bounds, one order per
//! token, the card step, 404/410 pages, escaping, and the analytics they feed.

mod api;
mod fixtures;
mod hosted_pages;
mod visitor;

use tonne_test_support::on_both_backends;

use api::*;
use hosted_pages::*;
pub(crate) use visitor::{Page, Visitor, hidden_field, send_with_csrf_cookie};

mod limits {
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn sqlite() {
        super::hosted_pages_are_rate_limited_per_client_ip(tonne_test_support::TestDb::sqlite())
            .await;
    }
}

on_both_backends!(
    with crate::support::TestApp::spawn;
    live_links_wait_for_the_operator_and_analytics_open_by_a_signed_url,
    api_per_contract_and_refusals_write_nothing,
    hosted_pages_place_one_order_through_the_link,
    the_card_step_declines_without_placing_and_accepts_the_test_card,
);
