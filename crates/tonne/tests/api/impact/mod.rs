//! Analytics and sustainability pages end to end: figures that add up to the
//! orders and estimates the API answered, modes and organisations that never
//! mix, every refusal with its code and nothing written, the public page as the
//! contract's JSON and as HTML (escaped, only what the owner chose).

mod analytics;
mod fixtures;
mod sustainability_pages;

use tonne_test_support::on_both_backends;

use analytics::*;
use sustainability_pages::*;

on_both_backends!(
    with crate::support::TestApp::spawn;
    analytics_add_up_to_the_orders_and_never_mix_modes,
    emission_calculations_count_estimates_by_day_and_kind,
    sustainability_pages_per_contract_and_refusals_write_nothing,
);
