//! Bounds per account on SQLite and PostgreSQL: batches, calculations and
//! document jobs written only within their bounds (nothing written past
//! one), a live account and its test sibling counted apart, concurrent
//! writes of one account never passing a bound, and organisations' limits
//! set (audited), read, and cleared back to the defaults.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use std::sync::Arc;

use time::OffsetDateTime;
use time::macros::datetime;
use tonne_accounts::quotas::{QuotaRepository, StoredQuotas};
use tonne_estimation::document_jobs::{DocumentJobId, NewDocumentJob};
use tonne_estimation::document_quotas::DocumentQuotas;
use tonne_kernel::{
    AccountId, AccountMode, Actor, AuditEntry, BoundedWriteError, EstimateId, LimitOverrides,
    Limits, OrganisationId, Quota, StoreError, UuidV7Generator,
};
use tonne_shipments::{
    CalculationId, NewBatch, NewCalculation, ShipmentFilter, ShipmentQuotas, ShipmentRepository,
};
use tonne_storage::{DocumentJobStore, QuotaStore, ShipmentStore};
use tonne_test_support::{TestDb, on_both_backends};

const T0: OffsetDateTime = datetime!(2026-11-28 10:00 UTC);

struct Fixture {
    shipments: ShipmentStore,
    documents: DocumentJobStore,
    quotas: QuotaStore,
    organisation: OrganisationId,
    live: AccountId,
    test: AccountId,
    _db: TestDb,
}

async fn fixture(t: TestDb) -> Fixture {
    let (live, test) = tonne_test_support::organisation(t.db(), T0).await;
    Fixture {
        shipments: ShipmentStore::new(t.db().clone()),
        documents: DocumentJobStore::new(t.db().clone()),
        quotas: QuotaStore::new(t.db().clone()),
        organisation: live.organisation_id,
        live: live.id,
        test: test.id,
        _db: t,
    }
}

fn batch(account: AccountId, rows: usize) -> NewBatch {
    // 10 bytes each
    let rows = (0..rows).map(|i| format!("{{\"r\":{i:04}}}")).collect();
    crate::fixtures::batch(account, rows, T0)
}

fn calculation(account: AccountId) -> NewCalculation {
    NewCalculation {
        id: CalculationId::generate(&UuidV7Generator),
        account_id: account,
        filter: ShipmentFilter::default(),
        created_at: T0,
    }
}

fn document(account: AccountId) -> NewDocumentJob {
    NewDocumentJob {
        id: DocumentJobId::generate(&UuidV7Generator),
        account_id: account,
        estimate_id: EstimateId::generate(&UuidV7Generator),
        body: "{}".into(),
        tolerance: "0.1".into(),
        correlation_id: None,
        created_at: T0,
    }
}

fn limits(quota: Quota, max: u64) -> Limits {
    let mut l = Limits::DEFAULT;
    l.set(quota, max);
    l
}

/// An upload's bounds, as the shipments domain asks them.
fn upload_bounds(limits: &Limits, b: &NewBatch) -> tonne_kernel::Bounds {
    let bytes = b.rows.iter().map(|r| u64::try_from(r.len()).unwrap()).sum();
    limits.bounds(&[
        (Quota::PendingBatches, 1),
        (Quota::StoredShipments, u64::try_from(b.rows.len()).unwrap()),
        (Quota::StoredBytes, bytes),
    ])
}

impl Fixture {
    /// What is stored of the organisation's quotas.
    async fn stored(&self) -> StoredQuotas {
        self.quotas
            .organisation(self.organisation)
            .await
            .unwrap()
            .unwrap()
    }

    /// Stores batch `b` within `limits`' bounds for an upload.
    async fn upload(&self, b: &NewBatch, limits: &Limits) -> Result<(), BoundedWriteError> {
        self.shipments
            .insert_batch_within(b, &upload_bounds(limits, b))
            .await
    }
}

fn exceeded(r: Result<(), BoundedWriteError>) -> tonne_kernel::Exceeded {
    match r {
        Err(BoundedWriteError::Exceeded(e)) => e,
        other => panic!("expected a bound, got {other:?}"),
    }
}

async fn usage(f: &Fixture, account: AccountId) -> tonne_kernel::Usage {
    let q = f.stored().await;
    q.accounts
        .iter()
        .find(|a| a.account_id == account)
        .expect("the account is listed")
        .usage
}

async fn stored_rows_past_the_bound_write_nothing_and_modes_count_apart(t: TestDb) {
    let f = fixture(t).await;
    let l = limits(Quota::StoredShipments, 5);
    let first = batch(f.live, 3);
    f.upload(&first, &l).await.unwrap();
    let second = batch(f.live, 3);
    let e = exceeded(f.upload(&second, &l).await);
    assert_eq!((e.limit, e.max, e.used), (Quota::StoredShipments, 5, 3));
    assert!(
        f.shipments
            .batch(f.live, second.id)
            .await
            .unwrap()
            .is_none(),
        "nothing written"
    );
    // the test sibling is another account: its own 5
    let test = batch(f.test, 3);
    f.upload(&test, &l).await.unwrap();
    let live = usage(&f, f.live).await;
    assert_eq!(live.stored_shipments, 3, "the refused batch added nothing");
    assert_eq!(live.stored_bytes, 30);
    assert_eq!(live.pending_batches, 1);
    assert_eq!(usage(&f, f.test).await.stored_shipments, 3);
    // bytes bound alike
    let l = limits(Quota::StoredBytes, 35);
    let e = exceeded(
        f.shipments
            .insert_batch_within(&batch(f.live, 1), &upload_bounds(&l, &batch(f.live, 1)))
            .await,
    );
    assert_eq!((e.limit, e.used), (Quota::StoredBytes, 30));
    let q = f.stored().await;
    let modes: Vec<AccountMode> = q.accounts.iter().map(|a| a.mode).collect();
    assert!(modes.contains(&AccountMode::Live) && modes.contains(&AccountMode::Test));
}

