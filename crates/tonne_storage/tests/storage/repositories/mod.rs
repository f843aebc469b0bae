//! Repository contract tests: every case runs on SQLite and on PostgreSQL
//! (the latter when `TONNE_TEST_POSTGRES_URL` is set; mandatory under `CI=true`).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

mod account_caches;
mod accounts;
mod api_keys;
mod catalogue_cases;
mod fixtures;
mod organisations;

use tonne_storage::AccountStore;
use tonne_test_support::{TestDb, on_both_backends};

use account_caches::{
    a_cached_account_is_forgotten_when_changed_within_its_ttl,
    a_following_cache_forgets_an_account_changed_elsewhere_at_once,
};
use accounts::{
    a_client_idempotency_key_creates_exactly_one_account,
    accounts_are_found_by_handle_or_idempotency_key,
    activity_counts_and_sums_each_accounts_estimates, handles_are_unique_per_organisation_and_mode,
    logos_round_trip_and_replace_the_previous_one,
};
use api_keys::{
    a_cached_key_sees_revocation_elsewhere_within_its_ttl,
    a_following_cache_forgets_a_key_revoked_elsewhere_at_once,
    keys_are_found_by_hash_listed_and_revoked,
};
use fixtures::seeded;
use organisations::{
    a_broken_pair_writes_nothing, an_update_renames_the_sibling_atomically,
    lists_page_by_keyset_within_organisation_mode_and_scope, organisations_and_pairs_round_trip,
    organisations_are_listed_oldest_first_by_keyset,
};

async fn migrations_revert_and_reapply(t: TestDb) {
    t.db().revert_all().unwrap();
    let applied = t.db().migrate().unwrap();
    assert!(!applied.is_empty());
    assert!(
        t.db().migrate().unwrap().is_empty(),
        "a second run applies nothing"
    );
    let repo = AccountStore::new(t.db().clone());
    seeded(&repo).await;
}

on_both_backends!(
    accounts_are_found_by_handle_or_idempotency_key,
    migrations_revert_and_reapply,
    organisations_are_listed_oldest_first_by_keyset,
    organisations_and_pairs_round_trip,
    a_broken_pair_writes_nothing,
    lists_page_by_keyset_within_organisation_mode_and_scope,
    an_update_renames_the_sibling_atomically,
    handles_are_unique_per_organisation_and_mode,
    a_client_idempotency_key_creates_exactly_one_account,
    activity_counts_and_sums_each_accounts_estimates,
    logos_round_trip_and_replace_the_previous_one,
    keys_are_found_by_hash_listed_and_revoked,
    a_cached_key_sees_revocation_elsewhere_within_its_ttl,
    a_following_cache_forgets_a_key_revoked_elsewhere_at_once,
    a_cached_account_is_forgotten_when_changed_within_its_ttl,
    a_following_cache_forgets_an_account_changed_elsewhere_at_once,
);

#[test]
fn migration_folders_match() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../migrations");
    let list = |side: &str| {
        let mut names: Vec<String> = std::fs::read_dir(root.join(side))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    };
    assert_eq!(list("postgres"), list("sqlite"));
    for name in list("postgres") {
        for side in ["postgres", "sqlite"] {
            for file in ["up.sql", "down.sql"] {
                assert!(
                    root.join(side).join(&name).join(file).is_file(),
                    "{side}/{name}/{file}"
                );
            }
        }
    }
}

mod catalogue_sqlite {
    #[tokio::test]
    async fn import_is_idempotent_and_reads_back() {
        super::catalogue_cases::import_is_idempotent_and_reads_back(
            tonne_test_support::TestDb::sqlite(),
        )
        .await;
    }

    #[tokio::test]
    async fn an_account_follows_a_portfolio_until_it_sets_its_own_selection() {
        super::catalogue_cases::an_account_follows_a_portfolio_until_it_sets_its_own_selection(
            tonne_test_support::TestDb::sqlite(),
        )
        .await;
    }
}

mod catalogue_postgres {
    #[tokio::test]
    async fn import_is_idempotent_and_reads_back() {
        if let Some(db) = tonne_test_support::TestDb::postgres() {
            super::catalogue_cases::import_is_idempotent_and_reads_back(db).await;
        }
    }

    #[tokio::test]
    async fn an_account_follows_a_portfolio_until_it_sets_its_own_selection() {
        if let Some(db) = tonne_test_support::TestDb::postgres() {
            super::catalogue_cases::an_account_follows_a_portfolio_until_it_sets_its_own_selection(
                db,
            )
            .await;
        }
    }
}
