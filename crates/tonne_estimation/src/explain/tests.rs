//! Explanations of estimates: their parts, factors and quantities.

use rust_decimal::Decimal;
use tonne_kernel::Currency;

use super::*;
use crate::diet::Diet;
use crate::electricity::{Energy, EnergyUnit};
use crate::flight::{CabinClass, FlightRequest};
use crate::footprint::CarFuel;
use crate::footprint::{CompanyRequest, IndividualRequest};
use crate::passenger::Leg as PassengerLeg;
use crate::passenger::{PassengerRequest, Rail, Vehicle};
use crate::route::{Place, Route};
use crate::shipping::Shipment;
use crate::shipping::{CargoType, Method};
use crate::transaction::{Merchant, TransactionRequest};
use crate::{Distance, Spend, flight::FlightRoute};
use crate::{DistanceUnit, LatLon};
use tonne_kernel::Mass;

fn km(v: &str) -> Distance {
    Distance::parse("d", v, DistanceUnit::Km).unwrap()
}

fn money(v: &str, c: Currency) -> Spend {
    Spend::parse("v", v, c).unwrap()
}

fn address(city: &str, cc: &str) -> Place {
    Place::Address {
        city: city.into(),
        country_code: cc.into(),
    }
}

fn company() -> CompanyRequest {
    CompanyRequest {
        months: 9,
        electronic_device_expenses: money("30000", Currency::Sek),
        ..crate::footprint::fixtures::company_request()
    }
}

fn individual() -> IndividualRequest {
    IndividualRequest {
        country_code: "DEU".into(),
        car_fuel: CarFuel::Hybrid,
        diet: Diet::Vegetarian,
        monthly_restaurant: money("120", Currency::Eur),
        monthly_clothing: money("80", Currency::Eur),
        monthly_furniture_appliances: money("40", Currency::Eur),
        ..crate::footprint::fixtures::person()
    }
}

/// One request of every kind (and of the interesting variants).
fn every_kind() -> Vec<EstimateRequest> {
    let shipment = Shipment::Containers {
        teu: Decimal::from(3),
        cargo: CargoType::Heavyweight,
        mass: None,
    };
    vec![
        EstimateRequest::Electricity {
            consumption: Energy::parse("1234.5", EnergyUnit::MWh).unwrap(),
            country_code: None,
        },
        EstimateRequest::Flight(FlightRequest {
            route: FlightRoute::Airports {
                source: "LHR".into(),
                destination: "SYD".into(),
            },
            cabin: CabinClass::Business,
            passengers: Decimal::new(25, 1),
            aircraft_type: None,
        }),
        EstimateRequest::PassengerTransportation(PassengerRequest {
            passengers: Decimal::from(3),
            legs: vec![
                PassengerLeg::Road {
                    route: Route::Between {
                        source: address("Paris", "FRA"),
                        destination: address("Lyon", "FRA"),
                    },
                    vehicle: Vehicle::CarMpv,
                },
                PassengerLeg::Rail {
                    route: Route::Distance(km("431.7")),
                    rail: Rail::International,
                },
                PassengerLeg::Flight {
                    route: FlightRoute::Distance(km("777")),
                    cabin: CabinClass::Economy,
                    aircraft_type: None,
                },
            ],
        }),
        EstimateRequest::Shipping {
            shipment,
            leg: shipping::Leg {
                route: Route::Between {
                    source: Place::Seaport("CNSHA".into()),
                    destination: Place::Coordinates(LatLon::new("d", 51.95, 4.14).unwrap()),
                },
                method: Method::Vessel {
                    imo: "9321483".into(),
                    refrigerated: true,
                    trade_lane: None,
                },
            },
        },
        EstimateRequest::MultiLegShipping {
            shipment: Shipment::Mass(Mass::from_grams(12_345_678)),
            legs: vec![
                shipping::Leg {
                    route: Route::Between {
                        source: address("Hamburg", "DEU"),
                        destination: address("Munich", "DEU"),
                    },
                    method: Method::Simple("truck_articulated_40t".into()),
                },
                shipping::Leg {
                    route: Route::Between {
                        source: Place::Airport("MUC".into()),
                        destination: Place::Airport("JFK".into()),
                    },
                    method: Method::Simple("cargo_plane".into()),
                },
                shipping::Leg {
                    route: Route::Distance(km("80")),
                    method: Method::Simple("diesel_freight_train".into()),
                },
            ],
        },
        EstimateRequest::Transaction(TransactionRequest {
            value: money("87.65", Currency::Nok),
            country_code: "NOR".into(),
            merchant: Merchant::CategoryCode("5411".into()),
            diet: Some(Diet::Vegan),
            processed_year: None,
        }),
        EstimateRequest::Company(company()),
        EstimateRequest::Individual(individual()),
        EstimateRequest::MultiLegShippingByFuel {
            legs: vec![
                shipping::fuel::FuelLeg {
                    fuel: shipping::fuel::LegFuel::DieselBiodiesel {
                        biodiesel_percent: 7,
                    },
                    litres: Decimal::new(12345, 1),
                },
                shipping::fuel::FuelLeg {
                    fuel: shipping::fuel::LegFuel::Lpg,
                    litres: Decimal::from(40),
                },
            ],
        },
    ]
}

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

fn kg(m: Mass) -> Decimal {
    Decimal::new(m.grams(), 3)
}

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

fn leg_facts(c: &Computed) -> Vec<&crate::estimate::LegFacts> {
    match &c.detail {
        EstimateDetail::Shipping(l) => vec![l.facts.as_ref().unwrap()],
        EstimateDetail::MultiLegShipping { legs, .. } => {
            legs.iter().map(|l| l.facts.as_ref().unwrap()).collect()
        }
        other => panic!("not shipping: {other:?}"),
    }
}

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
