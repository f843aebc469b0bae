//! A calculation walks its shipments and saves their emissions.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use time::Duration;
use tonne_jobs::{Finished, JobQueue};
use tonne_kernel::{StoreError, UuidV7Generator};
use tonne_shipments::CalculationId;
use tonne_shipments::{EmissionsFilter, NewCalculation, ShipmentFilter, ShipmentRepository};
use tonne_test_support::TestDb;

use super::fixtures::{
    LEASE, T0, claim_calculation, draft, fixture, listed, new_batch, rail_emissions, stored_batch,
    supplier,
};

pub(super) async fn a_calculation_walks_its_shipments_and_saves_their_emissions(t: TestDb) {
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
