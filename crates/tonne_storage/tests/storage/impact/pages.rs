//! Sustainability pages: one per account with a slug unique per mode, and the
//! accounts they speak for with their logo, handle and visibility.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use diesel::sql_types::BigInt;
use time::OffsetDateTime;
use tonne_accounts::ports::{AccountRepository as _, AccountUpdate};
use tonne_accounts::{
    Account, AccountChanges, AccountName, EncodedLogo, ExternalPagesVisibility, Handle, Logo,
    LogoFormat, LogoId,
};
use tonne_impact::ports::{ImpactRepository, PageHolders as _};
use tonne_impact::{
    DescriptionFormat, PageHolder, PageSettings, PageStatus, PageWriteError, Section, Slug,
    SustainabilityPage, TitleFormat,
};
use tonne_kernel::{AccountId, AccountMode, Currency, UuidV7Generator};
use tonne_storage::{AccountStore, Conn, ImpactStore};
use tonne_test_support::TestDb;

use super::fixtures::{D2, D3, T0, client_account};

// ---- pages ----

fn settings(slug: &str, sections: Vec<Section>) -> PageSettings {
    PageSettings::new(
        PageStatus::Enabled,
        Slug::parse(slug).unwrap(),
        TitleFormat::ByVolume,
        Some(DescriptionFormat::ByEquivalent),
        None,
        sections,
    )
    .unwrap()
}

fn page(account: &Account, settings: PageSettings, at: OffsetDateTime) -> SustainabilityPage {
    SustainabilityPage {
        account_id: account.id,
        organisation_id: account.organisation_id,
        mode: account.mode,
        settings,
        created_at: at,
        updated_at: at,
    }
}

async fn page_count(t: &TestDb) -> i64 {
    use diesel::dsl::sql;
    t.db()
        .query(|conn| {
            Box::pin(async move {
                let count =
                    diesel::select(sql::<BigInt>("(SELECT COUNT(*) FROM sustainability_pages)"));
                match conn {
                    Conn::Pg(c) => diesel_async::RunQueryDsl::get_result(count, &mut **c).await,
                    Conn::Sqlite(c) => diesel_async::RunQueryDsl::get_result(count, &mut **c).await,
                }
            })
        })
        .await
        .unwrap()
}

pub(super) async fn pages_are_one_per_account_with_a_slug_unique_per_mode(t: TestDb) {
    let (live, test) = tonne_test_support::organisation(t.db(), T0).await;
    let (other, _) = tonne_test_support::organisation(t.db(), T0).await;
    let impact = ImpactStore::new(t.db().clone());
    let first = page(
        &live,
        settings(
            "acme",
            vec![Section::Certificates, Section::BundlesBreakdown],
        ),
        T0,
    );
    impact.save_page(&first, true).await.unwrap();
    assert_eq!(impact.page(live.id).await.unwrap(), Some(first.clone()));
    assert_eq!(
        impact
            .page_by_slug(AccountMode::Live, &Slug::parse("acme").unwrap())
            .await
            .unwrap(),
        Some(first.clone())
    );
    assert_eq!(
        impact
            .page_by_slug(AccountMode::Test, &Slug::parse("acme").unwrap())
            .await
            .unwrap(),
        None
    );

    // A second page for the account: refused, nothing written.
    let second = page(&live, settings("acme-2", vec![]), D2);
    assert!(matches!(
        impact.save_page(&second, true).await,
        Err(PageWriteError::Conflict)
    ));
    // … even when its slug is taken too: the account's page is told first.
    let second = page(&live, settings("acme", vec![]), D2);
    assert!(matches!(
        impact.save_page(&second, true).await,
        Err(PageWriteError::Conflict)
    ));
    assert_eq!(impact.page(live.id).await.unwrap(), Some(first.clone()));
    assert_eq!(page_count(&t).await, 1);

    // The slug in the same mode: taken, nothing written.
    let theirs = page(&other, settings("acme", vec![Section::UnSdg]), D2);
    assert!(matches!(
        impact.save_page(&theirs, true).await,
        Err(PageWriteError::SlugTaken)
    ));
    assert_eq!(impact.page(other.id).await.unwrap(), None);
    assert_eq!(page_count(&t).await, 1);

    // The same slug in the other mode is another page.
    let test_page = page(&test, settings("acme", vec![]), D2);
    impact.save_page(&test_page, true).await.unwrap();
    assert_eq!(
        impact
            .page_by_slug(AccountMode::Test, &Slug::parse("acme").unwrap())
            .await
            .unwrap(),
        Some(test_page.clone()),
        "no sections round-trip as none"
    );

    // An update replaces the settings and the time of change, nothing else.
    let changed = PageSettings::new(
        PageStatus::Disabled,
        Slug::parse("acme.eu").unwrap(),
        TitleFormat::ByPrice,
        Some(DescriptionFormat::ByCustomDescription),
        Some("Ours, <b>as written</b>, with a comma, too".into()),
        vec![
            Section::UnSdg,
            Section::Certificates,
            Section::BundlesBreakdown,
        ],
    )
    .unwrap();
    let update = SustainabilityPage {
        settings: changed.clone(),
        created_at: D3,
        updated_at: D3,
        ..first.clone()
    };
    impact.save_page(&update, false).await.unwrap();
    let stored = impact.page(live.id).await.unwrap().unwrap();
    assert_eq!(stored.settings, changed);
    assert_eq!((stored.created_at, stored.updated_at), (T0, D3));
    assert_eq!(
        impact
            .page_by_slug(AccountMode::Live, &Slug::parse("acme").unwrap())
            .await
            .unwrap(),
        None,
        "the old slug is free"
    );
    assert_eq!(
        impact
            .page_by_slug(AccountMode::Live, &Slug::parse("acme.eu").unwrap())
            .await
            .unwrap()
            .map(|p| p.account_id),
        Some(live.id)
    );

    // Updating a page that does not exist: refused, nothing written.
    assert!(matches!(
        impact.save_page(&theirs, false).await,
        Err(PageWriteError::Conflict)
    ));
    assert_eq!(impact.page(other.id).await.unwrap(), None);

    // The freed slug can be taken; a taken one cannot be updated to.
    impact.save_page(&theirs, true).await.unwrap();
    let onto = SustainabilityPage {
        settings: settings("acme.eu", vec![]),
        ..theirs.clone()
    };
    assert!(matches!(
        impact.save_page(&onto, false).await,
        Err(PageWriteError::SlugTaken)
    ));
    assert_eq!(impact.page(other.id).await.unwrap(), Some(theirs));
    assert_eq!(page_count(&t).await, 3);
}

