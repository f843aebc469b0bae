//! A footprint's explanation, term by term, made beside the engine from what
//! it computed (the explanation module only assembles it).

use rust_decimal::Decimal;

use crate::explain::{FactorUse, Part, Quantity, part, quantity};
use crate::factors::desnz_2025 as desnz;
use crate::factors::{Factor, authored};
use crate::grid;
use crate::transaction::{self};
use crate::units::{Distance, Spend};

use super::{CompanyEstimate, CompanyRequest, IndividualEstimate, IndividualRequest};

/// A company's parts (one per component) and notes.
pub(super) fn company(r: &CompanyRequest, e: &CompanyEstimate) -> (Vec<Part>, Vec<String>) {
    let of = |fs: &[Factor]| fs.iter().map(FactorUse::of).collect::<Vec<_>>();
    let year =
        |n: &str, v: u64, unit: &str| quantity(n, Decimal::from(v), unit, "as given, per year");
    let energy_factors = if r.uses_office_benchmark() {
        let mut f = of(&[
            authored::OFFICE_ELECTRICITY_KWH_PER_M2,
            authored::OFFICE_HEAT_KWH_PER_M2,
            desnz::NATURAL_GAS_KWH_GROSS,
        ]);
        f.extend(grid_use(&r.country_code));
        f
    } else {
        let mut f = grid_use(&r.country_code);
        f.extend(of(&[desnz::NATURAL_GAS_M3]));
        f
    };
    let mut energy_q = vec![
        year("electricity_consumption", r.electricity_kwh, "kWh"),
        year("gas_consumption", r.gas_m3, "m³"),
    ];
    if r.uses_office_benchmark() {
        energy_q.push(quantity(
            "office_area",
            r.office_area.m2(),
            "m²",
            "nothing metered: the CIBSE TM46 office benchmark per m²",
        ));
    }
    let flights = [
        ("short_flights", r.short_flights, authored::SHORT_FLIGHT_KM),
        (
            "medium_flights",
            r.medium_flights,
            authored::MEDIUM_FLIGHT_KM,
        ),
        ("long_flights", r.long_flights, authored::LONG_FLIGHT_KM),
    ];
    let mut travel_f = of(&[
        desnz::CAR_AVERAGE_UNKNOWN,
        authored::COMMUTE_PKM_PER_YEAR,
        desnz::BUS_AVERAGE_LOCAL,
        desnz::RAIL_NATIONAL,
    ]);
    travel_f.extend(flights.iter().map(|(_, _, km)| FactorUse::of(km)));
    let mut travel_q = vec![
        year("company_cars", r.company_cars, "cars"),
        quantity(
            "average_car_distance_travelled",
            r.average_car_distance.km(),
            "km",
            "as given, per car",
        ),
        year(
            "employees_using_public_transport",
            r.employees_using_public_transport,
            "employees",
        ),
    ];
    travel_q.extend(flights.iter().map(|(n, v, _)| year(n, *v, "flights")));
    let tech_f = {
        let mut f = Vec::new();
        if r.cloud_cost.is_some() {
            f.push(usd_naics("518210"));
        }
        if r.on_premise_electricity_cost.is_some() {
            f.push(FactorUse::of(&super::ELECTRICITY_PRICE_EUR_PER_KWH));
            f.extend(grid_use(&r.country_code));
        }
        f
    };
    let tech_q: Vec<Quantity> = [
        ("tech.cloud.cost", r.cloud_cost.as_ref()),
        (
            "tech.on_premise.electricity_cost",
            r.on_premise_electricity_cost.as_ref(),
        ),
    ]
    .into_iter()
    .filter_map(|(n, s)| Some(spend(n, s?, s?.usd_2022().ok()?)))
    .collect();
    let parts = vec![
        part("energy", e.energy, energy_factors, energy_q),
        part(
            "remote_employee",
            e.remote_employee,
            of(&[authored::FTE_HOURS_PER_YEAR, desnz::HOMEWORKING_FTE_HOUR]),
            vec![
                year("employees", r.employees, "employees"),
                quantity(
                    "remote_employees_percentage",
                    Decimal::from(r.remote_employees_percentage),
                    "%",
                    "as given",
                ),
            ],
        ),
        part(
            "travel_and_commute",
            e.travel_and_commute,
            travel_f,
            travel_q,
        ),
        part(
            "food_and_drink",
            e.food_and_drink,
            vec![
                usd_naics("311991"),
                FactorUse::of(&authored::DIET_VEGETARIAN),
                FactorUse::of(&authored::DIET_MEDIUM_MEAT),
            ],
            r.food_and_drinks_expenses
                .usd_2022()
                .map(|usd| {
                    vec![spend(
                        "food_and_drinks_expenses",
                        &r.food_and_drinks_expenses,
                        usd,
                    )]
                })
                .unwrap_or_default(),
        ),
        part(
            "material_and_waste",
            e.material_and_waste,
            {
                let mut f = vec![usd_naics("334111")];
                f.extend(of(&[
                    desnz::WASTE_COMMERCIAL_LANDFILL,
                    desnz::WASTE_CLOSED_LOOP_RECYCLING,
                ]));
                f
            },
            {
                let mut q: Vec<Quantity> = r
                    .electronic_device_expenses
                    .usd_2022()
                    .map(|usd| {
                        vec![spend(
                            "electronic_device_expenses",
                            &r.electronic_device_expenses,
                            usd,
                        )]
                    })
                    .unwrap_or_default();
                q.push(year("garbage", r.garbage_kg, "kg"));
                q
            },
        ),
        part("tech", e.tech, tech_f, tech_q),
    ];
    let mut notes = vec![format!(
        "each part is rounded to the gram; scopes: scope1 = gas and company cars, scope2 = electricity, scope3 = the rest"
    )];
    if r.months != 12 {
        notes.push(format!("yearly figures scaled to {} months", r.months));
    }
    if r.green_electricity_used {
        notes.push("green electricity: market-based scope 2 electricity is zero".into());
    }
    (parts, notes)
}

