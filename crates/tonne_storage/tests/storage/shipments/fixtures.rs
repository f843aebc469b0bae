//! The shipments tests' fixture and builders: batches, legs, drafts, stored
//! shipments, claimed jobs, suppliers and listed pages.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use rust_decimal::Decimal;
use time::macros::datetime;
use time::{Date, Duration, OffsetDateTime};
use tonne_jobs::{Finished, JobQueue};
use tonne_kernel::{AccountId, PageRequest, UuidV7Generator};
use tonne_shipments::{BATCH_JOB, CALCULATION_JOB, CalculationClaim, emissions};
use tonne_shipments::{
    BatchClaim, Carriage, Counterparty, LegDraft, LegMethod, Load, NewBatch, NewShipment, RowDone,
    SeaVessel, ShipmentDraft, ShipmentEmissions, ShipmentFilter, ShipmentId, ShipmentRepository,
};
use tonne_storage::{JobStore, ShipmentStore};
use tonne_test_support::TestDb;

pub(super) const T0: OffsetDateTime = datetime!(2026-11-26 10:00 UTC);

pub(super) const LEASE: Duration = Duration::seconds(60);

pub(super) struct Fixture {
    pub(super) store: ShipmentStore,
    pub(super) jobs: JobStore,
    pub(super) account: AccountId,
    pub(super) other: AccountId,
    pub(super) _db: TestDb,
}

pub(super) async fn fixture(t: TestDb) -> Fixture {
    let (live, test) = tonne_test_support::organisation(t.db(), T0).await;
    Fixture {
        store: ShipmentStore::new(t.db().clone()),
        jobs: JobStore::new(t.db().clone()),
        account: live.id,
        other: test.id,
        _db: t,
    }
}

pub(super) fn new_batch(account: AccountId, rows: usize, key: Option<&str>) -> NewBatch {
    let rows = (0..rows)
        .map(|i| format!("{{\"shipment_id\":\"R-{i}\"}}"))
        .collect();
    NewBatch {
        idempotency_key: key.map(str::to_owned),
        calculate: true,
        ..crate::fixtures::batch(account, rows, T0)
    }
}

pub(super) fn leg(carriage: Carriage, method: LegMethod, date: Option<Date>) -> LegDraft {
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

pub(super) fn rail() -> LegMethod {
    LegMethod::Rail("electric_freight_train".into())
}

pub(super) fn road() -> LegMethod {
    LegMethod::Road {
        vehicle_type: "truck".into(),
        fuel: "diesel".into(),
        refrigerated: false,
    }
}

pub(super) fn sea() -> LegMethod {
    LegMethod::Sea(SeaVessel::Container {
        refrigerated: false,
        trade_lane: None,
    })
}

pub(super) fn draft(reference: &str, legs: Vec<LegDraft>) -> ShipmentDraft {
    ShipmentDraft {
        reference: Some(reference.into()),
        target_internal_id: None,
        target_internal_name: None,
        legs,
        client_emissions: None,
    }
}

/// Realistic emissions: the domain's own calculation of a rail shipment.
pub(super) fn rail_emissions() -> ShipmentEmissions {
    let mut d = draft("E", vec![leg(Carriage::Main, rail(), None)]);
    d.check().unwrap();
    emissions(&d).unwrap()
}

pub(super) fn new_shipment(
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

pub(super) fn stored(s: NewShipment) -> RowDone {
    RowDone::Stored(Box::new(s))
}

/// Claims the next due batch job as the engine would, and opens its batch
/// (a job whose batch is processed already is ended, as the engine ends it).
pub(super) async fn claim(
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
pub(super) async fn claim_calculation(
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
pub(super) async fn stored_batch(
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

pub(super) async fn supplier(f: &Fixture, account: AccountId, internal: &str) -> Counterparty {
    f.store
        .counterparty_by_internal_id(account, internal, Some(format!("Name of {internal}")))
        .await
        .unwrap()
}

pub(super) fn first(limit: u8) -> PageRequest<ShipmentId> {
    crate::fixtures::page(limit, None)
}

pub(super) async fn listed(f: &Fixture, filter: &ShipmentFilter) -> Vec<ShipmentId> {
    f.store
        .shipments(f.account, filter, &first(100))
        .await
        .unwrap()
        .items
        .into_iter()
        .map(|s| s.id)
        .collect()
}
