//! The estimation use cases over mocked engines, repository, clock and ids.

use std::sync::{Arc, Mutex};

use mockall::predicate::eq;
use time::OffsetDateTime;
use tonne_kernel::{AccountId, Clock, EstimateId, IdGenerator, Mass, MockClock, MockIdGenerator};

use super::*;
use crate::Spend;
use crate::electricity::{Energy, EnergyUnit};
use crate::estimate::{EstimateDetail, QuoteTerms, Submitted};
use crate::explain::{Explanation, Part};
use crate::ports::{MockEngine, MockEstimateRepository};
use crate::transaction::{Merchant, TransactionRequest};

fn clock() -> Arc<dyn Clock> {
    let mut c = MockClock::new();
    c.expect_now().return_const(OffsetDateTime::UNIX_EPOCH);
    Arc::new(c)
}

fn ids() -> Arc<dyn IdGenerator> {
    let mut g = MockIdGenerator::new();
    let mut n = 0_u128;
    g.expect_new_uuid().returning(move || {
        n += 1;
        uuid::Uuid::from_u128(n)
    });
    Arc::new(g)
}

fn account(n: u128) -> AccountId {
    AccountId::from_uuid(uuid::Uuid::from_u128(n))
}

fn electricity(kwh: &str) -> NewEstimate {
    NewEstimate {
        request: EstimateRequest::Electricity {
            consumption: Energy::parse(kwh, EnergyUnit::KWh).unwrap(),
            country_code: Some("GBR".into()),
        },
        quote: QuoteTerms::default(),
        submitted: Submitted::new(format!("{{\"kwh\":\"{kwh}\"}}")),
        annotations: Default::default(),
    }
}

fn transaction(mcc: &str) -> NewEstimate {
    NewEstimate {
        request: EstimateRequest::Transaction(TransactionRequest {
            value: Spend::parse("value.value", "100", tonne_kernel::Currency::Usd).unwrap(),
            country_code: "USA".into(),
            merchant: Merchant::CategoryCode(mcc.into()),
            diet: None,
            processed_year: None,
        }),
        quote: QuoteTerms::default(),
        submitted: Submitted::new("{}"),
        annotations: Default::default(),
    }
}

fn service(repo: MockEstimateRepository) -> Estimations {
    Estimations::new(Arc::new(repo), Arc::new(Engines), clock(), ids())
}

#[tokio::test]
async fn create_computes_then_stores_what_it_answers() {
    let mut repo = MockEstimateRepository::new();
    repo.expect_insert()
        .withf(|e| {
            e.len() == 1
                && e[0].mass == Some(Mass::from_grams(215_790))
                && e[0].kind == EstimateKind::Electricity
                && e[0].submitted.as_str() == "{\"kwh\":\"1000\"}"
                && e[0].explanation.parts.len() == 1
        })
        .times(1)
        .returning(|_| Ok(()));
    let e = service(repo)
        .create(account(1), electricity("1000"))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(e.account_id, account(1));
    assert_eq!(e.detail, EstimateDetail::Plain);
}

#[tokio::test]
async fn a_refused_request_stores_nothing() {
    let mut repo = MockEstimateRepository::new();
    repo.expect_insert().never();
    let mut bad = electricity("1");
    bad.request = EstimateRequest::Electricity {
        consumption: Energy::parse("1", EnergyUnit::KWh).unwrap(),
        country_code: Some("XXX".into()),
    };
    let err = service(repo).create(account(1), bad).await.unwrap_err();
    assert!(matches!(
        err,
        EstimationError::Invalid(EstimateError::UnknownCountry { .. })
    ));
}

#[tokio::test]
async fn money_movement_is_answered_and_not_stored() {
    let mut repo = MockEstimateRepository::new();
    repo.expect_insert().never();
    // 6012: financial institutions — money movement
    let out = service(repo)
        .create(account(1), transaction("6012"))
        .await
        .unwrap();
    assert!(out.is_none());
}

#[tokio::test]
async fn a_batch_is_one_insert_of_the_estimated_entries_in_order() {
    let mut repo = MockEstimateRepository::new();
    repo.expect_insert()
        .withf(|e| e.len() == 2 && e[0].mass < e[1].mass && e.iter().all(|x| x.mass.is_some()))
        .times(1)
        .returning(|_| Ok(()));
    let out = service(repo)
        .create_many(
            account(1),
            vec![
                electricity("1"),
                transaction("6012"),
                transaction("9999x"),
                electricity("2"),
            ],
        )
        .await
        .unwrap();
    assert_eq!(out.len(), 4);
    assert!(matches!(out[0], Ok(Some(_))));
    assert!(matches!(out[1], Ok(None)));
    assert!(out[2].is_err());
    assert!(matches!(out[3], Ok(Some(_))));
    let (a, b) = match (&out[0], &out[3]) {
        (Ok(Some(a)), Ok(Some(b))) => (a.id, b.id),
        _ => unreachable!(),
    };
    assert_ne!(a, b);
}