/// A person's parts and notes.
pub(super) fn individual(
    r: &IndividualRequest,
    e: &IndividualEstimate,
) -> (Vec<Part>, Vec<String>) {
    let car_km = r
        .car_distance
        .map_or(authored::DEFAULT_CAR_KM.value(), |d: Distance| d.km());
    let n = |name: &str, v: u64, unit: &str| quantity(name, Decimal::from(v), unit, "as given");
    let spends = [
        (
            "monthly_restaurant_expenses",
            &r.monthly_restaurant,
            "722511",
        ),
        ("monthly_clothing_expenses", &r.monthly_clothing, "315280"),
        (
            "monthly_furniture_appliances_expenses",
            &r.monthly_furniture_appliances,
            "337121",
        ),
    ];
    let mut spend_f: Vec<FactorUse> = spends
        .iter()
        .map(|(_, _, naics)| usd_naics(naics))
        .collect();
    spend_f.push(FactorUse {
        id: "useeio:median".into(),
        value: transaction::unmapped_factor(),
        unit: "kg CO2e/USD (2022)".into(),
        source: "US EPA Supply Chain GHG Emission Factors v1.3.0 (USEEIO): median factor".into(),
        row: None,
        year: Some(2022),
        gases: None,
        catalogue_id: None,
    });
    let spend_q: Vec<Quantity> = spends
        .iter()
        .map(|(name, s, _)| (*name, *s))
        .chain([("monthly_other_expenses", &r.monthly_other)])
        .filter_map(|(name, s)| Some(spend(name, s, s.usd_2022().ok()?)))
        .collect();
    let parts = vec![
        part(
            "diet",
            e.diet,
            vec![FactorUse::of(&r.diet.per_day())],
            vec![quantity("days", Decimal::from(365), "days", "one year")],
        ),
        part(
            "car",
            e.car,
            if r.car_use {
                vec![FactorUse::of(&r.car_fuel.factor())]
            } else {
                vec![]
            },
            if r.car_use {
                vec![quantity(
                    "average_car_distance_travelled",
                    car_km,
                    "km",
                    if r.car_distance.is_some() {
                        "as given, per year"
                    } else {
                        "not given: Tonne's default yearly distance"
                    },
                )]
            } else {
                vec![]
            },
        ),
        part(
            "flights",
            e.flights,
            [
                authored::SHORT_FLIGHT_KM,
                authored::MEDIUM_FLIGHT_KM,
                authored::LONG_FLIGHT_KM,
            ]
            .iter()
            .map(FactorUse::of)
            .collect(),
            vec![
                n("short_flights", r.short_flights, "flights"),
                n("medium_flights", r.medium_flights, "flights"),
                n("long_flights", r.long_flights, "flights"),
            ],
        ),
        part(
            "public_transport",
            e.public_transport,
            [
                authored::COMMUTE_WEEKS_PER_YEAR,
                authored::COMMUTE_PKM_PER_DAY,
                desnz::BUS_AVERAGE_LOCAL,
                desnz::RAIL_NATIONAL,
            ]
            .iter()
            .map(FactorUse::of)
            .collect(),
            vec![n(
                "days_per_week_using_public_transport",
                u64::from(r.days_per_week_using_public_transport),
                "days/week",
            )],
        ),
        part("spending", e.spending, spend_f, spend_q),
        part(
            "home_energy",
            e.home_energy,
            {
                let mut f = grid_use(&r.country_code);
                f.push(FactorUse::of(&desnz::NATURAL_GAS_M3));
                f
            },
            vec![
                n("electricity_consumption", r.electricity_kwh, "kWh"),
                n("gas_consumption", r.gas_m3, "m³"),
            ],
        ),
    ];
    let mut notes = vec![
        "each part is rounded to the gram; groceries are covered by the diet and not added"
            .to_owned(),
    ];
    if r.green_electricity_used {
        notes.push("green electricity: home electricity is zero".into());
    }
    (parts, notes)
}

fn spend(name: &str, s: &Spend, usd: Decimal) -> Quantity {
    quantity(
        name,
        usd.round_dp(2),
        "USD (2022)",
        format!(
            "{} {} converted at 2022 average rates",
            s.amount.normalize(),
            s.currency.code()
        ),
    )
}

fn grid_use(code: &str) -> Vec<FactorUse> {
    grid::check_country("country_code", code)
        .map(|g| vec![FactorUse::grid(code, g)])
        .unwrap_or_default()
}

fn usd_naics(naics: &str) -> FactorUse {
    FactorUse {
        id: format!("naics:{naics}"),
        value: transaction::category_by_naics(naics).unwrap_or_default(),
        unit: "kg CO2e/USD (2022)".into(),
        source: "US EPA Supply Chain GHG Emission Factors v1.3.0 (USEEIO), with margins".into(),
        row: Some(format!("NAICS {naics}")),
        year: Some(2022),
        gases: None,
        catalogue_id: None,
    }
}
