//! The shipments list: every filter, pages newest first, and accounts that see
//! only their own.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use time::macros::date;
use tonne_kernel::{AccountId, Limit, PageRequest, UuidV7Generator};
use tonne_shipments::{
    BatchSource, Carriage, DataSheet, DataSheetId, EmissionsFilter, LegMethod, ModeSet,
    ShipmentEmissions, ShipmentFilter, ShipmentId, ShipmentRepository, TransportMode,
};
use tonne_test_support::TestDb;

use super::fixtures::{
    draft, first, fixture, leg, listed, new_batch, rail, rail_emissions, road, sea, stored_batch,
    supplier,
};

pub(super) async fn every_filter_selects_its_shipments(t: TestDb) {
    let f = fixture(t).await;
    let (c1, c2) = (
        supplier(&f, f.account, "c1").await,
        supplier(&f, f.account, "c2").await,
    );
    let e = ShipmentEmissions {
        flagged: false,
        ..rail_emissions()
    };
    let flagged = ShipmentEmissions {
        flagged: true,
        ..e.clone()
    };
    let b1 = new_batch(f.account, 0, None);
    let first = stored_batch(
        &f,
        f.account,
        b1.clone(),
        vec![
            (
                &c1,
                draft(
                    "PO-100",
                    vec![
                        leg(Carriage::Pre, road(), Some(date!(2026 - 01 - 10))),
                        leg(Carriage::Main, sea(), None),
                    ],
                ),
                Some(e.clone()),
            ),
            (
                &c2,
                draft(
                    "PO-200",
                    vec![leg(Carriage::Main, rail(), Some(date!(2026 - 02 - 10)))],
                ),
                None,
            ),
        ],
    )
    .await;
    let (s1, s2) = (first[0], first[1]);
    let mut b2 = new_batch(f.account, 0, None);
    let sheet = DataSheetId::generate(&UuidV7Generator);
    b2.source = BatchSource::DataSheet;
    b2.data_sheet = Some(DataSheet {
        id: sheet,
        filename: "s.csv".into(),
        uploader: None,
    });
    let s3 = stored_batch(
        &f,
        f.account,
        b2.clone(),
        vec![(
            &c1,
            draft(
                "XY-1",
                vec![
                    leg(Carriage::Main, LegMethod::AircraftType("B744".into()), None),
                    leg(Carriage::On, road(), None),
                ],
            ),
            Some(flagged),
        )],
    )
    .await[0];
    let all = ShipmentFilter::default();
    let stranger = AccountId::generate(&UuidV7Generator).to_string();
    let with = |change: &dyn Fn(&mut ShipmentFilter)| {
        let mut f = all.clone();
        change(&mut f);
        f
    };
    assert_eq!(listed(&f, &all).await, [s3, s2, s1], "newest first");

    let cases: Vec<(&str, ShipmentFilter, Vec<ShipmentId>)> = vec![
        (
            "search prefix",
            with(&|f| f.search = Some("PO-".into())),
            vec![s2, s1],
        ),
        (
            "search longer prefix",
            with(&|f| f.search = Some("PO-1".into())),
            vec![s1],
        ),
        (
            "search by id",
            with(&|f| f.search = Some(s3.to_string())),
            vec![s3],
        ),
        (
            "search nothing",
            with(&|f| f.search = Some("Z".into())),
            vec![],
        ),
        (
            "date from",
            with(&|f| f.date_from = Some(date!(2026 - 02 - 01))),
            vec![s2],
        ),
        (
            "date to",
            with(&|f| f.date_to = Some(date!(2026 - 01 - 31))),
            vec![s1],
        ),
        (
            "date range inclusive",
            with(&|f| {
                f.date_from = Some(date!(2026 - 01 - 10));
                f.date_to = Some(date!(2026 - 02 - 10));
            }),
            vec![s2, s1],
        ),
        (
            "main by sea or rail",
            with(&|f| f.modes[1] = ModeSet::of(&[TransportMode::Sea, TransportMode::Rail])),
            vec![s2, s1],
        ),
        (
            "pre by road",
            with(&|f| f.modes[0] = ModeSet::of(&[TransportMode::Road])),
            vec![s1],
        ),
        (
            "main by air and on by road",
            with(&|f| {
                f.modes[1] = ModeSet::of(&[TransportMode::Air]);
                f.modes[2] = ModeSet::of(&[TransportMode::Road]);
            }),
            vec![s3],
        ),
        (
            "on by rail",
            with(&|f| f.modes[2] = ModeSet::of(&[TransportMode::Rail])),
            vec![],
        ),
        (
            "supplier",
            with(&|f| f.supplier_ids = vec![c1.id.to_string()]),
            vec![s3, s1],
        ),
        (
            "supplier id in capitals",
            with(&|f| f.supplier_ids = vec![c2.id.to_string().to_uppercase()]),
            vec![s2],
        ),
        (
            "unknown supplier",
            with(&|f| f.supplier_ids = vec!["x".into()]),
            vec![],
        ),
        (
            "another shipper",
            with(&|f| f.shipper_ids = vec![stranger.clone()]),
            vec![],
        ),
        ("batch", with(&|f| f.batch_ids = vec![b2.id]), vec![s3]),
        (
            "data sheet",
            with(&|f| f.data_sheet_ids = vec![sheet]),
            vec![s3],
        ),
        ("ids", with(&|f| f.ids = vec![s1, s3]), vec![s3, s1]),
        ("flagged", with(&|f| f.flagged = Some(true)), vec![s3]),
        (
            "not flagged",
            with(&|f| f.flagged = Some(false)),
            vec![s2, s1],
        ),
        (
            "with co2e",
            with(&|f| f.emissions = EmissionsFilter::WithCo2e),
            vec![s3, s1],
        ),
        (
            "without co2e",
            with(&|f| f.emissions = EmissionsFilter::WithoutCo2e),
            vec![s2],
        ),
        (
            "several at once",
            with(&|f| {
                f.search = Some("PO".into());
                f.emissions = EmissionsFilter::WithCo2e;
                f.supplier_ids = vec![c1.id.to_string()];
            }),
            vec![s1],
        ),
    ];
    for (name, filter, expected) in cases {
        assert_eq!(listed(&f, &filter).await, expected, "{name}");
    }
    // the shipper is the account itself
    let own = with(&|x| x.shipper_ids = vec![f.account.to_string()]);
    assert_eq!(listed(&f, &own).await, [s3, s2, s1]);
    let other = with(&|x| x.shipper_ids = vec![f.other.to_string()]);
    assert!(listed(&f, &other).await.is_empty());

    assert_eq!(f.store.count(f.account, &all, 10).await.unwrap(), 3);
    assert_eq!(
        f.store.count(f.account, &all, 1).await.unwrap(),
        2,
        "counts at most cap + 1"
    );
    let po = with(&|f| f.search = Some("PO-".into()));
    assert_eq!(f.store.count(f.account, &po, 10).await.unwrap(), 2);
    let counts = f.store.counts(f.account, &all).await.unwrap();
    assert_eq!(
        (counts.all, counts.with_co2e, counts.without_co2e),
        (3, 2, 1)
    );
    // the emissions choice is the tab: its counts are the other filters'
    let po_with = with(&|f| {
        f.search = Some("PO-".into());
        f.emissions = EmissionsFilter::WithCo2e;
    });
    let counts = f.store.counts(f.account, &po_with).await.unwrap();
    assert_eq!(
        (counts.all, counts.with_co2e, counts.without_co2e),
        (2, 1, 1)
    );
}

