//! Emission estimates and orders by estimate, end to end.

mod current_clients;
mod fixtures;
mod input;
mod kinds;
mod lifecycle;
mod shipping;

use tonne_test_support::on_both_backends;

use current_clients::*;
pub(crate) use fixtures::company;
use input::*;
use kinds::*;
use lifecycle::*;
use shipping::*;

on_both_backends!(
    with crate::support::TestApp::spawn;
    shipping_estimates_are_listed_by_page_and_filter,
    logistics_site_estimates_alone_and_as_a_leg,
    shipping_from_address_to_address,
    every_kind_answers_the_contracts_shape_with_a_quote,
    stored_estimates_are_read_recomputed_in_place_and_private,
    an_estimate_is_ordered_once_and_then_frozen,
    a_batch_answers_every_entry_in_order,
    bad_input_gets_the_contracts_codes,
    current_clients_requests_are_accepted_with_their_meaning,
    passenger_estimates_are_read_back,
    one_idempotency_key_under_concurrency_makes_one_estimate,
);
