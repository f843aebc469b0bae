//! Life-cycle stages: well-to-tank and tank-to-wheel, per kind.

use super::*;

#[test]
fn every_kind_splits_its_mass_by_life_cycle_stage() {
    use crate::estimate::EstimateKind;
    for request in every_kind() {
        let kind = request.kind();
        let c = request.compute().unwrap();
        let w = c.explanation.wtw();
        let mass = c.mass.unwrap();
        let freight = matches!(
            kind,
            EstimateKind::Shipping
                | EstimateKind::MultiLegShipping
                | EstimateKind::MultiLegShippingByFuel
        );
        if freight {
            // freight is well-to-wheel: the stages add up to the mass
            assert_eq!(w.total(), mass, "{kind:?}");
            assert!(w.wtt.grams() > 0, "{kind:?}");
        } else {
            // the mass is tank-to-wheel plus what no source assigns to a stage
            assert_eq!(w.ttw.grams() + w.unknown.grams(), mass.grams(), "{kind:?}");
            assert_eq!(w.total().grams(), mass.grams() + w.wtt.grams(), "{kind:?}");
        }
        for p in &c.explanation.parts {
            let pw = p.wtw();
            if let Some(wtt) = p.wtt {
                assert!(freight, "{kind:?} {}", p.name);
                assert_eq!(pw.wtt, wtt, "{kind:?} {}", p.name);
                assert_eq!(pw.total(), p.mass, "{kind:?} {}", p.name);
                // a shipping leg's well-to-tank is its tank-to-wheel mass × WTT ÷ factor
                if let Some((f, g)) = p
                    .emission_factor()
                    .and_then(|f| Some((f, f.gases.as_ref()?)))
                    .filter(|_| kind != EstimateKind::MultiLegShippingByFuel)
                {
                    let expected = (Decimal::from(pw.ttw.grams()) * g.wtt / f.value).round();
                    let got = Decimal::from(pw.wtt.grams());
                    // both rounded to the gram from the unrounded figure
                    assert!(
                        (got - expected).abs() <= Decimal::ONE,
                        "{kind:?} {}",
                        p.name
                    );
                }
                continue;
            }
            match p
                .emission_factor()
                .and_then(|f| Some((f, f.gases.as_ref()?)))
            {
                Some((f, g)) if pw.ttw == p.mass => {
                    // well-to-tank is the part's mass × WTT ÷ factor, to the gram
                    let expected = (Decimal::from(p.mass.grams()) * g.wtt / f.value).round();
                    assert_eq!(
                        Decimal::from(pw.wtt.grams()),
                        expected,
                        "{kind:?} {}",
                        p.name
                    );
                }
                _ => {
                    assert_eq!(pw.unknown, p.mass, "{kind:?} {}", p.name);
                    assert_eq!(pw.wtt.grams(), 0, "{kind:?} {}", p.name);
                }
            }
        }
    }
}

#[test]
fn flights_are_tank_to_wheel_with_the_desnz_well_to_tank_row_beside() {
    let c = EstimateRequest::Flight(FlightRequest {
        route: FlightRoute::Distance(km("10000")),
        cabin: CabinClass::Economy,
        passengers: Decimal::ONE,
        aircraft_type: None,
    })
    .compute()
    .unwrap();
    // 10,000 km long-haul economy: 1,170.4 kg TTW (0.11704), 246.1 kg WTT (0.02461)
    let w = c.explanation.wtw();
    assert_eq!(w.ttw.grams(), 1_170_400);
    assert_eq!(w.wtt.grams(), 246_100);
    assert_eq!(w.unknown.grams(), 0);
    // electricity (Ember) and footprints mixing sources say no stage
    let e = EstimateRequest::Electricity {
        consumption: Energy::parse("1000", EnergyUnit::KWh).unwrap(),
        country_code: Some("GBR".into()),
    }
    .compute()
    .unwrap();
    let w = e.explanation.wtw();
    assert_eq!((w.ttw.grams(), w.wtt.grams()), (0, 0));
    assert_eq!(w.unknown, e.mass.unwrap());
}

