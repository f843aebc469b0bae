//! Transaction documents, multi-match transaction estimates and business
//! analytics, end to end.

mod documents;
mod durable;
mod fixtures;
mod multi_match_and_analytics;

use documents::{
    a_receipt_becomes_line_items_read_back_and_annotated,
    bad_documents_are_refused_and_nothing_is_written,
    the_async_route_queues_a_job_whose_estimate_reads_at_its_location,
    travel_activity_and_fallback_follow_the_clients_union,
};
use multi_match_and_analytics::{
    business_analytics_sum_actual_estimates_by_category,
    multi_match_ranks_candidates_stored_as_transactions,
};
use tonne_test_support::on_both_backends;

pub(crate) use fixtures::receipt;

on_both_backends!(
    with crate::support::TestApp::spawn;
    a_receipt_becomes_line_items_read_back_and_annotated,
    travel_activity_and_fallback_follow_the_clients_union,
    bad_documents_are_refused_and_nothing_is_written,
    multi_match_ranks_candidates_stored_as_transactions,
    business_analytics_sum_actual_estimates_by_category,
    the_async_route_queues_a_job_whose_estimate_reads_at_its_location,
);
