//! Estimates per second per core for each engine in isolation (`cargo bench -p tonne_estimation`).
#![allow(clippy::unwrap_used, clippy::indexing_slicing, missing_docs)]

use criterion::{Criterion, criterion_group, criterion_main};
use rust_decimal::Decimal;
use std::hint::black_box;
use tonne_estimation::diet::Diet;
use tonne_estimation::electricity::{self, Energy, EnergyUnit};
use tonne_estimation::estimate::EstimateRequest;
use tonne_estimation::flight::{self, CabinClass, FlightRequest, FlightRoute};
use tonne_estimation::footprint::{self, CarFuel, IndividualRequest};
use tonne_estimation::route::{Place, Route};
use tonne_estimation::shipping::{self, Leg, Method, Shipment};
use tonne_estimation::transaction::{self, Merchant, TransactionRequest};
use tonne_estimation::{Distance, DistanceUnit, Spend};
use tonne_kernel::{Currency, Mass};

fn flight_request() -> FlightRequest {
    FlightRequest {
        route: FlightRoute::Airports {
            source: "LHR".into(),
            destination: "SIN".into(),
        },
        cabin: CabinClass::Business,
        passengers: Decimal::from(2),
        aircraft_type: None,
    }
}

fn sea_leg() -> Leg {
    Leg {
        route: Route::Between {
            source: Place::Seaport("CNSHA".into()),
            destination: Place::Seaport("NLRTM".into()),
        },
        method: Method::Container {
            refrigerated: false,
            trade_lane: None,
        },
    }
}

fn address(city: &str, country: &str) -> Place {
    Place::Address {
        city: city.into(),
        country_code: country.into(),
    }
}

/// A truck leg between two cities (geocoded, great-circle × detour).
fn road_between_cities() -> Leg {
    Leg {
        route: Route::Between {
            source: address("Stuttgart", "DEU"),
            destination: address("Rotterdam", "NLD"),
        },
        method: Method::Simple("truck_generic_hgv".into()),
    }
}

/// A journey whose every leg needs a lookup: two cities, two cities, two airports.
fn passenger_between_places() -> tonne_estimation::passenger::PassengerRequest {
    use tonne_estimation::passenger::{Leg as P, PassengerRequest, Rail, Vehicle};
    PassengerRequest {
        passengers: Decimal::from(2),
        legs: vec![
            P::Road {
                route: Route::Between {
                    source: address("Cambridge", "GBR"),
                    destination: address("London", "GBR"),
                },
                vehicle: Vehicle::CarMpv,
            },
            P::Rail {
                route: Route::Between {
                    source: address("London", "GBR"),
                    destination: address("Paris", "FRA"),
                },
                rail: Rail::International,
            },
            cdg_to_jfk(),
        ],
    }
}

/// An economy flight Paris (CDG) → New York (JFK), the last leg of both
/// passenger journeys.
fn cdg_to_jfk() -> tonne_estimation::passenger::Leg {
    tonne_estimation::passenger::Leg::Flight {
        route: FlightRoute::Airports {
            source: "CDG".into(),
            destination: "JFK".into(),
        },
        cabin: CabinClass::Economy,
        aircraft_type: None,
    }
}

fn mcc_request() -> TransactionRequest {
    TransactionRequest {
        value: Spend::parse("v", "42.50", Currency::Gbp).unwrap(),
        country_code: "GBR".into(),
        merchant: Merchant::CategoryCode("5812".into()),
        diet: None,
        processed_year: None,
    }
}

fn company_request() -> footprint::CompanyRequest {
    use tonne_estimation::{Area, AreaUnit};
    let spend = |v: &str| Spend::parse("v", v, Currency::Gbp).unwrap();
    footprint::CompanyRequest {
        months: 12,
        employees: 50,
        remote_employees_percentage: 20,
        office_area: Area::parse("a", "800", AreaUnit::SquareMeters).unwrap(),
        country_code: "GBR".into(),
        electricity_kwh: 60_000,
        green_electricity_used: false,
        gas_m3: 5_000,
        company_cars: 3,
        average_car_distance: Distance::parse("d", "15000", DistanceUnit::Km).unwrap(),
        employees_using_public_transport: 30,
        short_flights: 40,
        medium_flights: 10,
        long_flights: 5,
        first_or_business_class_percentage: 10,
        food_and_drinks_expenses: spend("20000"),
        vegetarian_and_vegan_percentage: 30,
        electronic_device_expenses: spend("30000"),
        garbage_kg: 4000,
        recycled_garbage_percentage: 50,
        on_premise_electricity_cost: Some(spend("1000")),
        cloud_cost: Some(spend("12000")),
    }
}

