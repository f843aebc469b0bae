//! The batch jobs' leases: a lease runs out and another worker takes over, a
//! row processed already undoes its chunk, concurrent workers never share a batch.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use std::collections::HashSet;

use time::Duration;
use tonne_kernel::StoreError;
use tonne_shipments::{BatchStatus, Counterparty, ShipmentFilter, ShipmentRepository};
use tonne_storage::{JobStore, ShipmentStore};
use tonne_test_support::TestDb;

use super::fixtures::{
    LEASE, T0, claim, draft, fixture, new_batch, new_shipment, stored, supplier,
};

/// `kill -9` in the middle of a batch: the worker's lease runs out, another
/// takes the batch over and processes only the rows left; the first one,
/// should it come back, writes nothing.
pub(super) async fn a_lease_runs_out_and_another_worker_takes_the_batch_over(t: TestDb) {
    let f = fixture(t).await;
    let batch = new_batch(f.account, 4, None);
    f.store.insert_batch(&batch).await.unwrap();
    let cp = supplier(&f, f.account, "c").await;
    let d = draft("R", vec![]);

    let w1 = claim(&f.store, &f.jobs, "w1", T0).await.unwrap();
    assert!(
        claim(&f.store, &f.jobs, "w2", T0 + Duration::seconds(30))
            .await
            .is_none(),
        "held until the lease runs out"
    );
    let first: Vec<_> = (0..2)
        .map(|i| (i, stored(new_shipment(&w1, &cp, &d, None))))
        .collect();
    f.store.complete_rows(&w1, first, T0 + LEASE).await.unwrap();
    // w1 dies here

    let w2 = claim(&f.store, &f.jobs, "w2", T0 + LEASE + Duration::seconds(1))
        .await
        .unwrap();
    assert_eq!(w2.batch_id, batch.id);
    assert_eq!(w2.lease.worker, "w2");

    // the stale worker comes back: nothing it writes stays
    let late = new_shipment(&w1, &cp, &d, None);
    assert!(matches!(
        f.store
            .complete_rows(&w1, vec![(2, stored(late.clone()))], T0 + LEASE * 3)
            .await,
        Err(StoreError::NotFound)
    ));
    assert!(
        f.store
            .shipment(f.account, late.id)
            .await
            .unwrap()
            .is_none()
    );
    assert!(matches!(
        f.store.finish_batch(&w1, None).await,
        Err(StoreError::NotFound)
    ));

    let rest = f.store.pending_rows(batch.id, 500).await.unwrap();
    assert_eq!(rest.iter().map(|r| r.row_index).collect::<Vec<_>>(), [2, 3]);
    let done: Vec<_> = rest
        .iter()
        .map(|r| (r.row_index, stored(new_shipment(&w2, &cp, &d, None))))
        .collect();
    f.store
        .complete_rows(&w2, done, T0 + LEASE * 3)
        .await
        .unwrap();
    f.store.finish_batch(&w2, None).await.unwrap();

    let detail = f.store.batch(f.account, batch.id).await.unwrap().unwrap();
    assert_eq!(detail.batch.success_count, Some(4));
    assert_eq!(
        detail
            .results
            .iter()
            .map(|r| r.row_index)
            .collect::<Vec<_>>(),
        [0, 1, 2, 3],
        "every row processed once"
    );
    let counts = f
        .store
        .counts(f.account, &ShipmentFilter::default())
        .await
        .unwrap();
    assert_eq!(counts.all, 4, "one shipment per row");
}

