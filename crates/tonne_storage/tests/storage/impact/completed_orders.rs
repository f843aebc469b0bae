//! An account's completed orders: the newest complete ones.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use tonne_impact::ports::ImpactRepository;
use tonne_storage::{ImpactStore, OrderStore};
use tonne_test_support::TestDb;

use super::fixtures::{D3, D4, T0, completed, order, scenario};

pub(super) async fn completed_orders_are_the_newest_complete_ones_of_the_account(t: TestDb) {
    let accounts = scenario(&t).await;
    let store = OrderStore::new(t.db().clone());
    let live = &accounts.live;
    // two more complete orders, the newest, created at the same instant: the
    // id breaks the tie
    let mut tied = [
        completed(&store, order(live, &[(13, "Bundle 13", 1_000)], D4)).await,
        completed(&store, order(live, &[(13, "Bundle 13", 2_000)], D4)).await,
    ];
    tied.sort_by_key(|o| std::cmp::Reverse(o.id.to_string()));
    let impact = ImpactStore::new(t.db().clone());
    let all = impact.completed_orders(live.id, 50).await.unwrap();
    assert_eq!(all.len(), 6, "the account's complete orders only");
    assert!(all.windows(2).all(|w| w[0].created_at >= w[1].created_at));
    assert_eq!(
        all.iter().map(|o| o.created_at).collect::<Vec<_>>(),
        vec![D4, D4, D3, D3, D3, T0]
    );
    let newest = impact.completed_orders(live.id, 2).await.unwrap();
    assert_eq!(
        newest
            .iter()
            .map(|o| (o.id, o.quantity.grams()))
            .collect::<Vec<_>>(),
        tied.iter()
            .map(|o| (o.id, o.quantity.grams()))
            .collect::<Vec<_>>(),
        "newest first, then by id, at most the limit"
    );
    assert_eq!(all[5].quantity.grams(), 4_000_000);
    assert_eq!(
        impact
            .completed_orders(accounts.other.id, 50)
            .await
            .unwrap()
            .len(),
        1
    );
    assert!(
        impact
            .completed_orders(live.id, 0)
            .await
            .unwrap()
            .is_empty()
    );
}
