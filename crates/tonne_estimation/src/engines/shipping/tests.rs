//! The shipping engine's tests: DESNZ factors by hand, distances, air by
//! aircraft type, fallbacks.

use super::*;
use crate::errors::EstimateError;
use crate::route::Place;
use crate::units::Distance;

fn tonnes(t: i64) -> Shipment {
    Shipment::Mass(Mass::from_grams(t * 1_000_000))
}

fn km(v: i64) -> Route {
    Route::Distance(Distance::from_km(Decimal::from(v)))
}

fn simple(name: &str) -> Method {
    Method::Simple(name.into())
}

/// 1 t of belly freight on an A320 over a given 1,000 km: the flight's
/// 3,746.088 kg of fuel (see `flight::tests`) × 3.1894 = 11,947.7 kg CO2e,
/// × the shipment's share of the payload, 1,000 kg ÷ (150 seats × 0.845 ×
/// 100 kg) = 942.625 kg tank-to-wake; well-to-tank 942.625 × 0.6465 ÷ 3.1894
/// (the TIM's WTT over its TTW per kg of fuel) = 191.073 kg; 1,133.698 kg
/// well-to-wheel.
#[test]
fn air_freight_by_aircraft_type_by_hand_and_freighters_fall_back() {
    let on = |code: &str| {
        leg(
            "",
            &tonnes(1),
            &Leg {
                route: km(1000),
                method: Method::Aircraft {
                    aircraft_type: code.into(),
                },
            },
        )
    };
    let e = on("A320").unwrap();
    assert_eq!((e.ttw.grams(), e.wtt.grams()), (942_625, 191_073));
    assert_eq!(e.mass.grams(), 942_625 + 191_073);
    assert_eq!(e.factor.id, "TIM_JET_FUEL_TTW");
    assert!(e.methodology.is_empty());
    // the An-12 has no seats: the generic plane (DESNZ, by haul band), said so
    let f = on("AN12").unwrap();
    assert_eq!(f.methodology, vec![FLIGHT_NUMBER_FALLBACK]);
    let generic = leg(
        "",
        &tonnes(1),
        &Leg {
            route: km(1000),
            method: simple("cargo_plane"),
        },
    )
    .unwrap();
    assert_eq!(f.mass, generic.mass);
    assert!(on("QQ99").is_err());
    // a flight number: no schedules, the configuration's generic method
    let n = leg(
        "",
        &tonnes(1),
        &Leg {
            route: km(1000),
            method: Method::FlightNumber {
                flight_number: "BA15".into(),
                configuration: "cargo_plane".into(),
            },
        },
    )
    .unwrap();
    assert_eq!(n.methodology, vec![FLIGHT_NUMBER_FALLBACK]);
    assert_eq!(n.mass, f.mass);
}