pub(super) async fn a_row_already_processed_undoes_the_whole_chunk(t: TestDb) {
    let f = fixture(t).await;
    let batch = new_batch(f.account, 3, None);
    f.store.insert_batch(&batch).await.unwrap();
    let cp = supplier(&f, f.account, "c").await;
    let d = draft("R", vec![]);
    let c = claim(&f.store, &f.jobs, "w1", T0).await.unwrap();
    f.store
        .complete_rows(
            &c,
            vec![(0, stored(new_shipment(&c, &cp, &d, None)))],
            T0 + LEASE,
        )
        .await
        .unwrap();
    let twice = new_shipment(&c, &cp, &d, None);
    let fresh = new_shipment(&c, &cp, &d, None);
    assert!(matches!(
        f.store
            .complete_rows(
                &c,
                vec![(1, stored(fresh.clone())), (0, stored(twice.clone()))],
                T0 + LEASE,
            )
            .await,
        Err(StoreError::NotFound)
    ));
    assert!(
        f.store
            .shipment(f.account, fresh.id)
            .await
            .unwrap()
            .is_none()
    );
    assert!(
        f.store
            .shipment(f.account, twice.id)
            .await
            .unwrap()
            .is_none()
    );
    assert_eq!(
        f.store
            .pending_rows(batch.id, 10)
            .await
            .unwrap()
            .iter()
            .map(|r| r.row_index)
            .collect::<Vec<_>>(),
        [1, 2]
    );
    // a batch with rows left is not finished
    assert!(matches!(
        f.store.finish_batch(&c, None).await,
        Err(StoreError::NotFound)
    ));
    // a batch error finishes it without its rows
    f.store
        .finish_batch(&c, Some("contact_id: no contact".into()))
        .await
        .unwrap();
    let detail = f.store.batch(f.account, batch.id).await.unwrap().unwrap();
    assert_eq!(detail.batch.status, BatchStatus::Processed);
    assert_eq!(
        detail.batch.batch_error.as_deref(),
        Some("contact_id: no contact")
    );
    assert_eq!(
        (detail.batch.success_count, detail.batch.failed_count),
        (None, None)
    );
}

/// A worker's whole loop, as the domain's runs it, in small chunks.
pub(super) async fn work(
    store: ShipmentStore,
    jobs: JobStore,
    worker: String,
    cp: Counterparty,
) -> usize {
    let mut rows = 0;
    while let Some(c) = claim(&store, &jobs, &worker, T0).await {
        loop {
            let pending = store.pending_rows(c.batch_id, 7).await.unwrap();
            if pending.is_empty() {
                break;
            }
            let done: Vec<_> = pending
                .iter()
                .map(|r| {
                    let d = draft(&format!("{}-{}", c.batch_id, r.row_index), vec![]);
                    (r.row_index, stored(new_shipment(&c, &cp, &d, None)))
                })
                .collect();
            rows += done.len();
            store.complete_rows(&c, done, T0 + LEASE).await.unwrap();
        }
        store.finish_batch(&c, None).await.unwrap();
    }
    rows
}

/// Several processes share the work: a batch is claimed by one of them, and
/// no row is processed twice.
pub(super) async fn concurrent_workers_never_share_a_batch(t: TestDb) {
    let f = fixture(t).await;
    let cp = supplier(&f, f.account, "c").await;
    // claimers at once: different batches, or none
    for _ in 0..5 {
        let batches: Vec<_> = (0..2).map(|_| new_batch(f.account, 1, None)).collect();
        for b in &batches {
            f.store.insert_batch(b).await.unwrap();
        }
        let claims = futures_util::future::join_all((0..4).map(|i| {
            let (store, jobs) = (f.store.clone(), f.jobs.clone());
            tokio::spawn(async move { claim(&store, &jobs, &format!("c{i}"), T0).await })
        }))
        .await;
        let got: Vec<_> = claims
            .into_iter()
            .filter_map(|c| c.unwrap())
            .map(|c| c.batch_id)
            .collect();
        assert_eq!(got.len(), 2, "each batch claimed once: {got:?}");
        assert_eq!(got.iter().collect::<HashSet<_>>().len(), 2);
        for b in &batches {
            // held until T0 + LEASE: the next rounds' claimers (at T0) pass them by
            let holder = f.store.batch(f.account, b.id).await.unwrap().unwrap();
            assert_eq!(holder.batch.status, BatchStatus::Processing);
        }
    }
    // whole workers at once over several batches
    let mut rows = 0;
    for _ in 0..5 {
        let b = new_batch(f.account, 30, None);
        rows += b.rows.len();
        f.store.insert_batch(&b).await.unwrap();
    }
    let workers = futures_util::future::join_all((0..3).map(|i| {
        tokio::spawn(work(
            f.store.clone(),
            f.jobs.clone(),
            format!("w{i}"),
            cp.clone(),
        ))
    }))
    .await;
    let processed: usize = workers.into_iter().map(|w| w.unwrap()).sum();
    assert_eq!(processed, rows, "every row processed exactly once");
    let counts = f
        .store
        .counts(f.account, &ShipmentFilter::default())
        .await
        .unwrap();
    assert_eq!(counts.all, u64::try_from(rows).unwrap());
}
