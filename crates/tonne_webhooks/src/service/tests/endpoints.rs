//! Creating, changing, listing and rotating webhooks; their limit and filters.

use super::*;

#[tokio::test]
async fn create_stores_an_enabled_webhook_with_a_fresh_secret_and_the_limit() {
    let mut m = mocks();
    m.repo
        .expect_insert()
        .withf(|w, limit, audit| {
            audit.action == "webhook.created"
                && audit.actor
                    == Actor::ApiKey(tonne_kernel::ApiKeyId::from_uuid(Uuid::from_u128(9)))
                && audit.after.get("url") == Some(w.url.as_str())
                && audit
                    .after
                    .fields()
                    .iter()
                    .all(|(_, v)| !v.contains(w.secret.expose()))
                && *limit == 10
                && w.enabled
                && w.account_ids.is_none()
                && w.mode == AccountMode::Live
                && w.secret.expose().starts_with("whsec_")
        })
        .times(1)
        .returning(|_, _, _| Ok(()));
    let w = service(m, Settings::default())
        .create(owner(), new("https://hooks.example.com/tonne", None), &by())
        .await
        .unwrap();
    assert_eq!(w.url.as_str(), "https://hooks.example.com/tonne");
    assert_eq!(w.created_at, now());
}

#[tokio::test]
async fn create_refuses_bad_urls_and_private_resolutions_without_writing() {
    let mut m = mocks();
    m.resolver = MockHostResolver::new();
    m.resolver.expect_resolve().returning(|host, _| match host {
        "inside.example.com" => Ok(vec!["10.0.0.5".parse().unwrap()]),
        "mixed.example.com" => Ok(vec![
            "93.184.216.34".parse().unwrap(),
            "127.0.0.1".parse().unwrap(),
        ]),
        _ => Err("no such host".into()),
    });
    m.repo.expect_insert().never();
    let s = service(m, Settings::default());
    for (url, why) in [
        ("http://hooks.example.com/x", "https"),
        ("https://10.0.0.1/x", "private"),
        (
            "https://inside.example.com/x",
            "must resolve to public addresses only",
        ),
        (
            "https://mixed.example.com/x",
            "must resolve to public addresses only",
        ),
        ("https://nowhere.example.com/x", "does not resolve"),
    ] {
        match s.create(owner(), new(url, None), &by()).await {
            Err(CreateWebhookError::Invalid(f)) => {
                assert_eq!(f.field, "url");
                assert!(f.reason.contains(why), "{url}: {}", f.reason);
                // what a name resolves to stays in the log, never in the answer
                assert!(
                    !f.reason.contains("10.0.0.5") && !f.reason.contains("127.0.0.1"),
                    "{url}: {}",
                    f.reason
                );
            }
            other => panic!("{url}: {other:?}"),
        }
    }
}

#[tokio::test]
async fn account_filters_must_be_the_owners_accounts() {
    let mut m = mocks();
    m.repo
        .expect_insert()
        .withf(|w, _, _| w.account_ids == Some(vec![account(11), account(12)]))
        .times(1)
        .returning(|_, _, _| Ok(()));
    let s = service(m, Settings::default());
    let a11 = account(11).to_string();
    let a12 = account(12).to_string();
    // duplicates collapse, order is canonical
    let w = s
        .create(
            owner(),
            new("https://hooks.example.com/x", Some(vec![&a12, &a11, &a12])),
            &by(),
        )
        .await
        .unwrap();
    assert_eq!(w.account_ids, Some(vec![account(11), account(12)]));
    for (ids, field) in [
        (vec![], "account_ids"),
        (vec!["nope"], "account_ids[0]"),
        (
            vec![a11.as_str(), &account(20).to_string()],
            "account_ids[1]",
        ), // other mode
        (vec![&account(30).to_string()], "account_ids[0]"), // other organisation
        (vec![&account(77).to_string()], "account_ids[0]"), // unknown
    ] {
        match s
            .create(
                owner(),
                new("https://hooks.example.com/x", Some(ids.clone())),
                &by(),
            )
            .await
        {
            Err(CreateWebhookError::Invalid(f)) => assert_eq!(f.field, field, "{ids:?}"),
            other => panic!("{ids:?}: {other:?}"),
        }
    }
}

#[tokio::test]
async fn the_limit_is_reported_as_such() {
    let mut m = mocks();
    m.repo
        .expect_insert()
        .returning(|_, _, _| Err(InsertWebhookError::LimitReached));
    let s = service(
        m,
        Settings {
            limit: 3,
            ..Settings::default()
        },
    );
    assert!(matches!(
        s.create(owner(), new("https://hooks.example.com/x", None), &by())
            .await,
        Err(CreateWebhookError::LimitReached { limit: 3 })
    ));
}

#[tokio::test]
async fn another_owners_webhook_or_a_malformed_id_is_not_found() {
    let mut m = mocks();
    let other = Owner {
        mode: AccountMode::Test,
        ..owner()
    };
    m.repo
        .expect_get()
        .returning(move |_| Ok(Some(stored(5, other, None, true))));
    m.repo.expect_delete().never();
    m.repo.expect_rotate_secret().never();
    let s = service(m, Settings::default());
    let id = WebhookId::from_uuid(Uuid::from_u128(5)).to_string();
    assert!(matches!(
        s.get(owner(), &id).await,
        Err(WebhookError::NotFound)
    ));
    assert!(matches!(
        s.get(owner(), "x").await,
        Err(WebhookError::NotFound)
    ));
    assert!(matches!(
        s.delete(owner(), &id, &by()).await,
        Err(WebhookError::NotFound)
    ));
    assert!(matches!(
        s.rotate_secret(owner(), &id, &by()).await,
        Err(WebhookError::NotFound)
    ));
}

