//! Order lists: most recent first by keyset, the operator's queue, and an
//! organisation's orders per mode.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use rust_decimal::Decimal;
use tonne_kernel::{AccountMode, Cursor, Limit, PageRequest, StoreError};
use tonne_ordering::ports::OrderRepository;
use tonne_ordering::{AwaitingFilter, OrderId, OrderStatus};
use tonne_storage::OrderStore;
use tonne_test_support::TestDb;
use uuid::Uuid;

use super::fixtures::{T0, account, advance, catalogue, event, order};

pub(super) async fn lists_are_most_recent_first_by_keyset(t: TestDb) {
    catalogue(&t).await;
    let acct = account(&t, AccountMode::Live).await;
    let other = account(&t, AccountMode::Live).await;
    let store = OrderStore::new(t.db().clone());
    let mut ids = Vec::new();
    for i in 0..7 {
        // two orders share each timestamp, so the id breaks ties
        let at = T0 + time::Duration::seconds(i / 2);
        ids.push(
            store
                .place(
                    &order(&acct, None, "0.1", 2, at),
                    event(OrderStatus::Received),
                )
                .await
                .unwrap(),
        );
    }
    store
        .place(
            &order(&other, None, "0.1", 2, T0),
            event(OrderStatus::Received),
        )
        .await
        .unwrap();
    let mut expected = ids.clone();
    expected.sort_by(|a, b| b.created_at.cmp(&a.created_at).then(b.id.cmp(&a.id)));
    let mut seen = Vec::new();
    let mut after = None;
    loop {
        let page = store
            .list(
                acct.id,
                None,
                &PageRequest {
                    limit: Limit::new(3).unwrap(),
                    after,
                },
            )
            .await
            .unwrap();
        seen.extend(page.items.iter().map(|o| o.id));
        if !page.has_more {
            break;
        }
        after = page.items.last().map(|o| Cursor::after(&o.id));
    }
    assert_eq!(seen, expected.iter().map(|o| o.id).collect::<Vec<_>>());
    let foreign = PageRequest {
        limit: Limit::new(3).unwrap(),
        after: Some(Cursor::after(&OrderId::from_uuid(Uuid::new_v4()))),
    };
    assert!(matches!(
        store.list(acct.id, None, &foreign).await,
        Err(StoreError::NotFound)
    ));
    let _ = Decimal::ZERO;
}

pub(super) async fn the_operator_queue_lists_live_orders_awaiting_action_by_organisation_and_status(
    t: TestDb,
) {
    catalogue(&t).await;
    let live = account(&t, AccountMode::Live).await;
    let test = account(&t, AccountMode::Test).await;
    let elsewhere = account(&t, AccountMode::Live).await;
    let store = OrderStore::new(t.db().clone());
    let mut placed = Vec::new();
    for (i, acct) in (0_i64..).zip([&live, &live, &live, &elsewhere, &test]) {
        let at = T0 + time::Duration::seconds(i);
        placed.push(
            store
                .place(
                    &order(acct, None, "0.1", 2, at),
                    event(OrderStatus::Received),
                )
                .await
                .unwrap(),
        );
    }
    // One moves to `placed`, one is cancelled (final: never in the queue).
    advance(&store, placed[1].id, OrderStatus::Placed).await;
    advance(&store, placed[2].id, OrderStatus::Cancelled).await;
    let page = |after| PageRequest {
        limit: Limit::new(2).unwrap(),
        after,
    };
    let all = |f: AwaitingFilter| {
        let store = &store;
        async move {
            let mut seen = Vec::new();
            let mut after = None;
            loop {
                let p = store.awaiting(f, &page(after)).await.unwrap();
                seen.extend(p.items.iter().map(|o| o.id));
                if !p.has_more {
                    return seen;
                }
                after = p.items.last().map(|o| Cursor::after(&o.id));
            }
        }
    };
    // Newest first; the test order and the cancelled one are not there.
    assert_eq!(
        all(AwaitingFilter::default()).await,
        [placed[3].id, placed[1].id, placed[0].id]
    );
    let mine = AwaitingFilter {
        organisation: Some(live.organisation_id),
        status: None,
    };
    assert_eq!(all(mine).await, [placed[1].id, placed[0].id]);
    let placed_only = AwaitingFilter {
        status: Some(OrderStatus::Placed),
        ..mine
    };
    assert_eq!(all(placed_only).await, [placed[1].id]);
    let final_status = AwaitingFilter {
        status: Some(OrderStatus::Cancelled),
        organisation: None,
    };
    assert!(all(final_status).await.is_empty());
    // A cursor outside the filtered list is not found.
    assert!(matches!(
        store
            .awaiting(mine, &page(Some(Cursor::after(&placed[3].id))))
            .await,
        Err(StoreError::NotFound)
    ));
}

pub(super) async fn an_organisations_orders_are_listed_per_mode_and_read_only_by_it(t: TestDb) {
    catalogue(&t).await;
    let (live, test) = tonne_test_support::organisation(t.db(), T0).await;
    let store = OrderStore::new(t.db().clone());
    let elsewhere = account(&t, AccountMode::Live).await;
    let mut ids = Vec::new();
    for (i, acct) in (0_i64..).zip([&live, &test, &live, &elsewhere]) {
        let at = T0 + time::Duration::seconds(i);
        ids.push(
            store
                .place(
                    &order(acct, None, "0.1", 2, at),
                    event(OrderStatus::Received),
                )
                .await
                .unwrap()
                .id,
        );
    }
    let page = |after| PageRequest {
        limit: Limit::new(1).unwrap(),
        after,
    };
    let first = store
        .of_organisation(live.organisation_id, AccountMode::Live, &page(None))
        .await
        .unwrap();
    assert_eq!(
        first.items.iter().map(|o| o.id).collect::<Vec<_>>(),
        [ids[2]]
    );
    assert!(first.has_more);
    let second = store
        .of_organisation(
            live.organisation_id,
            AccountMode::Live,
            &page(Some(Cursor::after(&ids[2]))),
        )
        .await
        .unwrap();
    assert_eq!(
        second.items.iter().map(|o| o.id).collect::<Vec<_>>(),
        [ids[0]]
    );
    assert!(!second.has_more);
    let tests = store
        .of_organisation(live.organisation_id, AccountMode::Test, &page(None))
        .await
        .unwrap();
    assert_eq!(
        tests.items.iter().map(|o| o.id).collect::<Vec<_>>(),
        [ids[1]]
    );
    assert!(
        store
            .in_organisation(live.organisation_id, ids[0])
            .await
            .unwrap()
            .is_some()
    );
    assert!(
        store
            .in_organisation(live.organisation_id, ids[3])
            .await
            .unwrap()
            .is_none(),
        "another organisation's order"
    );
    assert!(matches!(
        store
            .of_organisation(
                live.organisation_id,
                AccountMode::Live,
                &page(Some(Cursor::after(&ids[3])))
            )
            .await,
        Err(StoreError::NotFound)
    ));
}
