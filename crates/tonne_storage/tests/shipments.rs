//! `ShipmentStore` (the shipments domain's `ShipmentRepository`) on SQLite
//! and PostgreSQL: batches and their results, idempotency, the durable jobs'
//! leases and exactly-once row processing, the list's filters and pages,
//! accounts kept apart, and the calculation's walk.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use std::collections::HashSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use rust_decimal::Decimal;
use time::macros::{date, datetime};
use time::{Date, Duration, OffsetDateTime};
use tonne_jobs::{Finished, JobEngine, JobHandler, JobQueue, Worked};
use tonne_kernel::{
    AccountId, Clock, JobClaim, Limit, PageRequest, Step, StoreError, UuidV7Generator,
};
use tonne_shipments::{
    BATCH_JOB, CALCULATION_JOB, CalculationClaim, CalculationId, Owner, RowDecoder, RowError,
    Shipments, ShipmentsService, Upload, emissions,
};
use tonne_shipments::{
    BatchClaim, BatchSource, BatchStatus, Carriage, Counterparty, DataSheet, DataSheetId,
    EmissionsFilter, LegDraft, LegMethod, Load, ModeSet, NewBatch, NewCalculation, NewShipment,
    Party, RowDone, RowOutcome, SeaVessel, Shipment, ShipmentBatchId, ShipmentDraft,
    ShipmentEmissions, ShipmentFilter, ShipmentId, ShipmentRepository, TransportMode,
};
use tonne_storage::{JobStore, ShipmentStore};
use tonne_test_support::{TestDb, on_both_backends};

const T0: OffsetDateTime = datetime!(2026-11-26 10:00 UTC);
const LEASE: Duration = Duration::seconds(60);

struct Fixture {
    store: ShipmentStore,
    jobs: JobStore,
    account: AccountId,
    other: AccountId,
    _db: TestDb,
}

async fn fixture(t: TestDb) -> Fixture {
    let (live, test) = tonne_test_support::organisation(t.db(), T0).await;
    Fixture {
        store: ShipmentStore::new(t.db().clone()),
        jobs: JobStore::new(t.db().clone()),
        account: live.id,
        other: test.id,
        _db: t,
    }
}

fn new_batch(account: AccountId, rows: usize, key: Option<&str>) -> NewBatch {
    NewBatch {
        id: ShipmentBatchId::generate(&UuidV7Generator),
        account_id: account,
        account_name: "Acme".into(),
        source: BatchSource::Api,
        data_sheet: None,
        idempotency_key: key.map(str::to_owned),
        contact_id: None,
        calculate: true,
        rows: (0..rows)
            .map(|i| format!("{{\"shipment_id\":\"R-{i}\"}}"))
            .collect(),
        created_at: T0,
    }
}

fn leg(carriage: Carriage, method: LegMethod, date: Option<Date>) -> LegDraft {
    LegDraft {
        order: None,
        carriage,
        method,
        origin: None,
        destination: None,
        distance_km: Some(Decimal::from(300)),
        load: Load {
            tonnes: Some(Decimal::from(20)),
            teu: None,
        },
        load_factor: None,
        empty_run_factor: None,
        date,
        client_emissions: None,
    }
}

fn rail() -> LegMethod {
    LegMethod::Rail("electric_freight_train".into())
}

fn road() -> LegMethod {
    LegMethod::Road {
        vehicle_type: "truck".into(),
        fuel: "diesel".into(),
        refrigerated: false,
    }
}

fn sea() -> LegMethod {
    LegMethod::Sea(SeaVessel::Container {
        refrigerated: false,
        trade_lane: None,
    })
}

fn draft(reference: &str, legs: Vec<LegDraft>) -> ShipmentDraft {
    ShipmentDraft {
        reference: Some(reference.into()),
        target_internal_id: None,
        target_internal_name: None,
        legs,
        client_emissions: None,
    }
}

/// Realistic emissions: the domain's own calculation of a rail shipment.
fn rail_emissions() -> ShipmentEmissions {
    let mut d = draft("E", vec![leg(Carriage::Main, rail(), None)]);
    d.check().unwrap();
    emissions(&d).unwrap()
}

