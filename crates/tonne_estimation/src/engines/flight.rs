//! Flights (DESNZ 2025 business-travel air factors, with radiative forcing).
//!
//! `mass = distance × factor(band, cabin) × passengers`, where the distance is
//! the great-circle distance between the airports (the DESNZ factors already
//! include the 8 % uplift for routing and stacking) or the distance given, and
//! the band is domestic (< 500 km), short-haul (< 3,700 km) or long-haul.
//!
//! A flight that names its aircraft type is computed the Travel Impact
//! Model's way instead ([`crate::aircraft`]): the type's fuel over the flown
//! distance, allocated to a passenger of the cabin by seat area and load
//! factor, well-to-wake as the TIM 3.0 reports it (tank-to-wake 3.1894 +
//! well-to-tank 0.6465 kg CO2e per kg of fuel, each stage rounded to the gram,
//! the well-to-tank part kept apart in [`AircraftUse::wtt`]), without non-CO2
//! effects, as the TIM does.

use rust_decimal::Decimal;
use tonne_kernel::Mass;

use crate::aircraft::{self, FlightFuel};
use crate::errors::EstimateError;
use crate::factors::desnz_2025 as desnz;
use crate::factors::{Factor, authored};
use crate::geo::km_decimal;
use crate::places;
use crate::units::{Distance, kg_to_mass};

pub use crate::route::{CabinClass, FlightRoute};

/// A haul band.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Band {
    /// Under 500 km.
    Domestic,
    /// 500 to 3,700 km.
    ShortHaul,
    /// 3,700 km and more.
    LongHaul,
}

impl Band {
    /// The band of a great-circle distance.
    pub fn of(km: Decimal) -> Self {
        if km < authored::DOMESTIC_FLIGHT_KM.value() {
            Band::Domestic
        } else if km < authored::SHORT_HAUL_LIMIT_KM.value() {
            Band::ShortHaul
        } else {
            Band::LongHaul
        }
    }
}

/// The DESNZ factor (kg CO2e per passenger·km, with RF) for a band and cabin.
/// `touches_uk`: long-haul flights that do not touch the UK use DESNZ's
/// "International, to/from non-UK" rows. DESNZ has no first-class short-haul
/// factor (business is used) and one domestic factor for every cabin.
pub fn passenger_factor(band: Band, cabin: CabinClass, touches_uk: bool) -> Factor {
    match (band, cabin, touches_uk) {
        (Band::Domestic, _, _) => desnz::FLIGHT_DOMESTIC_AVERAGE,
        (Band::ShortHaul, CabinClass::Economy, _) => desnz::FLIGHT_SHORT_HAUL_ECONOMY,
        (Band::ShortHaul, _, _) => desnz::FLIGHT_SHORT_HAUL_BUSINESS,
        (Band::LongHaul, CabinClass::Economy, true) => desnz::FLIGHT_LONG_HAUL_ECONOMY,
        (Band::LongHaul, CabinClass::Business, true) => desnz::FLIGHT_LONG_HAUL_BUSINESS,
        (Band::LongHaul, CabinClass::First, true) => desnz::FLIGHT_LONG_HAUL_FIRST,
        (Band::LongHaul, CabinClass::Economy, false) => desnz::FLIGHT_INTERNATIONAL_ECONOMY,
        (Band::LongHaul, CabinClass::Business, false) => desnz::FLIGHT_INTERNATIONAL_BUSINESS,
        (Band::LongHaul, CabinClass::First, false) => desnz::FLIGHT_INTERNATIONAL_FIRST,
    }
}

/// A flight request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FlightRequest {
    pub route: FlightRoute,
    pub cabin: CabinClass,
    /// Passengers (0 to 10,000; fractions allowed, as the contract's `number`).
    pub passengers: Decimal,
    /// The ICAO aircraft type, when known (Tonne's extension): the TIM method.
    pub aircraft_type: Option<String>,
}

