//! `ShipmentStore` (the shipments domain's `ShipmentRepository`) on SQLite
//! and PostgreSQL: batches and their results, idempotency, the durable jobs'
//! leases and exactly-once row processing, the list's filters and pages,
//! accounts kept apart, and the calculation's walk.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

mod batches;
mod calculations;
mod fixtures;
mod leases;
mod listing;
mod processes;

use tonne_test_support::on_both_backends;

use batches::{
    a_batch_and_its_results_round_trip, a_used_idempotency_key_writes_nothing,
    the_largest_batch_is_stored_at_once,
};
use calculations::a_calculation_walks_its_shipments_and_saves_their_emissions;
use leases::{
    a_lease_runs_out_and_another_worker_takes_the_batch_over,
    a_row_already_processed_undoes_the_whole_chunk, concurrent_workers_never_share_a_batch,
};
use listing::{
    accounts_see_only_their_own, every_filter_selects_its_shipments,
    pages_follow_one_another_newest_first,
};
use processes::{
    a_process_killed_mid_batch_leaves_each_row_processed_once,
    two_processes_never_process_a_row_twice,
};

on_both_backends!(
    a_batch_and_its_results_round_trip,
    a_used_idempotency_key_writes_nothing,
    a_lease_runs_out_and_another_worker_takes_the_batch_over,
    a_row_already_processed_undoes_the_whole_chunk,
    concurrent_workers_never_share_a_batch,
    every_filter_selects_its_shipments,
    pages_follow_one_another_newest_first,
    accounts_see_only_their_own,
    a_calculation_walks_its_shipments_and_saves_their_emissions,
    the_largest_batch_is_stored_at_once,
    a_process_killed_mid_batch_leaves_each_row_processed_once,
    two_processes_never_process_a_row_twice,
);