fn new_shipment(
    claim: &BatchClaim,
    counterparty: &Counterparty,
    draft: &ShipmentDraft,
    emissions: Option<ShipmentEmissions>,
) -> NewShipment {
    NewShipment {
        id: ShipmentId::generate(&UuidV7Generator),
        account_id: claim.account_id,
        batch_id: claim.batch_id,
        counterparty: counterparty.clone(),
        facets: draft.facets(),
        row: format!(
            "{{\"shipment_id\":\"{}\"}}",
            draft.reference.clone().unwrap_or_default()
        ),
        emissions,
        created_at: T0,
    }
}

fn stored(s: NewShipment) -> RowDone {
    RowDone::Stored(Box::new(s))
}

/// Claims the next due batch job as the engine would, and opens its batch
/// (a job whose batch is processed already is ended, as the engine ends it).
async fn claim(
    store: &ShipmentStore,
    jobs: &JobStore,
    worker: &str,
    now: OffsetDateTime,
) -> Option<BatchClaim> {
    loop {
        let job = jobs.claim(worker, now, now + LEASE).await.unwrap()?;
        assert_eq!(job.kind, BATCH_JOB);
        let batch = job.subject.parse().unwrap();
        match store.open_batch(&job.lease, batch).await.unwrap() {
            Some(c) => return Some(c),
            None => jobs.finish(&job.lease, Finished::Done).await.unwrap(),
        }
    }
}

/// The same for a calculation job.
async fn claim_calculation(
    f: &Fixture,
    worker: &str,
    now: OffsetDateTime,
) -> Option<CalculationClaim> {
    loop {
        let job = f.jobs.claim(worker, now, now + LEASE).await.unwrap()?;
        assert_eq!(job.kind, CALCULATION_JOB);
        let id = job.subject.parse().unwrap();
        match f.store.open_calculation(&job.lease, id).await.unwrap() {
            Some(c) => return Some(c),
            None => f.jobs.finish(&job.lease, Finished::Done).await.unwrap(),
        }
    }
}

/// Stores a batch of the given shipments, processed at once; their ids.
async fn stored_batch(
    f: &Fixture,
    account: AccountId,
    batch: NewBatch,
    shipments: Vec<(&Counterparty, ShipmentDraft, Option<ShipmentEmissions>)>,
) -> Vec<ShipmentId> {
    let mut batch = batch;
    batch.account_id = account;
    batch.rows = shipments.iter().map(|_| "{}".to_owned()).collect();
    f.store.insert_batch(&batch).await.unwrap();
    let c = claim(&f.store, &f.jobs, "setup", T0).await.unwrap();
    assert_eq!(c.batch_id, batch.id);
    let mut ids = Vec::new();
    let mut done = Vec::new();
    for (i, (cp, d, e)) in shipments.into_iter().enumerate() {
        let s = new_shipment(&c, cp, &d, e);
        ids.push(s.id);
        done.push((u32::try_from(i).unwrap(), stored(s)));
    }
    f.store.complete_rows(&c, done, T0 + LEASE).await.unwrap();
    f.store.finish_batch(&c, None).await.unwrap();
    f.jobs.finish(&c.lease, Finished::Done).await.unwrap();
    ids
}

async fn supplier(f: &Fixture, account: AccountId, internal: &str) -> Counterparty {
    f.store
        .counterparty_by_internal_id(account, internal, Some(format!("Name of {internal}")))
        .await
        .unwrap()
}

fn first(limit: u8) -> PageRequest<ShipmentId> {
    PageRequest {
        limit: Limit::new(limit).unwrap(),
        after: None,
    }
}

async fn listed(f: &Fixture, filter: &ShipmentFilter) -> Vec<ShipmentId> {
    f.store
        .shipments(f.account, filter, &first(100))
        .await
        .unwrap()
        .items
        .into_iter()
        .map(|s| s.id)
        .collect()
}