pub(super) async fn pages_follow_one_another_newest_first(t: TestDb) {
    let f = fixture(t).await;
    let cp = supplier(&f, f.account, "c").await;
    let shipments = (0..25)
        .map(|i| (&cp, draft(&format!("S-{i:02}"), vec![]), None))
        .collect();
    let mut ids = stored_batch(&f, f.account, new_batch(f.account, 0, None), shipments).await;
    ids.reverse();
    let mut seen = Vec::new();
    let mut after = None;
    let mut pages = Vec::new();
    loop {
        let page = f
            .store
            .shipments(
                f.account,
                &ShipmentFilter::default(),
                &crate::fixtures::page(10, after),
            )
            .await
            .unwrap();
        pages.push((page.items.len(), page.has_more));
        seen.extend(page.items.iter().map(|s| s.id));
        if !page.has_more {
            break;
        }
        after = page.items.last().map(|s| s.id);
    }
    assert_eq!(pages, [(10, true), (10, true), (5, false)]);
    assert_eq!(seen, ids);

    // batches: newest first, by source
    let mut sheet = new_batch(f.account, 1, None);
    sheet.source = BatchSource::DataSheet;
    sheet.data_sheet = Some(DataSheet {
        id: DataSheetId::generate(&UuidV7Generator),
        filename: "a.csv".into(),
        uploader: None,
    });
    f.store.insert_batch(&sheet).await.unwrap();
    let api = new_batch(f.account, 1, None);
    f.store.insert_batch(&api).await.unwrap();
    let two = PageRequest {
        limit: Limit::new(2).unwrap(),
        after: None,
    };
    let page = f.store.batches(f.account, &[], &two).await.unwrap();
    assert!(page.has_more);
    assert_eq!(
        page.items.iter().map(|b| b.id).collect::<Vec<_>>(),
        [api.id, sheet.id]
    );
    let next = f
        .store
        .batches(
            f.account,
            &[],
            &PageRequest {
                limit: Limit::new(2).unwrap(),
                after: Some(sheet.id),
            },
        )
        .await
        .unwrap();
    assert_eq!(next.items.len(), 1);
    assert!(!next.has_more);
    let sheets = f
        .store
        .batches(f.account, &[BatchSource::DataSheet], &two)
        .await
        .unwrap();
    assert_eq!(
        sheets.items.iter().map(|b| b.id).collect::<Vec<_>>(),
        [sheet.id]
    );
    assert_eq!(sheets.items[0].data_sheet, sheet.data_sheet);
}