/// A flight estimate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FlightEstimate {
    /// CO2e: with non-CO2 effects by haul band (DESNZ, tank-to-wake); by
    /// aircraft type without them, well-to-wake (the TIM's).
    pub mass: Mass,
    /// Distance used.
    pub distance: Distance,
    pub band: Band,
    /// Factor used.
    pub factor: Factor,
    /// kg CO2e per passenger: distance × factor, or the band's floor when
    /// that is higher (see [`FlightEstimate::floored`]); with an aircraft
    /// type, the flight's fuel × CO2e per kg × the passenger's share.
    pub per_passenger_kg: Decimal,
    /// With an aircraft type: the flight's fuel and one passenger's share of it.
    pub aircraft: Option<AircraftUse>,
}

/// A flight computed by aircraft type: the flight's fuel and a passenger's
/// share of its emissions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AircraftUse {
    pub fuel: FlightFuel,
    /// The share of the flight's emissions one passenger of the cabin carries.
    pub share: Decimal,
    /// The well-to-tank mass inside the estimate's, when it is well-to-wake
    /// (flights and passenger legs); `None` for air freight, whose leg
    /// carries its own stages.
    pub wtt: Option<Mass>,
}

impl AircraftUse {
    /// The passengers' mass well-to-wake: tank-to-wake (fuel × 3.1894 ×
    /// share × passengers) and well-to-tank (fuel × 0.6465 × share ×
    /// passengers), each rounded to the gram, and their sum; the use keeps
    /// the well-to-tank part.
    pub(crate) fn well_to_wake(
        mut self,
        field: &str,
        passengers: Decimal,
    ) -> Result<(Mass, Self), EstimateError> {
        let per_passenger = self.fuel.fuel_kg * self.share * passengers;
        let ttw = kg_to_mass(field, per_passenger * authored::TIM_JET_FUEL_TTW.value())?;
        let wtt = kg_to_mass(field, per_passenger * authored::TIM_JET_FUEL_WTT.value())?;
        self.wtt = Some(wtt);
        Ok((
            Mass::from_grams(ttw.grams().saturating_add(wtt.grams())),
            self,
        ))
    }
}

impl FlightEstimate {
    /// Whether the haul band's floor, not distance × factor, set the mass
    /// (never with an aircraft type).
    pub fn floored(&self) -> bool {
        self.aircraft.is_none() && self.per_passenger_kg > self.distance.km() * self.factor.value()
    }
}

/// One passenger's flight on a named aircraft type: the distance, the fuel
/// and share, and kg CO2e well-to-wake (tank-to-wake + well-to-tank).
pub(crate) fn aircraft_leg(
    field: &str,
    aircraft_field: &str,
    aircraft_type: &str,
    route: &FlightRoute,
    cabin: CabinClass,
) -> Result<(Distance, AircraftUse, Decimal), EstimateError> {
    let aircraft = aircraft::require(aircraft_field, aircraft_type)?;
    let fuel = aircraft::flight_fuel(field, aircraft, route)?;
    let share = fuel.passenger_share(cabin).ok_or_else(|| {
        EstimateError::invalid(aircraft_field, "has no seats to allocate the flight over")
    })?;
    let kg = fuel.wtw_kg() * share;
    let used = AircraftUse {
        fuel,
        share,
        wtt: None,
    };
    Ok((Distance::from_km(used.fuel.km), used, kg))
}

/// Great-circle distance between two airports and whether the route touches the UK.
pub(crate) fn airport_distance(
    field: &str,
    source: &str,
    destination: &str,
) -> Result<(Distance, bool), EstimateError> {
    let (a, b) = places::airport_pair(field, source, destination)?;
    let km = km_decimal(a.position.km_to(&b.position));
    Ok((
        Distance::from_km(km),
        a.country == *b"GB" || b.country == *b"GB",
    ))
}

/// Checks a passenger count: 0 to 10,000.
pub(crate) fn check_passengers(field: &str, p: Decimal) -> Result<Decimal, EstimateError> {
    if p.is_sign_negative() || p > Decimal::from(10_000) {
        return Err(EstimateError::invalid(field, "must be between 0 and 10000"));
    }
    Ok(p)
}