async fn a_batch_and_its_results_round_trip(t: TestDb) {
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

async fn a_used_idempotency_key_writes_nothing(t: TestDb) {
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

/// `kill -9` in the middle of a batch: the worker's lease runs out, another
/// takes the batch over and processes only the rows left; the first one,
/// should it come back, writes nothing.
async fn a_lease_runs_out_and_another_worker_takes_the_batch_over(t: TestDb) {
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

async fn a_row_already_processed_undoes_the_whole_chunk(t: TestDb) {
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
async fn work(store: ShipmentStore, jobs: JobStore, worker: String, cp: Counterparty) -> usize {
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
async fn concurrent_workers_never_share_a_batch(t: TestDb) {
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

async fn every_filter_selects_its_shipments(t: TestDb) {
    let f = fixture(t).await;
    let (c1, c2) = (
        supplier(&f, f.account, "c1").await,
        supplier(&f, f.account, "c2").await,
    );
    let e = ShipmentEmissions {
        flagged: false,
        ..rail_emissions()
    };
    let flagged = ShipmentEmissions {
        flagged: true,
        ..e.clone()
    };
    let b1 = new_batch(f.account, 0, None);
    let first = stored_batch(
        &f,
        f.account,
        b1.clone(),
        vec![
            (
                &c1,
                draft(
                    "PO-100",
                    vec![
                        leg(Carriage::Pre, road(), Some(date!(2026 - 01 - 10))),
                        leg(Carriage::Main, sea(), None),
                    ],
                ),
                Some(e.clone()),
            ),
            (
                &c2,
                draft(
                    "PO-200",
                    vec![leg(Carriage::Main, rail(), Some(date!(2026 - 02 - 10)))],
                ),
                None,
            ),
        ],
    )
    .await;
    let (s1, s2) = (first[0], first[1]);
    let mut b2 = new_batch(f.account, 0, None);
    let sheet = DataSheetId::generate(&UuidV7Generator);
    b2.source = BatchSource::DataSheet;
    b2.data_sheet = Some(DataSheet {
        id: sheet,
        filename: "s.csv".into(),
        uploader: None,
    });
    let s3 = stored_batch(
        &f,
        f.account,
        b2.clone(),
        vec![(
            &c1,
            draft(
                "XY-1",
                vec![
                    leg(Carriage::Main, LegMethod::AircraftType("B744".into()), None),
                    leg(Carriage::On, road(), None),
                ],
            ),
            Some(flagged),
        )],
    )
    .await[0];
    let all = ShipmentFilter::default();
    let stranger = AccountId::generate(&UuidV7Generator).to_string();
    let with = |change: &dyn Fn(&mut ShipmentFilter)| {
        let mut f = all.clone();
        change(&mut f);
        f
    };
    assert_eq!(listed(&f, &all).await, [s3, s2, s1], "newest first");

    let cases: Vec<(&str, ShipmentFilter, Vec<ShipmentId>)> = vec![
        (
            "search prefix",
            with(&|f| f.search = Some("PO-".into())),
            vec![s2, s1],
        ),
        (
            "search longer prefix",
            with(&|f| f.search = Some("PO-1".into())),
            vec![s1],
        ),
        (
            "search by id",
            with(&|f| f.search = Some(s3.to_string())),
            vec![s3],
        ),
        (
            "search nothing",
            with(&|f| f.search = Some("Z".into())),
            vec![],
        ),
        (
            "date from",
            with(&|f| f.date_from = Some(date!(2026 - 02 - 01))),
            vec![s2],
        ),
        (
            "date to",
            with(&|f| f.date_to = Some(date!(2026 - 01 - 31))),
            vec![s1],
        ),
        (
            "date range inclusive",
            with(&|f| {
                f.date_from = Some(date!(2026 - 01 - 10));
                f.date_to = Some(date!(2026 - 02 - 10));
            }),
            vec![s2, s1],
        ),
        (
            "main by sea or rail",
            with(&|f| f.modes[1] = ModeSet::of(&[TransportMode::Sea, TransportMode::Rail])),
            vec![s2, s1],
        ),
        (
            "pre by road",
            with(&|f| f.modes[0] = ModeSet::of(&[TransportMode::Road])),
            vec![s1],
        ),
        (
            "main by air and on by road",
            with(&|f| {
                f.modes[1] = ModeSet::of(&[TransportMode::Air]);
                f.modes[2] = ModeSet::of(&[TransportMode::Road]);
            }),
            vec![s3],
        ),
        (
            "on by rail",
            with(&|f| f.modes[2] = ModeSet::of(&[TransportMode::Rail])),
            vec![],
        ),
        (
            "supplier",
            with(&|f| f.supplier_ids = vec![c1.id.to_string()]),
            vec![s3, s1],
        ),
        (
            "supplier id in capitals",
            with(&|f| f.supplier_ids = vec![c2.id.to_string().to_uppercase()]),
            vec![s2],
        ),
        (
            "unknown supplier",
            with(&|f| f.supplier_ids = vec!["x".into()]),
            vec![],
        ),
        (
            "another shipper",
            with(&|f| f.shipper_ids = vec![stranger.clone()]),
            vec![],
        ),
        ("batch", with(&|f| f.batch_ids = vec![b2.id]), vec![s3]),
        (
            "data sheet",
            with(&|f| f.data_sheet_ids = vec![sheet]),
            vec![s3],
        ),
        ("ids", with(&|f| f.ids = vec![s1, s3]), vec![s3, s1]),
        ("flagged", with(&|f| f.flagged = Some(true)), vec![s3]),
        (
            "not flagged",
            with(&|f| f.flagged = Some(false)),
            vec![s2, s1],
        ),
        (
            "with co2e",
            with(&|f| f.emissions = EmissionsFilter::WithCo2e),
            vec![s3, s1],
        ),
        (
            "without co2e",
            with(&|f| f.emissions = EmissionsFilter::WithoutCo2e),
            vec![s2],
        ),
        (
            "several at once",
            with(&|f| {
                f.search = Some("PO".into());
                f.emissions = EmissionsFilter::WithCo2e;
                f.supplier_ids = vec![c1.id.to_string()];
            }),
            vec![s1],
        ),
    ];
    for (name, filter, expected) in cases {
        assert_eq!(listed(&f, &filter).await, expected, "{name}");
    }
    // the shipper is the account itself
    let own = with(&|x| x.shipper_ids = vec![f.account.to_string()]);
    assert_eq!(listed(&f, &own).await, [s3, s2, s1]);
    let other = with(&|x| x.shipper_ids = vec![f.other.to_string()]);
    assert!(listed(&f, &other).await.is_empty());

    assert_eq!(f.store.count(f.account, &all, 10).await.unwrap(), 3);
    assert_eq!(
        f.store.count(f.account, &all, 1).await.unwrap(),
        2,
        "counts at most cap + 1"
    );
    let po = with(&|f| f.search = Some("PO-".into()));
    assert_eq!(f.store.count(f.account, &po, 10).await.unwrap(), 2);
    let counts = f.store.counts(f.account, &all).await.unwrap();
    assert_eq!(
        (counts.all, counts.with_co2e, counts.without_co2e),
        (3, 2, 1)
    );
    // the emissions choice is the tab: its counts are the other filters'
    let po_with = with(&|f| {
        f.search = Some("PO-".into());
        f.emissions = EmissionsFilter::WithCo2e;
    });
    let counts = f.store.counts(f.account, &po_with).await.unwrap();
    assert_eq!(
        (counts.all, counts.with_co2e, counts.without_co2e),
        (2, 1, 1)
    );
}

async fn pages_follow_one_another_newest_first(t: TestDb) {
    let f = fixture(t).await;
    let cp = supplier(&f, f.account, "c").await;
    let shipments = (0..25)
        .map(|i| (&cp, draft(&format!("S-{i:02}"), vec![]), None))
        .collect();
    let mut ids = stored_batch(&f, f.account, new_batch(f.account, 0, None), shipments).await;
    ids.reverse();
    let mut seen = Vec::new();
    let mut after = None;
    let mut pages = Vec::new();
    loop {
        let page = f
            .store
            .shipments(
                f.account,
                &ShipmentFilter::default(),
                &PageRequest {
                    limit: Limit::new(10).unwrap(),
                    after,
                },
            )
            .await
            .unwrap();
        pages.push((page.items.len(), page.has_more));
        seen.extend(page.items.iter().map(|s| s.id));
        if !page.has_more {
            break;
        }
        after = page.items.last().map(|s| s.id);
    }
    assert_eq!(pages, [(10, true), (10, true), (5, false)]);
    assert_eq!(seen, ids);

    // batches: newest first, by source
    let mut sheet = new_batch(f.account, 1, None);
    sheet.source = BatchSource::DataSheet;
    sheet.data_sheet = Some(DataSheet {
        id: DataSheetId::generate(&UuidV7Generator),
        filename: "a.csv".into(),
        uploader: None,
    });
    f.store.insert_batch(&sheet).await.unwrap();
    let api = new_batch(f.account, 1, None);
    f.store.insert_batch(&api).await.unwrap();
    let two = PageRequest {
        limit: Limit::new(2).unwrap(),
        after: None,
    };
    let page = f.store.batches(f.account, &[], &two).await.unwrap();
    assert!(page.has_more);
    assert_eq!(
        page.items.iter().map(|b| b.id).collect::<Vec<_>>(),
        [api.id, sheet.id]
    );
    let next = f
        .store
        .batches(
            f.account,
            &[],
            &PageRequest {
                limit: Limit::new(2).unwrap(),
                after: Some(sheet.id),
            },
        )
        .await
        .unwrap();
    assert_eq!(next.items.len(), 1);
    assert!(!next.has_more);
    let sheets = f
        .store
        .batches(f.account, &[BatchSource::DataSheet], &two)
        .await
        .unwrap();
    assert_eq!(
        sheets.items.iter().map(|b| b.id).collect::<Vec<_>>(),
        [sheet.id]
    );
    assert_eq!(sheets.items[0].data_sheet, sheet.data_sheet);
}

async fn accounts_see_only_their_own(t: TestDb) {
    let f = fixture(t).await;
    let cp = supplier(&f, f.account, "shared-internal").await;
    let batch = new_batch(f.account, 0, Some("k"));
    let ids = stored_batch(
        &f,
        f.account,
        batch.clone(),
        vec![(&cp, draft("A-1", vec![]), Some(rail_emissions()))],
    )
    .await;
    assert!(f.store.batch(f.other, batch.id).await.unwrap().is_none());
    assert!(
        f.store
            .batches(f.other, &[], &PageRequest::first())
            .await
            .unwrap()
            .items
            .is_empty()
    );
    assert!(f.store.shipment(f.other, ids[0]).await.unwrap().is_none());
    let others = f
        .store
        .shipments(f.other, &ShipmentFilter::default(), &first(100))
        .await
        .unwrap();
    assert!(others.items.is_empty());
    let by_id = ShipmentFilter {
        ids: ids.clone(),
        ..ShipmentFilter::default()
    };
    assert_eq!(f.store.count(f.other, &by_id, 10).await.unwrap(), 0);
    assert_eq!(f.store.counts(f.other, &by_id).await.unwrap().all, 0);
    assert!(
        f.store
            .counterparty(f.other, &cp.id.to_string())
            .await
            .unwrap()
            .is_none()
    );
    let theirs = supplier(&f, f.other, "shared-internal").await;
    assert_ne!(theirs.id, cp.id, "internal ids are per account");
}

async fn a_calculation_walks_its_shipments_and_saves_their_emissions(t: TestDb) {
    let f = fixture(t).await;
    let cp = supplier(&f, f.account, "c").await;
    let selected = new_batch(f.account, 0, None);
    let ids = stored_batch(
        &f,
        f.account,
        selected.clone(),
        (0..5)
            .map(|i| (&cp, draft(&format!("C-{i}"), vec![]), None))
            .collect(),
    )
    .await;
    let left_out = stored_batch(
        &f,
        f.account,
        new_batch(f.account, 0, None),
        vec![(&cp, draft("L", vec![]), None)],
    )
    .await;
    let filter = ShipmentFilter {
        batch_ids: vec![selected.id],
        emissions: EmissionsFilter::WithoutCo2e,
        ..ShipmentFilter::default()
    };
    let calculation = NewCalculation {
        id: CalculationId::generate(&UuidV7Generator),
        account_id: f.account,
        filter: filter.clone(),
        created_at: T0,
    };
    f.store.insert_calculation(&calculation).await.unwrap();
    let now = T0;
    let mut w1 = claim_calculation(&f, "w1", now).await.unwrap();
    assert_eq!(w1.id, calculation.id);
    assert_eq!(w1.filter, filter);
    assert_eq!(w1.after, None);
    assert!(claim_calculation(&f, "w2", now).await.is_none());
    let e = rail_emissions();
    let rows = f.store.calculation_rows(&w1, 2).await.unwrap();
    assert_eq!(
        rows.iter().map(|r| r.id).collect::<Vec<_>>(),
        ids[..2].to_vec(),
        "upwards by id"
    );
    assert_eq!(rows[0].row, "{\"shipment_id\":\"C-0\"}");
    let results = rows.iter().map(|r| (r.id, Some(e.clone()))).collect();
    f.store
        .save_calculated(&w1, results, ids[1], now + LEASE)
        .await
        .unwrap();
    w1.after = Some(ids[1]);

    // w1's lease runs out: w2 resumes after the last saved shipment
    let later = now + LEASE + Duration::seconds(1);
    let mut w2 = claim_calculation(&f, "w2", later).await.unwrap();
    assert_eq!(w2.after, Some(ids[1]));
    let stale = f.store.calculation_rows(&w1, 2).await.unwrap();
    assert!(matches!(
        f.store
            .save_calculated(
                &w1,
                stale.iter().map(|r| (r.id, Some(e.clone()))).collect(),
                ids[3],
                later + LEASE
            )
            .await,
        Err(StoreError::NotFound)
    ));
    assert!(
        f.store
            .shipment(f.account, ids[2])
            .await
            .unwrap()
            .unwrap()
            .emissions
            .is_none(),
        "the stale worker wrote nothing"
    );
    loop {
        let rows = f.store.calculation_rows(&w2, 2).await.unwrap();
        let Some(last) = rows.last().map(|r| r.id) else {
            break;
        };
        let results = rows.iter().map(|r| (r.id, Some(e.clone()))).collect();
        f.store
            .save_calculated(&w2, results, last, later + LEASE)
            .await
            .unwrap();
        w2.after = Some(last);
    }
    assert!(matches!(
        f.store.finish_calculation(&w1).await,
        Err(StoreError::NotFound)
    ));
    f.store.finish_calculation(&w2).await.unwrap();
    f.jobs.finish(&w2.lease, Finished::Done).await.unwrap();
    assert!(
        claim_calculation(&f, "w3", later + LEASE * 10)
            .await
            .is_none(),
        "a finished calculation is not claimed again"
    );

    let with = ShipmentFilter {
        emissions: EmissionsFilter::WithCo2e,
        ..ShipmentFilter::default()
    };
    let mut calculated = listed(&f, &with).await;
    calculated.reverse();
    assert_eq!(calculated, ids);
    let read = f.store.shipment(f.account, ids[4]).await.unwrap().unwrap();
    assert_eq!(read.emissions, Some(e));
    assert!(
        f.store
            .shipment(f.account, left_out[0])
            .await
            .unwrap()
            .unwrap()
            .emissions
            .is_none()
    );

    // `None` clears the emissions
    let again = NewCalculation {
        id: CalculationId::generate(&UuidV7Generator),
        account_id: f.account,
        filter: ShipmentFilter {
            ids: vec![ids[0]],
            ..ShipmentFilter::default()
        },
        created_at: T0,
    };
    f.store.insert_calculation(&again).await.unwrap();
    let c = claim_calculation(&f, "w4", later).await.unwrap();
    f.store
        .save_calculated(&c, vec![(ids[0], None)], ids[0], later + LEASE)
        .await
        .unwrap();
    let cleared = f.store.shipment(f.account, ids[0]).await.unwrap().unwrap();
    assert_eq!(cleared.emissions, None);
    assert_eq!(
        listed(
            &f,
            &ShipmentFilter {
                emissions: EmissionsFilter::WithoutCo2e,
                ..ShipmentFilter::default()
            }
        )
        .await,
        [left_out[0], ids[0]]
    );
}

/// The largest batch is stored in one transaction, quickly.
async fn the_largest_batch_is_stored_at_once(t: TestDb) {
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

/// The clock of a worker process: moved on by the test.
struct TestClock(std::sync::Mutex<OffsetDateTime>);

impl Clock for TestClock {
    fn now(&self) -> OffsetDateTime {
        *self.0.lock().unwrap()
    }
}

/// Rows `{"shipment_id":"R-i"}`: a rail shipment for supplier `carrier-{i % 3}`,
/// failing every tenth row; after `dies_after` rows the process "dies"
/// (panics mid-chunk, as a `kill -9` would stop it: nothing of the chunk in
/// hand is written).
struct TestDecoder {
    decoded: AtomicUsize,
    dies_after: usize,
}

impl RowDecoder for TestDecoder {
    fn decode(&self, row: &str) -> Result<ShipmentDraft, RowError> {
        let n = self.decoded.fetch_add(1, Ordering::SeqCst);
        assert!(n < self.dies_after, "the process dies");
        let v: serde_json::Value = serde_json::from_str(row).unwrap();
        let reference = v["shipment_id"].as_str().unwrap().to_owned();
        let i: usize = reference.trim_start_matches("R-").parse().unwrap();
        if i % 10 == 9 {
            return Err(RowError::new("legs[0].method", "is not known"));
        }
        Ok(ShipmentDraft {
            reference: Some(reference),
            target_internal_id: Some(format!("carrier-{}", i % 3)),
            target_internal_name: None,
            legs: vec![leg(Carriage::Main, rail(), Some(date!(2026 - 03 - 01)))],
            client_emissions: None,
        })
    }
}

/// The shipments use cases as the job engine's handler (the binary's adapter).
struct Handler(Arc<Shipments>);

#[async_trait::async_trait]
impl JobHandler for Handler {
    async fn step(&self, job: &JobClaim) -> Result<Step, StoreError> {
        self.0.step(job).await
    }
    async fn give_up(&self, job: &JobClaim, reason: &str) -> Result<(), StoreError> {
        self.0.give_up(job, reason).await
    }
}

/// A worker process over the store: the domain's service and the job
/// engine, its own clock.
struct Process {
    shipments: Arc<Shipments>,
    engine: Arc<JobEngine>,
}

fn process(f: &Fixture, clock: &Arc<TestClock>, dies_after: usize) -> Process {
    let clock: Arc<dyn Clock> = clock.clone();
    let shipments = Arc::new(Shipments::new(
        Arc::new(f.store.clone()),
        Arc::new(TestDecoder {
            decoded: AtomicUsize::new(0),
            dies_after,
        }),
        Arc::clone(&clock),
        Arc::new(UuidV7Generator),
    ));
    let handler: Arc<dyn JobHandler> = Arc::new(Handler(Arc::clone(&shipments)));
    let engine = JobEngine::new(Arc::new(f.jobs.clone()), clock)
        .handle(BATCH_JOB, Arc::clone(&handler))
        .handle(CALCULATION_JOB, handler)
        .with_lease(tonne_shipments::LEASE);
    Process {
        shipments,
        engine: Arc::new(engine),
    }
}

async fn upload(service: &Shipments, account: AccountId, rows: usize) -> ShipmentBatchId {
    service
        .upload(
            &Owner {
                account_id: account,
                account_name: "Acme".into(),
            },
            Upload {
                rows: (0..rows)
                    .map(|i| format!("{{\"shipment_id\":\"R-{i}\"}}"))
                    .collect(),
                contact_id: None,
                idempotency_key: None,
                calculate: true,
                source: BatchSource::Api,
                data_sheet: None,
            },
        )
        .await
        .unwrap()
}

/// Every row of the batch has exactly one outcome, every stored row exactly
/// one shipment: answers how many rows were stored.
async fn processed_once(f: &Fixture, batch: ShipmentBatchId, rows: usize) -> usize {
    let detail = f.store.batch(f.account, batch).await.unwrap().unwrap();
    assert_eq!(detail.batch.status, BatchStatus::Processed);
    let indices: Vec<u32> = detail.results.iter().map(|r| r.row_index).collect();
    assert_eq!(
        indices,
        (0..u32::try_from(rows).unwrap()).collect::<Vec<_>>(),
        "one outcome per row"
    );
    let mut shipments = HashSet::new();
    for r in &detail.results {
        match &r.outcome {
            RowOutcome::Success(id) => {
                assert!(shipments.insert(*id));
                let s = f.store.shipment(f.account, *id).await.unwrap().unwrap();
                assert_eq!(s.facets.reference, format!("R-{}", r.row_index));
                assert!(s.emissions.is_some());
            }
            RowOutcome::Failed(e) => {
                assert_eq!(r.row_index % 10, 9);
                assert_eq!(e, "legs[0].method: is not known");
            }
        }
    }
    let stored = rows - rows / 10;
    assert_eq!(shipments.len(), stored);
    assert_eq!(
        detail.batch.success_count,
        Some(u32::try_from(stored).unwrap())
    );
    let by_batch = ShipmentFilter {
        batch_ids: vec![batch],
        ..ShipmentFilter::default()
    };
    assert_eq!(
        f.store.count(f.account, &by_batch, 100_000).await.unwrap(),
        u64::try_from(stored).unwrap(),
        "no shipment stored twice"
    );
    stored
}

/// `kill -9` in the middle of a batch: the chunk in hand is lost, the chunks
/// before it stay; after the lease another process (or the same, restarted)
/// takes the batch over and every row is processed exactly once.
async fn a_process_killed_mid_batch_leaves_each_row_processed_once(t: TestDb) {
    let f = fixture(t).await;
    let clock = Arc::new(TestClock(std::sync::Mutex::new(T0)));
    // dies in the second chunk of 500
    let doomed = process(&f, &clock, 700);
    let batch = upload(&doomed.shipments, f.account, 1300).await;
    let crashed = tokio::spawn({
        let doomed = Arc::clone(&doomed.engine);
        async move { while doomed.work("doomed").await.unwrap() == Worked::Progress {} }
    })
    .await;
    assert!(crashed.is_err(), "the process died");
    assert_eq!(
        f.store.pending_rows(batch, 2000).await.unwrap().len(),
        800,
        "its first chunk stayed, the second was lost"
    );

    let restarted = process(&f, &clock, usize::MAX);
    assert_eq!(
        restarted.engine.work("restarted").await.unwrap(),
        Worked::Idle,
        "the batch is held until its lease runs out"
    );
    *clock.0.lock().unwrap() = T0 + tonne_shipments::LEASE + Duration::seconds(1);
    // the rows left: a chunk of 500, then the last 300, which ends the batch
    assert_eq!(
        restarted.engine.work("restarted").await.unwrap(),
        Worked::Progress
    );
    assert_eq!(
        restarted.engine.work("restarted").await.unwrap(),
        Worked::Progress
    );
    assert_eq!(
        restarted.engine.work("restarted").await.unwrap(),
        Worked::Idle
    );
    processed_once(&f, batch, 1300).await;
}

/// Two processes working at once take different batches: no row is
/// processed twice.
async fn two_processes_never_process_a_row_twice(t: TestDb) {
    let f = fixture(t).await;
    let clock = Arc::new(TestClock(std::sync::Mutex::new(T0)));
    let (a, b) = (
        process(&f, &clock, usize::MAX),
        process(&f, &clock, usize::MAX),
    );
    let mut batches = Vec::new();
    for _ in 0..4 {
        batches.push(upload(&a.shipments, f.account, 600).await);
    }
    let run = |p: Process, name: &'static str| {
        tokio::spawn(async move {
            let mut steps = 0;
            while p.engine.work(name).await.unwrap() == Worked::Progress {
                steps += 1;
            }
            steps
        })
    };
    let (ra, rb) = (run(a, "a"), run(b, "b"));
    let steps = ra.await.unwrap() + rb.await.unwrap();
    assert_eq!(
        steps, 8,
        "two steps per batch: a chunk of 500, then the last 100"
    );
    for batch in batches {
        processed_once(&f, batch, 600).await;
    }
    // the suppliers were created once each, whoever came first
    let suppliers: HashSet<String> = f
        .store
        .shipments(f.account, &ShipmentFilter::default(), &first(100))
        .await
        .unwrap()
        .items
        .into_iter()
        .map(|s| s.supplier.id)
        .collect();
    assert_eq!(suppliers.len(), 3);
}

on_both_backends!(
    a_batch_and_its_results_round_trip,
    a_used_idempotency_key_writes_nothing,
    a_lease_runs_out_and_another_worker_takes_the_batch_over,
    a_row_already_processed_undoes_the_whole_chunk,
    concurrent_workers_never_share_a_batch,
    every_filter_selects_its_shipments,
    pages_follow_one_another_newest_first,
    accounts_see_only_their_own,
    a_calculation_walks_its_shipments_and_saves_their_emissions,
    the_largest_batch_is_stored_at_once,
    a_process_killed_mid_batch_leaves_each_row_processed_once,
    two_processes_never_process_a_row_twice,
);
