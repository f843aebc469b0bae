//! Requests the footprint and explanation tests share.

use tonne_kernel::Currency;

use super::{CarFuel, CompanyRequest, IndividualRequest};
use crate::diet::Diet;
use crate::units::{Area, AreaUnit, Distance, DistanceUnit, Spend};

fn spend(v: &str, c: Currency) -> Spend {
    Spend::parse("v", v, c).unwrap()
}

/// A 50-person company in the UK over a year.
pub(crate) fn company_request() -> CompanyRequest {
    CompanyRequest {
        months: 12,
        employees: 50,
        remote_employees_percentage: 20,
        office_area: Area::parse("office_area", "800", AreaUnit::SquareMeters).unwrap(),
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
        food_and_drinks_expenses: spend("20000", Currency::Gbp),
        vegetarian_and_vegan_percentage: 30,
        electronic_device_expenses: spend("30000", Currency::Gbp),
        garbage_kg: 4000,
        recycled_garbage_percentage: 50,
        on_premise_electricity_cost: Some(spend("1000", Currency::Eur)),
        cloud_cost: Some(spend("12000", Currency::Usd)),
    }
}

/// A person in France over a year.
pub(crate) fn person() -> IndividualRequest {
    IndividualRequest {
        country_code: "FRA".into(),
        car_use: true,
        car_fuel: CarFuel::Gasoline,
        car_distance: None,
        short_flights: 2,
        medium_flights: 1,
        long_flights: 1,
        days_per_week_using_public_transport: 3,
        diet: Diet::MediumMeatEater,
        monthly_grocery: spend("300", Currency::Eur),
        monthly_restaurant: spend("100", Currency::Eur),
        monthly_clothing: spend("50", Currency::Eur),
        monthly_furniture_appliances: spend("30", Currency::Eur),
        monthly_other: spend("200", Currency::Eur),
        electricity_kwh: 2500,
        green_electricity_used: false,
        gas_m3: 800,
    }
}