/// `km × factor(band)`, but never less than the longest trip of the band below:
/// DESNZ's per-km air factors fall from band to band, so without this floor a
/// longer flight could emit less than a shorter one (see docs/methodology.md).
/// Shared by passenger flights and air freight.
pub(crate) fn banded_kg(km: Decimal, factor: impl Fn(Band) -> Decimal) -> Decimal {
    let floor = match Band::of(km) {
        Band::Domestic => Decimal::ZERO,
        Band::ShortHaul => authored::DOMESTIC_FLIGHT_KM.value() * factor(Band::Domestic),
        Band::LongHaul => authored::SHORT_HAUL_LIMIT_KM.value() * factor(Band::ShortHaul),
    };
    (km * factor(Band::of(km))).max(floor)
}

/// kg CO2e per passenger over `km` (with [`banded_kg`]'s floor), with the band and factor.
pub fn per_passenger_kg(
    km: Decimal,
    cabin: CabinClass,
    touches_uk: bool,
) -> (Band, Factor, Decimal) {
    let band = Band::of(km);
    let kg = banded_kg(km, |b| passenger_factor(b, cabin, touches_uk).value());
    (band, passenger_factor(band, cabin, touches_uk), kg)
}

/// The distance, band, factor and kg per passenger of one flight leg.
pub(crate) fn leg(
    field: &str,
    route: &FlightRoute,
    cabin: CabinClass,
) -> Result<(Distance, Band, Factor, Decimal), EstimateError> {
    let (distance, touches_uk) = match route {
        FlightRoute::Distance(d) => (*d, true),
        FlightRoute::Airports {
            source,
            destination,
        } => airport_distance(field, source, destination)?,
    };
    let (band, factor, kg) = per_passenger_kg(distance.km(), cabin, touches_uk);
    Ok((distance, band, factor, kg))
}