fn individual_request() -> IndividualRequest {
    let spend = |v: &str| Spend::parse("v", v, Currency::Eur).unwrap();
    IndividualRequest {
        country_code: "FRA".into(),
        car_use: true,
        car_fuel: CarFuel::Hybrid,
        car_distance: None,
        short_flights: 2,
        medium_flights: 1,
        long_flights: 1,
        days_per_week_using_public_transport: 3,
        diet: Diet::Vegetarian,
        monthly_grocery: spend("300"),
        monthly_restaurant: spend("100"),
        monthly_clothing: spend("50"),
        monthly_furniture_appliances: spend("30"),
        monthly_other: spend("200"),
        electricity_kwh: 2500,
        green_electricity_used: false,
        gas_m3: 800,
    }
}

fn engines(c: &mut Criterion) {
    tonne_estimation::places::preload();
    c.bench_function("electricity", |b| {
        let e = Energy::parse("1234.5", EnergyUnit::KWh).unwrap();
        b.iter(|| electricity::estimate(black_box(e), Some("DEU")).unwrap())
    });
    c.bench_function("flight (airports)", |b| {
        let r = flight_request();
        b.iter(|| flight::estimate(black_box(&r)).unwrap())
    });
    let one_t = Shipment::Mass(Mass::from_grams(1_000_000));
    c.bench_function("shipping (road, distance)", |b| {
        let leg = Leg {
            route: Route::Distance(Distance::parse("d", "500", DistanceUnit::Km).unwrap()),
            method: Method::Simple("truck_articulated_40t".into()),
        };
        b.iter(|| shipping::leg("", black_box(&one_t), &leg).unwrap())
    });
    c.bench_function("shipping (sea, CNSHA-NLRTM, cached path)", |b| {
        let leg = sea_leg();
        b.iter(|| shipping::leg("", black_box(&one_t), &leg).unwrap())
    });
    c.bench_function("transaction (MCC)", |b| {
        let r = mcc_request();
        b.iter(|| transaction::estimate(black_box(&r)).unwrap())
    });
    c.bench_function("transaction (fuzzy search)", |b| {
        let r = TransactionRequest {
            value: Spend::parse("v", "42.50", Currency::Gbp).unwrap(),
            country_code: "GBR".into(),
            merchant: Merchant::SearchTerm("Bananas".into()),
            diet: Some(Diet::Vegan),
            processed_year: None,
        };
        b.iter(|| transaction::estimate(black_box(&r)).unwrap())
    });
    c.bench_function("passenger (road + rail + flight legs)", |b| {
        use tonne_estimation::passenger::{Leg as P, PassengerRequest, Rail, Vehicle};
        let km = |v: &str| Route::Distance(Distance::parse("d", v, DistanceUnit::Km).unwrap());
        let r = PassengerRequest {
            passengers: Decimal::from(2),
            legs: vec![
                P::Road {
                    route: km("30"),
                    vehicle: Vehicle::CarMpv,
                },
                P::Rail {
                    route: km("400"),
                    rail: Rail::National,
                },
                cdg_to_jfk(),
            ],
        };
        b.iter(|| tonne_estimation::passenger::estimate(black_box(&r)).unwrap())
    });
    c.bench_function("company", |b| {
        let r = company_request();
        b.iter(|| footprint::company(black_box(&r)).unwrap())
    });
    c.bench_function("individual", |b| {
        let r = individual_request();
        b.iter(|| footprint::individual(black_box(&r)).unwrap())
    });
}

/// The same inputs through `EstimateRequest::compute`: the engine plus its
/// explanation (factors with provenance, quantities, parts), as the service
/// runs it. The difference to the engine alone is the explanation's cost.
fn explained(c: &mut Criterion) {
    tonne_estimation::places::preload();
    let one_t = Shipment::Mass(Mass::from_grams(1_000_000));
    let requests = [
        (
            "explained: flight (airports)",
            EstimateRequest::Flight(flight_request()),
        ),
        (
            "explained: shipping (sea, CNSHA-NLRTM, cached path)",
            EstimateRequest::Shipping {
                shipment: one_t,
                leg: sea_leg(),
            },
        ),
        (
            "explained: transaction (MCC)",
            EstimateRequest::Transaction(mcc_request()),
        ),
        (
            "explained: passenger (road between cities + rail + flight)",
            EstimateRequest::PassengerTransportation(passenger_between_places()),
        ),
        (
            "explained: multi-leg shipping (road between cities + sea)",
            EstimateRequest::MultiLegShipping {
                shipment: one_t,
                legs: vec![road_between_cities(), sea_leg()],
            },
        ),
        (
            "explained: company",
            EstimateRequest::Company(company_request()),
        ),
        (
            "explained: individual",
            EstimateRequest::Individual(individual_request()),
        ),
    ];
    for (name, request) in requests {
        c.bench_function(name, |b| b.iter(|| black_box(&request).compute().unwrap()));
    }
}