/// Well-to-wheel by hand from the DESNZ 2025 rows: tank-to-wheel from the
/// "Freighting goods" row, well-to-tank from the "WTT- delivery vehs &
/// freight" row of the same activity, each rounded to the gram, mass their sum.
#[test]
fn reproduces_desnz_freight_factors_by_hand() {
    // 10 t × 500 km by articulated HGV > 33 t (27_304_3132_14_1, WTT
    // 28_907_3132_14_1): 10 × 500 × 0.07703 = 385.15 kg + 10 × 500 × 0.01799
    // = 89.95 kg = 475.1 kg
    let e = leg(
        "",
        &tonnes(10),
        &Leg {
            route: km(500),
            method: simple("truck_articulated_40t"),
        },
    )
    .unwrap();
    assert_eq!((e.ttw.grams(), e.wtt.grams()), (385_150, 89_950));
    assert_eq!(e.mass.grams(), 475_100);
    assert_eq!(e.factor.id, "HGV_ARTIC_OVER_33");
    assert_eq!(e.factor.year(), Some(2025));
    assert_eq!(e.intensity.ttw, Decimal::new(7703, 5));
    assert_eq!(e.intensity.wtt, Some(Decimal::new(1799, 5)));
    assert_eq!(e.intensity.wtw(), Decimal::new(9502, 5));
    // 2 t × 8,000 km long-haul air freight (27_317_3156_14_1, WTT
    // 28_913_3156_14_1): 2 × 8000 × 0.89939 = 14,390.24 kg + 2 × 8000 × 0.13516
    // = 2,162.56 kg = 16,552.8 kg
    let e = leg(
        "",
        &tonnes(2),
        &Leg {
            route: km(8000),
            method: simple("cargo_plane"),
        },
    )
    .unwrap();
    assert_eq!((e.ttw.grams(), e.wtt.grams()), (14_390_240, 2_162_560));
    assert_eq!(e.mass.grams(), 16_552_800);
    // 3 TEU of average cargo (30 t) × 1,000 km container ship (27_320_3235_14_1,
    // WTT 28_916_3235_14_1): 30 × 1000 × 0.01612 = 483.6 kg + 30 × 1000 × 0.00365
    // = 109.5 kg = 593.1 kg
    let teu = Shipment::Containers {
        teu: Decimal::from(3),
        cargo: CargoType::Average,
        mass: None,
    };
    let e = leg(
        "",
        &teu,
        &Leg {
            route: km(1000),
            method: Method::Container {
                refrigerated: false,
                trade_lane: None,
            },
        },
    )
    .unwrap();
    assert_eq!((e.ttw.grams(), e.wtt.grams()), (483_600, 109_500));
    assert_eq!(e.mass.grams(), 593_100);
    assert!(e.methodology.is_empty());
}

/// Tonne's inland-waterway figures have no well-to-tank row: the whole mass
/// is `ttw` (of unknown stage in the explanation), `wtt` zero.
#[test]
fn a_factor_without_a_wtt_row_adds_nothing() {
    let e = leg(
        "",
        &tonnes(10),
        &Leg {
            route: km(100),
            method: simple("inland_waterway_motor_vessel_small"),
        },
    )
    .unwrap();
    assert_eq!(e.wtt.grams(), 0);
    assert_eq!(e.mass, e.ttw);
    assert_eq!(e.intensity.wtt, None);
}

/// Rounding each stage to the gram keeps the sum exact: mass = ttw + wtt
/// for odd payloads and distances of every mode.
#[test]
fn stages_add_up_to_the_mass_to_the_gram() {
    for name in [
        "diesel_truck",
        "cargo_plane",
        "diesel_freight_train",
        "truck_generic_van",
    ] {
        for (g, km_) in [(1_234_567_i64, 333), (7, 1), (999_999, 12_345)] {
            let e = leg(
                "",
                &Shipment::Mass(Mass::from_grams(g)),
                &Leg {
                    route: km(km_),
                    method: simple(name),
                },
            )
            .unwrap();
            assert_eq!(e.mass.grams(), e.ttw.grams() + e.wtt.grams(), "{name}");
        }
    }
}

#[test]
fn sea_legs_follow_the_network_and_unknown_vessels_fall_back() {
    let route = Route::Between {
        source: Place::Seaport("CNSHA".into()),
        destination: Place::Seaport("NLRTM".into()),
    };
    let e = leg(
        "",
        &tonnes(1),
        &Leg {
            route,
            method: Method::Vessel {
                imo: "9745225".into(),
                refrigerated: false,
                trade_lane: Some("aggregated_transsuez".into()),
            },
        },
    )
    .unwrap();
    let published = Decimal::from(19_446); // 10,500 nm
    assert!(
        (e.distance.km() - published).abs() / published < Decimal::new(1, 1),
        "{}",
        e.distance.km()
    );
    assert_eq!(e.methodology, vec![IMO_TRADE_LANE_FALLBACK]);
    let missing = leg(
        "",
        &tonnes(1),
        &Leg {
            route: Route::Between {
                source: Place::Seaport("ZZZZZ".into()),
                destination: Place::Seaport("NLRTM".into()),
            },
            method: Method::Container {
                refrigerated: false,
                trade_lane: None,
            },
        },
    );
    assert_eq!(
        missing,
        Err(EstimateError::PortNotFound {
            field: "route.source".into(),
            code: "ZZZZZ".into()
        })
    );
}

