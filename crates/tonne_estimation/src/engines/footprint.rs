//! One-year footprints of a company and of a person: sums of activity terms,
//! each computed with the same factors as the other engines. Every term is
//! rounded to the gram first, so the parts always add up to the total exactly.

use rust_decimal::Decimal;
use tonne_kernel::Mass;

use crate::diet::Diet;
use crate::errors::EstimateError;
use crate::explain::Part;
use crate::factors::desnz_2025 as desnz;
use crate::factors::{Factor, authored};
use crate::flight::{self, CabinClass};
use crate::grid;
use crate::units::{Area, Distance, Spend, kg_to_mass};

/// [A] Business electricity price used to turn an on-premise electricity bill into kWh.
pub const ELECTRICITY_PRICE_EUR_PER_KWH: Factor = Factor::named(
    "ELECTRICITY_PRICE_EUR_PER_KWH",
    19,
    2,
    "[A] Tonne assumption close to the Eurostat EU non-household average price, 2024",
    "EUR/kWh",
);

fn usd_factor(naics: &str) -> Result<Decimal, EstimateError> {
    crate::transaction::category_by_naics(naics)
        .ok_or_else(|| EstimateError::invalid("naics", "missing from the factor table"))
}

fn pct(p: u8) -> Decimal {
    Decimal::from(p.min(100)) / Decimal::from(100)
}

fn grams(field: &str, kg: Decimal) -> Result<i64, EstimateError> {
    kg_to_mass(field, kg).map(|m| m.grams())
}

/// kg CO2e of one flight of typical distance `km`, with a share `premium` in business class.
fn flights_kg(count: u64, km: Factor, premium: Decimal) -> Decimal {
    let per = |cabin| flight::per_passenger_kg(km.value(), cabin, true).2;
    let blended =
        per(CabinClass::Economy) * (Decimal::ONE - premium) + per(CabinClass::Business) * premium;
    Decimal::from(count) * blended
}

fn public_transport_factor() -> Decimal {
    // [A] mean of DESNZ 2025 average local bus and national rail, per passenger·km
    (desnz::BUS_AVERAGE_LOCAL.value() + desnz::RAIL_NATIONAL.value()) / Decimal::from(2)
}

/// A company's inputs (yearly values; see the contract's `CompanyEstimateRequest`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompanyRequest {
    pub months: u32,
    pub employees: u64,
    pub remote_employees_percentage: u8,
    pub office_area: Area,
    pub country_code: String,
    pub electricity_kwh: u64,
    pub green_electricity_used: bool,
    pub gas_m3: u64,
    pub company_cars: u64,
    pub average_car_distance: Distance,
    pub employees_using_public_transport: u64,
    pub short_flights: u64,
    pub medium_flights: u64,
    pub long_flights: u64,
    pub first_or_business_class_percentage: u8,
    pub food_and_drinks_expenses: Spend,
    pub vegetarian_and_vegan_percentage: u8,
    pub electronic_device_expenses: Spend,
    pub garbage_kg: u64,
    pub recycled_garbage_percentage: u8,
    pub on_premise_electricity_cost: Option<Spend>,
    pub cloud_cost: Option<Spend>,
}

/// A company estimate: total, scopes and components (all exact sums of the same parts).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompanyEstimate {
    pub mass: Mass,
    pub scope1: Mass,
    pub scope2: Mass,
    pub scope3: Mass,
    pub energy: Mass,
    pub remote_employee: Mass,
    pub travel_and_commute: Mass,
    pub food_and_drink: Mass,
    pub material_and_waste: Mass,
    pub tech: Mass,
}

const LIMIT: u64 = 1_000_000_000_000;

fn bounded(field: &str, v: u64) -> Result<Decimal, EstimateError> {
    if v > LIMIT {
        return Err(EstimateError::invalid(field, "is out of range"));
    }
    Ok(Decimal::from(v))
}

impl CompanyRequest {
    /// Nothing metered (no electricity nor gas given): energy comes from the
    /// CIBSE TM46 office benchmark per m² (the engine's branch, which the
    /// explanation follows).
    pub(crate) fn uses_office_benchmark(&self) -> bool {
        self.electricity_kwh == 0 && self.gas_m3 == 0
    }
}

