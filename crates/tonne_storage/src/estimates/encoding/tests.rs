//! Round trips of stored estimate details, and rows of the earlier formats read back.

use rust_decimal::Decimal;
use tonne_estimation::estimate::{
    BundleShare, EstimateDetail, EstimateKind, Methodology, QuoteTerms,
};
use tonne_estimation::explain::Explanation;
use tonne_kernel::{Mass, MassUnit};

use super::{Stored, decode};

/// Encodes a computed estimate as the store writes it and reads it back.
fn round_trip(
    kind: EstimateKind,
    computed: &tonne_estimation::estimate::Computed,
) -> (EstimateDetail, Explanation) {
    let stored = Stored::encode(
        &computed.detail,
        &computed.explanation,
        &QuoteTerms::default(),
    );
    let json = serde_json::to_string(&stored).unwrap();
    let (detail, explanation, _) = decode(kind, computed.mass, &json, "{}").unwrap();
    (detail, explanation)
}
#[test]
fn rows_of_the_first_format_still_read() {
    let (detail, explanation, quote) = decode(
        EstimateKind::MultiLegShipping,
        Some(Mass::from_grams(3_000)),
        r#"{"legs":[{"mass":{"amount":"0.001","unit":"t"},"distance":{"amount":"12.5","unit":"km"},"methodology":["imo_unavailable_container_ship_fallback"]},{"mass":{"amount":"0.002","unit":"t"},"distance":{"amount":"1","unit":"km"},"methodology":[]}],"distance":{"amount":"13.5","unit":"km"}}"#,
        r#"{"shipment":{},"bundle_selection":[{"bundle_id":"a","percentage":60},{"bundle_id":"b","percentage":"40"}],"quantity_trunc":"kg"}"#,
    )
    .unwrap();
    let EstimateDetail::MultiLegShipping { distance, legs } = detail else {
        panic!("{detail:?}")
    };
    assert_eq!(distance.km(), Decimal::new(135, 1));
    assert_eq!(legs[0].mass, Mass::from_grams(1_000));
    assert_eq!(
        legs[0].methodology,
        vec![Methodology::ImoUnavailableContainerShipFallback]
    );
    assert!(explanation.parts.is_empty());
    assert_eq!(
        quote.bundle_selection.unwrap()[1],
        BundleShare {
            bundle_id: "b".into(),
            hundredths: Some(4_000)
        }
    );
    assert_eq!(quote.quantity_trunc, Some(MassUnit::Kg));
}

#[test]
fn the_2024_facts_round_trip_and_v2_rows_without_them_still_read() {
    use tonne_estimation::estimate::EstimateRequest;
    use tonne_estimation::route::{Place, Route};
    use tonne_estimation::shipping::{Leg, Method, Shipment};
    let computed = EstimateRequest::Shipping {
        shipment: Shipment::Mass(Mass::from_grams(2_000_000)),
        leg: Leg {
            route: Route::Between {
                source: Place::Seaport("CNSHA".into()),
                destination: Place::Seaport("NLRTM".into()),
            },
            method: Method::Container {
                refrigerated: false,
                trade_lane: None,
            },
        },
    }
    .compute()
    .unwrap();
    let (detail, explanation) = round_trip(EstimateKind::Shipping, &computed);
    assert_eq!(detail, computed.detail);
    assert_eq!(explanation, computed.explanation);
    let EstimateDetail::Shipping(leg) = &detail else {
        panic!("{detail:?}")
    };
    assert!(leg.facts.is_some());
    assert!(explanation.parts[0].factors[0].gases.is_some());

    // a v2 row written before: no facts, no gases
    let old = r#"{"v":2,"detail":{"type":"shipping","leg":{"mass_g":5,"distance_km":"1","methodology":[]}},"explanation":{"parts":[{"name":"leg","mass_g":5,"factors":[{"id":"SEA_CONTAINER_AVERAGE","value":"0.01612","unit":"kg CO2e/tonne.km","source":"DESNZ","row":null,"year":2025}],"quantities":[]}],"notes":[]},"quote":{"selection":null,"trunc":null}}"#;
    let (detail, explanation, _) =
        decode(EstimateKind::Shipping, Some(Mass::from_grams(5)), old, "{}").unwrap();
    let EstimateDetail::Shipping(leg) = detail else {
        panic!("{detail:?}")
    };
    assert_eq!(leg.facts, None);
    assert_eq!(explanation.parts[0].factors[0].gases, None);
    // without its split, the part's stage is unknown
    assert_eq!(explanation.wtw().unknown, Mass::from_grams(5));
}

