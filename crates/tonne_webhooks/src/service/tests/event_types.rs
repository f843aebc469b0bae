//! The event types a webhook asks for.

use super::*;

#[tokio::test]
async fn create_keeps_the_chosen_event_types_checked_and_ordered() {
    let mut m = mocks();
    m.repo
        .expect_insert()
        .withf(|w, _, _| {
            w.event_types
                == Some(vec![
                    crate::EventType::OrderCompleted,
                    crate::EventType::AllocationRetired,
                ])
        })
        .times(1)
        .returning(|_, _, _| Ok(()));
    let s = service(m, Settings::default());
    let w = s
        .create(
            owner(),
            NewWebhook {
                event_types: Some(names(&[
                    "allocation.retired",
                    "order.completed",
                    "order.completed",
                ])),
                ..new("https://hooks.example.com/a", None)
            },
            &by(),
        )
        .await
        .unwrap();
    assert_eq!(w.event_types.map(|t| t.len()), Some(2));
}

#[tokio::test]
async fn an_unknown_or_empty_event_type_list_is_refused_and_nothing_is_written() {
    for (given, field) in [
        (
            names(&["order.completed", "order.shipped"]),
            "event_types[1]",
        ),
        (names(&["webhook.test"]), "event_types[0]"),
        (Vec::new(), "event_types"),
    ] {
        let mut m = mocks();
        m.repo.expect_insert().never();
        let s = service(m, Settings::default());
        match s
            .create(
                owner(),
                NewWebhook {
                    event_types: Some(given),
                    ..new("https://hooks.example.com/a", None)
                },
                &by(),
            )
            .await
        {
            Err(CreateWebhookError::Invalid(f)) => assert_eq!(f.field, field),
            other => panic!("{field}: {other:?}"),
        }
    }
}

#[tokio::test]
async fn update_replaces_keeps_or_clears_the_event_types() {
    use crate::EventType;
    let chosen = Some(vec![EventType::OrderFailed]);
    for (given, expected) in [
        (None, chosen.clone()),
        (Some(None), None),
        (
            Some(Some(names(&["allocation.new"]))),
            Some(vec![EventType::AllocationNew]),
        ),
    ] {
        let mut m = mocks();
        let current = chosen.clone();
        m.repo.expect_get().returning(move |_| {
            Ok(Some(Webhook {
                event_types: current.clone(),
                ..stored(5, owner(), None, true)
            }))
        });
        let want = expected.clone();
        m.repo
            .expect_update()
            .withf(move |w, _, _| w.event_types == want)
            .times(1)
            .returning(|_, _, _| Ok(()));
        let s = service(m, Settings::default());
        let w = update_5(&s, "https://hooks.example.com/a", None, given)
            .await
            .unwrap();
        assert_eq!(w.event_types, expected);
    }
    // an unknown name changes nothing
    let mut m = mocks();
    m.repo
        .expect_get()
        .returning(|_| Ok(Some(stored(5, owner(), None, true))));
    m.repo.expect_update().never();
    let s = service(m, Settings::default());
    match update_5(
        &s,
        "https://hooks.example.com/a",
        None,
        Some(Some(names(&["Order.Completed"]))),
    )
    .await
    {
        Err(UpdateWebhookError::Invalid(f)) => assert_eq!(f.field, "event_types[0]"),
        other => panic!("{other:?}"),
    }
}
