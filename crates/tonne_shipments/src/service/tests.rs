//! The shipment use cases against mocked ports: uploads, processing and
//! calculations.

use std::sync::Arc;

use mockall::predicate::*;
use rust_decimal::Decimal;
use time::macros::datetime;
use tonne_kernel::{
    AccountId, JobClaim, JobId, JobLease, MockClock, MockIdGenerator, Step, StoreError,
};

use super::*;
use crate::batch::{BatchClaim, MAX_BATCH_ROWS, MAX_CALCULATION, PendingRow, RowDone};
use crate::errors::RowError;
use crate::ids::CounterpartyId;
use crate::model::{Counterparty, LegDraft, LegMethod, Load, ShipmentDraft};
use crate::ports::{MockRowDecoder, MockShipmentRepository};
use crate::vocabulary::Carriage;

fn account() -> AccountId {
    AccountId::from_uuid(uuid::Uuid::from_u128(7))
}

fn service(repo: MockShipmentRepository, decoder: MockRowDecoder) -> Shipments {
    let mut clock = MockClock::new();
    clock
        .expect_now()
        .returning(|| datetime!(2026-11-26 12:00 UTC));
    let mut ids = MockIdGenerator::new();
    let mut n = 0_u128;
    ids.expect_new_uuid().returning(move || {
        n += 1;
        uuid::Uuid::from_u128(1000 + n)
    });
    Shipments::new(
        Arc::new(repo),
        Arc::new(decoder),
        Arc::new(clock),
        Arc::new(ids),
    )
}

fn owner() -> Owner {
    Owner {
        account_id: account(),
        account_name: "Acme".into(),
    }
}

fn upload(rows: usize) -> Upload {
    Upload {
        rows: vec!["{}".to_owned(); rows],
        contact_id: None,
        idempotency_key: Some("k1".into()),
        calculate: true,
        source: BatchSource::Api,
        data_sheet: None,
    }
}

#[tokio::test]
async fn an_upload_too_large_or_empty_writes_nothing() {
    let mut repo = MockShipmentRepository::new();
    repo.expect_insert_batch().never();
    let s = service(repo, MockRowDecoder::new());
    for n in [0, MAX_BATCH_ROWS + 1] {
        assert!(matches!(
            s.upload(&owner(), upload(n)).await,
            Err(UploadError::Size(_))
        ));
    }
}

#[tokio::test]
async fn a_used_idempotency_key_is_refused() {
    let mut repo = MockShipmentRepository::new();
    repo.expect_insert_batch()
        .times(1)
        .returning(|_| Err(StoreError::Duplicate));
    let s = service(repo, MockRowDecoder::new());
    assert!(matches!(
        s.upload(&owner(), upload(3)).await,
        Err(UploadError::IdempotencyKeyUsed)
    ));
}

#[tokio::test]
async fn an_upload_stores_every_row_as_sent() {
    let mut repo = MockShipmentRepository::new();
    repo.expect_insert_batch()
        .withf(|b| b.rows.len() == 3 && b.account_name == "Acme" && b.calculate)
        .times(1)
        .returning(|_| Ok(()));
    let s = service(repo, MockRowDecoder::new());
    s.upload(&owner(), upload(3)).await.unwrap();
}

fn claim(contact: Option<&str>) -> BatchClaim {
    BatchClaim {
        batch_id: ShipmentBatchId::from_uuid(uuid::Uuid::from_u128(5)),
        account_id: account(),
        account_name: "Acme".into(),
        contact_id: contact.map(str::to_owned),
        calculate: true,
        lease: lease(),
    }
}

fn lease() -> JobLease {
    JobLease {
        job: JobId::from_uuid(uuid::Uuid::from_u128(77)),
        worker: "w1".into(),
    }
}

fn job(kind: &str, subject: u128) -> JobClaim {
    JobClaim {
        lease: lease(),
        kind: kind.into(),
        account_id: Some(account()),
        subject: uuid::Uuid::from_u128(subject).simple().to_string(),
        attempts: 0,
    }
}

fn good_draft() -> ShipmentDraft {
    ShipmentDraft {
        reference: Some("S-1".into()),
        target_internal_id: Some("carrier-9".into()),
        target_internal_name: Some("Carrier Nine".into()),
        client_emissions: None,
        legs: vec![LegDraft {
            order: None,
            carriage: Carriage::Main,
            method: LegMethod::Rail("diesel_freight_train".into()),
            origin: None,
            destination: None,
            distance_km: Some(Decimal::from(100)),
            load: Load {
                tonnes: Some(Decimal::from(5)),
                teu: None,
            },
            load_factor: None,
            empty_run_factor: None,
            date: None,
            client_emissions: None,
        }],
    }
}