/// Estimates a flight.
///
/// ```
/// use rust_decimal::Decimal;
/// use tonne_estimation::flight::{self, CabinClass, FlightRequest, FlightRoute};
///
/// let e = flight::estimate(&FlightRequest {
///     route: FlightRoute::Airports { source: "LHR".into(), destination: "JFK".into() },
///     cabin: CabinClass::Economy,
///     passengers: Decimal::ONE,
///     aircraft_type: None,
/// }).unwrap();
/// // ~5,555 km × 0.11704 kg/pkm (DESNZ 2025 long-haul economy, with RF) ≈ 650 kg
/// assert!((645_000..655_000).contains(&e.mass.grams()));
/// ```
pub fn estimate(request: &FlightRequest) -> Result<FlightEstimate, EstimateError> {
    let passengers = check_passengers("passengers", request.passengers)?;
    if let Some(code) = &request.aircraft_type {
        let (distance, used, per_passenger) = aircraft_leg(
            "route",
            "aircraft_type",
            code,
            &request.route,
            request.cabin,
        )?;
        let (mass, used) = used.well_to_wake("route", passengers)?;
        return Ok(FlightEstimate {
            mass,
            distance,
            band: Band::of(distance.km()),
            factor: authored::TIM_JET_FUEL_TTW,
            per_passenger_kg: per_passenger,
            aircraft: Some(used),
        });
    }
    let (distance, band, factor, per_passenger) = leg("route", &request.route, request.cabin)?;
    let kg = per_passenger * passengers;
    Ok(FlightEstimate {
        mass: kg_to_mass("route", kg)?,
        distance,
        band,
        factor,
        per_passenger_kg: per_passenger,
        aircraft: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn airports(a: &str, b: &str) -> FlightRoute {
        FlightRoute::Airports {
            source: a.into(),
            destination: b.into(),
        }
    }

    #[test]
    fn great_circle_distance_matches_published_values() {
        // LHR–JFK: 5,555 km (3,452 mi) great-circle, as commonly published
        let (d, uk) = airport_distance("route", "LHR", "JFK").unwrap();
        assert!(uk);
        let km = d.km();
        assert!(
            (km - Decimal::from(5555)).abs() / Decimal::from(5555) < Decimal::new(5, 3),
            "{km}"
        );
        // SYD–LAX: 12,051 km; ICAO codes work too
        let (d, uk) = airport_distance("route", "YSSY", "KLAX").unwrap();
        assert!(!uk);
        assert!(
            (d.km() - Decimal::from(12051)).abs() / Decimal::from(12051) < Decimal::new(5, 3),
            "{}",
            d.km()
        );
    }

    #[test]
    fn reproduces_the_desnz_factor_by_hand() {
        // 1,000 km given, short-haul economy: 1000 × 0.12576 = 125.76 kg, × 2 passengers
        let e = estimate(&FlightRequest {
            route: FlightRoute::Distance(Distance::from_km(Decimal::from(1000))),
            cabin: CabinClass::Economy,
            passengers: Decimal::from(2),
            aircraft_type: None,
        })
        .unwrap();
        assert_eq!(e.mass.grams(), 251_520);
        assert_eq!(e.band, Band::ShortHaul);
        // long-haul first from/to the UK: 0.46814; not touching the UK: 0.43663
        let first = |a, b| {
            estimate(&FlightRequest {
                route: airports(a, b),
                cabin: CabinClass::First,
                passengers: Decimal::ONE,
                aircraft_type: None,
            })
            .unwrap()
        };
        assert_eq!(first("LHR", "JFK").factor, desnz::FLIGHT_LONG_HAUL_FIRST);
        assert_eq!(
            first("CDG", "JFK").factor,
            desnz::FLIGHT_INTERNATIONAL_FIRST
        );
    }

    #[test]
    fn bands_cabins_and_passengers_behave() {
        assert_eq!(Band::of(Decimal::from(499)), Band::Domestic);
        assert_eq!(Band::of(Decimal::from(500)), Band::ShortHaul);
        assert_eq!(Band::of(Decimal::from(3700)), Band::LongHaul);
        let at = |km: i64, passengers: i64| {
            estimate(&FlightRequest {
                route: FlightRoute::Distance(Distance::from_km(Decimal::from(km))),
                cabin: CabinClass::Business,
                passengers: Decimal::from(passengers),
                aircraft_type: None,
            })
            .unwrap()
            .mass
            .grams()
        };
        assert_eq!(at(0, 1), 0);
        assert_eq!(at(800, 0), 0);
        let mut last = 0;
        for km in (0..20_000).step_by(50) {
            assert!(at(km, 1) >= last, "{km}");
            last = at(km, 1);
        }
        assert!(at(9000, 3) > at(9000, 2));
    }

    /// An A320 over a given 1,000 km, by hand from the EEA row: 1000 ÷ 1.852
    /// − 17 = 522.957 NM; CCD 2810.14 + 22.957 × (4114.53 − 2810.14) ÷ 250 =
    /// 2929.918 kg; + LTO 816.17 = 3746.088 kg of fuel × 3.1894 = 11,947.7 kg
    /// CO2e; an economy passenger's share 1 ÷ ((12 × 1.5 + 138) × 0.845) →
    /// 90.637 kg tank-to-wake; two in business × 1.5 → 271.911 kg. These were
    /// the masses while aircraft-type flights answered tank-to-wake; they are
    /// now the tank-to-wake part, and the well-to-tank part comes on top:
    /// 3746.088 × 0.6465 ÷ 131.82 = 18.372 kg (economy), × 3 = 55.117 kg
    /// (two in business), so the masses are 109.009 and 327.028 kg.
    #[test]
    fn an_aircraft_type_is_computed_the_tim_way_by_hand() {
        let at = |cabin, passengers: i64| {
            estimate(&FlightRequest {
                route: FlightRoute::Distance(Distance::from_km(Decimal::from(1000))),
                cabin,
                passengers: Decimal::from(passengers),
                aircraft_type: Some("A320".into()),
            })
            .unwrap()
        };
        let ttw_and_wtt = |e: &FlightEstimate| {
            let wtt = e.aircraft.as_ref().and_then(|u| u.wtt).unwrap().grams();
            (e.mass.grams() - wtt, wtt)
        };
        let e = at(CabinClass::Economy, 1);
        assert_eq!(ttw_and_wtt(&e), (90_637, 18_372));
        assert_eq!(e.mass.grams(), 109_009);
        assert!(!e.floored());
        let used = e.aircraft.clone().unwrap();
        assert_eq!(used.fuel.fuel_kg.round_dp(3), Decimal::new(3_746_088, 3));
        let business = at(CabinClass::Business, 2);
        assert_eq!(ttw_and_wtt(&business), (271_911, 55_117));
        assert_eq!(business.mass.grams(), 327_028);
        // an unknown type is a 400 naming it
        let bad = estimate(&FlightRequest {
            route: FlightRoute::Distance(Distance::from_km(Decimal::from(1000))),
            cabin: CabinClass::Economy,
            passengers: Decimal::ONE,
            aircraft_type: Some("Z999".into()),
        });
        assert!(
            matches!(&bad, Err(EstimateError::Invalid { field, reason }) if field == "aircraft_type" && reason.contains("Z999")),
            "{bad:?}"
        );
    }

    /// ZRH–SFO on a B789, the TIM 3.0 document's worked example: its own
    /// figures per economy passenger (48 J, 21 W, 188 Y: 411.5 seat areas)
    /// are WTT 33,569 ÷ 411.5 ÷ 0.845 = 96.541 kg and TTW 165,609 ÷ 411.5 ÷
    /// 0.845 = 476.270 kg, well-to-wake 572.811 kg; Tonne's constants give
    /// the same from its 56,440 kg of fuel. On Tonne's B789 configuration
    /// (28 J, 262 Y: 374 seat areas) and its own fuel (56,440 kg within 0.1 %)
    /// an economy passenger is 56,440 × 3.8359 × 0.92 ÷ 374 ÷ 0.845 = 630.25
    /// kg well-to-wake, of which 56,440 × 0.6465 × 0.92 ÷ 374 ÷ 0.845 =
    /// 106.22 kg well-to-tank; the tank-to-wake part alone is 16.9 % lower,
    /// the gap the TIM's boundary opens against a tank-to-wake answer.
    #[test]
    fn the_tim_worked_example_well_to_wake_by_hand() {
        let d = |s: &str| s.parse::<Decimal>().unwrap();
        let per_seat = |factor: Decimal| {
            (d("56440") * factor * d("0.92") / d("411.5") / d("0.845")).round_dp(3)
        };
        // (the document rounds its flight-level kg to the kg first: < 5 g apart)
        let wtt_seat = per_seat(authored::TIM_JET_FUEL_WTT.value());
        let ttw_seat = per_seat(authored::TIM_JET_FUEL_TTW.value());
        assert!((wtt_seat - d("96.541")).abs() < d("0.005"), "{wtt_seat}");
        assert!((ttw_seat - d("476.270")).abs() < d("0.005"), "{ttw_seat}");

        let e = estimate(&FlightRequest {
            route: airports("ZRH", "SFO"),
            cabin: CabinClass::Economy,
            passengers: Decimal::ONE,
            aircraft_type: Some("B789".into()),
        })
        .unwrap();
        let kg = Decimal::new(e.mass.grams(), 3);
        assert!((kg - d("630.25")).abs() < d("0.63"), "{kg}");
        let used = e.aircraft.unwrap();
        let wtt = Decimal::new(used.wtt.unwrap().grams(), 3);
        assert!((wtt - d("106.22")).abs() < d("0.11"), "{wtt}");
        // exactly this flight's fuel × share × each factor, to the gram
        let by = |f: Decimal| {
            (used.fuel.fuel_kg * used.share * f)
                .round_dp_with_strategy(3, rust_decimal::RoundingStrategy::MidpointAwayFromZero)
        };
        assert_eq!(wtt, by(authored::TIM_JET_FUEL_WTT.value()));
        assert_eq!(kg - wtt, by(authored::TIM_JET_FUEL_TTW.value()));
        // the well-to-tank part is 0.6465 ÷ 3.8359 = 16.85 % of the whole
        assert_eq!((wtt / kg).round_dp(3), d("0.169"));
    }

    #[test]
    fn unknown_airports_are_named() {
        let e = estimate(&FlightRequest {
            route: airports("LHR", "QQQ"),
            cabin: CabinClass::Economy,
            passengers: Decimal::ONE,
            aircraft_type: None,
        });
        assert_eq!(
            e,
            Err(EstimateError::AirportInvalid {
                field: "route.destination.code".into(),
                code: "QQQ".into()
            })
        );
    }
}
