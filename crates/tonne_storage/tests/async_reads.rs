//! One-statement reads on PostgreSQL run on asynchronous connections, a pool
//! per thread (`Db::load`). These cases check what that path adds beyond the
//! repository contract tests (which run every read on both backends): a
//! connection the server closed is replaced, each thread reads on its own
//! connections, and dropping the handle closes them.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::{Duration, Instant};

use diesel::RunQueryDsl as _;
use time::macros::datetime;
use tonne_accounts::ports::{AccountRepository, StoreError};
use tonne_accounts::{
    Account, AccountId, AccountName, AccountScope, ExternalPagesVisibility, Organisation,
    OrganisationType,
};
use tonne_kernel::{AccountMode, Currency, Money, OrganisationId, UuidV7Generator};
use tonne_storage::{AccountStore, AnyConnection, DatabaseUrl, Db, PoolSettings};
use tonne_test_support::TestDb;

async fn seeded(repo: &AccountStore) -> AccountId {
    let at = datetime!(2026-03-04 05:06:07 UTC);
    let org = Organisation {
        id: OrganisationId::generate(&UuidV7Generator),
        name: "Org".into(),
        organisation_type: OrganisationType::Supplier,
        created_at: at,
    };
    let account = |mode| Account {
        id: AccountId::generate(&UuidV7Generator),
        organisation_id: org.id,
        mode,
        scope: AccountScope::Account,
        sibling_id: None,
        name: AccountName::parse("Reader").unwrap(),
        handle: None,
        external_pages_visibility: ExternalPagesVisibility::Hidden,
        organisation_type: OrganisationType::Supplier,
        idempotency_key: None,
        currency: Currency::Eur,
        balance: Money::zero(Currency::Eur),
        balance_outstanding: Money::zero(Currency::Eur),
        logo: None,
        beneficiary: None,
        bundle_portfolio_id: None,
        created_at: at,
        updated_at: at,
    };
    let mut live = account(AccountMode::Live);
    let mut test = account(AccountMode::Test);
    live.sibling_id = Some(test.id);
    test.sibling_id = Some(live.id);
    repo.create_organisation(&org, &live, &test, None)
        .await
        .unwrap();
    live.id
}

/// Sessions open on the test database, other than those of `db`'s own pool
/// (which asks).
async fn sessions(db: &Db, terminate: bool) -> i64 {
    let sql = if terminate {
        "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity \
         WHERE datname = current_database() AND pid <> pg_backend_pid()"
    } else {
        "SELECT count(*) FROM pg_stat_activity \
         WHERE datname = current_database() AND pid <> pg_backend_pid()"
    };
    db.read(move |conn| match conn {
        AnyConnection::Postgresql(c) => diesel::select(
            diesel::dsl::sql::<diesel::sql_types::BigInt>(&format!("({sql})")),
        )
        .get_result::<i64>(c),
        AnyConnection::Sqlite(_) => unreachable!("PostgreSQL only"),
    })
    .await
    .map(|n| {
        if terminate {
            n
        } else {
            n - (i64::from(db.status().connections) - 1)
        }
    })
    .unwrap()
}

fn own_handle(t: &TestDb) -> Db {
    Db::connect(
        &DatabaseUrl::Postgres(t.url().to_owned()),
        PoolSettings {
            max_size: 1,
            ..PoolSettings::default()
        },
    )
    .unwrap()
}

#[tokio::test]
async fn a_read_after_the_server_closed_its_connection_fails_at_most_once() {
    let Some(t) = TestDb::postgres() else { return };
    let db = own_handle(&t);
    let repo = AccountStore::new(db.clone());
    let id = seeded(&repo).await;
    assert!(repo.get(id).await.unwrap().is_some());
    assert!(
        sessions(t.db(), true).await >= 1,
        "the reader's session was open"
    );

    let mut failures = 0;
    for _ in 0..3 {
        match repo.get(id).await {
            Ok(found) => assert!(found.is_some()),
            Err(StoreError::Unexpected(e)) => {
                assert!(
                    e.chain().any(|c| c.is::<tonne_kernel::Unavailable>()),
                    "a lost connection is a passing failure (503), not a 500: {e:#}"
                );
                failures += 1;
            }
            Err(other) => panic!("unexpected error: {other:?}"),
        }
    }
    assert!(
        failures <= 1,
        "{failures} failures: the closed connection was reused"
    );
    assert!(repo.get(id).await.unwrap().is_some());
}

#[test]
fn each_thread_reads_on_its_own_connections_and_dropping_the_handle_closes_them() {
    let Some(t) = TestDb::postgres() else { return };
    let runtime = || {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap()
    };
    let main = runtime();
    let db = own_handle(&t);
    let repo = AccountStore::new(db.clone());
    let id = main.block_on(seeded(&repo));
    let before = db.status();

    // Two threads, each a single-threaded runtime as an HTTP worker is: each
    // reads on a connection of its own pool, which goes when the thread ends.
    let (read_tx, read_rx) = std::sync::mpsc::channel();
    let (done_tx, done_rx) = std::sync::mpsc::channel::<()>();
    let done_rx = std::sync::Mutex::new(done_rx);
    std::thread::scope(|s| {
        for _ in 0..2 {
            let (repo, read_tx, done_rx) = (repo.clone(), read_tx.clone(), &done_rx);
            s.spawn(move || {
                runtime().block_on(async {
                    for _ in 0..5 {
                        assert!(repo.get(id).await.unwrap().is_some());
                    }
                });
                read_tx.send(()).unwrap();
                let _ = done_rx.lock().unwrap().recv();
            });
        }
        read_rx.recv().unwrap();
        read_rx.recv().unwrap();
        let reading = db.status();
        assert_eq!(
            reading.connections,
            before.connections + 2,
            "one connection per reading thread: {before:?} → {reading:?}"
        );
        assert_eq!(
            reading.max_size, 1,
            "the pool size bounds connections in use"
        );
        drop(done_tx);
    });
    // A thread's locals are dropped as it exits, just after it is joined.
    let deadline = Instant::now() + Duration::from_secs(2);
    while db.status().connections != before.connections && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(10));
    }
    assert_eq!(
        db.status().connections,
        before.connections,
        "the ended threads' connections are closed"
    );

    // Reads on this thread open a connection that this runtime drives…
    main.block_on(async {
        assert!(repo.get(id).await.unwrap().is_some());
        let open = sessions(t.db(), false).await;
        assert!(open >= 1);
        // …and dropping every handle closes it.
        drop(repo);
        drop(db);
        let deadline = Instant::now() + Duration::from_secs(5);
        loop {
            let now_open = sessions(t.db(), false).await;
            if now_open == 0 {
                break;
            }
            assert!(
                Instant::now() < deadline,
                "sessions stayed open after the handle was dropped: {now_open}"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    });
}
