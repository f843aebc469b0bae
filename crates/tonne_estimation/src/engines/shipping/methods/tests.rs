//! The shipping methods resolved: simple names, truck classes and sea vessels, with their grades and data quality.

use super::*;

#[test]
fn every_simple_method_resolves() {
    // the contract's names (tonne_wire's vocabulary) are checked against
    // these in tonne_wire
    for name in SIMPLE_NAMES {
        let r = resolve_simple(name).unwrap_or_else(|| panic!("{name}"));
        assert!(!r.factors.is_empty(), "{name}");
        // a stand-in always says so, and is graded below an exact match
        if r.stand_in.is_some() {
            assert!(r.grade > Grade::A, "{name}");
        }
    }
    for bad in [
        "truck_rigid_7_5t_hovercraft",
        "sea_bulk_carrier_11dwkt_hfo",
        "sea_bulk_carrier_10dwkt_diesel",
        "electric_freight_train_us_average",
        "rocket",
    ] {
        assert!(resolve_simple(bad).is_none(), "{bad}");
    }
}

#[test]
fn classes_take_their_desnz_rows() {
    let f = |n: &str| resolve_simple(n).unwrap().factors[0];
    assert_eq!(
        f("truck_rigid_12t_refrigerated"),
        desnz::HGV_REFRIGERATED_RIGID_7_5_TO_17
    );
    assert_eq!(
        f("truck_articulated_44t_heavy_load"),
        desnz::HGV_ARTIC_OVER_33_FULL_LADEN
    );
    assert_eq!(
        f("truck_articulated_44t_light_load_refrigerated"),
        desnz::HGV_REFRIGERATED_ARTIC_OVER_33_HALF_LADEN
    );
    assert_eq!(f("truck_generic_van_lpg"), desnz::VAN_AVERAGE_LPG);
    assert_eq!(
        f("sea_bulk_carrier_over_200dwkt_vlsfo"),
        desnz::SEA_BULK_200K
    );
    assert_eq!(
        f("sea_oil_tanker_112dwkt_hfo"),
        desnz::SEA_CRUDE_TANKER_80K_120K
    );
    // the published values, by hand from the DESNZ 2025 flat file
    assert_eq!(
        desnz::HGV_REFRIGERATED_RIGID_7_5_TO_17.value().to_string(),
        "0.43306"
    );
    assert_eq!(
        desnz::HGV_ARTIC_OVER_33_FULL_LADEN.value().to_string(),
        "0.05988"
    );
    assert_eq!(desnz::SEA_BULK_200K.value().to_string(), "0.00253");
    let van = resolve_simple("truck_generic_van_refrigerated").unwrap();
    assert_eq!(van.grade, Grade::C);
    assert!(van.stand_in.unwrap().contains("refrigerated vans"));
    let e = resolve_simple("truck_rigid_20t_electric").unwrap();
    assert_eq!(e.grade, Grade::D);
}

#[test]
fn the_score_is_the_worst_component() {
    let q = DataQuality::of(Grade::B, Some(Grade::A), Grade::C);
    assert_eq!(q.score, Grade::C);
    assert_eq!(DataQuality::of(Grade::A, None, Grade::A).score, Grade::A);
    assert_eq!(Grade::parse("B_minus"), Some(Grade::BMinus));
}
