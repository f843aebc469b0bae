//! Explanations of estimates: their parts, factors and quantities.

use rust_decimal::Decimal;
use tonne_kernel::Currency;

use super::parts::BAND_FLOOR;
use super::*;
use crate::diet::Diet;
use crate::electricity::{Energy, EnergyUnit};
use crate::factors::authored;
use crate::flight::{CabinClass, FlightRequest};
use crate::footprint::CarFuel;
use crate::footprint::{CompanyRequest, IndividualRequest};
use crate::passenger::Leg as PassengerLeg;
use crate::passenger::{PassengerRequest, Rail, Vehicle};
use crate::route::{Place, Route};
use crate::shipping;
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

fn kg(m: Mass) -> Decimal {
    Decimal::new(m.grams(), 3)
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

mod legs;
mod parts;
mod stages;