/// A sea path between two ports not yet cached (Dijkstra over the network).
fn sea_uncached(c: &mut Criterion) {
    let ports = [
        "SGSIN", "USNYC", "BRSSZ", "ZADUR", "AUSYD", "JPTYO", "DEHAM", "AEJEA", "INNSA", "CLVAP",
        "USLAX", "EGALY",
    ];
    let mut i = 0_usize;
    c.bench_function("sea path (uncached pairs, Dijkstra)", |b| {
        b.iter(|| {
            // a different pair every time; the cache holds at most the 132 pairs
            let a = ports[i % ports.len()];
            let z = ports[(i / ports.len() + 1 + i) % ports.len()];
            i += 1;
            let p = tonne_estimation::places::seaport(a).unwrap();
            let q = tonne_estimation::places::seaport(z).unwrap();
            black_box(tonne_estimation::places::sea_km_uncached(&p, &q))
        })
    });
}

/// Address resolution: loading the city table once, then O(1) lookups.
fn addresses(c: &mut Criterion) {
    let started = std::time::Instant::now();
    let places = tonne_estimation::cities::len();
    eprintln!(
        "city table: {places} places loaded in {:?}",
        started.elapsed()
    );
    let names = [
        ("London", "GBR"),
        ("münchen", "DEU"),
        ("SAO PAULO", "BRA"),
        ("Portland", "USA"),
        ("Atlantis", "GRC"),
    ];
    let mut i = 0_usize;
    c.bench_function("address city lookup (fold + hash)", |b| {
        b.iter(|| {
            let (city, country) = names[i % names.len()];
            i += 1;
            black_box(tonne_estimation::cities::city(city, country))
        })
    });
}

/// The factor catalogue answers from memory: a filtered search, a page, a
/// lookup by id, and a factor estimate (the engine of `/estimates/emission-factor`).
fn catalogue(c: &mut Criterion) {
    use tonne_estimation::catalogue::{self, FactorQuery, FactorSource, LogicalUnit};
    use tonne_estimation::factor_estimate::{self, FactorRequest};
    let all = catalogue::catalogue();
    let search = FactorQuery {
        name: Some("container ship".into()),
        sources: vec![FactorSource::Beis],
        unit: Some(LogicalUnit::MassDistance),
        ..FactorQuery::default()
    };
    c.bench_function("catalogue: name search with filters", |b| {
        b.iter(|| black_box(all.search(black_box(&search))).len())
    });
    let region = FactorQuery {
        regions: vec!["Germany".into()],
        region_fallback: true,
        ..FactorQuery::default()
    };
    c.bench_function("catalogue: region with fallback, first page of 10", |b| {
        b.iter(|| all.page(black_box(&region), None, 10).unwrap())
    });
    c.bench_function("catalogue: factor by id", |b| {
        b.iter(|| all.get(black_box("desnz-2025.HGV_ALL")).is_some())
    });
    let request = FactorRequest::parse("useeio-1.3.0.naics.722511", "100", "EUR").unwrap();
    c.bench_function("factor estimate (EUR → USD × USEEIO)", |b| {
        b.iter(|| factor_estimate::estimate(black_box(&request)).unwrap())
    });
}

fn aircraft(c: &mut Criterion) {
    let mut r = flight_request();
    r.aircraft_type = Some("B789".into());
    flight::estimate(&r).unwrap();
    c.bench_function("flight by aircraft type (B789, airports, TIM)", |b| {
        b.iter(|| flight::estimate(black_box(&r)).unwrap())
    });
}

fn exiobase(c: &mut Criterion) {
    use tonne_estimation::exiobase;
    c.bench_function(
        "exiobase: region of a country + intensity (two hashes)",
        |b| {
            b.iter(|| {
                let region = exiobase::region_of(black_box("KEN")).unwrap();
                exiobase::intensity(black_box("01.1.2"), region).unwrap()
            })
        },
    );
    c.bench_function("exiobase: MCC → COICOP (hash)", |b| {
        b.iter(|| exiobase::coicop_of_mcc(black_box("5812")).unwrap())
    });
    c.bench_function("exiobase: to euros of 2011 (rate + two indices)", |b| {
        let amount = rust_decimal::Decimal::new(4250, 2);
        b.iter(|| exiobase::to_eur_2011(black_box(amount), "GBP", "GB", Some(2017)).unwrap())
    });
}

criterion_group!(
    benches,
    engines,
    explained,
    sea_uncached,
    addresses,
    catalogue,
    exiobase,
    aircraft
);
criterion_main!(benches);