fn stored(id: EstimateId, owner: AccountId, explanation: Explanation) -> Estimate {
    Estimate {
        id,
        account_id: owner,
        kind: EstimateKind::Electricity,
        mass: Some(Mass::from_grams(5)),
        detail: EstimateDetail::Plain,
        explanation,
        quote: QuoteTerms::default(),
        submitted: Submitted::new("{}"),
        annotations: Default::default(),
        order_id: None,
        created_at: OffsetDateTime::UNIX_EPOCH,
        updated_at: OffsetDateTime::UNIX_EPOCH,
    }
}

#[tokio::test]
async fn other_accounts_other_kinds_and_bad_ids_are_not_found() {
    let id = EstimateId::from_uuid(uuid::Uuid::from_u128(7));
    let mut repo = MockEstimateRepository::new();
    let e = stored(id, account(1), Explanation::default());
    repo.expect_get()
        .with(eq(account(1)), eq(id))
        .returning(move |_, _| Ok(Some(e.clone())));
    repo.expect_get().returning(|_, _| Ok(None));
    let s = service(repo);
    let text = id.to_string();
    assert!(
        s.get(account(1), Some(EstimateKind::Electricity), &text)
            .await
            .is_ok()
    );
    for (who, kind, id) in [
        (account(1), Some(EstimateKind::Company), text.as_str()),
        (account(2), Some(EstimateKind::Electricity), text.as_str()),
        (account(2), None, text.as_str()),
        (account(1), None, "nope"),
    ] {
        assert!(matches!(
            s.get(who, kind, id).await,
            Err(EstimationError::NotFound)
        ));
    }
}

#[tokio::test]
async fn an_ordered_estimate_cannot_be_updated_and_kinds_without_a_route_are_not_found() {
    let mut repo = MockEstimateRepository::new();
    repo.expect_update()
        .returning(|_, _| Ok(UpdateOutcome::Ordered));
    let s = service(repo);
    let id = EstimateId::from_uuid(uuid::Uuid::from_u128(9)).to_string();
    assert!(matches!(
        s.update(account(1), &id, electricity("3")).await,
        Err(EstimationError::AlreadyOrdered)
    ));
    // flights have no update route in the contract
    let flight = NewEstimate {
        request: EstimateRequest::Flight(crate::flight::FlightRequest {
            route: crate::flight::FlightRoute::Airports {
                source: "LHR".into(),
                destination: "CDG".into(),
            },
            cabin: crate::flight::CabinClass::Economy,
            passengers: rust_decimal::Decimal::ONE,
            aircraft_type: None,
        }),
        ..electricity("1")
    };
    assert!(matches!(
        s.update(account(1), &id, flight).await,
        Err(EstimationError::NotFound)
    ));
}

/// An in-memory repository, to follow one estimate through a table change.
#[derive(Default)]
struct Memory(Mutex<Vec<Estimate>>);

