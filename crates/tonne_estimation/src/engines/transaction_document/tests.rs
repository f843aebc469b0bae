//! Transaction documents: line items matched and computed, and their
//! fallbacks.

use rust_decimal::Decimal;
use tonne_kernel::Currency;

use super::matching::{self, Target, match_document, match_line};
use super::reading::{money, read};
use super::*;
use crate::errors::EstimateError;
use crate::estimate::{EstimateDetail, EstimateRequest};

fn text(s: &str) -> Node {
    Node::Text(s.into())
}

fn map(entries: Vec<(&str, Node)>) -> Node {
    Node::Map(
        entries
            .into_iter()
            .map(|(k, v)| (k.to_owned(), v))
            .collect(),
    )
}

fn request(doc: Node) -> DocumentRequest {
    DocumentRequest {
        key_value: doc,
        value: None,
        currency: None,
        merchant: MerchantHint {
            country_code: Some("USA".into()),
            ..MerchantHint::default()
        },
        diet: None,
        processed_year: Some(2019),
        tolerance: DEFAULT_TOLERANCE,
    }
}

fn result(r: &DocumentRequest) -> (i64, DocumentResult, crate::explain::Explanation) {
    let c = EstimateRequest::TransactionDocument(Box::new(r.clone()))
        .compute()
        .unwrap();
    let EstimateDetail::TransactionDocument(d) = c.detail else {
        panic!("{:?}", c.detail)
    };
    (c.mass.unwrap().grams(), *d, c.explanation)
}

#[test]
fn the_keyword_table_is_deterministic_and_names_what_it_matched() {
    assert_eq!(
        matching::keyword("2x Coffees"),
        Some(("coffee", Target::Spend("5814")))
    );
    // the longest keyword wins: "sales tax" over "tax"
    assert_eq!(
        matching::keyword("Sales tax 8%"),
        Some(("sales tax", Target::NotEstimated))
    );
    assert_eq!(
        matching::keyword("Flight LHR-JFK"),
        Some(("flight", Target::Flight))
    );
    // whole words only: "taxi" is not "tax"
    assert_eq!(
        matching::keyword("Taxi to airport"),
        Some(("taxi", Target::Spend("4121")))
    );
    assert_eq!(matching::keyword("xyzzy"), None);
    // every spend row names a listed merchant category
    for (kw, t) in matching::KEYWORDS {
        if let Some(mcc) = t.spend_mcc() {
            assert!(crate::transaction::category(mcc).is_some(), "{kw}: {mcc}");
        }
    }
}

#[test]
fn scores_say_how_a_line_matched() {
    let given = match_line(Some("anything"), None, Some("5812"), None).unwrap();
    assert_eq!((given.target, given.score), (Target::Spend("5812"), None));
    let kw = match_line(Some("Dinner for two"), None, None, Some("7011")).unwrap();
    assert_eq!((kw.target, kw.score), (Target::Spend("5812"), Some(0)));
    assert!(kw.reason.contains("\"dinner\""), "{}", kw.reason);
    let merchant = match_line(Some("Item 42"), None, None, Some("7011")).unwrap();
    assert_eq!(
        (merchant.target, merchant.score),
        (Target::Spend("7011"), Some(1))
    );
    let fuzzy = match_line(Some("Bananas organic"), None, None, None).unwrap();
    assert_eq!(fuzzy.score, Some(2));
    assert!(match_line(Some("zq"), None, None, None).is_none());
    let default = match_document(&[], None);
    assert_eq!(
        (default.target, default.score),
        (Target::Spend("5999"), Some(2))
    );
}

#[test]
fn money_is_read_in_the_usual_spellings() {
    let usd = Currency::Usd;
    assert_eq!(
        money(&Node::Number("12.5".into())),
        Some((Decimal::new(125, 1), None))
    );
    assert_eq!(
        money(&text("€12,50")),
        Some((Decimal::new(1250, 2), Some(Currency::Eur)))
    );
    assert_eq!(
        money(&text("1,234.50 USD")),
        Some((Decimal::new(123450, 2), Some(usd)))
    );
    assert_eq!(money(&text("-5")), Some((Decimal::from(-5), None)));
    assert_eq!(
        money(&map(vec![("value", text("10")), ("currency", text("usd"))])),
        Some((Decimal::TEN, Some(usd)))
    );
    assert_eq!(money(&text("ten")), None);
}

#[test]
fn bounds_refuse_deep_and_large_documents() {
    let mut deep = text("x");
    for _ in 0..MAX_DEPTH {
        deep = Node::List(vec![deep]);
    }
    assert!(matches!(deep.check(), Err(EstimateError::Invalid { .. })));
    let wide = Node::List((0..=MAX_NODES).map(|_| Node::Null).collect());
    assert!(wide.check().is_err());
    let lines = map(vec![(
        "items",
        Node::List((0..=MAX_LINES).map(|_| text("x")).collect()),
    )]);
    assert!(read(&lines).is_err());
}

