//! Delivery: signed, in order, retried, disabled and resumed; several dispatchers.

mod lifecycle;
mod ordering;
mod resilience;

use lifecycle::{exhausted_schedule_disables_then_re_enabling_resumes, rotation_deletion_and_gone};
use ordering::{
    a_new_webhook_starts_after_the_events_before_it,
    allocations_follow_their_orders_events_signed_and_in_order,
    orders_reach_the_receiver_signed_in_order_filtered_and_by_mode,
};
use resilience::{chaos_loses_nothing_and_keeps_order, two_dispatchers_one_killed};

tonne_test_support::on_both_backends!(
    orders_reach_the_receiver_signed_in_order_filtered_and_by_mode,
    a_new_webhook_starts_after_the_events_before_it,
    allocations_follow_their_orders_events_signed_and_in_order,
    rotation_deletion_and_gone,
    exhausted_schedule_disables_then_re_enabling_resumes,
    chaos_loses_nothing_and_keeps_order
);

/// Several dispatchers are a PostgreSQL feature (SQLite runs exactly one).
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn postgres_two_dispatchers_one_killed() {
    if let Some(db) = tonne_test_support::TestDb::postgres() {
        two_dispatchers_one_killed(db).await;
    }
}
