//! Estimates that explain themselves: for every estimate, the parts its mass
//! is made of, each with the factors it used (id, value, unit, publication,
//! table row, year) and the activity quantities they multiplied (distances
//! and how they were obtained, payload, spend after currency conversion, …).
//!
//! The parts add up to the estimate's mass exactly, to the gram: engines that
//! round each part (passenger and shipping legs, footprints) give their parts;
//! single-product estimates are one part.
//!
//! ```
//! use tonne_estimation::estimate::EstimateRequest;
//! use tonne_estimation::flight::{CabinClass, FlightRequest, FlightRoute};
//! use rust_decimal::Decimal;
//!
//! let computed = EstimateRequest::Flight(FlightRequest {
//!     route: FlightRoute::Airports { source: "LHR".into(), destination: "JFK".into() },
//!     cabin: CabinClass::Economy,
//!     passengers: Decimal::ONE,
//! }).compute().unwrap();
//! let part = &computed.explanation.parts[0];
//! assert_eq!(part.factors[0].id, "FLIGHT_LONG_HAUL_ECONOMY");
//! assert_eq!(part.factors[0].year, Some(2025));
//! assert_eq!(part.quantities[0].name, "distance");
//! assert!(part.quantities[0].method.contains("great-circle"));
//! assert_eq!(part.mass, computed.mass.unwrap());
//! ```

use rust_decimal::Decimal;
use tonne_kernel::Mass;

use crate::estimate::{
    Computed, EstimateDetail, EstimateRequest, LegFacts, Methodology, RouteEnd, ShippingLeg,
};
pub use crate::explanation::{Explanation, FactorUse, Part, Quantity, Wtw};
use crate::factors::desnz_2025 as desnz;
use crate::factors::{Factor, authored};
use crate::flight::{self, FlightRoute};
use crate::footprint::{self, CompanyRequest, IndividualRequest};
use crate::passenger::{self, Leg as PassengerLeg};
use crate::route::{Place, Route};
use crate::shipping::{self, Mode, Shipment};
use crate::transaction::{self, TransactionOutcome};
use crate::{
    Distance, EstimateError, GRID_SOURCE, GridFactor, LatLon, Spend, cities, electricity,
    factor_estimate, grid,
};

impl FactorUse {
    fn grid(code: &str, g: GridFactor) -> Self {
        Self {
            id: format!("grid:{code}"),
            value: g.g_co2e_per_kwh,
            unit: "g CO2e/kWh".into(),
            source: GRID_SOURCE.into(),
            row: Some(code.to_owned()),
            year: Some(g.year),
            gases: None,
            catalogue_id: None,
        }
    }

    fn usd(c: &transaction::Category) -> Self {
        Self {
            id: format!("mcc:{}", c.code),
            value: c.kg_per_usd,
            unit: "kg CO2e/USD (2022)".into(),
            source: "US EPA Supply Chain GHG Emission Factors v1.3.0 (USEEIO), with margins".into(),
            row: Some(if c.naics.is_empty() {
                format!("MCC {} {}: median factor (unmapped)", c.code, c.description)
            } else {
                format!("MCC {} {} → NAICS {}", c.code, c.description, c.naics)
            }),
            year: Some(2022),
            gases: None,
            catalogue_id: None,
        }
    }
}

/// The date Tonne gives the exchange rates it converts spend with: they are
/// the ECB's 2022 annual averages, dated by the start of their period.
pub const EXCHANGE_RATE_DATE: &str = "2022-01-01";

/// What a transaction estimate's 2024 answer shows beside its mass, read from
/// its explanation (so that a stored estimate answers as it was computed).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TransactionFacts<'a> {
    /// The spend factor (USEEIO, kg CO2e per 2022 USD).
    pub emission_factor: &'a FactorUse,
    /// 2022 USD per unit of the spend's currency (1 for USD), to six decimals.
    pub exchange_rate: Decimal,
    /// The buyer's diet over a medium meat-eater's, where it scaled a food purchase.
    pub diet_factor: Option<Decimal>,
}

