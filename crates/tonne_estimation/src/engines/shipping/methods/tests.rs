//! The shipping methods resolved: simple names, truck classes and sea vessels, with their grades and data quality.

use super::*;

/// The 2024 document's `SimpleSeaShippingMethod` names.
const SEA_NAMES: [&str; 135] = [
    "sea_bulk_carrier_10dwkt_hfo",
    "sea_bulk_carrier_10dwkt_vlsfo",
    "sea_bulk_carrier_10dwkt_mdo",
    "sea_bulk_carrier_35dwkt_hfo",
    "sea_bulk_carrier_35dwkt_vlsfo",
    "sea_bulk_carrier_35dwkt_mdo",
    "sea_bulk_carrier_60dwkt_hfo",
    "sea_bulk_carrier_60dwkt_vlsfo",
    "sea_bulk_carrier_60dwkt_mdo",
    "sea_bulk_carrier_100dwkt_hfo",
    "sea_bulk_carrier_100dwkt_vlsfo",
    "sea_bulk_carrier_100dwkt_mdo",
    "sea_bulk_carrier_200dwkt_hfo",
    "sea_bulk_carrier_200dwkt_vlsfo",
    "sea_bulk_carrier_200dwkt_mdo",
    "sea_bulk_carrier_over_200dwkt_hfo",
    "sea_bulk_carrier_over_200dwkt_vlsfo",
    "sea_bulk_carrier_over_200dwkt_mdo",
    "sea_chemical_tanker_5dwkt_hfo",
    "sea_chemical_tanker_5dwkt_vlsfo",
    "sea_chemical_tanker_5dwkt_mdo",
    "sea_chemical_tanker_10dwkt_hfo",
    "sea_chemical_tanker_10dwkt_vlsfo",
    "sea_chemical_tanker_10dwkt_mdo",
    "sea_chemical_tanker_20dwkt_hfo",
    "sea_chemical_tanker_20dwkt_vlsfo",
    "sea_chemical_tanker_20dwkt_mdo",
    "sea_chemical_tanker_40dwkt_hfo",
    "sea_chemical_tanker_40dwkt_vlsfo",
    "sea_chemical_tanker_40dwkt_mdo",
    "sea_chemical_tanker_over_40dwkt_hfo",
    "sea_chemical_tanker_over_40dwkt_vlsfo",
    "sea_chemical_tanker_over_40dwkt_mdo",
    "sea_general_cargo_5dwkt_hfo",
    "sea_general_cargo_5dwkt_vlsfo",
    "sea_general_cargo_5dwkt_mdo",
    "sea_general_cargo_10dwkt_hfo",
    "sea_general_cargo_10dwkt_vlsfo",
    "sea_general_cargo_10dwkt_mdo",
    "sea_general_cargo_20dwkt_hfo",
    "sea_general_cargo_20dwkt_vlsfo",
    "sea_general_cargo_20dwkt_mdo",
    "sea_general_cargo_over_20dwkt_hfo",
    "sea_general_cargo_over_20dwkt_vlsfo",
    "sea_general_cargo_over_20dwkt_mdo",
    "sea_liquefied_gas_tanker_50dwkt_hfo",
    "sea_liquefied_gas_tanker_50dwkt_vlsfo",
    "sea_liquefied_gas_tanker_50dwkt_mdo",
    "sea_liquefied_gas_tanker_100dwkt_hfo",
    "sea_liquefied_gas_tanker_100dwkt_vlsfo",
    "sea_liquefied_gas_tanker_100dwkt_mdo",
    "sea_liquefied_gas_tanker_200dwkt_hfo",
    "sea_liquefied_gas_tanker_200dwkt_vlsfo",
    "sea_liquefied_gas_tanker_200dwkt_mdo",
    "sea_liquefied_gas_tanker_over_200dwkt_hfo",
    "sea_liquefied_gas_tanker_over_200dwkt_vlsfo",
    "sea_liquefied_gas_tanker_over_200dwkt_mdo",
    "sea_oil_tanker_5dwkt_hfo",
    "sea_oil_tanker_5dwkt_vlsfo",
    "sea_oil_tanker_5dwkt_mdo",
    "sea_oil_tanker_10dwkt_hfo",
    "sea_oil_tanker_10dwkt_vlsfo",
    "sea_oil_tanker_10dwkt_mdo",
    "sea_oil_tanker_20dwkt_hfo",
    "sea_oil_tanker_20dwkt_vlsfo",
    "sea_oil_tanker_20dwkt_mdo",
    "sea_oil_tanker_60dwkt_hfo",
    "sea_oil_tanker_60dwkt_vlsfo",
    "sea_oil_tanker_60dwkt_mdo",
    "sea_oil_tanker_80dwkt_hfo",
    "sea_oil_tanker_80dwkt_vlsfo",
    "sea_oil_tanker_80dwkt_mdo",
    "sea_oil_tanker_112dwkt_hfo",
    "sea_oil_tanker_112dwkt_vlsfo",
    "sea_oil_tanker_112dwkt_mdo",
    "sea_oil_tanker_200dwkt_hfo",
    "sea_oil_tanker_200dwkt_vlsfo",
    "sea_oil_tanker_200dwkt_mdo",
    "sea_oil_tanker_over_200dwkt_hfo",
    "sea_oil_tanker_over_200dwkt_vlsfo",
    "sea_oil_tanker_over_200dwkt_mdo",
    "sea_other_liquids_tanker_1dwkt_hfo",
    "sea_other_liquids_tanker_1dwkt_vlsfo",
    "sea_other_liquids_tanker_1dwkt_mdo",
    "sea_other_liquids_tanker_over_1dwkt_hfo",
    "sea_other_liquids_tanker_over_1dwkt_vlsfo",
    "sea_other_liquids_tanker_over_1dwkt_mdo",
    "sea_ropax_2dwkt_hfo",
    "sea_ropax_2dwkt_vlsfo",
    "sea_ropax_2dwkt_mdo",
    "sea_ropax_5dwkt_hfo",
    "sea_ropax_5dwkt_vlsfo",
    "sea_ropax_5dwkt_mdo",
    "sea_ropax_10dwkt_hfo",
    "sea_ropax_10dwkt_vlsfo",
    "sea_ropax_10dwkt_mdo",
    "sea_ropax_20dwkt_hfo",
    "sea_ropax_20dwkt_vlsfo",
    "sea_ropax_20dwkt_mdo",
    "sea_ropax_over_20dwkt_hfo",
    "sea_ropax_over_20dwkt_vlsfo",
    "sea_ropax_over_20dwkt_mdo",
    "sea_refrigerated_bulk_carrier_2dwkt_hfo",
    "sea_refrigerated_bulk_carrier_2dwkt_vlsfo",
    "sea_refrigerated_bulk_carrier_2dwkt_mdo",
    "sea_refrigerated_bulk_carrier_6dwkt_hfo",
    "sea_refrigerated_bulk_carrier_6dwkt_vlsfo",
    "sea_refrigerated_bulk_carrier_6dwkt_mdo",
    "sea_refrigerated_bulk_carrier_10dwkt_hfo",
    "sea_refrigerated_bulk_carrier_10dwkt_vlsfo",
    "sea_refrigerated_bulk_carrier_10dwkt_mdo",
    "sea_refrigerated_bulk_carrier_over_10dwkt_hfo",
    "sea_refrigerated_bulk_carrier_over_10dwkt_vlsfo",
    "sea_refrigerated_bulk_carrier_over_10dwkt_mdo",
    "sea_roro_5dwkt_hfo",
    "sea_roro_5dwkt_vlsfo",
    "sea_roro_5dwkt_mdo",
    "sea_roro_10dwkt_hfo",
    "sea_roro_10dwkt_vlsfo",
    "sea_roro_10dwkt_mdo",
    "sea_roro_15dwkt_hfo",
    "sea_roro_15dwkt_vlsfo",
    "sea_roro_15dwkt_mdo",
    "sea_roro_over_15dwkt_hfo",
    "sea_roro_over_15dwkt_vlsfo",
    "sea_roro_over_15dwkt_mdo",
    "sea_vehicle_carrier_30dwkt_hfo",
    "sea_vehicle_carrier_30dwkt_vlsfo",
    "sea_vehicle_carrier_30dwkt_mdo",
    "sea_vehicle_carrier_50dwkt_hfo",
    "sea_vehicle_carrier_50dwkt_vlsfo",
    "sea_vehicle_carrier_50dwkt_mdo",
    "sea_vehicle_carrier_over_50dwkt_hfo",
    "sea_vehicle_carrier_over_50dwkt_vlsfo",
    "sea_vehicle_carrier_over_50dwkt_mdo",
];

#[test]
fn every_method_of_the_2024_document_resolves() {
    for name in SIMPLE_NAMES.iter().chain(SEA_NAMES.iter()) {
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