/// Estimates a company's year (or `months` of it).
pub fn company(r: &CompanyRequest) -> Result<CompanyEstimate, EstimateError> {
    if r.months == 0 || r.months > 1200 {
        return Err(EstimateError::invalid(
            "months",
            "must be between 1 and 1200",
        ));
    }
    for (field, p) in [
        ("remote_employees_percentage", r.remote_employees_percentage),
        (
            "first_or_business_class_percentage",
            r.first_or_business_class_percentage,
        ),
        (
            "vegetarian_and_vegan_percentage",
            r.vegetarian_and_vegan_percentage,
        ),
        ("recycled_garbage_percentage", r.recycled_garbage_percentage),
    ] {
        if p > 100 {
            return Err(EstimateError::invalid(field, "must be between 0 and 100"));
        }
    }
    let grid =
        grid::check_country("country_code", &r.country_code)?.g_co2e_per_kwh / Decimal::from(1000);
    let share = Decimal::from(r.months) / Decimal::from(12);
    let elec_kwh = bounded("electricity_consumption", r.electricity_kwh)?;
    let gas_m3 = bounded("gas_consumption", r.gas_m3)?;

    // energy: metered, or the CIBSE TM46 office benchmark when nothing is metered
    let (mut scope2_elec, mut scope1_gas) = if r.uses_office_benchmark() {
        let m2 = r.office_area.m2();
        (
            m2 * authored::OFFICE_ELECTRICITY_KWH_PER_M2.value() * grid,
            m2 * authored::OFFICE_HEAT_KWH_PER_M2.value() * desnz::NATURAL_GAS_KWH_GROSS.value(),
        )
    } else {
        (elec_kwh * grid, gas_m3 * desnz::NATURAL_GAS_M3.value())
    };
    if r.green_electricity_used {
        scope2_elec = Decimal::ZERO; // market-based: renewable supply contract
    }
    scope2_elec *= share;
    scope1_gas *= share;

    let employees = bounded("employees", r.employees)?;
    let remote = employees
        * pct(r.remote_employees_percentage)
        * authored::FTE_HOURS_PER_YEAR.value()
        * desnz::HOMEWORKING_FTE_HOUR.value()
        * share;

    let cars = bounded("company_cars", r.company_cars)?
        * r.average_car_distance.km()
        * desnz::CAR_AVERAGE_UNKNOWN.value()
        * share;
    let commute = bounded(
        "employees_using_public_transport",
        r.employees_using_public_transport,
    )? * authored::COMMUTE_PKM_PER_YEAR.value()
        * public_transport_factor()
        * share;
    let premium = pct(r.first_or_business_class_percentage);
    let flights = (flights_kg(
        r.short_flights.min(LIMIT),
        authored::SHORT_FLIGHT_KM,
        premium,
    ) + flights_kg(
        r.medium_flights.min(LIMIT),
        authored::MEDIUM_FLIGHT_KM,
        premium,
    ) + flights_kg(r.long_flights.min(LIMIT), authored::LONG_FLIGHT_KM, premium))
        * share;

    let veg = pct(r.vegetarian_and_vegan_percentage);
    let diet_mix = (Decimal::ONE - veg) + veg * Diet::Vegetarian.relative_to_medium();
    let food = r.food_and_drinks_expenses.usd_2022()? * usd_factor("311991")? * diet_mix * share;

    let devices = r.electronic_device_expenses.usd_2022()? * usd_factor("334111")? * share;
    let recycled = pct(r.recycled_garbage_percentage);
    let waste = bounded("garbage", r.garbage_kg)? / Decimal::from(1000)
        * ((Decimal::ONE - recycled) * desnz::WASTE_COMMERCIAL_LANDFILL.value()
            + recycled * desnz::WASTE_CLOSED_LOOP_RECYCLING.value())
        * share;

    let cloud = match &r.cloud_cost {
        Some(c) => c.usd_2022()? * usd_factor("518210")? * share,
        None => Decimal::ZERO,
    };
    let on_premise = match &r.on_premise_electricity_cost {
        Some(c) => {
            let eur = c.usd_2022()? / authored::USD_PER_EUR.value();
            eur / ELECTRICITY_PRICE_EUR_PER_KWH.value() * grid * share
        }
        None => Decimal::ZERO,
    };

    // each part to the gram, then sums
    let g = |f: &str, kg| grams(f, kg);
    let (elec, gas) = (
        g("electricity_consumption", scope2_elec)?,
        g("gas_consumption", scope1_gas)?,
    );
    let remote = g("remote_employees_percentage", remote)?;
    let (cars, commute, flights) = (
        g("company_cars", cars)?,
        g("employees_using_public_transport", commute)?,
        g("short_flights", flights)?,
    );
    let food = g("food_and_drinks_expenses", food)?;
    let (devices, waste) = (
        g("electronic_device_expenses", devices)?,
        g("garbage", waste)?,
    );
    let (cloud, on_premise) = (g("tech.cloud", cloud)?, g("tech.on_premise", on_premise)?);

    let m = Mass::from_grams;
    let scope1 = gas + cars;
    let scope2 = elec + on_premise;
    let scope3 = remote + commute + flights + food + devices + waste + cloud;
    Ok(CompanyEstimate {
        mass: m(scope1 + scope2 + scope3),
        scope1: m(scope1),
        scope2: m(scope2),
        scope3: m(scope3),
        energy: m(elec + gas),
        remote_employee: m(remote),
        travel_and_commute: m(cars + commute + flights),
        food_and_drink: m(food),
        material_and_waste: m(devices + waste),
        tech: m(cloud + on_premise),
    })
}

