//! Batches: a batch and its results round trip, a used idempotency key writes
//! nothing, and the largest batch is stored at once.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use std::sync::Arc;

use time::macros::date;
use tonne_kernel::{StoreError, UuidV7Generator};
use tonne_shipments::emissions;
use tonne_shipments::{
    BatchClaim, BatchSource, BatchStatus, Carriage, DataSheet, DataSheetId, ModeSet, Party,
    RowDone, RowOutcome, Shipment, ShipmentFilter, ShipmentRepository, TransportMode,
};
use tonne_test_support::TestDb;

use super::fixtures::{
    LEASE, T0, claim, draft, fixture, leg, listed, new_batch, new_shipment, rail, road, stored,
};

pub(super) async fn a_batch_and_its_results_round_trip(t: TestDb) {
    let f = fixture(t).await;
    let mut batch = new_batch(f.account, 3, Some("k1"));
    batch.source = BatchSource::DataSheet;
    let sheet = DataSheet {
        id: DataSheetId::generate(&UuidV7Generator),
        filename: "march.csv".into(),
        uploader: Some("ops@example.org".into()),
    };
    batch.data_sheet = Some(sheet.clone());
    f.store.insert_batch(&batch).await.unwrap();

    let pending = f.store.batch(f.account, batch.id).await.unwrap().unwrap();
    assert_eq!(pending.batch.status, BatchStatus::Pending);
    assert_eq!(pending.batch.source, BatchSource::DataSheet);
    assert_eq!(pending.batch.data_sheet, Some(sheet.clone()));
    assert_eq!(pending.batch.account_name, "Acme");
    assert_eq!(pending.batch.created_at, T0);
    assert_eq!(
        (pending.batch.success_count, pending.batch.failed_count),
        (None, None)
    );
    assert!(pending.results.is_empty());

    let c = claim(&f.store, &f.jobs, "w1", T0).await.unwrap();
    assert_eq!(
        c,
        BatchClaim {
            batch_id: batch.id,
            account_id: f.account,
            account_name: "Acme".into(),
            contact_id: None,
            calculate: true,
            lease: c.lease.clone(),
        }
    );
    assert_eq!(c.lease.worker, "w1");
    let rows = f.store.pending_rows(batch.id, 2).await.unwrap();
    assert_eq!(rows.iter().map(|r| r.row_index).collect::<Vec<_>>(), [0, 1]);
    assert_eq!(rows[1].row, batch.rows[1]);

    let cp = f
        .store
        .counterparty_by_internal_id(f.account, "carrier-9", Some("Carrier Nine".into()))
        .await
        .unwrap();
    assert_eq!(cp.name, "Carrier Nine");
    let again = f
        .store
        .counterparty_by_internal_id(f.account, "carrier-9", None)
        .await
        .unwrap();
    assert_eq!(again, cp, "found, not created twice");
    let named_by_id = f
        .store
        .counterparty_by_internal_id(f.account, "carrier-10", None)
        .await
        .unwrap();
    assert_eq!(named_by_id.name, "carrier-10");
    assert_eq!(
        f.store
            .counterparty(f.account, &cp.id.to_string())
            .await
            .unwrap(),
        Some(cp.clone())
    );
    assert_eq!(f.store.counterparty(f.account, "nope").await.unwrap(), None);

    let mut d = draft(
        "PO-1",
        vec![
            leg(Carriage::Pre, road(), Some(date!(2026 - 03 - 01))),
            leg(Carriage::Main, rail(), None),
        ],
    );
    d.check().unwrap();
    let e = emissions(&d).unwrap();
    let s0 = new_shipment(&c, &cp, &d, Some(e.clone()));
    f.store
        .complete_rows(
            &c,
            vec![
                (0, stored(s0.clone())),
                (1, RowDone::Failed("legs[0].method: is not known".into())),
            ],
            T0 + LEASE,
        )
        .await
        .unwrap();
    let rest = f.store.pending_rows(batch.id, 500).await.unwrap();
    assert_eq!(rest.len(), 1);
    assert_eq!(rest[0].row_index, 2);
    let s2 = new_shipment(&c, &named_by_id, &draft("PO-2", vec![]), None);
    f.store
        .complete_rows(&c, vec![(2, stored(s2.clone()))], T0 + LEASE)
        .await
        .unwrap();
    let processing = f.store.batch(f.account, batch.id).await.unwrap().unwrap();
    assert_eq!(processing.batch.status, BatchStatus::Processing);
    assert!(processing.results.is_empty(), "results once processed");

    f.store.finish_batch(&c, None).await.unwrap();
    let done = f.store.batch(f.account, batch.id).await.unwrap().unwrap();
    assert_eq!(done.batch.status, BatchStatus::Processed);
    assert_eq!(
        (done.batch.success_count, done.batch.failed_count),
        (Some(2), Some(1))
    );
    let outcomes: Vec<_> = done
        .results
        .iter()
        .map(|r| (r.row_index, r.outcome.clone()))
        .collect();
    assert_eq!(
        outcomes,
        [
            (0, RowOutcome::Success(s0.id)),
            (1, RowOutcome::Failed("legs[0].method: is not known".into())),
            (2, RowOutcome::Success(s2.id)),
        ]
    );

    let read = f.store.shipment(f.account, s0.id).await.unwrap().unwrap();
    assert_eq!(
        read,
        Shipment {
            id: s0.id,
            account_id: f.account,
            batch_id: batch.id,
            shipper: Party {
                id: f.account.to_string(),
                name: "Acme".into(),
            },
            supplier: Party {
                id: cp.id.to_string(),
                name: "Carrier Nine".into(),
            },
            facets: d.facets(),
            row: s0.row.clone(),
            emissions: Some(e),
            created_at: T0,
        }
    );
    assert_eq!(read.facets.shipment_date, Some(date!(2026 - 03 - 01)));
    assert_eq!(
        read.facets.modes,
        [
            ModeSet::of(&[TransportMode::Road]),
            ModeSet::of(&[TransportMode::Rail]),
            ModeSet::default()
        ]
    );
    let by_sheet = ShipmentFilter {
        data_sheet_ids: vec![sheet.id],
        ..ShipmentFilter::default()
    };
    assert_eq!(listed(&f, &by_sheet).await, [s2.id, s0.id]);
    assert!(
        claim(&f.store, &f.jobs, "w2", T0 + LEASE * 2)
            .await
            .is_none(),
        "a processed batch is never claimed again"
    );
}