#[test]
fn multi_leg_sums_and_is_monotonic() {
    let legs = vec![
        Leg {
            route: km(100),
            method: simple("diesel_truck"),
        },
        Leg {
            route: km(900),
            method: simple("diesel_freight_train"),
        },
    ];
    let e = multi_leg(&tonnes(5), &legs).unwrap();
    assert_eq!(
        e.mass.grams(),
        e.legs.iter().map(|l| l.mass.grams()).sum::<i64>()
    );
    assert_eq!(e.distance.km(), Decimal::from(1000));
    assert_eq!(e.mass.grams(), e.ttw.grams() + e.wtt.grams());
    // 5 t × 100 km × (0.10163 + 0.02359) + 5 t × 900 km × (0.02779 + 0.00691)
    // = 50.815 + 11.795 + 125.055 + 31.095 = 218.76 kg
    assert_eq!(
        (e.ttw.grams(), e.wtt.grams()),
        (50_815 + 125_055, 11_795 + 31_095)
    );
    assert!(multi_leg(&tonnes(6), &legs).unwrap().mass > e.mass);
    assert_eq!(multi_leg(&tonnes(0), &legs).unwrap().mass.grams(), 0);
    let mut last = 0;
    for d in (0..5000).step_by(100) {
        let g = leg(
            "",
            &tonnes(1),
            &Leg {
                route: km(d),
                method: simple("plane"),
            },
        )
        .unwrap()
        .mass
        .grams();
        assert!(g >= last, "{d}");
        last = g;
    }
}

#[test]
fn every_contract_method_has_a_factor() {
    assert_eq!(SIMPLE_NAMES.len(), 147);
    for name in SIMPLE_NAMES {
        let r = resolve_simple(name).unwrap();
        assert!(
            r.factors.iter().all(|f| f.value() > Decimal::ZERO),
            "{name}"
        );
    }
}

/// A site leg: tonnes × the GLEC v3 figure, no distance; hand-computed:
/// 12 t × 33.0 kg CO2e/t (warehouse, mixed) = 396 kg; a multi-leg total
/// adds it to the road leg's mass.
#[test]
fn a_site_leg_is_tonnes_times_its_figure_and_counts_in_the_total() {
    let site = Leg {
        route: km(0),
        method: Method::Site("warehouse_mixed".into()),
    };
    let e = leg("", &tonnes(12), &site).unwrap();
    assert_eq!(e.mass.grams(), 396_000);
    assert_eq!(e.wtt.grams(), 396_000);
    assert_eq!(e.ttw.grams(), 0);
    assert!(e.distance.km().is_zero());
    assert_eq!(e.intensity.wtt, Some(Decimal::from(33)));
    let road = Leg {
        route: km(250),
        method: simple("truck_generic_van"),
    };
    let r = leg("", &tonnes(12), &road).unwrap();
    let m = multi_leg(&tonnes(12), &[road, site]).unwrap();
    assert_eq!(m.mass.grams(), r.mass.grams() + 396_000);
    assert_eq!(m.wtt.grams(), r.wtt.grams() + 396_000);
    assert_eq!(m.ttw.grams(), r.ttw.grams());
    assert_eq!(m.distance.km(), Decimal::from(250));
    // a site is not a transport leg for the freight calculation
    assert!(freight_leg("legs[1]", &tonnes(12), &m_site()).is_err());
}

fn m_site() -> Leg {
    Leg {
        route: km(0),
        method: Method::Site("warehouse_mixed".into()),
    }
}