#[tokio::test]
async fn the_worker_stores_good_rows_and_names_the_field_of_bad_ones() {
    let mut repo = MockShipmentRepository::new();
    repo.expect_open_batch()
        .withf(|lease, batch| lease.worker == "w1" && batch.as_uuid().as_u128() == 5)
        .times(1)
        .returning(|_, _| Ok(Some(claim(None))));
    repo.expect_pending_rows().times(1).returning(move |_, _| {
        Ok(vec![
            PendingRow {
                row_index: 0,
                row: "good".into(),
            },
            PendingRow {
                row_index: 1,
                row: "bad".into(),
            },
            PendingRow {
                row_index: 2,
                row: "good".into(),
            },
        ])
    });
    // the counterparty is looked up once for the two rows that name it
    repo.expect_counterparty_by_internal_id()
        .with(
            eq(account()),
            eq("carrier-9"),
            eq(Some("Carrier Nine".to_owned())),
        )
        .times(1)
        .returning(|_, _, _| {
            Ok(Counterparty {
                id: CounterpartyId::from_uuid(uuid::Uuid::from_u128(9)),
                name: "Carrier Nine".into(),
            })
        });
    repo.expect_complete_rows()
        .withf(|_, rows, _| {
            rows.len() == 3
                && matches!(&rows[0].1, RowDone::Stored(s) if s.emissions.is_some() && s.facets.reference == "S-1")
                && matches!(&rows[1].1, RowDone::Failed(e) if e.starts_with("legs[0].method:"))
                && matches!(&rows[2].1, RowDone::Stored(_))
        })
        .times(1)
        .returning(|_, _, _| Ok(()));
    repo.expect_finish_batch()
        .withf(|_, e| e.is_none())
        .times(1)
        .returning(|_, _| Ok(()));
    let mut decoder = MockRowDecoder::new();
    decoder.expect_decode().returning(|row| {
        if row == "good" {
            Ok(good_draft())
        } else {
            Err(RowError::new("legs[0].method", "is not a known method"))
        }
    });
    let s = service(repo, decoder);
    // fewer rows than a chunk: the batch is finished in the same step
    assert_eq!(s.step(&job(BATCH_JOB, 5)).await.unwrap(), Step::Done);
}

#[tokio::test]
async fn a_full_chunk_leaves_the_batch_for_a_later_step() {
    let mut repo = MockShipmentRepository::new();
    repo.expect_open_batch()
        .returning(|_, _| Ok(Some(claim(Some("c1")))));
    repo.expect_counterparty().returning(|_, _| {
        Ok(Some(Counterparty {
            id: CounterpartyId::from_uuid(uuid::Uuid::from_u128(9)),
            name: "C".into(),
        }))
    });
    repo.expect_pending_rows()
        .with(always(), eq(CHUNK))
        .times(1)
        .returning(|_, n| {
            Ok((0..n)
                .map(|i| PendingRow {
                    row_index: i,
                    row: "good".into(),
                })
                .collect())
        });
    repo.expect_complete_rows()
        .withf(|_, rows, _| rows.len() == 500)
        .times(1)
        .returning(|_, _, _| Ok(()));
    repo.expect_finish_batch().never();
    let mut decoder = MockRowDecoder::new();
    decoder.expect_decode().returning(|_| Ok(good_draft()));
    let s = service(repo, decoder);
    assert_eq!(s.step(&job(BATCH_JOB, 5)).await.unwrap(), Step::More);
}

#[tokio::test]
async fn a_processed_batch_is_done() {
    let mut repo = MockShipmentRepository::new();
    repo.expect_open_batch().returning(|_, _| Ok(None));
    repo.expect_pending_rows().never();
    let s = service(repo, MockRowDecoder::new());
    assert_eq!(s.step(&job(BATCH_JOB, 5)).await.unwrap(), Step::Done);
}

