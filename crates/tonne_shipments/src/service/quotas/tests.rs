//! The bounds of uploads and calculations against a mocked quota port: which
//! limits apply, the organisation's override over the default, and a write
//! refused past a bound with nothing else written.

use std::sync::Arc;

use time::macros::datetime;
use tonne_kernel::{
    AccountId, BoundedWriteError, LimitOverrides, Limits, MockClock, MockIdGenerator, Quota,
    StoreError, Usage,
};

use crate::batch::{BatchSource, ShipmentFilter, Upload};
use crate::errors::{CalculateError, UploadError};
use crate::ports::{MockRowDecoder, MockShipmentRepository, Owner, ShipmentsService};
use crate::quotas::MockShipmentQuotas;
use crate::service::Shipments;

fn account() -> AccountId {
    AccountId::from_uuid(uuid::Uuid::from_u128(7))
}

fn service(repo: MockShipmentRepository, quotas: MockShipmentQuotas) -> Shipments {
    let mut clock = MockClock::new();
    clock
        .expect_now()
        .returning(|| datetime!(2026-11-28 12:00 UTC));
    let mut ids = MockIdGenerator::new();
    let mut n = 0_u128;
    ids.expect_new_uuid().returning(move || {
        n += 1;
        uuid::Uuid::from_u128(2000 + n)
    });
    Shipments::new(
        Arc::new(repo),
        Arc::new(MockRowDecoder::new()),
        Arc::new(clock),
        Arc::new(ids),
    )
    .with_quotas(Arc::new(quotas), Limits::DEFAULT)
}

fn owner() -> Owner {
    Owner {
        account_id: account(),
        account_name: "Acme".into(),
    }
}

fn upload(rows: &[&str]) -> Upload {
    Upload {
        rows: rows.iter().map(|r| (*r).to_owned()).collect(),
        contact_id: None,
        idempotency_key: None,
        calculate: false,
        source: BatchSource::Api,
        data_sheet: None,
    }
}

fn no_overrides(quotas: &mut MockShipmentQuotas) {
    quotas
        .expect_overrides()
        .with(mockall::predicate::eq(account()))
        .returning(|_| Ok(LimitOverrides::default()));
}

#[tokio::test]
async fn an_upload_counts_one_pending_batch_its_rows_and_their_bytes_under_the_defaults() {
    let mut repo = MockShipmentRepository::new();
    repo.expect_insert_batch().never();
    let mut quotas = MockShipmentQuotas::new();
    no_overrides(&mut quotas);
    quotas
        .expect_insert_batch_within()
        .withf(|batch, bounds| {
            batch.rows.len() == 2
                && bounds.limits == Limits::DEFAULT
                && bounds.demands
                    == [
                        (Quota::PendingBatches, 1),
                        (Quota::StoredShipments, 2),
                        (Quota::StoredBytes, 6),
                    ]
        })
        .times(1)
        .returning(|_, _| Ok(()));
    let s = service(repo, quotas);
    s.upload(&owner(), upload(&["{}", "{\"\"}"])).await.unwrap();
}

#[tokio::test]
async fn the_organisations_override_replaces_the_default_it_names_only() {
    let mut quotas = MockShipmentQuotas::new();
    quotas.expect_overrides().returning(|_| {
        let mut o = LimitOverrides::default();
        o.set(Quota::StoredShipments, Some(10));
        Ok(o)
    });
    quotas
        .expect_insert_batch_within()
        .withf(|_, bounds| {
            bounds.limits.stored_shipments == 10
                && bounds.limits.pending_batches == Limits::DEFAULT.pending_batches
        })
        .times(1)
        .returning(|_, _| Ok(()));
    let s = service(MockShipmentRepository::new(), quotas);
    s.upload(&owner(), upload(&["{}"])).await.unwrap();
}

#[tokio::test]
async fn an_upload_past_a_bound_is_refused_naming_the_limit() {
    let mut quotas = MockShipmentQuotas::new();
    quotas.expect_overrides().returning(|_| {
        let mut o = LimitOverrides::default();
        o.set(Quota::StoredShipments, Some(3));
        Ok(o)
    });
    // the store counts 2 rows already stored: 2 + 2 > 3
    quotas
        .expect_insert_batch_within()
        .times(1)
        .returning(|_, bounds| {
            let mut usage = Usage::default();
            usage.set(Quota::StoredShipments, 2);
            bounds.admit(&usage).map_err(BoundedWriteError::Exceeded)
        });
    let mut repo = MockShipmentRepository::new();
    repo.expect_insert_batch().never();
    let s = service(repo, quotas);
    let Err(UploadError::Quota(e)) = s.upload(&owner(), upload(&["{}", "{}"])).await else {
        panic!("expected a quota refusal");
    };
    assert_eq!((e.limit, e.max, e.used), (Quota::StoredShipments, 3, 2));
    assert!(e.to_string().starts_with("max_stored_shipments: "), "{e}");
}

#[tokio::test]
async fn a_used_idempotency_key_is_still_a_conflict_within_the_bounds() {
    let mut quotas = MockShipmentQuotas::new();
    no_overrides(&mut quotas);
    quotas
        .expect_insert_batch_within()
        .returning(|_, _| Err(BoundedWriteError::Store(StoreError::Duplicate)));
    let s = service(MockShipmentRepository::new(), quotas);
    assert!(matches!(
        s.upload(&owner(), upload(&["{}"])).await,
        Err(UploadError::IdempotencyKeyUsed)
    ));
}

#[tokio::test]
async fn a_third_outstanding_calculation_is_refused_by_default() {
    let mut repo = MockShipmentRepository::new();
    repo.expect_count().returning(|_, _, _| Ok(10));
    repo.expect_insert_calculation().never();
    let mut quotas = MockShipmentQuotas::new();
    no_overrides(&mut quotas);
    let mut outstanding = 0_u64;
    quotas
        .expect_insert_calculation_within()
        .withf(|_, bounds| bounds.demands == [(Quota::OutstandingCalculations, 1)])
        .times(3)
        .returning(move |_, bounds| {
            let mut usage = Usage::default();
            usage.set(Quota::OutstandingCalculations, outstanding);
            bounds.admit(&usage).map_err(BoundedWriteError::Exceeded)?;
            outstanding += 1;
            Ok(())
        });
    let s = service(repo, quotas);
    for _ in 0..2 {
        s.calculate(account(), ShipmentFilter::default())
            .await
            .unwrap();
    }
    let Err(CalculateError::Quota(e)) = s.calculate(account(), ShipmentFilter::default()).await
    else {
        panic!("expected the third calculation refused");
    };
    assert_eq!((e.limit, e.max), (Quota::OutstandingCalculations, 2));
    assert!(e.limit.is_transient());
}

#[tokio::test]
async fn without_a_quota_port_writes_go_to_the_repository_unbounded() {
    let mut repo = MockShipmentRepository::new();
    repo.expect_insert_batch().times(1).returning(|_| Ok(()));
    let mut clock = MockClock::new();
    clock
        .expect_now()
        .returning(|| datetime!(2026-11-28 12:00 UTC));
    let mut ids = MockIdGenerator::new();
    ids.expect_new_uuid()
        .returning(|| uuid::Uuid::from_u128(3000));
    let s = Shipments::new(
        Arc::new(repo),
        Arc::new(MockRowDecoder::new()),
        Arc::new(clock),
        Arc::new(ids),
    );
    s.upload(&owner(), upload(&["{}"])).await.unwrap();
}
