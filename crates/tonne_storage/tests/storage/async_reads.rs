//! One-statement reads on PostgreSQL run on one asynchronous connection per
//! thread, pipelined (`Db::load`). These cases check what that path adds
//! beyond the repository contract tests (which run every read on both
//! backends): a connection the server closed is replaced, each thread reads
//! on its own connection and many reads share it, a read does not join one
//! stuck behind a lock, a waiting write is not overtaken for ever by reads,
//! and dropping the handle closes the connections.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::{Duration, Instant};

use time::macros::datetime;
use tonne_accounts::ports::{AccountRepository, StoreError};
use tonne_accounts::{
    Account, AccountId, AccountName, AccountScope, ExternalPagesVisibility, Organisation,
    OrganisationType,
};
use tonne_kernel::{AccountMode, Currency, Money, OrganisationId, UuidV7Generator};
use tonne_storage::{AccountStore, Conn, DatabaseUrl, Db, PoolSettings};
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
    db.query(move |conn| {
        Box::pin(async move {
            match conn {
                Conn::Pg(c) => {
                    use diesel_async::RunQueryDsl as _;
                    diesel::select(diesel::dsl::sql::<diesel::sql_types::BigInt>(&format!(
                        "({sql})"
                    )))
                    .get_result::<i64>(&mut **c)
                    .await
                }
                Conn::Sqlite(_) => unreachable!("PostgreSQL only"),
            }
        })
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
    handle_waiting(t, PoolSettings::default().connection_timeout)
}

/// A handle of pool size 1 whose calls wait `wait` for a connection.
fn handle_waiting(t: &TestDb, wait: Duration) -> Db {
    Db::connect(
        &DatabaseUrl::Postgres(t.url().to_owned()),
        PoolSettings {
            max_size: 1,
            connection_timeout: wait,
        },
    )
    .unwrap()
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

/// Another client's lock on a whole table, held until released: reads of
/// the table wait behind it.
struct TableLock(diesel_async::AsyncPgConnection);

impl TableLock {
    async fn take(url: &str, table: &str) -> Self {
        use diesel_async::{AsyncConnection as _, SimpleAsyncConnection as _};
        let mut conn = diesel_async::AsyncPgConnection::establish(url)
            .await
            .unwrap();
        conn.batch_execute(&format!(
            "BEGIN; LOCK TABLE {table} IN ACCESS EXCLUSIVE MODE;"
        ))
        .await
        .unwrap();
        Self(conn)
    }

    async fn release(mut self) {
        use diesel_async::SimpleAsyncConnection as _;
        self.0.batch_execute("COMMIT;").await.unwrap();
    }
}

/// Whether a storage failure is a passing one (503), not a 500.
fn unavailable(e: &StoreError) -> bool {
    matches!(e, StoreError::Unexpected(e) if e.chain().any(|c| c.is::<tonne_kernel::Unavailable>()))
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
    let main = runtime();
    let db = own_handle(&t);
    let repo = AccountStore::new(db.clone());
    let id = main.block_on(seeded(&repo));
    let before = db.status();

    // Two threads, each a single-threaded runtime as an HTTP worker is: each
    // reads on a connection of its own, which goes when the thread ends.
    let (read_tx, read_rx) = std::sync::mpsc::channel();
    let (done_tx, done_rx) = std::sync::mpsc::channel::<()>();
    let done_rx = std::sync::Mutex::new(done_rx);
    std::thread::scope(|s| {
        for _ in 0..2 {
            let (repo, read_tx, done_rx) = (repo.clone(), read_tx.clone(), &done_rx);
            s.spawn(move || {
                // The runtime lives until the thread ends: it drives the connection.
                let rt = runtime();
                rt.block_on(async {
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

/// Many reads at once on one thread share its one connection: one session
/// more on the server, every answer right.
#[test]
fn many_reads_at_once_share_the_threads_connection() {
    let Some(t) = TestDb::postgres() else { return };
    let rt = runtime();
    let db = own_handle(&t);
    let repo = AccountStore::new(db.clone());
    rt.block_on(async {
        let mut ids = Vec::new();
        for _ in 0..4 {
            ids.push(seeded(&repo).await);
        }
        let before = db.status().connections;
        let reads = (0..200).map(|i| {
            let (repo, id) = (repo.clone(), ids[i % ids.len()]);
            async move { repo.get(id).await }
        });
        let answers = futures_util::future::join_all(reads).await;
        for (i, answer) in answers.into_iter().enumerate() {
            let account = answer.unwrap().expect("the account is there");
            assert_eq!(
                account.id,
                ids[i % ids.len()],
                "read {i} got another's answer"
            );
        }
        assert_eq!(
            db.status().connections,
            before + 1,
            "the reads shared one connection"
        );
    });
}

/// A connection whose read waits behind a lock takes no more reads: the next
/// read waits for a connection like any call and answers 503 after the wait;
/// the first read finishes when the lock goes.
#[test]
fn a_read_does_not_join_one_stuck_behind_a_lock() {
    let Some(t) = TestDb::postgres() else { return };
    let rt = runtime();
    let db = handle_waiting(&t, Duration::from_millis(300));
    let repo = AccountStore::new(db.clone());
    rt.block_on(async {
        let id = seeded(&repo).await;
        assert!(repo.get(id).await.unwrap().is_some());

        let locker = TableLock::take(t.url(), "accounts").await;
        let stuck = tokio::spawn({
            let repo = repo.clone();
            async move { repo.get(id).await }
        });
        tokio::time::sleep(Duration::from_millis(150)).await;

        let started = Instant::now();
        let next = tokio::time::timeout(Duration::from_secs(3), repo.get(id))
            .await
            .expect("the read answers within 3 s, not behind the lock");
        let took = started.elapsed();
        let e = next.expect_err("the pool (size 1) is held by the stuck read");
        assert!(unavailable(&e), "{e:?}");
        assert!(
            took >= Duration::from_millis(250) && took < Duration::from_secs(3),
            "waited {took:?} for a connection"
        );

        locker.release().await;
        assert!(stuck.await.unwrap().unwrap().is_some());
        assert!(repo.get(id).await.unwrap().is_some());
    });
}

/// When the pool has room, a read that finds the thread's connection stuck
/// (a key lookup behind a lock on the keys table) goes on a new connection
/// instead of queueing behind it: an account read answers at once.
#[test]
fn a_read_does_not_queue_behind_a_stuck_one_when_the_pool_has_room() {
    use tonne_accounts::KeyHash;
    use tonne_accounts::ports::ApiKeyRepository as _;
    use tonne_storage::ApiKeyStore;
    let Some(t) = TestDb::postgres() else { return };
    let rt = runtime();
    let db = Db::connect(
        &DatabaseUrl::Postgres(t.url().to_owned()),
        PoolSettings {
            max_size: 2,
            connection_timeout: Duration::from_millis(300),
        },
    )
    .unwrap();
    let repo = AccountStore::new(db.clone());
    let keys = ApiKeyStore::new(db.clone());
    rt.block_on(async {
        let id = seeded(&repo).await;
        assert!(repo.get(id).await.unwrap().is_some());

        let locker = TableLock::take(t.url(), "api_keys").await;
        let stuck = tokio::spawn({
            let keys = keys.clone();
            async move { keys.find_by_hash(&KeyHash::of("no such key")).await }
        });
        tokio::time::sleep(Duration::from_millis(150)).await;

        let started = Instant::now();
        let account = tokio::time::timeout(Duration::from_secs(3), repo.get(id))
            .await
            .expect("the account read answers, not queued behind the key lookup");
        assert!(account.unwrap().is_some());
        assert!(
            started.elapsed() < Duration::from_secs(1),
            "answered after {:?}",
            started.elapsed()
        );

        locker.release().await;
        assert!(stuck.await.unwrap().unwrap().is_none());
        assert!(repo.get(id).await.unwrap().is_some());
    });
}

/// Reads that keep a thread's connection busy without a pause do not keep a
/// write waiting for the only permit: once a call waits, new reads wait too,
/// the reads in flight finish, and the write goes first.
#[test]
fn a_waiting_write_is_not_overtaken_by_a_stream_of_reads() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    let Some(t) = TestDb::postgres() else { return };
    let rt = runtime();
    let db = handle_waiting(&t, Duration::from_millis(1500));
    let repo = AccountStore::new(db.clone());
    rt.block_on(async {
        let id = seeded(&repo).await;
        let stop = Arc::new(AtomicBool::new(false));
        let reads = Arc::new(AtomicUsize::new(0));
        let readers: Vec<_> = (0..16)
            .map(|_| {
                let (repo, stop, reads) = (repo.clone(), Arc::clone(&stop), Arc::clone(&reads));
                tokio::spawn(async move {
                    while !stop.load(Ordering::Relaxed) {
                        match repo.get(id).await {
                            Ok(found) => assert!(found.is_some()),
                            Err(e) => assert!(unavailable(&e), "{e:?}"),
                        }
                        reads.fetch_add(1, Ordering::Relaxed);
                    }
                })
            })
            .collect();
        tokio::time::sleep(Duration::from_millis(100)).await;
        assert!(reads.load(Ordering::Relaxed) > 0, "the readers are reading");

        let written = seeded(&repo).await;
        assert!(repo.get(written).await.unwrap().is_some());

        stop.store(true, Ordering::Relaxed);
        for reader in readers {
            reader.await.unwrap();
        }
    });
}
