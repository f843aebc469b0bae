//! Parts and factors: what each explanation is made of and that it adds up.

use super::*;

#[test]
fn the_parts_add_up_to_the_mass_on_every_kind() {
    for request in every_kind() {
        let kind = request.kind();
        let c = request
            .compute()
            .unwrap_or_else(|e| panic!("{kind:?}: {e}"));
        let mass = c.mass.unwrap_or_else(|| panic!("{kind:?} has a mass"));
        let sum: i64 = c.explanation.parts.iter().map(|p| p.mass.grams()).sum();
        assert_eq!(sum, mass.grams(), "{kind:?}: Σ parts = mass");
        assert!(mass.grams() > 0, "{kind:?}");
        for p in &c.explanation.parts {
            for f in &p.factors {
                assert!(
                    !f.id.is_empty(),
                    "{kind:?} {}: every factor has an id",
                    p.name
                );
                assert!(
                    !f.source.is_empty() && !f.unit.is_empty(),
                    "{kind:?} {}",
                    p.name
                );
            }
            if p.mass.grams() > 0 {
                assert!(!p.factors.is_empty(), "{kind:?} {}: a factor", p.name);
            }
        }
    }
}

#[test]
fn multi_part_estimates_say_which_part_each_factor_fed() {
    let requests = every_kind();
    let passenger = requests[2].compute().unwrap();
    let names: Vec<&str> = passenger
        .explanation
        .parts
        .iter()
        .map(|p| p.name.as_str())
        .collect();
    assert_eq!(names, ["legs[0]", "legs[1]", "legs[2]"]);
    assert_eq!(passenger.explanation.parts[0].factors[0].id, "CAR_MPV");
    assert_eq!(
        passenger.explanation.parts[0].factors[1].id,
        "CIRCUITY_SURFACE"
    );
    assert_eq!(
        passenger.explanation.parts[1].factors[0].id,
        "RAIL_INTERNATIONAL"
    );
    assert_eq!(
        passenger.explanation.parts[1].quantities[0].method,
        "as given"
    );

    let multi = requests[4].compute().unwrap();
    let air = &multi.explanation.parts[1];
    assert!(
        air.factors[0].id.starts_with("AIR_FREIGHT_"),
        "{:?}",
        air.factors
    );
    assert!(air.quantities[0].method.starts_with("great-circle"));
    let payload = &air.quantities[1];
    assert_eq!(
        (payload.name.as_str(), payload.amount),
        ("payload", Decimal::new(12_345_678, 6))
    );
}

#[test]
fn addresses_are_named_with_the_place_and_region_chosen() {
    let multi = every_kind()[4].compute().unwrap();
    let how = &multi.explanation.parts[0].quantities[0].method;
    assert!(how.contains("Hamburg") && how.contains("Munich"), "{how}");
    assert!(how.contains("Bavaria"), "the region is named: {how}");
    assert!(
        how.contains("street and postcode do not refine it"),
        "{how}"
    );
    // the detour factor is listed with the truck's
    let ids: Vec<&str> = multi.explanation.parts[0]
        .factors
        .iter()
        .map(|f| f.id.as_str())
        .collect();
    assert_eq!(ids, ["HGV_ARTIC_OVER_33", "CIRCUITY_SURFACE"]);
}

#[test]
fn shipping_names_its_factors_payload_and_fallbacks() {
    let c = every_kind()[3].compute().unwrap();
    let p = &c.explanation.parts[0];
    let ids: Vec<&str> = p.factors.iter().map(|f| f.id.as_str()).collect();
    assert_eq!(
        ids,
        ["SEA_CONTAINER_AVERAGE", "REEFER_UPLIFT", "TEU_HEAVY_T"]
    );
    assert_eq!(p.quantities[1].amount, Decimal::new(435, 1));
    assert!(p.quantities[0].method.contains("maritime network"));
    assert_eq!(
        c.explanation.notes[0],
        format!("leg: {}", shipping::IMO_FALLBACK)
    );
    // well-to-wheel: the leg says how its well-to-tank part was added
    assert_eq!(c.explanation.notes.len(), 2);
    assert!(
        c.explanation.notes[1].starts_with("leg: well-to-wheel: ")
            && c.explanation.notes[1].contains("28_916_3235_14_1"),
        "{:?}",
        c.explanation.notes
    );
    assert_eq!(p.factors[0].year, Some(2025));
    assert!(
        p.factors[0]
            .row
            .as_deref()
            .is_some_and(|r| r.contains("Sea tanker") || r.contains("Container"))
    );
}

#[test]
fn spend_is_shown_after_conversion_with_the_rates_used() {
    let c = every_kind()[5].compute().unwrap();
    let p = &c.explanation.parts[0];
    let ids: Vec<&str> = p.factors.iter().map(|f| f.id.as_str()).collect();
    assert_eq!(
        ids,
        [
            "exiobase:01:NO",
            "EUR_RATE_2011_NOK",
            "CPI_2011",
            "CPI_2019",
            "DIET_VEGAN",
            "DIET_MEDIUM_MEAT"
        ]
    );
    let spend = &p.quantities[0];
    assert_eq!(spend.unit, "EUR (2011)");
    // 87.65 NOK / 7.7934 NOK/EUR (2011) × 93.3 / 110.8 (Norway's CPI 2011 / 2019) = 9.47 EUR
    assert_eq!(spend.amount, Decimal::new(947, 2));
    assert!(spend.method.contains("87.65 NOK"));
}

#[test]
fn electricity_and_flight_reproduce_their_factor_times_activity() {
    let requests = every_kind();
    let e = requests[0].compute().unwrap();
    let p = &e.explanation.parts[0];
    assert_eq!(p.factors[0].id, "grid:WORLD");
    assert_eq!(p.quantities[0].amount, Decimal::from(1_234_500));
    let f = requests[1].compute().unwrap();
    let p = &f.explanation.parts[0];
    assert_eq!(p.factors[0].id, "FLIGHT_LONG_HAUL_BUSINESS");
    let kg = p.quantities[0].amount * p.factors[0].value * p.quantities[1].amount;
    let grams = (kg * Decimal::from(1000)).round();
    assert_eq!(Decimal::from(p.mass.grams()), grams);
}

#[test]
fn money_movement_has_no_parts() {
    let c = EstimateRequest::Transaction(TransactionRequest {
        value: money("10", Currency::Usd),
        country_code: "USA".into(),
        merchant: Merchant::CategoryCode("6012".into()),
        diet: None,
        processed_year: None,
    })
    .compute()
    .unwrap();
    assert_eq!((c.mass, c.detail), (None, EstimateDetail::MoneyMovement));
    assert!(c.explanation.parts.is_empty());
}

#[test]
fn footprints_split_into_their_components() {
    let c = EstimateRequest::Company(company()).compute().unwrap();
    let names: Vec<&str> = c
        .explanation
        .parts
        .iter()
        .map(|p| p.name.as_str())
        .collect();
    assert_eq!(
        names,
        [
            "energy",
            "remote_employee",
            "travel_and_commute",
            "food_and_drink",
            "material_and_waste",
            "tech"
        ]
    );
    assert!(c.explanation.notes.iter().any(|n| n.contains("9 months")));
    let i = EstimateRequest::Individual(individual()).compute().unwrap();
    let car = &i.explanation.parts[1];
    assert_eq!(car.factors[0].id, "CAR_AVERAGE_HYBRID");
    assert!(car.quantities[0].method.contains("default"));
}