#[test]
fn inland_waterways_have_no_well_to_tank_row() {
    let c = EstimateRequest::Shipping {
        shipment: Shipment::Mass(Mass::from_grams(5_000_000)),
        leg: shipping::Leg {
            route: Route::Distance(km("100")),
            method: Method::Simple("inland_waterway_motor_vessel_small".into()),
        },
    }
    .compute()
    .unwrap();
    let f = leg_facts(&c)[0];
    assert_eq!(f.wtt_kg_per_tkm, None);
    assert_eq!(f.wtw.unknown, c.mass.unwrap());
}

#[test]
fn transactions_show_their_factor_rate_and_diet() {
    let tx = |value: &str, currency, mcc: &str, diet| {
        EstimateRequest::Transaction(TransactionRequest {
            value: money(value, currency),
            country_code: "DEU".into(),
            merchant: Merchant::CategoryCode(mcc.into()),
            diet,
            processed_year: None,
        })
        .compute()
        .unwrap()
    };
    let eur = tx("100", Currency::Eur, "7011", None);
    let f = eur.explanation.transaction_facts().unwrap();
    assert_eq!(f.emission_factor.id, "exiobase:11.2:DE");
    assert_eq!(f.emission_factor.unit, "kg CO2e/EUR (2011)");
    assert_eq!(
        f.emission_factor.catalogue_id.as_deref(),
        Some("exiobase-3.4.coicop-11.2.DE")
    );
    assert_eq!(f.exchange_rate, Decimal::ONE);
    assert_eq!(f.exchange_rate_date, "2011-01-01");
    assert_eq!(f.diet_factor, None);
    // the spend deflated with Germany's index: 100 × 95.2 / 105.3 (OECD, 2011 / 2019)
    let spend = &eur.explanation.parts[0].quantities[0];
    assert_eq!(spend.unit, "EUR (2011)");
    assert_eq!(spend.amount, Decimal::new(9041, 2));
    let gbp = tx("100", Currency::Gbp, "7011", None);
    let f = gbp.explanation.transaction_facts().unwrap();
    // 1 ÷ 0.86788 GBP/EUR (Eurostat 2011)
    assert_eq!(f.exchange_rate, Decimal::new(1_152_233, 6));
    let usd = tx("100", Currency::Usd, "5411", Some(Diet::Vegan));
    let f = usd.explanation.transaction_facts().unwrap();
    // 1 ÷ 1.392 USD/EUR
    assert_eq!(f.exchange_rate, Decimal::new(718_391, 6));
    assert!(f.diet_factor.unwrap() < Decimal::ONE);
    assert!(
        tx("10", Currency::Usd, "4829", None)
            .explanation
            .transaction_facts()
            .is_none()
    );
}

/// A flight just past a band's upper limit is floored at the longest trip of
/// the band below, and the explanation says so (the engine reports it; no
/// second pass): 600 km economy is short-haul (0.12576 kg/pkm, 75.5 kg) but
/// costs the domestic band's 500 km × 0.22928 = 114.64 kg.
#[test]
fn a_floored_flight_says_so_and_an_unfloored_one_does_not() {
    let flight = |d: &str| {
        EstimateRequest::Flight(FlightRequest {
            route: FlightRoute::Distance(km(d)),
            cabin: CabinClass::Economy,
            passengers: Decimal::ONE,
            aircraft_type: None,
        })
        .compute()
        .unwrap()
    };
    let floored = flight("600");
    assert_eq!(floored.mass.unwrap().grams(), 114_640);
    assert!(
        floored.explanation.notes.iter().any(|n| n == BAND_FLOOR),
        "{:?}",
        floored.explanation.notes
    );
    let plain = flight("5555");
    // 5,555 km × 0.11704 = 650.1572 kg
    assert_eq!(plain.mass.unwrap().grams(), 650_157);
    assert!(!plain.explanation.notes.iter().any(|n| n == BAND_FLOOR));
}
