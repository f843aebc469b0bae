//! Individual and company footprints.

use super::*;

#[test]
fn company_parts_add_up_and_reproduce_factors_by_hand() {
    let e = company(&fixtures::company_request()).unwrap();
    let g = Mass::grams;
    assert_eq!(g(&e.mass), g(&e.scope1) + g(&e.scope2) + g(&e.scope3));
    assert_eq!(
        g(&e.mass),
        g(&e.energy)
            + g(&e.remote_employee)
            + g(&e.travel_and_commute)
            + g(&e.food_and_drink)
            + g(&e.material_and_waste)
            + g(&e.tech)
    );
    // energy: 60,000 kWh × 0.21579 (Ember 2024 GBR) + 5,000 m³ × 2.06672 (DESNZ natural gas)
    //       = 12,947.4 + 10,333.6 = 23,281.0 kg
    assert_eq!(g(&e.energy), 23_281_000);
    // remote: 50 × 20 % × 1,650 h × 0.33378 = 5,507.37 kg
    assert_eq!(g(&e.remote_employee), 5_507_370);
    // waste: 4 t × (50 % × 520.5327 + 50 % × 4.68568) = 1,050.43676 kg; devices 30,000 GBP → USD × 0.058
    // devices: 30,000 / 0.85276 × 1.0530 × 0.058 = 2,148.576… kg → 2,148,576 g (+ waste 1,050,437 g)
    assert_eq!(g(&e.material_and_waste), 2_148_576 + 1_050_437);
}

#[test]
fn company_green_power_months_and_benchmark() {
    let mut r = fixtures::company_request();
    let full = company(&r).unwrap();
    r.green_electricity_used = true;
    let green = company(&r).unwrap();
    assert!(green.scope2 < full.scope2);
    r.months = 6;
    let half = company(&r).unwrap();
    assert!((g2(half.mass) * 2 - g2(green.mass)).abs() <= 20);
    // nothing metered: the CIBSE TM46 office benchmark is used
    let mut r = fixtures::company_request();
    r.electricity_kwh = 0;
    r.gas_m3 = 0;
    let bench = company(&r).unwrap();
    // 800 m² × (95 kWh × 0.21579 + 120 kWh × 0.18296) = 16,400.04 + 17,564.16 = 33,964.20 kg
    assert_eq!(bench.energy.grams(), 33_964_200);
    // more employees never lower the total
    let mut r = fixtures::company_request();
    r.employees = 51;
    assert!(company(&r).unwrap().mass > full.mass);
}

fn g2(m: Mass) -> i64 {
    m.grams()
}

#[test]
fn company_refuses_bad_input() {
    let mut r = fixtures::company_request();
    r.months = 0;
    assert!(company(&r).is_err());
    let mut r = fixtures::company_request();
    r.remote_employees_percentage = 101;
    assert!(company(&r).is_err());
    let mut r = fixtures::company_request();
    r.country_code = "ZZZ".into();
    assert!(matches!(
        company(&r),
        Err(EstimateError::UnknownCountry { .. })
    ));
}

#[test]
fn individual_terms_add_up_and_reproduce_factors() {
    let e = individual(&fixtures::person()).unwrap();
    let parts = [
        e.diet,
        e.car,
        e.flights,
        e.public_transport,
        e.spending,
        e.home_energy,
    ];
    assert_eq!(e.mass.grams(), parts.iter().map(Mass::grams).sum::<i64>());
    // diet: 5.63 × 365 = 2,054.95 kg; car: 8,000 km × 0.16272 = 1,301.76 kg
    assert_eq!(e.diet.grams(), 2_054_950);
    assert_eq!(e.car.grams(), 1_301_760);
    // home: 2,500 kWh × 0.04418 (Ember FRA) + 800 m³ × 2.06672 = 110.45 + 1,653.376
    assert_eq!(e.home_energy.grams(), 1_763_826);
    // public transport: 3 × 46 × 20 km × (0.10385 + 0.03546) / 2 = 192.2478 kg
    assert_eq!(e.public_transport.grams(), 192_248);
}

#[test]
fn individual_is_monotonic_and_diets_order() {
    let base = individual(&fixtures::person()).unwrap().mass;
    let mut more = fixtures::person();
    more.long_flights = 2;
    assert!(individual(&more).unwrap().mass > base);
    let mut vegan = fixtures::person();
    vegan.diet = Diet::Vegan;
    assert!(individual(&vegan).unwrap().mass < base);
    let mut none = fixtures::person();
    none.car_use = false;
    assert_eq!(individual(&none).unwrap().car.grams(), 0);
    let mut bad = fixtures::person();
    bad.days_per_week_using_public_transport = 8;
    assert!(individual(&bad).is_err());
}