/// An individual's car fuel.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CarFuel {
    /// Petrol (default).
    #[default]
    Gasoline,
    /// Battery electric.
    Electric,
    Hybrid,
}

impl CarFuel {
    /// DESNZ 2025 average-car factor of the fuel, per km.
    pub fn factor(self) -> Factor {
        match self {
            CarFuel::Gasoline => desnz::CAR_AVERAGE_PETROL,
            CarFuel::Hybrid => desnz::CAR_AVERAGE_HYBRID,
            CarFuel::Electric => desnz::CAR_AVERAGE_BEV,
        }
    }
}

/// A person's inputs (see the contract's `IndividualEstimateRequest`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndividualRequest {
    pub country_code: String,
    pub car_use: bool,
    pub car_fuel: CarFuel,
    pub car_distance: Option<Distance>,
    pub short_flights: u64,
    pub medium_flights: u64,
    pub long_flights: u64,
    pub days_per_week_using_public_transport: u8,
    pub diet: Diet,
    pub monthly_grocery: Spend,
    pub monthly_restaurant: Spend,
    pub monthly_clothing: Spend,
    pub monthly_furniture_appliances: Spend,
    pub monthly_other: Spend,
    pub electricity_kwh: u64,
    pub green_electricity_used: bool,
    pub gas_m3: u64,
}

/// An individual's year, term by term (kg rounded to the gram) and in total.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndividualEstimate {
    pub mass: Mass,
    pub diet: Mass,
    pub car: Mass,
    pub flights: Mass,
    pub public_transport: Mass,
    pub spending: Mass,
    pub home_energy: Mass,
}

