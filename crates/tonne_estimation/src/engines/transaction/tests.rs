//! Transactions by hand: the category table, EXIOBASE with currency,
//! deflation and diet, money movement and search, monotonic spend.

use super::table::categories;
use super::*;
use tonne_kernel::Currency;

fn request(value: &str, currency: Currency, merchant: Merchant) -> TransactionRequest {
    TransactionRequest {
        value: Spend::parse("value.value", value, currency).unwrap(),
        country_code: "GBR".into(),
        merchant,
        diet: None,
        processed_year: Some(2019),
    }
}

fn grams(o: TransactionOutcome) -> i64 {
    match o {
        TransactionOutcome::Estimate { mass, .. } => mass.grams(),
        TransactionOutcome::MoneyMovement => -1,
    }
}

#[test]
fn table_is_complete() {
    assert_eq!(categories().len(), 981);
    assert_eq!(category("5411").map(|c| c.group), Some(Group::Food));
    assert_eq!(
        category("6011").map(|c| c.group),
        Some(Group::MoneyMovement)
    );
    assert_eq!(category("0742").map(|c| c.naics.as_str()), Some("541940"));
}

#[test]
fn reproduces_exiobase_by_hand_with_currency_deflation_and_diet() {
    // 100 EUR at a British hotel in 2019: 100 / 1 EUR per EUR × 93.6 / 107.8
    // (OECD CPI GB 2011 / 2019) × 0.10080635 kg/EUR (EXIOBASE 3.4, COICOP
    // 11.2 accommodation services, GB) = 8.7528 kg
    let e = estimate(&request(
        "100",
        Currency::Eur,
        Merchant::CategoryCode("7011".into()),
    ))
    .unwrap();
    assert_eq!(grams(e), 8_753);
    // groceries for a vegan in Britain: 50 / 1.392 USD per EUR × 93.6 /
    // 107.8 × 0.59837098 kg/EUR (COICOP 01, GB) × (2.89 / 5.63) = 9.5796 kg
    let mut r = request("50", Currency::Usd, Merchant::CategoryCode("5411".into()));
    r.diet = Some(Diet::Vegan);
    let vegan = grams(estimate(&r).unwrap());
    r.diet = Some(Diet::HighMeatEater);
    let high = grams(estimate(&r).unwrap());
    assert_eq!(vegan, 9_580);
    assert!(high > vegan);
}

#[test]
fn money_movement_unknown_codes_and_search() {
    assert_eq!(
        estimate(&request(
            "10",
            Currency::Gbp,
            Merchant::CategoryCode("4829".into())
        )),
        Ok(TransactionOutcome::MoneyMovement)
    );
    assert!(
        estimate(&request(
            "10",
            Currency::Gbp,
            Merchant::CategoryCode("0001".into())
        ))
        .is_err()
    );
    let e = estimate(&request(
        "10",
        Currency::Gbp,
        Merchant::SearchTerm("Bananas".into()),
    ))
    .unwrap();
    assert!(
        matches!(e, TransactionOutcome::Estimate { search_term_match: Some(ref m), .. } if m == "bananas"),
        "{e:?}"
    );
    assert!(
        estimate(&request(
            "10",
            Currency::Gbp,
            Merchant::SearchTerm("xq".into())
        ))
        .is_err()
    );
    let mut bad = request("10", Currency::Gbp, Merchant::CategoryCode("5411".into()));
    bad.country_code = "XXX".into();
    assert!(matches!(
        estimate(&bad),
        Err(EstimateError::UnknownCountry { .. })
    ));
}

#[test]
fn monotonic_in_spend_and_zero_is_zero() {
    let at = |v: &str| {
        grams(
            estimate(&request(
                v,
                Currency::Sek,
                Merchant::CategoryCode("5732".into()),
            ))
            .unwrap(),
        )
    };
    assert_eq!(at("0"), 0);
    let mut last = 0;
    for v in 0..100 {
        let g = at(&format!("{}.5", v * 37));
        assert!(g >= last);
        last = g;
    }
}