#[test]
fn tank_to_wheel_legs_stored_before_keep_their_mass_and_stages() {
    // a leg stored while freight was tank-to-wheel: 20 t × 1,000 km ×
    // 0.01612 = 322.4 kg, its stages stored as WTT 73 kg (× 0.00365 ÷
    // 0.01612) beside TTW 322.4 kg, and a part without `wtt_g`
    let old = r#"{"v":2,"detail":{"type":"shipping","leg":{"mass_g":322400,"distance_km":"1000","methodology":[],"facts":{"distance_method":"user_input","raw_km":"1000","ends":null,"payload_t":"20","ttw_kg_per_tkm":"0.01612","wtt_kg_per_tkm":"0.00365","wtw_g":[73000,322400,0]}}},"explanation":{"parts":[{"name":"leg","mass_g":322400,"factors":[{"id":"SEA_CONTAINER_AVERAGE","value":"0.01612","unit":"kg CO2e/tonne.km","source":"DESNZ","row":null,"year":2025,"gases":{"co2":"0.01592","ch4":"0.00001","n2o":"0.00019","wtt_row":"28_916_3235_14_1","wtt":"0.00365"}}],"quantities":[]}],"notes":[],"factor_set":"2026.11"},"quote":{"selection":null,"trunc":null}}"#;
    let (detail, explanation, _) = decode(
        EstimateKind::Shipping,
        Some(Mass::from_grams(322_400)),
        old,
        "{}",
    )
    .unwrap();
    let EstimateDetail::Shipping(leg) = detail else {
        panic!("{detail:?}")
    };
    assert_eq!(leg.mass.grams(), 322_400);
    let f = leg.facts.unwrap();
    assert_eq!((f.wtw.wtt.grams(), f.wtw.ttw.grams()), (73_000, 322_400));
    // the part reads as it did: tank-to-wheel, well-to-tank on top
    assert_eq!(explanation.parts[0].wtt, None);
    let w = explanation.wtw();
    assert_eq!((w.ttw.grams(), w.wtt.grams()), (322_400, 73_000));

    // a well-to-wheel leg keeps its well-to-tank grams inside its mass
    use tonne_estimation::estimate::EstimateRequest;
    use tonne_estimation::route::Route;
    use tonne_estimation::shipping::{Leg, Method, Shipment};
    let computed = EstimateRequest::Shipping {
        shipment: Shipment::Mass(Mass::from_grams(20_000_000)),
        leg: Leg {
            route: Route::Distance(tonne_estimation::Distance::from_km(Decimal::from(1000))),
            method: Method::Container {
                refrigerated: false,
                trade_lane: None,
            },
        },
    }
    .compute()
    .unwrap();
    let (_, explanation) = round_trip(EstimateKind::Shipping, &computed);
    assert_eq!(explanation.parts[0].wtt, Some(Mass::from_grams(73_000)));
    assert_eq!(computed.mass, Some(Mass::from_grams(395_400)));
    let w = explanation.wtw();
    assert_eq!(
        (w.ttw.grams(), w.wtt.grams(), w.unknown.grams()),
        (322_400, 73_000, 0)
    );
}

#[test]
fn a_by_fuel_estimate_round_trips() {
    use tonne_estimation::estimate::EstimateRequest;
    use tonne_estimation::shipping::fuel::{FuelLeg, LegFuel};
    let computed = EstimateRequest::MultiLegShippingByFuel {
        legs: vec![FuelLeg {
            fuel: LegFuel::DieselBiodiesel {
                biodiesel_percent: 20,
            },
            litres: Decimal::from(250),
        }],
    }
    .compute()
    .unwrap();
    let (detail, explanation) = round_trip(EstimateKind::MultiLegShippingByFuel, &computed);
    assert_eq!(detail, computed.detail);
    assert_eq!(explanation, computed.explanation);
}

#[test]
fn a_factor_estimate_keeps_the_factor_it_used() {
    use tonne_estimation::estimate::EstimateRequest;
    use tonne_estimation::factor_estimate::FactorRequest;
    for (id, unit) in [
        ("desnz-2025.HGV_ALL", "t*km"),
        ("useeio-1.3.0.naics.722511", "GBP"),
        ("scarborough-2014.DIET_VEGAN", "person*month"),
    ] {
        let computed =
            EstimateRequest::EmissionFactor(FactorRequest::parse(id, "12.5", unit).unwrap())
                .compute()
                .unwrap();
        let (detail, explanation) = round_trip(EstimateKind::EmissionFactor, &computed);
        assert_eq!(detail, computed.detail, "{id}");
        assert_eq!(explanation, computed.explanation, "{id}");
    }
    // a stored factor that no longer reads is a corrupt row, not a wrong one
    let bad = r#"{"v":2,"detail":{"type":"emission_factor","factor":{"id":"x","name":"x","source":"ember","source_version":"1","publication":"p","publication_year":2020,"published":"2020-01-01","region":"World","category":null,"denominator":"kWh","logical_unit":"energy","kg_co2e":"1","gases":null,"engine_id":"x"}},"explanation":{"parts":[],"notes":[]},"quote":{"selection":null,"trunc":null}}"#;
    assert!(
        decode(
            EstimateKind::EmissionFactor,
            Some(Mass::from_grams(1)),
            bad,
            "{}"
        )
        .is_none()
    );
}

#[test]
fn a_money_movement_row_of_the_first_format_reads_as_such() {
    let (detail, _, quote) = decode(EstimateKind::Transaction, None, "{}", "{}").unwrap();
    assert_eq!(detail, EstimateDetail::MoneyMovement);
    assert_eq!(quote, QuoteTerms::default());
}
