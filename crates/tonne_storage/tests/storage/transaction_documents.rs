//! Transaction document estimates stored and read back on SQLite and PostgreSQL.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use rust_decimal::Decimal;
use time::OffsetDateTime;
use time::macros::datetime;
use tonne_estimation::estimate::{
    Annotations, Estimate, EstimateDetail, EstimateFilter, EstimateKind, EstimateRequest,
    QuoteTerms, Submitted,
};
use tonne_estimation::ports::EstimateRepository as _;
use tonne_estimation::transaction_document::{
    DEFAULT_TOLERANCE, DocumentRequest, LineKind, MerchantHint, Node,
};
use tonne_kernel::{Currency, EstimateId, PageRequest, UuidV7Generator};
use tonne_storage::EstimateStore;
use tonne_test_support::{TestDb, on_both_backends};

const T0: OffsetDateTime = datetime!(2026-03-04 05:06:07.123456 UTC);

fn text(s: &str) -> Node {
    Node::Text(s.into())
}

fn line(entries: &[(&str, &str)]) -> Node {
    Node::Map(
        entries
            .iter()
            .map(|(k, v)| ((*k).to_owned(), text(v)))
            .collect(),
    )
}

/// A receipt with a spend, a train and a diesel line, or (no lines) a total only.
fn document(lines: bool) -> DocumentRequest {
    let items = if lines {
        vec![
            line(&[("description", "Lunch"), ("amount", "20")]),
            line(&[
                ("description", "Train"),
                ("distance_km", "120"),
                ("amount", "30"),
            ]),
            line(&[
                ("description", "Diesel"),
                ("quantity", "10"),
                ("unit", "l"),
                ("amount", "18"),
            ]),
        ]
    } else {
        vec![]
    };
    DocumentRequest {
        key_value: Node::Map(vec![
            ("currency".into(), text("GBP")),
            ("items".into(), Node::List(items)),
        ]),
        value: (!lines).then(|| Decimal::from(68)),
        currency: Some(Currency::Gbp),
        merchant: MerchantHint {
            country_code: Some("GBR".into()),
            ..MerchantHint::default()
        },
        diet: None,
        processed_year: Some(2019),
        tolerance: DEFAULT_TOLERANCE,
    }
}

fn estimate(account: tonne_kernel::AccountId, request: DocumentRequest, actual: bool) -> Estimate {
    let computed = EstimateRequest::TransactionDocument(Box::new(request))
        .compute()
        .unwrap();
    Estimate {
        id: EstimateId::generate(&UuidV7Generator),
        account_id: account,
        kind: EstimateKind::TransactionDocument,
        mass: computed.mass,
        detail: computed.detail,
        explanation: computed.explanation,
        quote: QuoteTerms::default(),
        submitted: Submitted::new(r#"{"unstructured_data":{}}"#),
        annotations: Annotations {
            actual: Some(actual),
            occurred_at: Some(T0),
            ..Annotations::default()
        },
        order_id: None,
        created_at: T0,
        updated_at: T0,
    }
}

async fn documents_round_trip_with_their_lines_and_annotations(t: TestDb) {
    let (live, _) = tonne_test_support::organisation(t.db(), T0).await;
    let store = EstimateStore::new(t.db().clone());
    let itemised = estimate(live.id, document(true), true);
    let whole = estimate(live.id, document(false), false);
    let EstimateDetail::TransactionDocument(d) = &itemised.detail else {
        panic!()
    };
    assert!(matches!(
        d.line_items[1].kind,
        LineKind::PassengerTransportation(_)
    ));
    assert!(matches!(d.line_items[2].kind, LineKind::Activity { .. }));
    store
        .insert(&[itemised.clone(), whole.clone()])
        .await
        .unwrap();
    // read back exactly as computed: lines, fallback, explanation, annotations
    assert_eq!(
        store.get(live.id, itemised.id).await.unwrap().unwrap(),
        itemised
    );
    assert_eq!(store.get(live.id, whole.id).await.unwrap().unwrap(), whole);
    // the kind lists, and `actual` (is_transaction_document) filters
    let actual = store
        .list(
            live.id,
            &[EstimateKind::TransactionDocument],
            &EstimateFilter {
                actual: Some(true),
                ..EstimateFilter::default()
            },
            &PageRequest::first(),
        )
        .await
        .unwrap();
    assert_eq!(
        actual.items.iter().map(|e| e.id).collect::<Vec<_>>(),
        vec![itemised.id]
    );
    let annotated = Annotations {
        actual: Some(true),
        ..whole.annotations.clone()
    };
    assert!(
        store
            .annotate(live.id, whole.id, &annotated, T0)
            .await
            .unwrap()
    );
    assert_eq!(
        store
            .get(live.id, whole.id)
            .await
            .unwrap()
            .unwrap()
            .annotations
            .actual,
        Some(true)
    );
}

on_both_backends!(documents_round_trip_with_their_lines_and_annotations,);