/// Estimates a person's year. Groceries are not added: the diet term covers food.
///
/// ```
/// use tonne_estimation::diet::Diet;
/// use tonne_estimation::footprint::{self, CarFuel, IndividualRequest};
/// use tonne_estimation::Spend;
/// use tonne_kernel::Currency;
///
/// let nothing = || Spend::parse("v", "0", Currency::Eur).unwrap();
/// let e = footprint::individual(&IndividualRequest {
///     country_code: "SWE".into(), car_use: false, car_fuel: CarFuel::Gasoline, car_distance: None,
///     short_flights: 0, medium_flights: 0, long_flights: 0, days_per_week_using_public_transport: 0,
///     diet: Diet::Vegan, monthly_grocery: nothing(), monthly_restaurant: nothing(),
///     monthly_clothing: nothing(), monthly_furniture_appliances: nothing(), monthly_other: nothing(),
///     electricity_kwh: 0, green_electricity_used: true, gas_m3: 0,
/// }).unwrap();
/// // only the diet: 2.89 kg/day (Scarborough et al. 2014) × 365 = 1,054.85 kg
/// assert_eq!(e.mass.grams(), 1_054_850);
/// assert_eq!(e.mass, e.diet);
/// ```
pub fn individual(r: &IndividualRequest) -> Result<IndividualEstimate, EstimateError> {
    if r.days_per_week_using_public_transport > 7 {
        return Err(EstimateError::invalid(
            "days_per_week_using_public_transport",
            "must be between 0 and 7",
        ));
    }
    let grid =
        grid::check_country("country_code", &r.country_code)?.g_co2e_per_kwh / Decimal::from(1000);
    let diet = r.diet.per_day().value() * Decimal::from(365);
    let car = if r.car_use {
        let km = r
            .car_distance
            .map_or(authored::DEFAULT_CAR_KM.value(), |d| d.km());
        km * r.car_fuel.factor().value()
    } else {
        Decimal::ZERO
    };
    let flights = flights_kg(
        r.short_flights.min(LIMIT),
        authored::SHORT_FLIGHT_KM,
        Decimal::ZERO,
    ) + flights_kg(
        r.medium_flights.min(LIMIT),
        authored::MEDIUM_FLIGHT_KM,
        Decimal::ZERO,
    ) + flights_kg(
        r.long_flights.min(LIMIT),
        authored::LONG_FLIGHT_KM,
        Decimal::ZERO,
    );
    let public_transport = Decimal::from(r.days_per_week_using_public_transport)
        * authored::COMMUTE_WEEKS_PER_YEAR.value()
        * authored::COMMUTE_PKM_PER_DAY.value()
        * public_transport_factor();
    let year = Decimal::from(12);
    let spending = (r.monthly_restaurant.usd_2022()? * usd_factor("722511")?
        + r.monthly_clothing.usd_2022()? * usd_factor("315280")?
        + r.monthly_furniture_appliances.usd_2022()? * usd_factor("337121")?
        + r.monthly_other.usd_2022()? * crate::transaction::unmapped_factor())
        * year;
    r.monthly_grocery.usd_2022()?; // validated, not added (see above)
    let electricity = if r.green_electricity_used {
        Decimal::ZERO
    } else {
        bounded("electricity_consumption", r.electricity_kwh)? * grid
    };
    let home = electricity + bounded("gas_consumption", r.gas_m3)? * desnz::NATURAL_GAS_M3.value();

    let diet = grams("diet", diet)?;
    let car = grams("average_car_distance_travelled", car)?;
    let flights = grams("short_flights", flights)?;
    let public_transport = grams("days_per_week_using_public_transport", public_transport)?;
    let spending = grams("monthly_other_expenses", spending)?;
    let home = grams("electricity_consumption", home)?;
    let m = Mass::from_grams;
    Ok(IndividualEstimate {
        mass: m(diet + car + flights + public_transport + spending + home),
        diet: m(diet),
        car: m(car),
        flights: m(flights),
        public_transport: m(public_transport),
        spending: m(spending),
        home_energy: m(home),
    })
}

/// [`company`] with its explanation's parts (one per component, each with
/// the factors and quantities it multiplied) and notes.
pub fn company_explained(
    r: &CompanyRequest,
) -> Result<(CompanyEstimate, Vec<Part>, Vec<String>), EstimateError> {
    let e = company(r)?;
    let (parts, notes) = explained::company(r, &e);
    Ok((e, parts, notes))
}

/// [`individual`] with its explanation's parts and notes.
pub fn individual_explained(
    r: &IndividualRequest,
) -> Result<(IndividualEstimate, Vec<Part>, Vec<String>), EstimateError> {
    let e = individual(r)?;
    let (parts, notes) = explained::individual(r, &e);
    Ok((e, parts, notes))
}

mod explained;

#[cfg(test)]
mod tests;

#[cfg(test)]
pub(crate) mod fixtures;
