//! Hosted pages cannot drain stock or bill a client without limit: an
//! anonymous order on a public link is held to the link's per-order limits
//! (mass and value), its daily count and mass, and a daily count per visitor
//! address — also when orders race — and stock held by an order nobody
//! confirmed comes back when the hold ends. Every refusal leaves the stock as
//! it was. On SQLite and PostgreSQL.

mod fixtures;
mod limits;
mod owner_console;
mod races_and_holds;

use tonne_test_support::{TestDb, on_both_backends};

use crate::support::TestApp;
use limits::{
    a_link_takes_no_more_orders_or_tonnes_a_day_than_its_owner_allows,
    an_order_above_the_per_order_limit_is_refused_and_takes_no_stock,
    one_visitor_address_places_no_more_orders_a_day_than_the_link_allows,
};
use owner_console::the_owner_sets_the_limits_in_the_console_and_the_page_keeps_to_them;
use races_and_holds::{
    an_unconfirmed_hosted_order_expires_and_its_stock_comes_back,
    concurrent_orders_cannot_pass_a_limit,
};

/// The server with the hosted pages' per-IP rate limit out of the way (these
/// tests count orders, not requests) and a two-second hold.
async fn spawn(db: TestDb) -> TestApp {
    TestApp::spawn_with(db, |o| {
        o.page_rate = tonne_http::rate_limit::RatePolicy {
            per_second: 100_000,
            burst: 100_000,
        };
        o.links.hold = time::Duration::seconds(2);
    })
    .await
}

on_both_backends!(
    with crate::security::links::spawn;
    an_order_above_the_per_order_limit_is_refused_and_takes_no_stock,
    a_link_takes_no_more_orders_or_tonnes_a_day_than_its_owner_allows,
    one_visitor_address_places_no_more_orders_a_day_than_the_link_allows,
    concurrent_orders_cannot_pass_a_limit,
    an_unconfirmed_hosted_order_expires_and_its_stock_comes_back,
    the_owner_sets_the_limits_in_the_console_and_the_page_keeps_to_them,
);
