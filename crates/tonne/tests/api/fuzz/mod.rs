//! Property test over the accounts, catalogue, order, quote and estimate
//! endpoints: whatever is sent, the answer is never a 5xx, every error has the
//! contract's `Errors` shape, a refused request writes nothing (accounts,
//! estimates, orders), and the server keeps serving.

mod estimates;
mod json_values;
mod requests;

use tonne_test_support::TestDb;

use estimates::run_estimates;

/// A runtime of two workers, for the proptest runners (which are not async).
fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap()
}
use requests::run;

#[test]
fn no_input_makes_the_accounts_api_fail_or_write_on_sqlite() {
    run(TestDb::sqlite(), 300);
}

#[test]
fn no_input_makes_the_accounts_api_fail_or_write_on_postgres() {
    if let Some(db) = TestDb::postgres() {
        run(db, 150);
    }
}

#[test]
fn mutated_estimate_requests_never_fail_or_write_when_refused_on_sqlite() {
    run_estimates(TestDb::sqlite(), 250);
}

#[test]
fn mutated_estimate_requests_never_fail_or_write_when_refused_on_postgres() {
    if let Some(db) = TestDb::postgres() {
        run_estimates(db, 100);
    }
}