impl Explanation {
    /// The facts of a transaction estimate; `None` for other kinds and money movement.
    pub fn transaction_facts(&self) -> Option<TransactionFacts<'_>> {
        let p = self.parts.iter().find(|p| p.name == "transaction")?;
        let emission_factor = p.emission_factor()?;
        let usd_per_eur = p.factors.iter().find(|f| f.id == authored::USD_PER_EUR.id);
        let other_per_eur = p
            .factors
            .iter()
            .find(|f| f.unit.ends_with("/EUR") && f.id != authored::USD_PER_EUR.id);
        let exchange_rate = match (usd_per_eur, other_per_eur) {
            (Some(usd), Some(other)) if !other.value.is_zero() => usd.value / other.value,
            (Some(usd), _) => usd.value,
            (None, _) => Decimal::ONE,
        };
        Some(TransactionFacts {
            emission_factor,
            exchange_rate: exchange_rate.round_dp(6).normalize(),
            diet_factor: p
                .quantities
                .iter()
                .find(|q| q.name == "diet_ratio")
                .map(|q| q.amount),
        })
    }
}

fn quantity(name: &str, amount: Decimal, unit: &str, method: impl Into<String>) -> Quantity {
    Quantity {
        name: name.to_owned(),
        amount: amount.normalize(),
        unit: unit.to_owned(),
        method: method.into(),
    }
}

fn part(name: impl Into<String>, mass: Mass, factors: Vec<FactorUse>, q: Vec<Quantity>) -> Part {
    Part {
        name: name.into(),
        mass,
        factors,
        quantities: q,
    }
}

impl EstimateRequest {
    /// Runs the engine: the mass, the kind's detail and the explanation,
    /// which names the factor set and each emission factor's catalogue id.
    /// Pure: the same request gives the same result with the same tables.
    pub fn compute(&self) -> Result<Computed, EstimateError> {
        let mut computed = compute(self)?;
        let explanation = &mut computed.explanation;
        explanation.factor_set = Some(crate::catalogue::FACTOR_SET_VERSION.to_owned());
        for f in explanation
            .parts
            .iter_mut()
            .flat_map(|p| p.factors.iter_mut())
        {
            if f.catalogue_id.is_none() {
                f.catalogue_id = crate::catalogue::catalogue()
                    .of_engine_factor(&f.id)
                    .map(|c| c.id.clone());
            }
        }
        Ok(computed)
    }
}