#[test]
fn spend_lines_reproduce_the_transaction_engine_by_hand() {
    // 100 USD at a US restaurant, 2019: 100 / 1.392 × 94.9 / 107.9 × 0.06123
    // kg/EUR (EXIOBASE 3.4, COICOP 11.1, US) = 3.869 kg (the transaction
    // engine's own figure); tax is not estimated but counts in the sum.
    let doc = map(vec![
        ("merchant", text("Joe's Diner")),
        ("currency", text("USD")),
        ("total", text("108.00")),
        (
            "line_items",
            Node::List(vec![
                map(vec![
                    ("description", text("Dinner")),
                    ("amount", text("100.00")),
                ]),
                map(vec![
                    ("description", text("Sales tax")),
                    ("amount", text("8.00")),
                ]),
            ]),
        ),
    ]);
    let (grams, d, explanation) = result(&request(doc));
    assert_eq!(grams, 3_869);
    assert_eq!(d.fallback, None);
    let [line] = d.line_items.as_slice() else {
        panic!("{d:?}")
    };
    assert_eq!(line.kind, LineKind::Transaction { mcc: "5812".into() });
    assert_eq!((line.score, line.matched.as_str()), (Some(0), "dinner"));
    assert_eq!(line.value.amount, Decimal::new(10000, 2));
    assert_eq!(explanation.parts.len(), 1);
    assert_eq!(explanation.parts[0].name, "line_items[0]");
    assert!(
        explanation
            .notes
            .iter()
            .any(|n| n.contains("not a purchase"))
    );
}

#[test]
fn travel_and_activity_lines_use_their_engines() {
    let doc = map(vec![
        ("currency", text("GBP")),
        (
            "items",
            Node::List(vec![
                // 300 km × 0.03546 kg/passenger·km (DESNZ 2025 national rail) = 10.638 kg
                map(vec![
                    ("description", text("Train ticket")),
                    ("distance_km", Node::Number("300".into())),
                    ("amount", text("80")),
                ]),
                // 40 l × 2.57082 kg/l (DESNZ 2025 diesel, average biofuel blend) = 102.8328 kg
                map(vec![
                    ("description", text("Diesel")),
                    ("quantity", text("40")),
                    ("unit", text("litres")),
                    ("amount", text("60")),
                ]),
            ]),
        ),
    ]);
    let mut r = request(doc);
    r.merchant.country_code = Some("GBR".into());
    let (grams, d, _) = result(&r);
    assert_eq!(d.line_items.len(), 2);
    assert_eq!(d.line_items[0].mass.grams(), 10_638);
    assert!(matches!(
        &d.line_items[0].kind,
        LineKind::PassengerTransportation(t) if t.mode == TravelMode::Rail && t.distance_km == Decimal::from(300)
    ));
    assert_eq!(d.line_items[1].mass.grams(), 102_833);
    assert_eq!(
        d.line_items[1].kind,
        LineKind::Activity {
            amount: Decimal::from(40),
            unit: "l".into()
        }
    );
    assert_eq!(grams, 10_638 + 102_833);
}

#[test]
fn a_flight_with_airports_is_the_passenger_engine_and_without_is_spend() {
    let doc = map(vec![
        ("currency", text("USD")),
        (
            "items",
            Node::List(vec![
                map(vec![
                    ("description", text("Flight LHR-JFK business")),
                    ("amount", text("900")),
                ]),
                map(vec![
                    ("description", text("Flight change fee")),
                    ("amount", text("100")),
                ]),
            ]),
        ),
    ]);
    let (_, d, _) = result(&request(doc));
    let alone = EstimateRequest::PassengerTransportation(crate::passenger::PassengerRequest {
        passengers: Decimal::ONE,
        legs: vec![crate::passenger::Leg::Flight {
            route: crate::flight::FlightRoute::Airports {
                source: "LHR".into(),
                destination: "JFK".into(),
            },
            cabin: crate::route::CabinClass::Business,
            aircraft_type: None,
        }],
    })
    .compute()
    .unwrap();
    assert_eq!(d.line_items[0].mass, alone.mass.unwrap());
    assert_eq!(
        d.line_items[1].kind,
        LineKind::Transaction { mcc: "4511".into() }
    );
    assert!(d.line_items[1].reason.contains("spend in MCC 4511"));
}

#[test]
fn no_line_falls_back_to_the_whole_document_and_nothing_is_refused() {
    // no lines, a total: the whole document, in the merchant's category
    let doc = map(vec![("total", text("100")), ("currency", text("USD"))]);
    let mut r = request(doc);
    r.merchant.category_code = Some("5812".into());
    let (grams, d, explanation) = result(&r);
    assert_eq!(grams, 3_869);
    assert!(d.line_items.is_empty());
    let f = d.fallback.unwrap();
    assert_eq!(
        (f.score, f.kind),
        (None, LineKind::Transaction { mcc: "5812".into() })
    );
    assert_eq!(explanation.parts[0].name, "fallback");
    // nothing at all: refused
    let empty = request(map(vec![("id", Node::Number("1".into()))]));
    assert!(matches!(
        EstimateRequest::TransactionDocument(Box::new(empty)).compute(),
        Err(EstimateError::Invalid { field, .. }) if field == "unstructured_data.key_value"
    ));
}

#[test]
fn lines_beyond_the_tolerance_give_way_to_the_total() {
    let doc = map(vec![
        ("currency", text("USD")),
        ("total", text("100")),
        (
            "items",
            Node::List(vec![map(vec![
                ("description", text("Lunch")),
                ("amount", text("50")),
            ])]),
        ),
    ]);
    let mut r = request(doc);
    r.merchant.category_code = Some("5812".into());
    let (grams, d, explanation) = result(&r);
    // 50 is 50 % from 100 > 10 %: the whole 100 USD at MCC 5812 = 3.869 kg
    assert_eq!(grams, 3_869);
    assert!(d.line_items.is_empty() && d.fallback.is_some());
    assert!(
        explanation
            .notes
            .iter()
            .any(|n| n.contains("more than 10 % apart"))
    );
    // with a tolerance of 60 % the line stands: 50 USD = 1.934 kg (half, rounded)
    r.tolerance = Decimal::new(6, 1);
    let (grams, d, _) = result(&r);
    assert_eq!(d.line_items.len(), 1);
    assert_eq!(grams, 1_934);
}