#[tokio::test]
async fn update_keeps_what_is_not_sent_and_resumes_when_re_enabled() {
    let mut m = mocks();
    let filter = Some(vec![account(11)]);
    let f2 = filter.clone();
    m.repo
        .expect_get()
        .returning(move |_| Ok(Some(stored(5, owner(), f2.clone(), false))));
    m.repo
        .expect_update()
        .withf(|w, resume, audit| {
            *resume
                && audit.as_ref().is_some_and(|a| {
                    a.action == "webhook.updated"
                        && a.changed_fields() == ["url", "enabled"]
                        && a.after.get("enabled") == Some("true")
                })
                && w.enabled
                && w.disabled_reason.is_none()
                && w.account_ids == Some(vec![account(11)])
        })
        .times(1)
        .returning(|_, _, _| Ok(()));
    let s = service(m, Settings::default());
    let w = update_5(&s, "https://hooks.example.com/b", Some(true), None)
        .await
        .unwrap();
    assert_eq!(w.url.as_str(), "https://hooks.example.com/b");
    assert_eq!(w.account_ids, filter);
}

#[tokio::test]
async fn update_without_enabled_keeps_a_disabled_webhook_paused() {
    let mut m = mocks();
    m.repo
        .expect_get()
        .returning(|_| Ok(Some(stored(5, owner(), None, false))));
    m.repo
        .expect_update()
        .withf(|w, resume, _| !*resume && !w.enabled && w.disabled_reason.is_some())
        .times(1)
        .returning(|_, _, _| Ok(()));
    let s = service(m, Settings::default());
    update_5(&s, "https://hooks.example.com/b", None, None)
        .await
        .unwrap();
}

#[tokio::test]
async fn rotation_stores_and_returns_a_new_secret() {
    let mut m = mocks();
    let old = stored(5, owner(), None, true);
    let old_secret = old.secret.clone();
    m.repo
        .expect_get()
        .returning(move |_| Ok(Some(old.clone())));
    let expected_old = old_secret.clone();
    m.repo
        .expect_rotate_secret()
        .withf(move |id, secret, _, audit| {
            audit.action == "webhook.secret_rotated"
                && audit.after.get("secret") == Some(format!("…{}", secret.last4()).as_str())
                && *id == WebhookId::from_uuid(Uuid::from_u128(5))
                && *secret != expected_old
        })
        .times(1)
        .returning(|_, _, _, _| Ok(()));
    let s = service(m, Settings::default());
    let w = s
        .rotate_secret(
            owner(),
            &WebhookId::from_uuid(Uuid::from_u128(5)).to_string(),
            &by(),
        )
        .await
        .unwrap();
    assert_ne!(w.secret, old_secret);
}

#[tokio::test]
async fn list_filters_by_account_keeping_unfiltered_webhooks() {
    let mut m = mocks();
    m.repo.expect_list().with(eq(owner())).returning(|o| {
        Ok(vec![
            stored(1, o, None, true),
            stored(2, o, Some(vec![account(11)]), true),
            stored(3, o, Some(vec![account(12)]), true),
        ])
    });
    let s = service(m, Settings::default());
    let all = s.list(owner(), vec![]).await.unwrap();
    assert_eq!(all.len(), 3);
    let some = s
        .list(owner(), vec![account(11).to_string()])
        .await
        .unwrap();
    let ids: Vec<u128> = some.iter().map(|w| w.id.as_uuid().as_u128()).collect();
    assert_eq!(ids, vec![1, 2]);
    assert!(matches!(
        s.list(owner(), vec![account(30).to_string()]).await,
        Err(ListWebhooksError::Invalid(_))
    ));
}

#[tokio::test]
async fn an_operator_re_enables_a_disabled_webhook_once_and_it_is_audited() {
    let mut m = mocks();
    m.repo.expect_get().returning(|id| {
        Ok(Some(stored(
            id.as_uuid().as_u128(),
            owner(),
            None,
            id.as_uuid().as_u128() == 6,
        )))
    });
    m.repo
        .expect_update()
        .times(1)
        .withf(|w, resume, audit| {
            let audit = audit.as_ref().expect("audited");
            *resume
                && w.enabled
                && w.disabled_reason.is_none()
                && audit.action == "webhook.enabled"
                && audit.organisation == Some(owner().organisation_id)
                && audit.before.get("state") == Some("disabled: the receiver answered 410 Gone")
                && audit.after.get("state") == Some("enabled")
        })
        .returning(|_, _, _| Ok(()));
    let s = service(m, Settings::default());
    let by = Actor::person("ops@example.org");
    let w5 = WebhookId::from_uuid(Uuid::from_u128(5));
    assert!(s.admin_enable(w5, &by).await.unwrap().enabled);
    // webhook 6 is enabled already: nothing is written (update is expected once)
    let w6 = WebhookId::from_uuid(Uuid::from_u128(6));
    assert!(s.admin_enable(w6, &by).await.unwrap().enabled);
}