pub(super) async fn page_holders_are_accounts_with_their_logo_handle_and_visibility(t: TestDb) {
    let (live, test) = tonne_test_support::organisation(t.db(), T0).await;
    let (other, _) = tonne_test_support::organisation(t.db(), T0).await;
    let accounts = AccountStore::new(t.db().clone());
    accounts
        .update(&AccountUpdate {
            id: live.id,
            changes: AccountChanges {
                name: AccountName::parse("Acme").unwrap(),
                beneficiary: None,
                bundle_portfolio_id: None,
                handle: Some(Handle::parse("acme").unwrap()),
                external_pages_visibility: ExternalPagesVisibility::Public,
            },
            rename_sibling: None,
            updated_at: D2,
        })
        .await
        .unwrap();
    let logo = Logo {
        id: LogoId::generate(&UuidV7Generator),
        account_id: live.id,
        image: EncodedLogo {
            format: LogoFormat::Png,
            bytes: vec![1, 2, 3],
        },
        created_at: D2,
    };
    let url = format!("https://tonne.example/logos/{}", logo.id);
    accounts.set_logo(&logo, &url).await.unwrap();
    let client = client_account(&t, &live, Some("client-1")).await;

    let holder = PageHolder {
        account_id: live.id,
        organisation_id: live.organisation_id,
        mode: AccountMode::Live,
        name: "Acme".into(),
        logo: Some(url),
        currency: Currency::Gbp,
        public: true,
    };
    assert_eq!(
        accounts.holder(live.id).await.unwrap(),
        Some(holder.clone())
    );
    let hidden = accounts.holder(client.id).await.unwrap().unwrap();
    assert_eq!(
        (hidden.name.as_str(), hidden.logo, hidden.public),
        ("Client", None, false)
    );
    assert_eq!(
        accounts
            .holder(AccountId::generate(&UuidV7Generator))
            .await
            .unwrap(),
        None
    );

    let org = live.organisation_id;
    assert_eq!(
        accounts
            .by_handle(org, AccountMode::Live, "acme")
            .await
            .unwrap(),
        Some(holder)
    );
    assert_eq!(
        accounts
            .by_handle(org, AccountMode::Live, "client-1")
            .await
            .unwrap()
            .map(|h| h.account_id),
        Some(client.id)
    );
    assert_eq!(
        accounts
            .by_handle(org, AccountMode::Test, "acme")
            .await
            .unwrap(),
        None,
        "handles are per mode"
    );
    assert_eq!(
        accounts
            .by_handle(other.organisation_id, AccountMode::Live, "acme")
            .await
            .unwrap(),
        None,
        "and per organisation"
    );

    let mut mine = vec![live.id, client.id];
    mine.sort_by_key(ToString::to_string);
    assert_eq!(
        accounts.accounts(org, AccountMode::Live).await.unwrap(),
        mine,
        "client accounts included"
    );
    assert_eq!(
        accounts.accounts(org, AccountMode::Test).await.unwrap(),
        vec![test.id]
    );
}