/// Runs the engine of a request and explains it.
fn compute(request: &EstimateRequest) -> Result<Computed, EstimateError> {
    match request {
        EstimateRequest::Electricity {
            consumption,
            country_code,
        } => {
            let e = electricity::estimate(*consumption, country_code.as_deref())?;
            let code = country_code.as_deref().unwrap_or("WORLD");
            Ok(single(
                e.mass,
                EstimateDetail::Plain,
                part(
                    "consumption",
                    e.mass,
                    vec![FactorUse::grid(code, e.factor)],
                    vec![quantity(
                        "consumption",
                        consumption.kwh(),
                        "kWh",
                        "as given, in kWh",
                    )],
                ),
                vec![],
            ))
        }
        EstimateRequest::Flight(r) => {
            let e = flight::estimate(r)?;
            let (how, mut notes) = flight_route(&r.route);
            // the engine says whether the band's floor set the mass: no second pass
            if e.floored() {
                notes.push(BAND_FLOOR.into());
            }
            Ok(single(
                e.mass,
                EstimateDetail::Plain,
                part(
                    "flight",
                    e.mass,
                    vec![FactorUse::of(&e.factor)],
                    vec![
                        quantity("distance", e.distance.km(), "km", how),
                        quantity(
                            "passengers",
                            r.passengers,
                            "passengers",
                            "as given (default 1)",
                        ),
                    ],
                ),
                notes,
            ))
        }
        EstimateRequest::PassengerTransportation(r) => passengers(r),
        EstimateRequest::Shipping { shipment, leg } => {
            let (e, trace) = shipping::leg_traced("", shipment, leg)?;
            let mut notes = Vec::new();
            let p = shipping_part("leg", shipment, leg, &e, &trace, &mut notes);
            let detail = EstimateDetail::Shipping(shipping_leg(&e, leg, &trace, &p));
            Ok(single(e.mass, detail, p, notes))
        }
        EstimateRequest::MultiLegShipping { shipment, legs } => {
            // the engine checks the count, computes each leg once and sums;
            // each leg is explained from what it computed
            let (total, traces) = shipping::multi_leg_traced(shipment, legs)?;
            let mut parts = Vec::with_capacity(legs.len());
            let mut notes = Vec::new();
            let mut out = Vec::with_capacity(legs.len());
            for (i, ((l, e), trace)) in legs.iter().zip(&total.legs).zip(&traces).enumerate() {
                let p = shipping_part(&format!("legs[{i}]"), shipment, l, e, trace, &mut notes);
                out.push(shipping_leg(e, l, trace, &p));
                parts.push(p);
            }
            Ok(Computed {
                mass: Some(total.mass),
                detail: EstimateDetail::MultiLegShipping {
                    distance: total.distance,
                    legs: out,
                },
                explanation: Explanation {
                    parts,
                    notes,
                    factor_set: None,
                },
            })
        }
        EstimateRequest::Transaction(r) => {
            let (outcome, trace) = transaction::estimate_traced(r)?;
            match (outcome, trace) {
                (
                    TransactionOutcome::Estimate {
                        mass,
                        search_term_match,
                    },
                    Some(t),
                ) => {
                    let mut factors = vec![FactorUse::usd(t.category)];
                    factors.extend(exchange(&r.value));
                    let mut quantities = vec![spend("spend", &r.value, t.usd_2022)];
                    if let Some(d) = r.diet.filter(|_| t.diet_ratio != Decimal::ONE) {
                        factors.push(FactorUse::of(&d.per_day()));
                        factors.push(FactorUse::of(&authored::DIET_MEDIUM_MEAT));
                        quantities.push(quantity(
                            "diet_ratio",
                            t.diet_ratio.round_dp(6),
                            "×",
                            "the buyer's diet over a medium meat-eater's (food purchases)",
                        ));
                    }
                    Ok(single(
                        mass,
                        EstimateDetail::Transaction { search_term_match },
                        part("transaction", mass, factors, quantities),
                        vec![],
                    ))
                }
                _ => Ok(Computed {
                    mass: None,
                    detail: EstimateDetail::MoneyMovement,
                    explanation: Explanation {
                        parts: vec![],
                        notes: vec!["money movement: nothing to estimate".into()],
                        factor_set: None,
                    },
                }),
            }
        }
        EstimateRequest::Company(r) => company(r),
        EstimateRequest::Individual(r) => individual(r),
        EstimateRequest::EmissionFactor(r) => {
            let e = factor_estimate::estimate(r)?;
            let f = &e.factor;
            let factor_use = FactorUse {
                id: f.id.clone(),
                value: f.kg_co2e,
                unit: format!("kg CO2e/{}", f.denominator),
                source: f.publication.clone(),
                row: Some(f.name.clone()),
                year: Some(f.publication_year),
                gases: f.gases.clone(),
                catalogue_id: None,
            };
            let how = e.conversion.clone().unwrap_or_else(|| "as given".into());
            Ok(single(
                e.mass,
                EstimateDetail::EmissionFactor(Box::new(e.factor.clone())),
                part(
                    "activity",
                    e.mass,
                    vec![factor_use],
                    vec![quantity("activity", e.converted, f.denominator, how)],
                ),
                vec![format!(
                    "factor {} of Tonne's factor set {}",
                    f.id,
                    crate::catalogue::FACTOR_SET_VERSION
                )],
            ))
        }
    }
}

const BAND_FLOOR: &str = "the mass is the longest trip of the haul band below (DESNZ's per-km factors fall from band to band; see docs/methodology.md)";

fn single(mass: Mass, detail: EstimateDetail, p: Part, notes: Vec<String>) -> Computed {
    Computed {
        mass: Some(mass),
        detail,
        explanation: Explanation {
            parts: vec![p],
            notes,
            factor_set: None,
        },
    }
}

fn place_name(p: &Place) -> String {
    match p {
        Place::Coordinates(c) => format!("coordinates {}, {}", c.lat(), c.lon()),
        Place::Airport(code) => format!("airport {code}"),
        Place::Seaport(code) => format!("seaport {code}"),
        Place::Address { city, country_code } => match cities::city(city, country_code) {
            Some(c) if c.region.is_empty() => format!(
                "the centre of {}, {} (GeoNames; street and postcode do not refine it)",
                c.name, c.country_code
            ),
            Some(c) => format!(
                "the centre of {}, {}, {} (GeoNames; street and postcode do not refine it)",
                c.name, c.region, c.country_code
            ),
            None => format!("{city}, {country_code}"),
        },
    }
}

fn flight_route(route: &FlightRoute) -> (String, Vec<String>) {
    match route {
        FlightRoute::Distance(_) => ("as given".into(), vec![]),
        FlightRoute::Airports {
            source,
            destination,
        } => (
            format!("great-circle between airports {source} and {destination}"),
            vec![],
        ),
    }
}

