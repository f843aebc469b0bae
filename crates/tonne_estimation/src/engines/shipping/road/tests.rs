//! The road method by hand: DESNZ's laden rows, the load and empty-running
//! model, other fuels, vans, and the fields bad values name.

use super::*;

fn method(vehicle: &str, fuel: &str, l: Option<&str>, e: Option<&str>) -> RoadMethod {
    RoadMethod {
        vehicle_type: vehicle.into(),
        fuel: RoadFuel::parse(fuel).unwrap(),
        load_factor: l.map(|v| v.parse().unwrap()),
        empty_runs_factor: e.map(|v| v.parse().unwrap()),
        refrigerated: false,
        gradient: None,
        situation: None,
        emission_standard: None,
    }
}

/// By hand, articulated > 33 t (DESNZ 2025): E0 = 0.64734 (27_304_3129_4_1),
/// E1 = 1.06921 (27_304_3131_4_1) kg per vehicle·km, T1 = 0.05988
/// (27_304_3131_14_1) kg per tonne·km; C = 1.06921 ÷ 0.05988 = 17.85588 t.
/// - L = 0.5, e = 0: (0.64734 + 0.42187 × 0.5) ÷ (17.85588 × 0.5) =
///   0.858275 ÷ 8.92794 = 0.096134 (DESNZ's 50 % row: 0.09612);
/// - L = 0.8, e = 0.25: E(0.8) = 0.64734 + 0.42187 × 0.8 = 0.984836; empty
///   0.64734 × 0.25 ÷ 0.75 = 0.215780; (0.984836 + 0.215780) ÷ (17.85588 ×
///   0.8 = 14.284704) = 0.084049 kg/t·km; WTT with 0.15178 / 0.25296:
///   (0.15178 + 0.10118 × 0.8 + 0.050593) ÷ 14.284704 = 0.019834.
#[test]
fn load_factor_and_empty_runs_by_hand() {
    let full = resolve(
        "m",
        &method("truck_articulated_44t", "diesel", Some("1"), None),
    )
    .unwrap();
    assert_eq!(full.ttw.round_dp(5), Decimal::new(5988, 5));
    let half = resolve(
        "m",
        &method("truck_articulated_40t", "diesel", Some("0.5"), None),
    )
    .unwrap();
    assert_eq!(half.ttw.round_dp(6), Decimal::new(96134, 6));
    let r = resolve(
        "m",
        &method("truck_articulated_40t", "diesel", Some("0.8"), Some("0.25")),
    )
    .unwrap();
    assert_eq!(r.ttw.round_dp(6), Decimal::new(84049, 6));
    assert_eq!(r.wtt.round_dp(6), Decimal::new(19834, 6));
    let load = r.load.unwrap();
    assert_eq!(load.capacity_t.round_dp(5), Decimal::new(1785588, 5));
    assert_eq!(load.capacity_utilisation, Decimal::new(6, 1));
    assert_eq!(r.grade, Grade::A);
    // neither sent: DESNZ's average-laden row and its WTT row
    let avg = resolve("m", &method("truck_articulated_40t", "diesel", None, None)).unwrap();
    assert_eq!(
        (avg.ttw, avg.wtt),
        (Decimal::new(7703, 5), Decimal::new(1799, 5))
    );
    // its implied load factor gives the same row back
    let implied = avg.load.unwrap().load_factor;
    let back = resolve(
        "m",
        &RoadMethod {
            load_factor: Some(implied),
            ..method("truck_articulated_40t", "diesel", None, None)
        },
    )
    .unwrap();
    assert_eq!(back.ttw.round_dp(8), Decimal::new(7703, 5));
    // more empty running, more per tonne·km
    let empty = resolve("m", &method("truck", "diesel", Some("0.8"), Some("0.5"))).unwrap();
    let none = resolve("m", &method("truck", "diesel", Some("0.8"), Some("0"))).unwrap();
    assert!(empty.ttw > none.ttw);
    assert_eq!(none.grade, Grade::B);
}

/// Petrol in an HGV: the diesel rows × petrol per MJ ÷ diesel per MJ
/// (2.33984 kg/l ÷ (2.33984 ÷ 0.25431 × 3.6) MJ/l = 0.0706417 vs 0.25953
/// ÷ 3.6 = 0.0720917 kg/MJ): 0.07703 × 0.0706417 ÷ 0.0720917 = 0.075481.
#[test]
fn other_fuels_scale_by_energy_and_vans_take_their_row() {
    let p = resolve(
        "m",
        &method("truck_articulated_40t", "gasoline", None, None),
    )
    .unwrap();
    assert_eq!(p.ttw.round_dp(6), Decimal::new(75481, 6));
    assert_eq!(p.grade, Grade::C);
    assert!(p.notes[0].contains("gasoline"), "{:?}", p.notes);
    let v = resolve("m", &method("truck_generic_van", "lpg", Some("0.5"), None)).unwrap();
    assert_eq!(v.ttw, Decimal::new(68621, 5));
    assert!(v.load.is_none());
    assert!(v.notes[0].contains("average loading"));
    let r = resolve(
        "m",
        &RoadMethod {
            refrigerated: true,
            ..method("truck_rigid_7_5t", "diesel", None, None)
        },
    )
    .unwrap();
    assert_eq!(r.ttw, Decimal::new(62837, 5));
}

#[test]
fn bad_values_name_their_field() {
    for (m, field) in [
        (
            method("truck_articulated_40t", "diesel", Some("0"), None),
            "m.load_factor",
        ),
        (
            method("truck_articulated_40t", "diesel", Some("1.2"), None),
            "m.load_factor",
        ),
        (
            method("truck_articulated_40t", "diesel", None, Some("1")),
            "m.empty_runs_factor",
        ),
        (method("bicycle", "diesel", None, None), "m.vehicle_type"),
    ] {
        let e = resolve("m", &m).unwrap_err();
        assert!(format!("{e:?}").contains(field), "{e:?}");
    }
    assert_eq!(RoadFuel::parse("hydrogen"), None);
}