#[async_trait]
impl EstimateRepository for Memory {
    async fn daily_counts(
        &self,
        since: time::OffsetDateTime,
    ) -> Result<Vec<(time::Date, u64)>, StoreError> {
        let mut days: Vec<(time::Date, u64)> = Vec::new();
        for e in self
            .0
            .lock()
            .unwrap()
            .iter()
            .filter(|e| e.created_at >= since)
        {
            match days.iter_mut().find(|(d, _)| *d == e.created_at.date()) {
                Some((_, n)) => *n += 1,
                None => days.push((e.created_at.date(), 1)),
            }
        }
        days.sort();
        Ok(days)
    }
    async fn insert(&self, estimates: &[Estimate]) -> Result<(), StoreError> {
        self.0.lock().unwrap().extend_from_slice(estimates);
        Ok(())
    }
    async fn get(
        &self,
        account: AccountId,
        id: EstimateId,
    ) -> Result<Option<Estimate>, StoreError> {
        Ok(self
            .0
            .lock()
            .unwrap()
            .iter()
            .find(|e| e.id == id && e.account_id == account)
            .cloned())
    }
    async fn get_by_idempotency_key(
        &self,
        account: AccountId,
        key: &str,
    ) -> Result<Option<Estimate>, StoreError> {
        Ok(self
            .0
            .lock()
            .unwrap()
            .iter()
            .find(|e| {
                e.account_id == account && e.annotations.idempotency_key.as_deref() == Some(key)
            })
            .cloned())
    }
    async fn list(
        &self,
        account: AccountId,
        kinds: &[crate::estimate::EstimateKind],
        _: &crate::estimate::EstimateFilter,
        page: &tonne_kernel::PageRequest<tonne_kernel::Cursor>,
    ) -> Result<tonne_kernel::Page<Estimate>, StoreError> {
        let mut rows: Vec<Estimate> = self
            .0
            .lock()
            .unwrap()
            .iter()
            .filter(|e| e.account_id == account && kinds.contains(&e.kind))
            .cloned()
            .collect();
        rows.reverse();
        Ok(tonne_kernel::Page::from_overfetch(rows, page.limit))
    }
    async fn annotate(
        &self,
        _: AccountId,
        _: EstimateId,
        _: &crate::estimate::Annotations,
        _: OffsetDateTime,
    ) -> Result<bool, StoreError> {
        Ok(false)
    }
    async fn update(&self, _: &Estimate, _: OffsetDateTime) -> Result<UpdateOutcome, StoreError> {
        Ok(UpdateOutcome::NotFound)
    }
}

#[tokio::test]
async fn a_stored_estimate_keeps_the_explanation_it_was_computed_with() {
    let memory = Arc::new(Memory::default());
    let created = Estimations::new(memory.clone(), Arc::new(Engines), clock(), ids())
        .create(account(1), electricity("1000"))
        .await
        .unwrap()
        .unwrap();
    let original = created.explanation.clone();
    assert_eq!(original.parts[0].factors[0].id, "grid:GBR");

    // the grid table is replaced by a substitute with another factor
    let mut substitute = MockEngine::new();
    substitute.expect_compute().returning(|_| {
        Ok(Computed {
            mass: Some(Mass::from_grams(1)),
            detail: EstimateDetail::Plain,
            explanation: Explanation {
                parts: vec![Part {
                    name: "consumption".into(),
                    mass: Mass::from_grams(1),
                    factors: vec![],
                    quantities: vec![],
                    wtt: None,
                }],
                notes: vec!["a newer table".into()],
                factor_set: None,
            },
        })
    });
    let later = Estimations::new(memory.clone(), Arc::new(substitute), clock(), ids());
    let read = later
        .get(account(1), None, &created.id.to_string())
        .await
        .unwrap();
    assert_eq!(read.explanation, original);
    assert_eq!(read.mass, Some(Mass::from_grams(215_790)));
    // a new estimate uses the new table
    let fresh = later
        .create(account(1), electricity("1000"))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(fresh.explanation.notes, vec!["a newer table".to_owned()]);
}

#[tokio::test]
async fn a_taken_idempotency_key_is_refused_not_unexpected() {
    let mut repo = MockEstimateRepository::new();
    repo.expect_insert()
        .withf(|e| e.len() == 1 && e[0].annotations.idempotency_key.as_deref() == Some("k"))
        .times(1)
        .returning(|_| Err(StoreError::Duplicate));
    let mut keyed = electricity("1000");
    keyed.annotations.idempotency_key = Some("k".into());
    let err = service(repo).create(account(1), keyed).await.unwrap_err();
    assert!(matches!(err, EstimationError::IdempotencyKeyExists));
}

#[tokio::test]
async fn an_estimate_is_found_by_key_on_its_account_and_kind_only() {
    let mut repo = MockEstimateRepository::new();
    let stored = service(MockEstimateRepository::new())
        .computed(
            EstimateId::generate(ids().as_ref()),
            account(1),
            electricity("1"),
        )
        .unwrap();
    let found = stored.clone();
    repo.expect_get_by_idempotency_key()
        .with(eq(account(1)), eq("k"))
        .returning(move |_, _| Ok(Some(found.clone())));
    repo.expect_get_by_idempotency_key()
        .returning(|_, _| Ok(None));
    let s = service(repo);
    assert_eq!(
        s.get_by_idempotency_key(account(1), None, "k")
            .await
            .unwrap(),
        stored
    );
    assert!(matches!(
        s.get_by_idempotency_key(account(1), Some(EstimateKind::Transaction), "k")
            .await,
        Err(EstimationError::NotFound)
    ));
    assert!(matches!(
        s.get_by_idempotency_key(account(2), None, "k").await,
        Err(EstimationError::NotFound)
    ));
}
