//! Shipping legs: distance, place, intensity, load model, fuel, sites.

use super::*;

#[test]
fn shipping_legs_say_how_far_where_and_how_intense() {
    use crate::shipping::DistanceMethod;
    let requests = every_kind();
    let by_kind = |k| {
        requests
            .iter()
            .find(|r| r.kind() == k)
            .unwrap()
            .compute()
            .unwrap()
    };
    // sea: over the network, between the located ends, 42 t of heavy containers
    let sea = by_kind(crate::estimate::EstimateKind::Shipping);
    let f = leg_facts(&sea)[0];
    assert_eq!(f.distance_method, Some(DistanceMethod::SeaNetwork));
    let EstimateDetail::Shipping(leg) = &sea.detail else {
        unreachable!()
    };
    assert_eq!(f.raw_distance, leg.distance);
    let [a, b] = f.ends.as_ref().unwrap();
    assert_eq!(a.label, "seaport CNSHA");
    assert_eq!(
        (b.lat, b.lon),
        (Decimal::new(5195, 2), Decimal::new(414, 2))
    );
    assert_eq!(f.payload_tonnes, Decimal::new(435, 1));
    // intensity × payload × distance gives the mass back (to the rounding of both)
    let back = f.ttw_kg_per_tkm * f.payload_tonnes * leg.distance.km();
    assert!((back - kg(f.wtw.ttw)).abs() < Decimal::new(1, 1), "{back}");
    // reefer container: the DESNZ container ship WTT scaled by the same uplift
    let wtt = f.wtt_kg_per_tkm.unwrap();
    assert_eq!(
        wtt,
        (f.ttw_kg_per_tkm * Decimal::new(365, 5) / Decimal::new(1612, 5)).round_dp(8)
    );
    // well-to-wheel: the leg's mass is its two stages
    assert_eq!(f.wtw.total(), leg.mass);
    assert_eq!(f.wtw.unknown.grams(), 0);

    let multi = by_kind(crate::estimate::EstimateKind::MultiLegShipping);
    let legs = leg_facts(&multi);
    // road between addresses: great-circle, then × 1.2 for the detour
    assert_eq!(legs[0].distance_method, Some(DistanceMethod::GreatCircle));
    let EstimateDetail::MultiLegShipping { legs: out, .. } = &multi.detail else {
        unreachable!()
    };
    assert_eq!(
        out[0].distance.km(),
        legs[0].raw_distance.km() * authored::CIRCUITY_SURFACE.value()
    );
    assert_eq!(legs[0].ends.as_ref().unwrap()[0].label, "Hamburg, DEU");
    // air between airports: great-circle as is
    assert_eq!(legs[1].distance_method, Some(DistanceMethod::GreatCircle));
    assert_eq!(legs[1].raw_distance, out[1].distance);
    // a distance sent: user input, no route
    assert_eq!(legs[2].distance_method, Some(DistanceMethod::UserInput));
    assert!(legs[2].ends.is_none());
    // DESNZ freight rail: 0.02779 kg/t·km TTW, 0.00691 WTT
    assert_eq!(legs[2].ttw_kg_per_tkm, Decimal::new(2779, 5));
    assert_eq!(legs[2].wtt_kg_per_tkm, Some(Decimal::new(691, 5)));
    for (f, l) in legs.iter().zip(out) {
        assert_eq!(f.wtw.total(), l.mass);
    }
    // the legs' stages add up to the estimate's
    let total = multi.explanation.wtw();
    assert_eq!(
        total.wtt.grams(),
        legs.iter().map(|f| f.wtw.wtt.grams()).sum::<i64>()
    );
}

#[test]
fn a_by_fuel_leg_names_its_rows_energy_and_stages() {
    use shipping::fuel::{FuelLeg, LegFuel};
    let c = EstimateRequest::MultiLegShippingByFuel {
        legs: vec![FuelLeg {
            fuel: LegFuel::DieselBiodiesel {
                biodiesel_percent: 5,
            },
            litres: Decimal::from(1000),
        }],
    }
    .compute()
    .unwrap();
    let p = &c.explanation.parts[0];
    let ids: Vec<&str> = p.factors.iter().map(|f| f.id.as_str()).collect();
    // the blend first (0.95 × 2.66155 + 0.05 × 0.16751 = 2.536848 kg/l), then
    // each DESNZ row it mixes, bioenergy's WTT row, and the per-energy rows
    assert_eq!(
        ids,
        [
            "FUEL_BLEND:95_diesel_5_biodiesel",
            "FUEL_DIESEL_MINERAL_LITRE",
            "FUEL_BIODIESEL_ME_LITRE",
            "WTT_BIODIESEL_ME_LITRE",
            "FUEL_DIESEL_MINERAL_KWH",
            "FUEL_BIODIESEL_ME_GJ",
        ]
    );
    assert_eq!(p.factors[0].value, Decimal::new(2536848, 6));
    assert_eq!(p.quantities[1].amount, Decimal::new(356098, 4));
    // 2,536.848 kg tank-to-wheel + 612.640 kg well-to-tank
    let w = p.wtw();
    assert_eq!((w.ttw.grams(), w.wtt.grams()), (2_536_848, 612_640));
    assert_eq!(c.mass, Some(Mass::from_grams(3_149_488)));
    let EstimateDetail::FuelLegs(legs) = &c.detail else {
        panic!("{:?}", c.detail)
    };
    assert_eq!(legs[0].wtw, w);
}