pub(super) async fn a_used_idempotency_key_writes_nothing(t: TestDb) {
    let f = fixture(t).await;
    let first = new_batch(f.account, 2, Some("k1"));
    f.store.insert_batch(&first).await.unwrap();
    let second = new_batch(f.account, 3, Some("k1"));
    assert!(matches!(
        f.store.insert_batch(&second).await,
        Err(StoreError::Duplicate)
    ));
    assert!(f.store.batch(f.account, second.id).await.unwrap().is_none());
    assert!(
        f.store
            .pending_rows(second.id, 10)
            .await
            .unwrap()
            .is_empty()
    );
    // the key is the account's: another account may use it, and batches
    // without a key never collide
    f.store
        .insert_batch(&new_batch(f.other, 1, Some("k1")))
        .await
        .unwrap();
    f.store
        .insert_batch(&new_batch(f.account, 1, None))
        .await
        .unwrap();
    f.store
        .insert_batch(&new_batch(f.account, 1, None))
        .await
        .unwrap();
    assert_eq!(
        claim(&f.store, &f.jobs, "w", T0).await.unwrap().batch_id,
        first.id
    );
}

/// The largest batch is stored in one transaction, quickly.
pub(super) async fn the_largest_batch_is_stored_at_once(t: TestDb) {
    let f = fixture(t).await;
    let mut batch = new_batch(f.account, tonne_shipments::MAX_BATCH_ROWS, None);
    let padding = "x".repeat(300);
    for (i, row) in batch.rows.iter_mut().enumerate() {
        *row = format!("{{\"shipment_id\":\"R-{i}\",\"note\":\"{padding}\"}}");
    }
    let batch = Arc::new(batch);
    let started = std::time::Instant::now();
    f.store.insert_batch(&batch).await.unwrap();
    let took = started.elapsed();
    eprintln!("10,000 rows stored in {took:?}");
    assert!(took < std::time::Duration::from_secs(2), "took {took:?}");
    let c = claim(&f.store, &f.jobs, "w", T0).await.unwrap();
    let rows = f.store.pending_rows(c.batch_id, 500).await.unwrap();
    assert_eq!(rows.len(), 500);
    assert_eq!(rows[499].row_index, 499);
    assert_eq!(rows[7].row, batch.rows[7]);
}
