//! The impact migration's backfill: reverted and applied again, it computes
//! what the stores keep.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use diesel::prelude::*;
use diesel_migrations::{EmbeddedMigrations, MigrationHarness, embed_migrations};
use time::macros::date;
use tonne_impact::DateRange;
use tonne_impact::ports::{Basis, ImpactRepository};
use tonne_kernel::AccountId;
use tonne_storage::{DatabaseUrl, ImpactStore};
use tonne_test_support::TestDb;

use super::fixtures::{Accounts, LAST, estimates, scenario};

/// What the impact store answers of the scenario's accounts.
async fn answers(impact: &ImpactStore, accounts: &Accounts, client: AccountId) -> Vec<String> {
    let mut out = Vec::new();
    for account in [
        accounts.live.id,
        accounts.test.id,
        accounts.other.id,
        client,
    ] {
        for basis in [Basis::Placed, Basis::Completed] {
            out.push(format!(
                "{:?}",
                impact
                    .bundle_days(account, None, LAST, basis)
                    .await
                    .unwrap()
            ));
            out.push(format!(
                "{:?}",
                impact.project_sums(account, None, basis).await.unwrap()
            ));
            // the monthly rows, which the migration after it backfills
            out.push(format!(
                "{:?} {:?}",
                impact
                    .bundle_totals(account, None, date!(2026 - 12 - 31), basis)
                    .await
                    .unwrap(),
                impact.month_totals(account, basis).await.unwrap()
            ));
        }
    }
    let range = DateRange::new(date!(2026 - 01 - 01), LAST).unwrap();
    out.push(format!(
        "{:?}",
        impact
            .estimate_days(vec![accounts.live.id, client, accounts.other.id], range)
            .await
            .unwrap()
    ));
    out
}

const POSTGRES_MIGRATIONS: EmbeddedMigrations = embed_migrations!("../../migrations/postgres");

const SQLITE_MIGRATIONS: EmbeddedMigrations = embed_migrations!("../../migrations/sqlite");

const IMPACT_MIGRATION: &str = "20261126000100";

/// Reverts migrations down to and including the impact one, and applies them again.
fn redo_impact<C, D>(conn: &mut C, source: fn() -> EmbeddedMigrations) -> QueryResult<()>
where
    D: diesel::backend::Backend,
    C: MigrationHarness<D>,
{
    let fail = |e: Box<dyn std::error::Error + Send + Sync>| {
        diesel::result::Error::QueryBuilderError(e.to_string().into())
    };
    loop {
        let reverted = conn.revert_last_migration(source()).map_err(fail)?;
        let version: String = reverted
            .to_string()
            .chars()
            .filter(char::is_ascii_digit)
            .collect();
        if version == IMPACT_MIGRATION {
            break;
        }
    }
    conn.run_pending_migrations(source()).map_err(fail)?;
    Ok(())
}

pub(super) async fn the_migration_backfills_what_the_stores_keep(t: TestDb) {
    let accounts = scenario(&t).await;
    let client = estimates(&t, &accounts).await;
    let impact = ImpactStore::new(t.db().clone());
    let kept = answers(&impact, &accounts, client.id).await;
    // On a connection of its own that the migration harness can drive (a
    // thread of its own: diesel-async's wrapper runs a runtime of its own).
    let url = t.db().url().clone();
    std::thread::spawn(move || match url {
        DatabaseUrl::Postgres(url) => {
            type Pg = diesel_async::async_connection_wrapper::AsyncConnectionWrapper<
                diesel_async::AsyncPgConnection,
            >;
            redo_impact(&mut Pg::establish(&url).unwrap(), || POSTGRES_MIGRATIONS)
        }
        DatabaseUrl::Sqlite(path) => redo_impact(
            &mut diesel::SqliteConnection::establish(&path.to_string_lossy()).unwrap(),
            || SQLITE_MIGRATIONS,
        ),
    })
    .join()
    .unwrap()
    .unwrap();
    assert_eq!(answers(&impact, &accounts, client.id).await, kept);
}