/// How a surface (road, rail, inland waterway) distance was obtained, and the
/// detour factor it used, if any.
fn surface_how(route: &Route) -> (String, Option<FactorUse>) {
    match route {
        Route::Distance(_) => ("as given".into(), None),
        Route::Between {
            source,
            destination,
        } => (
            format!(
                "great-circle between {} and {}, × the surface detour factor",
                place_name(source),
                place_name(destination)
            ),
            Some(FactorUse::of(&authored::CIRCUITY_SURFACE)),
        ),
    }
}

/// A road or rail leg: its factor (and the detour factor, for a distance
/// between places), the distance, and what the factor is per.
fn surface_part(
    name: String,
    mass: Mass,
    factor: &Factor,
    route: &Route,
    distance: Distance,
    per: Quantity,
) -> Part {
    let (how, detour) = surface_how(route);
    let mut factors = vec![FactorUse::of(factor)];
    factors.extend(detour);
    part(
        name,
        mass,
        factors,
        vec![quantity("distance", distance.km(), "km", how), per],
    )
}

fn passengers(r: &passenger::PassengerRequest) -> Result<Computed, EstimateError> {
    // each leg is explained from what the engine computed (no second pass)
    let e = passenger::estimate(r)?;
    let mut parts = Vec::with_capacity(r.legs.len());
    let mut notes = Vec::new();
    for (i, ((leg, mass), how)) in r.legs.iter().zip(&e.legs).zip(&e.computed).enumerate() {
        let name = format!("legs[{i}]");
        let p = match leg {
            PassengerLeg::Road { route, .. } => {
                let vehicles = quantity(
                    "vehicles",
                    Decimal::ONE,
                    "vehicle",
                    "one vehicle, whatever the passengers",
                );
                surface_part(name, *mass, &how.factor, route, how.distance, vehicles)
            }
            PassengerLeg::Rail { route, .. } => {
                let passengers = quantity(
                    "passengers",
                    r.passengers,
                    "passengers",
                    "as given (default 1)",
                );
                surface_part(name, *mass, &how.factor, route, how.distance, passengers)
            }
            PassengerLeg::Flight { route, .. } => {
                let (how_far, _) = flight_route(route);
                if how.floored {
                    notes.push(format!("{name}: {BAND_FLOOR}"));
                }
                part(
                    name,
                    *mass,
                    vec![FactorUse::of(&how.factor)],
                    vec![
                        quantity("distance", how.distance.km(), "km", how_far),
                        quantity(
                            "passengers",
                            r.passengers,
                            "passengers",
                            "as given (default 1)",
                        ),
                    ],
                )
            }
        };
        parts.push(p);
    }
    Ok(Computed {
        mass: Some(e.mass),
        detail: EstimateDetail::PassengerLegs(e.legs),
        explanation: Explanation {
            parts,
            notes,
            factor_set: None,
        },
    })
}

fn shipping_leg(
    e: &shipping::LegEstimate,
    leg: &shipping::Leg,
    trace: &shipping::LegTrace,
    part: &Part,
) -> ShippingLeg {
    ShippingLeg {
        mass: e.mass,
        distance: e.distance,
        methodology: e
            .methodology
            .iter()
            .filter_map(|m| Methodology::parse(m))
            .collect(),
        facts: Some(leg_facts(leg, trace, part)),
    }
}

/// A place as the route shows it: what was sent, and where it was located.
fn route_end(p: &Place, at: LatLon) -> RouteEnd {
    let degrees = |v: f64| Decimal::from_f64_retain(v).unwrap_or_default().round_dp(6);
    RouteEnd {
        label: match p {
            Place::Coordinates(_) => format!("{}, {}", degrees(at.lat()), degrees(at.lon())),
            Place::Airport(code) => format!("airport {code}"),
            Place::Seaport(code) => format!("seaport {code}"),
            Place::Address { city, country_code } => format!("{city}, {country_code}"),
        },
        lat: degrees(at.lat()),
        lon: degrees(at.lon()),
    }
}

fn leg_facts(leg: &shipping::Leg, trace: &shipping::LegTrace, part: &Part) -> LegFacts {
    let m = &trace.measured;
    let km = m.distance.km();
    // per tonne·km: the leg's own kg per tonne over its distance; at zero km,
    // the product of its factors (air: the band's factor)
    let ttw = if km.is_zero() {
        trace.factors.iter().map(Factor::value).product::<Decimal>()
    } else {
        trace.kg_per_tonne / km
    };
    let primary = trace.factors.first();
    let wtt = primary
        .and_then(|f| Some((f.value(), crate::factors::GasSplit::of(f.id)?)))
        .filter(|(v, _)| !v.is_zero())
        .map(|(v, g)| (ttw * g.wtt / v).round_dp(8));
    let ends = match (&leg.route, m.ends) {
        (
            Route::Between {
                source,
                destination,
            },
            Some((a, b)),
        ) => Some([route_end(source, a), route_end(destination, b)]),
        _ => None,
    };
    LegFacts {
        distance_method: m.method,
        raw_distance: m.raw,
        ends,
        payload_tonnes: trace.tonnes.normalize(),
        ttw_kg_per_tkm: ttw.round_dp(8).normalize(),
        wtt_kg_per_tkm: wtt.map(|w| w.normalize()),
        wtw: part.wtw(),
    }
}