async fn waiting_batches_calculations_and_documents_are_bounded(t: TestDb) {
    let f = fixture(t).await;
    let l = limits(Quota::PendingBatches, 2);
    for _ in 0..2 {
        let b = batch(f.live, 1);
        f.upload(&b, &l).await.unwrap();
    }
    let b = batch(f.live, 1);
    let e = exceeded(f.upload(&b, &l).await);
    assert_eq!((e.limit, e.max, e.used), (Quota::PendingBatches, 2, 2));

    let calc = Limits::DEFAULT.bounds(&[(Quota::OutstandingCalculations, 1)]);
    for _ in 0..2 {
        f.shipments
            .insert_calculation_within(&calculation(f.live), &calc)
            .await
            .unwrap();
    }
    let e = exceeded(
        f.shipments
            .insert_calculation_within(&calculation(f.live), &calc)
            .await,
    );
    assert_eq!((e.limit, e.max), (Quota::OutstandingCalculations, 2));
    // another account (the test sibling) queues its own
    f.shipments
        .insert_calculation_within(&calculation(f.test), &calc)
        .await
        .unwrap();

    let docs = limits(Quota::PendingDocuments, 1).bounds(&[(Quota::PendingDocuments, 1)]);
    f.documents
        .enqueue_within(&document(f.live), &docs)
        .await
        .unwrap();
    let refused = document(f.live);
    let e = exceeded(f.documents.enqueue_within(&refused, &docs).await);
    assert_eq!(e.limit, Quota::PendingDocuments);

    let live = usage(&f, f.live).await;
    assert_eq!(
        (
            live.pending_batches,
            live.outstanding_calculations,
            live.pending_documents
        ),
        (2, 2, 1)
    );
    assert_eq!(usage(&f, f.test).await.outstanding_calculations, 1);
}

async fn concurrent_uploads_never_pass_a_bound(t: TestDb) {
    let f = Arc::new(fixture(t).await);
    let l = limits(Quota::PendingBatches, 3);
    let tasks: Vec<_> = (0..8)
        .map(|_| {
            let f = Arc::clone(&f);
            tokio::spawn(async move {
                let b = batch(f.live, 2);
                f.upload(&b, &l).await
            })
        })
        .collect();
    let mut admitted = 0;
    for t in tasks {
        match t.await.unwrap() {
            Ok(()) => admitted += 1,
            Err(BoundedWriteError::Exceeded(e)) => assert_eq!(e.limit, Quota::PendingBatches),
            Err(e) => panic!("unexpected {e:?}"),
        }
    }
    assert_eq!(admitted, 3, "exactly the bound, no margin");
    let live = usage(&f, f.live).await;
    assert_eq!((live.pending_batches, live.stored_shipments), (3, 6));
}

async fn an_organisations_limits_are_set_audited_read_and_cleared(t: TestDb) {
    let f = fixture(t).await;
    assert_eq!(
        f.shipments.overrides(f.live).await.unwrap(),
        LimitOverrides::default()
    );
    let mut o = LimitOverrides::default();
    o.set(Quota::PendingBatches, Some(7));
    o.set(Quota::StoredBytes, Some(1 << 40));
    let audit = || {
        AuditEntry::new(
            T0,
            Actor::CommandLine,
            "organisation.limits_changed",
            "organisation",
            f.organisation,
        )
        .in_organisation(f.organisation)
    };
    f.quotas
        .set_overrides(f.organisation, &o, &audit())
        .await
        .unwrap();
    // both accounts of the organisation, through either port
    assert_eq!(f.shipments.overrides(f.live).await.unwrap(), o);
    assert_eq!(f.documents.overrides(f.test).await.unwrap(), o);
    let all = f.quotas.organisations().await.unwrap();
    let mine = all
        .iter()
        .find(|q| q.organisation_id == f.organisation)
        .unwrap();
    assert_eq!(mine.overrides, o);
    assert_eq!(mine.accounts.len(), 2);
    // replaced whole: a limit left out returns to the default
    let mut o2 = LimitOverrides::default();
    o2.set(Quota::OutstandingCalculations, Some(0));
    f.quotas
        .set_overrides(f.organisation, &o2, &audit())
        .await
        .unwrap();
    assert_eq!(f.shipments.overrides(f.live).await.unwrap(), o2);
    // an unknown organisation: nothing written
    let unknown = OrganisationId::generate(&UuidV7Generator);
    assert!(matches!(
        f.quotas.set_overrides(unknown, &o, &audit()).await,
        Err(StoreError::NotFound)
    ));
    assert!(f.quotas.organisation(unknown).await.unwrap().is_none());
}

on_both_backends!(
    stored_rows_past_the_bound_write_nothing_and_modes_count_apart,
    waiting_batches_calculations_and_documents_are_bounded,
    concurrent_uploads_never_pass_a_bound,
    an_organisations_limits_are_set_audited_read_and_cleared,
);
