//! Order repository contract tests on SQLite and PostgreSQL.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

mod estimates;
mod fixtures;
mod lifecycle;
mod lists;

use tonne_test_support::on_both_backends;

use estimates::{
    an_estimate_idempotency_key_is_taken_once_per_account,
    an_estimate_is_ordered_once_and_then_frozen,
    estimates_are_stored_together_read_per_account_and_updated_in_place,
};
use lifecycle::{
    inventory_never_goes_below_zero_under_concurrency,
    placing_writes_the_order_its_reservation_and_its_event_together,
    transitions_are_conditional_atomic_with_their_event_and_release_on_cancel,
};
use lists::{
    an_organisations_orders_are_listed_per_mode_and_read_only_by_it,
    lists_are_most_recent_first_by_keyset,
    the_operator_queue_lists_live_orders_awaiting_action_by_organisation_and_status,
};

on_both_backends!(
    placing_writes_the_order_its_reservation_and_its_event_together,
    inventory_never_goes_below_zero_under_concurrency,
    transitions_are_conditional_atomic_with_their_event_and_release_on_cancel,
    lists_are_most_recent_first_by_keyset,
    the_operator_queue_lists_live_orders_awaiting_action_by_organisation_and_status,
    an_organisations_orders_are_listed_per_mode_and_read_only_by_it,
    estimates_are_stored_together_read_per_account_and_updated_in_place,
    an_estimate_is_ordered_once_and_then_frozen,
    an_estimate_idempotency_key_is_taken_once_per_account,
);