pub(super) async fn accounts_see_only_their_own(t: TestDb) {
    let f = fixture(t).await;
    let cp = supplier(&f, f.account, "shared-internal").await;
    let batch = new_batch(f.account, 0, Some("k"));
    let ids = stored_batch(
        &f,
        f.account,
        batch.clone(),
        vec![(&cp, draft("A-1", vec![]), Some(rail_emissions()))],
    )
    .await;
    assert!(f.store.batch(f.other, batch.id).await.unwrap().is_none());
    assert!(
        f.store
            .batches(f.other, &[], &PageRequest::first())
            .await
            .unwrap()
            .items
            .is_empty()
    );
    assert!(f.store.shipment(f.other, ids[0]).await.unwrap().is_none());
    let others = f
        .store
        .shipments(f.other, &ShipmentFilter::default(), &first(100))
        .await
        .unwrap();
    assert!(others.items.is_empty());
    let by_id = ShipmentFilter {
        ids: ids.clone(),
        ..ShipmentFilter::default()
    };
    assert_eq!(f.store.count(f.other, &by_id, 10).await.unwrap(), 0);
    assert_eq!(f.store.counts(f.other, &by_id).await.unwrap().all, 0);
    assert!(
        f.store
            .counterparty(f.other, &cp.id.to_string())
            .await
            .unwrap()
            .is_none()
    );
    let theirs = supplier(&f, f.other, "shared-internal").await;
    assert_ne!(theirs.id, cp.id, "internal ids are per account");
}