#[tokio::test]
async fn a_batch_given_up_is_processed_with_an_error_that_names_no_internals() {
    let mut repo = MockShipmentRepository::new();
    repo.expect_open_batch()
        .returning(|_, _| Ok(Some(claim(None))));
    repo.expect_finish_batch()
        .withf(|_, e| {
            e.as_deref()
                .is_some_and(|e| e.starts_with("processing stopped") && !e.contains("0x00"))
        })
        .times(1)
        .returning(|_, _| Ok(()));
    let s = service(repo, MockRowDecoder::new());
    s.give_up(
        &job(BATCH_JOB, 5),
        "5 attempts failed; the last: invalid byte 0x00",
    )
    .await
    .unwrap();
}

#[tokio::test]
async fn an_unknown_contact_is_a_batch_error_and_no_row_is_read() {
    let mut repo = MockShipmentRepository::new();
    repo.expect_open_batch()
        .returning(|_, _| Ok(Some(claim(Some("nobody")))));
    repo.expect_counterparty().returning(|_, _| Ok(None));
    repo.expect_pending_rows().never();
    repo.expect_finish_batch()
        .withf(|_, e| e.as_deref().is_some_and(|e| e.starts_with("contact_id:")))
        .times(1)
        .returning(|_, _| Ok(()));
    let s = service(repo, MockRowDecoder::new());
    assert_eq!(s.step(&job(BATCH_JOB, 5)).await.unwrap(), Step::Done);
}

#[tokio::test]
async fn a_worker_that_lost_its_lease_stops_without_finishing() {
    let mut repo = MockShipmentRepository::new();
    repo.expect_open_batch()
        .returning(|_, _| Ok(Some(claim(None))));
    repo.expect_pending_rows().returning(|_, _| {
        Ok(vec![PendingRow {
            row_index: 0,
            row: "good".into(),
        }])
    });
    repo.expect_counterparty_by_internal_id()
        .returning(|_, _, _| {
            Ok(Counterparty {
                id: CounterpartyId::from_uuid(uuid::Uuid::from_u128(9)),
                name: "C".into(),
            })
        });
    repo.expect_complete_rows()
        .times(1)
        .returning(|_, _, _| Err(StoreError::NotFound));
    repo.expect_finish_batch().never();
    let mut decoder = MockRowDecoder::new();
    decoder.expect_decode().returning(|_| Ok(good_draft()));
    let s = service(repo, decoder);
    assert!(matches!(
        s.step(&job(BATCH_JOB, 5)).await,
        Err(StoreError::NotFound)
    ));
}

#[tokio::test]
async fn a_job_of_another_domain_is_refused() {
    let s = service(MockShipmentRepository::new(), MockRowDecoder::new());
    assert!(s.step(&job("transaction_document", 5)).await.is_err());
}

#[tokio::test]
async fn a_calculation_over_the_limit_is_refused_and_not_queued() {
    let mut repo = MockShipmentRepository::new();
    repo.expect_count()
        .with(eq(account()), always(), eq(MAX_CALCULATION))
        .returning(|_, _, _| Ok(MAX_CALCULATION + 1));
    repo.expect_insert_calculation().never();
    let s = service(repo, MockRowDecoder::new());
    assert!(matches!(
        s.calculate(account(), ShipmentFilter::default()).await,
        Err(CalculateError::TooMany { .. })
    ));
}

#[tokio::test]
async fn a_calculation_walks_its_shipments_in_chunks_and_finishes() {
    use crate::batch::{CalculationClaim, StoredRow};
    let mut repo = MockShipmentRepository::new();
    repo.expect_open_calculation().returning(|_, _| {
        Ok(Some(CalculationClaim {
            id: CalculationId::from_uuid(uuid::Uuid::from_u128(3)),
            account_id: account(),
            filter: ShipmentFilter::default(),
            after: None,
            lease: lease(),
        }))
    });
    repo.expect_calculation_rows().returning(|claim, _| {
        Ok(if claim.after.is_none() {
            vec![StoredRow {
                id: ShipmentId::from_uuid(uuid::Uuid::from_u128(11)),
                row: "good".into(),
            }]
        } else {
            vec![]
        })
    });
    repo.expect_save_calculated()
        .withf(|_, results, last, _| {
            results.len() == 1 && results[0].1.is_some() && last.as_uuid().as_u128() == 11
        })
        .times(1)
        .returning(|_, _, _, _| Ok(()));
    repo.expect_finish_calculation()
        .times(1)
        .returning(|_| Ok(()));
    let mut decoder = MockRowDecoder::new();
    decoder.expect_decode().returning(|_| Ok(good_draft()));
    let s = service(repo, decoder);
    assert_eq!(s.step(&job(CALCULATION_JOB, 3)).await.unwrap(), Step::Done);
}
