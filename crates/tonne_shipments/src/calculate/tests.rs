//! A checked row's emissions by hand: rail from the DESNZ rows, loads carried
//! on, hubs, client figures, and the legs that stand in or fail.

use super::*;
use crate::model::{ClientEmissions, Location, SeaVessel};
use crate::testing::leg;
use crate::vocabulary::Carriage;

/// A pre-carriage leg by diesel truck, not refrigerated.
fn truck(km: i64, tonnes: Option<i64>) -> LegDraft {
    let road = LegMethod::Road {
        vehicle_type: "truck".into(),
        fuel: "diesel".into(),
        refrigerated: false,
    };
    leg(Carriage::Pre, road, km, tonnes)
}

/// A main-carriage rail leg of `code`.
fn rail(code: &str, km: i64, tonnes: Option<i64>) -> LegDraft {
    leg(Carriage::Main, LegMethod::Rail(code.into()), km, tonnes)
}

fn draft(legs: Vec<LegDraft>) -> ShipmentDraft {
    ShipmentDraft {
        reference: None,
        target_internal_id: None,
        target_internal_name: None,
        legs,
        client_emissions: None,
    }
}

#[test]
fn rail_leg_is_well_to_wheel_from_the_desnz_rows() {
    // DESNZ 2025 27_315_3151_14_1 Freighting goods, Rail, Freight train:
    // 0.02779 kg CO2e/t.km (TTW); 28_911_3151_14_1 WTT- rail, Freight train:
    // 0.00691 kg CO2e/t.km. 10 t × 200 km = 2,000 t.km → TTW 55.580 kg,
    // WTT 13.820 kg, well-to-wheel 69.400 kg.
    let d = draft(vec![rail("diesel_freight_train", 200, Some(10))]);
    let e = emissions(&d).unwrap();
    let l = e.legs[0].clone().unwrap();
    assert_eq!(l.activity, Decimal::from(2000));
    assert_eq!(l.ttw.grams(), 55_580);
    assert_eq!(l.wtt.grams(), 13_820);
    assert_eq!(e.total.total().grams(), 69_400);
    assert_eq!(e.phases.unwrap()[1].total(), e.total.total());
    assert_eq!(e.source, EmissionsSource::Calculated);
}

#[test]
fn a_leg_without_load_carries_the_previous_one() {
    let d = draft(vec![
        truck(50, Some(2)),
        rail("electric_freight_train", 500, None),
    ]);
    let e = emissions(&d).unwrap();
    assert_eq!(e.legs[1].as_ref().unwrap().activity, Decimal::from(1000));
    let phases = e.phases.unwrap();
    assert_eq!(
        phases[0].total().grams() + phases[1].total().grams(),
        e.total.total().grams()
    );
}

#[test]
fn no_load_anywhere_fails_the_row_naming_the_field() {
    let d = draft(vec![rail("diesel_freight_train", 200, None)]);
    assert_eq!(emissions(&d).unwrap_err().field, "legs[0].load");
}

#[test]
fn an_unknown_code_without_distance_fails_the_row() {
    let mut l = leg(
        Carriage::Main,
        LegMethod::Sea(SeaVessel::Container {
            refrigerated: false,
            trade_lane: None,
        }),
        1,
        Some(1),
    );
    l.distance_km = None;
    l.origin = Some(Location::Unknown("ZZZZZ".into()));
    l.destination = Some(Location::Locode("NLRTM".into()));
    assert_eq!(
        emissions(&draft(vec![l])).unwrap_err().field,
        "legs[0].origin"
    );
}

#[test]
fn a_hub_leg_counts_in_the_total() {
    // GLEC Framework v3.0 logistics-site defaults (kg CO2e/t): warehouse,
    // ambient 17.5. Road 12 t × 50 km, then 12 t through the warehouse =
    // 12 × 17.5 = 210 kg, all well-to-tank [A]; the shipment's total is
    // the road leg's plus 210 kg.
    let d = draft(vec![
        truck(50, Some(12)),
        leg(
            Carriage::Main,
            LegMethod::LogisticsSite("warehouse_ambient".into()),
            0,
            None,
        ),
    ]);
    let e = emissions(&d).unwrap();
    let road = e.legs[0].clone().unwrap();
    let hub = e.legs[1].clone().unwrap();
    assert_eq!(hub.wtt.grams(), 210_000);
    assert_eq!(hub.ttw.grams(), 0);
    assert_eq!(hub.activity, Decimal::ZERO);
    assert_eq!(hub.distance_km, Decimal::ZERO);
    let f = hub.factor.unwrap();
    assert_eq!(f.intensity, Decimal::new(175, 1));
    assert_eq!(f.denominator, "t");
    assert_eq!(f.year, Some(2023));
    assert!(!hub.flagged);
    assert_eq!(
        e.total.total().grams(),
        road.total().grams() + 210_000,
        "the total includes the hub"
    );
    assert_eq!(e.phases.unwrap()[1].total().grams(), 210_000);
    // t·km: the road leg's only (the hub moves nothing)
    assert_eq!(e.total.activity, Decimal::from(600));
    assert!(!e.flagged);
}

#[test]
fn a_chilled_warehouse_stands_in_and_is_flagged() {
    let d = draft(vec![leg(
        Carriage::Main,
        LegMethod::LogisticsSite("warehouse_chilled".into()),
        0,
        Some(3),
    )]);
    let e = emissions(&d).unwrap();
    let l = e.legs[0].clone().unwrap();
    // 3 t × 33.0 (warehouse, mixed) = 99 kg
    assert_eq!(l.total().grams(), 99_000);
    assert!(l.flagged && e.flagged);
    assert_eq!(l.grade.as_deref(), Some("C"));
}

#[test]
fn a_hub_without_any_load_fails_naming_the_field() {
    let d = draft(vec![leg(
        Carriage::Main,
        LegMethod::LogisticsSite("warehouse_ambient".into()),
        0,
        None,
    )]);
    assert_eq!(emissions(&d).unwrap_err().field, "legs[0].load");
}

#[test]
fn client_totals_win_and_add_up() {
    let mut d = draft(vec![rail("diesel_freight_train", 200, None)]);
    d.client_emissions = Some(ClientEmissions {
        total_kg: Decimal::new(1005, 1),
        wtt_kg: Some(Decimal::new(205, 1)),
        ttw_kg: None,
        distance_km: Decimal::from(200),
    });
    let e = emissions(&d).unwrap();
    assert_eq!(e.source, EmissionsSource::Manual);
    assert_eq!(e.total.wtt.grams(), 20_500);
    assert_eq!(e.total.ttw.grams(), 80_000);
}

#[test]
fn an_inferred_vessel_stands_in_and_is_flagged() {
    let d = draft(vec![leg(
        Carriage::Main,
        LegMethod::Sea(SeaVessel::Inferred {
            refrigerated: false,
            trade_lane: None,
        }),
        10_000,
        Some(20),
    )]);
    let l = emissions(&d).unwrap().legs[0].clone().unwrap();
    assert!(l.flagged);
    assert!(l.notes.iter().any(|n| n == VESSEL_INFERENCE_FALLBACK));
}
