//! The demo catalogue parses whole, ids are stable, and bad files are explained item by item.

use super::*;
use time::macros::datetime;

#[test]
fn the_demo_catalogue_is_valid_and_complete() {
    let c = parse(DEMO, datetime!(2026-01-01 00:00 UTC)).unwrap();
    assert!(c.projects.len() >= 12);
    assert!(c.bundles.len() >= 6);
    assert!(c.portfolios.len() >= 3);
    for b in &c.bundles {
        for currency in Currency::ALL {
            assert!(
                b.price_in(currency).is_some(),
                "{} lacks {currency}",
                b.name
            );
        }
    }
    let types: Vec<&str> = c.projects.iter().map(|p| p.project_type.as_str()).collect();
    for kind in [
        "REDD+",
        "Afforestation",
        "Direct air capture",
        "Biochar",
        "Cookstoves",
        "Soil carbon",
        "blue carbon",
    ] {
        assert!(types.iter().any(|t| t.contains(kind)), "{kind}");
    }
    // Every bundle answers a permanence both contract versions accept, and an approach.
    for b in &c.bundles {
        assert_ne!(b.permanence, CarbonPermanence::NoStorage, "{}", b.name);
        assert!(b.approach.is_some(), "{}", b.name);
    }
    // Real facts, from the file: Kasigau's methodology, 18 Reserves' crediting period.
    let kasigau = c
        .projects
        .iter()
        .find(|p| p.slug == "kasigau-corridor")
        .unwrap();
    assert_eq!(kasigau.facts.methodology.as_deref(), Some("VM0009"));
    assert_eq!(
        kasigau.registry_link.as_deref(),
        Some("https://registry.verra.org/app/projectDetail/VCS/612")
    );
    let reserves = c.projects.iter().find(|p| p.slug == "18-reserves").unwrap();
    assert_eq!(
        reserves.facts.crediting_start_date,
        Some(time::macros::date!(2020 - 01 - 15))
    );
    assert_eq!(
        reserves.facts.verifying_body.as_deref(),
        Some("SCS Global Services")
    );
    let defaults: u32 = c.bundles.iter().filter_map(|b| b.default_share).sum();
    assert_eq!(defaults, 10_000);
    // 14.00 EUR × 0.87 = 12.18 GBP
    let forest = c
        .bundles
        .iter()
        .find(|b| b.name == "Forest Protection")
        .unwrap();
    assert_eq!(
        forest.price_in(Currency::Gbp).unwrap().to_decimal_string(),
        "12.18"
    );
}

#[test]
fn ids_are_stable_and_bad_files_are_explained() {
    assert_eq!(bundle_id("x"), bundle_id("x"));
    assert_ne!(bundle_id("x"), bundle_id("y"));
    let at = datetime!(2026-01-01 00:00 UTC);
    assert!(parse("{}", at).is_err());
    let wrong_format = DEMO.replace("tonne-catalogue/1", "other/2");
    assert!(
        parse(&wrong_format, at)
            .unwrap_err()
            .to_string()
            .contains("format")
    );
    let bad_registry = DEMO.replacen("\"Verra\"", "\"Nowhere Registry\"", 1);
    assert!(
        parse(&bad_registry, at)
            .unwrap_err()
            .to_string()
            .contains("registry_name")
    );
    let bad_share = DEMO.replacen(
        "\"default_percentage\": \"40\"",
        "\"default_percentage\": \"41\"",
        1,
    );
    assert!(
        parse(&bad_share, at)
            .unwrap_err()
            .to_string()
            .contains("sum to 101")
    );
}

#[test]
fn new_fields_are_checked() {
    let at = datetime!(2026-01-01 00:00 UTC);
    let cases = [
        (
            "\"registration_date\": \"2020-05-05\"",
            "\"registration_date\": \"5 May 2020\"",
            "registration_date",
        ),
        (
            "\"crediting_end_date\": \"2040-01-14\"",
            "\"crediting_end_date\": \"2019-01-14\"",
            "before crediting_start_date",
        ),
        (
            "\"avg_annual_emission_reductions\": \"1425.69\"",
            "\"avg_annual_emission_reductions\": \"-3\"",
            "avg_annual_emission_reductions",
        ),
        (
            "\"approach\": \"innovative\"",
            "\"approach\": \"novel\"",
            "approach",
        ),
        (
            "\"percentage\": \"60\"",
            "\"percentage\": \"61\"",
            "sum to 101",
        ),
        (
            "\"bundle\": \"demo-biochar\"",
            "\"bundle\": \"demo-nothing\"",
            "not in the file",
        ),
    ];
    for (from, to, why) in cases {
        assert!(DEMO.contains(from), "{from}");
        let broken = DEMO.replacen(from, to, 1);
        let error = parse(&broken, at).unwrap_err().to_string();
        assert!(error.contains(why), "{to}: {error}");
    }
    // A file without the 2024 fields still imports: permanence defaults to no_storage.
    let old = DEMO.replacen("\"carbon_permanence\": \"long_term\",", "", 1);
    let c = parse(&old, at).unwrap();
    assert!(
        c.bundles
            .iter()
            .any(|b| b.permanence == CarbonPermanence::NoStorage)
    );
}

#[test]
fn a_nul_in_any_string_is_refused_naming_its_field() {
    let at = datetime!(2026-01-01 00:00 UTC);
    let file = |name: &str, price_key: &str| {
        format!(
            r#"{{"format": "tonne-catalogue/1", "projects": [], "bundles": [
            {{"key": "a", "name": "A", "projects": [], "unit_prices": {{"GBP": "1"}}}},
            {{"key": "b", "name": "{name}", "projects": [], "unit_prices": {{"{price_key}": "1"}}}}]}}"#
        )
    };
    let problems = parse(&file("B\\u0000", "GBP"), at).unwrap_err().0;
    assert_eq!(
        problems,
        vec![format!("bundles[1].name: {NUL_REFUSED}")],
        "one problem, naming the field"
    );
    let problems = parse(&file("B", "G\\u0000"), at).unwrap_err().0;
    assert_eq!(
        problems,
        vec![format!("bundles[1].unit_prices.G\\0: {NUL_REFUSED}")]
    );
    // an escaped backslash before `u0000` is text, not a NUL
    assert!(parse(&file("B \\\\u0000", "GBP"), at).is_ok());
    assert!(parse(&file("B", "GBP"), at).is_ok());
}