fn payload(shipment: &Shipment) -> (Quantity, Option<FactorUse>) {
    let tonnes = shipment.tonnes();
    match shipment {
        Shipment::Mass(_) => (quantity("payload", tonnes, "t", "as given"), None),
        Shipment::Containers { mass: Some(_), .. } => (
            quantity("payload", tonnes, "t", "the containers' mass as given"),
            None,
        ),
        Shipment::Containers { teu, cargo, .. } => (
            quantity(
                "payload",
                tonnes,
                "t",
                format!("{} TEU × tonnes per TEU of the cargo type", teu.normalize()),
            ),
            Some(FactorUse::of(&cargo.tonnes_per_teu())),
        ),
    }
}

fn shipping_part(
    name: &str,
    shipment: &Shipment,
    leg: &shipping::Leg,
    e: &shipping::LegEstimate,
    trace: &shipping::LegTrace,
    notes: &mut Vec<String>,
) -> Part {
    let mut factors: Vec<FactorUse> = trace.factors.iter().map(FactorUse::of).collect();
    let (load, per_teu) = payload(shipment);
    factors.extend(per_teu);
    let how = match (&leg.route, trace.mode) {
        (Route::Distance(_), _) => "as given".to_owned(),
        (Route::Between { .. }, Mode::Road | Mode::Rail | Mode::InlandWaterway) => {
            let (how, detour) = surface_how(&leg.route);
            factors.extend(detour);
            how
        }
        (
            Route::Between {
                source,
                destination,
            },
            Mode::Air,
        ) => format!(
            "great-circle between {} and {}",
            place_name(source),
            place_name(destination)
        ),
        (
            Route::Between {
                source,
                destination,
            },
            Mode::Sea,
        ) => format!(
            "over the maritime network between {} and {} (each snapped to its nearest seaport)",
            place_name(source),
            place_name(destination)
        ),
    };
    for m in &e.methodology {
        notes.push(format!("{name}: {m}"));
    }
    part(
        name,
        e.mass,
        factors,
        vec![quantity("distance", e.distance.km(), "km", how), load],
    )
}

/// The exchange rates a spend went through to 2022 USD (none for USD).
fn exchange(s: &Spend) -> Vec<FactorUse> {
    use tonne_kernel::Currency;
    match s.currency {
        Currency::Usd => vec![],
        // the currency's rate per euro (none for the euro itself), then USD per euro
        c => crate::units::usd_rate(c)
            .filter(|_| c != Currency::Eur)
            .into_iter()
            .chain([authored::USD_PER_EUR])
            .map(|f| FactorUse::of(&f))
            .collect(),
    }
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

fn company(r: &CompanyRequest) -> Result<Computed, EstimateError> {
    let e = footprint::company(r)?;
    let of = |fs: &[Factor]| fs.iter().map(FactorUse::of).collect::<Vec<_>>();
    let year =
        |n: &str, v: u64, unit: &str| quantity(n, Decimal::from(v), unit, "as given, per year");
    let energy_factors = if r.electricity_kwh == 0 && r.gas_m3 == 0 {
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
    if r.electricity_kwh == 0 && r.gas_m3 == 0 {
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
            f.push(FactorUse::of(&footprint::ELECTRICITY_PRICE_EUR_PER_KWH));
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
    Ok(Computed {
        mass: Some(e.mass),
        detail: EstimateDetail::Company(e),
        explanation: Explanation {
            parts,
            notes,
            factor_set: None,
        },
    })
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

fn individual(r: &IndividualRequest) -> Result<Computed, EstimateError> {
    let e = footprint::individual(r)?;
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
    Ok(Computed {
        mass: Some(e.mass),
        detail: EstimateDetail::Plain,
        explanation: Explanation {
            parts,
            notes,
            factor_set: None,
        },
    })
}

#[cfg(test)]
mod tests;