#[test]
fn a_road_leg_explains_its_load_model() {
    use shipping::road::{RoadFuel, RoadMethod};
    let c = EstimateRequest::Shipping {
        shipment: Shipment::Mass(Mass::from_grams(10_000_000)),
        leg: shipping::Leg {
            route: Route::Distance(km("100")),
            method: Method::Road(RoadMethod {
                vehicle_type: "truck_articulated_40t".into(),
                fuel: RoadFuel::parse("diesel").unwrap(),
                load_factor: Some(Decimal::new(8, 1)),
                empty_runs_factor: Some(Decimal::new(25, 2)),
                refrigerated: false,
                gradient: None,
                situation: None,
                emission_standard: None,
            }),
        },
    }
    .compute()
    .unwrap();
    // 10 t × 100 km × 0.0840491 + 10 × 100 × 0.0198336 (shipping::road::tests)
    assert_eq!(c.mass, Some(Mass::from_grams(84_049 + 19_834)));
    let f = leg_facts(&c)[0];
    let road = f.road.as_ref().unwrap();
    assert_eq!(road.capacity_t, Decimal::new(17856, 3));
    assert_eq!(road.capacity_utilisation, Decimal::new(6, 1));
    assert_eq!(road.energy_mj_per_tkm, Decimal::new(1165864, 6));
    let ids: Vec<&str> = c.explanation.parts[0]
        .factors
        .iter()
        .map(|x| x.id.as_str())
        .collect();
    assert_eq!(
        ids,
        [
            "HGV_ARTIC_OVER_33",
            "HGV_ARTIC_OVER_33_EMPTY_KM",
            "HGV_ARTIC_OVER_33_FULL_KM",
            "HGV_ARTIC_OVER_33_FULL_LADEN"
        ]
    );
}

/// A logistics site alone and as a leg: 12 t through an ambient warehouse
/// (GLEC v3: 17.5 kg CO2e/t) = 210 kg, all well-to-tank; with a 100 km
/// electric freight train leg the total is the train's mass + 210 kg.
#[test]
fn a_logistics_site_is_tonnes_times_its_figure_alone_and_as_a_leg() {
    let shipment = Shipment::Mass(Mass::from_grams(12_000_000));
    let site = crate::shipping::Leg {
        route: Route::Distance(km("0")),
        method: Method::Site("warehouse_ambient".into()),
    };
    let c = EstimateRequest::Shipping {
        shipment,
        leg: site.clone(),
    }
    .compute()
    .unwrap();
    assert_eq!(c.mass, Some(Mass::from_grams(210_000)));
    let EstimateDetail::Shipping(l) = &c.detail else {
        panic!("{:?}", c.detail)
    };
    let f = l.facts.as_ref().unwrap();
    assert_eq!(f.distance_method, None);
    assert_eq!(f.wtt_kg_per_tkm, Some(Decimal::new(175, 1)));
    assert_eq!(f.ttw_kg_per_tkm, Decimal::ZERO);
    assert_eq!(f.wtw.wtt, Mass::from_grams(210_000));
    assert_eq!(f.wtw.ttw, Mass::from_grams(0));
    assert_eq!(f.wtw.unknown, Mass::from_grams(0));
    assert_eq!(f.quality.unwrap().route, None);
    assert_eq!(
        c.explanation.parts[0].factors[0].id,
        "HUB_WAREHOUSE_AMBIENT"
    );
    assert_eq!(c.explanation.wtw().wtt, Mass::from_grams(210_000));

    let train = crate::shipping::Leg {
        route: Route::Distance(km("100")),
        method: Method::Simple("electric_freight_train".into()),
    };
    let alone = crate::shipping::leg("", &shipment, &train).unwrap();
    let c = EstimateRequest::MultiLegShipping {
        shipment,
        legs: vec![train, site],
    }
    .compute()
    .unwrap();
    assert_eq!(c.mass, Some(Mass::from_grams(alone.mass.grams() + 210_000)));
    let w = c.explanation.wtw();
    assert_eq!(
        w.wtt.grams() + w.ttw.grams() + w.unknown.grams(),
        alone.mass.grams() + 210_000
    );
    // an unknown site names the method
    let bad = EstimateRequest::Shipping {
        shipment,
        leg: crate::shipping::Leg {
            route: Route::Distance(km("0")),
            method: Method::Site("warehouse_frozen".into()),
        },
    }
    .compute()
    .unwrap_err();
    assert!(bad.to_string().starts_with("method"), "{bad}");
}
