//! Flights by aircraft type, the way Google's Travel Impact Model 3.0.0
//! computes them (`docs/methodology.md` cites each constant).
//!
//! 1. The flown distance: the great-circle distance × GAIA's 2019 ratio of
//!    flown to great-circle distance for the airport pair (else the country
//!    pair, else 1.052); a distance the request gives is taken as flown.
//! 2. Fuel: the EEA 2023 LTO fuel of the type, plus its climb/cruise/descent
//!    (CCD) fuel at the flown distance less the 17 NM of the LTO cycle,
//!    interpolated (or extrapolated) linearly in the EEA table.
//! 3. CO2e: fuel × 3.1894 kg/kg tank-to-wake + 0.6465 kg/kg well-to-tank:
//!    well-to-wake for flights and passenger legs, as the TIM 3.0 reports;
//!    air freight adds the well-to-tank part as its leg's own stage.
//! 4. Allocation by payload mass between belly cargo and passengers, then
//!    among passengers by seat area (cabin factors of narrow- and wide-bodies
//!    on the type's typical seat configuration) at an 84.5 % load factor.
//!
//! ```
//! use rust_decimal::Decimal;
//! use tonne_estimation::aircraft;
//!
//! // the EEA table's own check figures for a Boeing 787-9
//! let b789 = aircraft::aircraft("B789").unwrap();
//! assert_eq!(b789.lto_kg, Decimal::new(163_846, 2));
//! assert_eq!(b789.ccd_kg(Decimal::from(500)), Decimal::new(585_161, 2));
//! assert_eq!(b789.ccd_kg(Decimal::from(5000)), Decimal::new(5_296_155, 2));
//! ```

use std::collections::HashMap;
use std::sync::OnceLock;

use rust_decimal::Decimal;

use crate::errors::EstimateError;
use crate::factors::authored;
use crate::geo::km_decimal;
use crate::places;
use crate::route::{CabinClass, FlightRoute};

const FUEL: &str = include_str!("../../data/eea_fuel_burn_2023.csv");
const SEATS: &str = include_str!("../../data/seat_configs.csv");
const AIRPORT_PAIRS: &str = include_str!("../../data/gaia_2019_airport_pairs.csv");
const COUNTRY_PAIRS: &str = include_str!("../../data/gaia_2019_country_pairs.csv");

/// The fuel table's citation.
pub const FUEL_SOURCE: &str = "EMEP/EEA air pollutant emission inventory guidebook 2023, 1.A.3.a Aviation, Master Emissions Calculator v1.5 (2024-09-18)";

/// Kilometres per nautical mile.
const KM_PER_NM: Decimal = Decimal::from_parts(1852, 0, 0, false, 3);

/// Typical seats of a type, by cabin.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Seats {
    /// A wide-body (its premium cabins weigh more).
    pub wide: bool,
    pub first: u32,
    pub business: u32,
    pub premium_economy: u32,
    pub economy: u32,
}

impl Seats {
    /// Every seat.
    pub fn total(&self) -> u32 {
        self.first + self.business + self.premium_economy + self.economy
    }

    /// The seat-area factor of a cabin (IATA RP 1726 as the TIM uses it):
    /// narrow-body 1, 1, 1.5, 1.5; wide-body 1, 1.5, 4, 5 (economy, premium
    /// economy, business, first).
    pub fn cabin_factor(&self, cabin: CabinClass) -> Decimal {
        match (self.wide, cabin) {
            (_, CabinClass::Economy) => Decimal::ONE,
            (false, _) => Decimal::new(15, 1),
            (true, CabinClass::Business) => Decimal::from(4),
            (true, CabinClass::First) => Decimal::from(5),
        }
    }

    /// Seats weighted by their cabin's factor, premium economy at 1.5 on a
    /// wide-body (1 on a narrow-body): economy seats' worth of floor.
    pub fn equivalent_capacity(&self) -> Decimal {
        let premium = if self.wide {
            Decimal::new(15, 1)
        } else {
            Decimal::ONE
        };
        Decimal::from(self.economy)
            + premium * Decimal::from(self.premium_economy)
            + self.cabin_factor(CabinClass::Business) * Decimal::from(self.business)
            + self.cabin_factor(CabinClass::First) * Decimal::from(self.first)
    }
}

/// One aircraft type of the EEA table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Aircraft {
    /// ICAO type designator, e.g. `B789`.
    pub icao: &'static str,
    /// Fuel of the landing and take-off cycle, kg.
    pub lto_kg: Decimal,
    /// CCD fuel (kg) at distances (NM), ascending.
    ccd: Vec<(Decimal, Decimal)>,
    /// The type's typical seats, if it is an airliner with a known configuration.
    pub seats: Option<Seats>,
}

impl Aircraft {
    /// CCD fuel (kg) over `nm`, linear between the table's points and
    /// extrapolated from its first or last two beyond them, never negative.
    pub fn ccd_kg(&self, nm: Decimal) -> Decimal {
        let n = self.ccd.len();
        if n < 2 || nm <= Decimal::ZERO {
            return Decimal::ZERO;
        }
        let i = self
            .ccd
            .iter()
            .position(|(d, _)| *d >= nm)
            .unwrap_or(n - 1)
            .clamp(1, n - 1);
        let (Some(&(d0, f0)), Some(&(d1, f1))) = (self.ccd.get(i - 1), self.ccd.get(i)) else {
            return Decimal::ZERO;
        };
        if d1 == d0 {
            return f1;
        }
        (f0 + (nm - d0) * (f1 - f0) / (d1 - d0)).max(Decimal::ZERO)
    }
}

struct Tables {
    aircraft: HashMap<&'static str, Aircraft>,
    /// The configuration of a type without its own (`_default`).
    default_seats: Seats,
    airport_pairs: HashMap<&'static str, Decimal>,
    country_pairs: HashMap<&'static str, Decimal>,
}

fn rows(text: &'static str) -> impl Iterator<Item = &'static str> {
    text.lines().filter(|l| !l.starts_with('#')).skip(1)
}

fn pairs(text: &'static str) -> HashMap<&'static str, Decimal> {
    rows(text)
        .filter_map(|l| {
            let (pair, ratio) = l.split_once(',')?;
            Some((pair, ratio.parse().ok()?))
        })
        .collect()
}

fn tables() -> &'static Tables {
    static T: OnceLock<Tables> = OnceLock::new();
    T.get_or_init(|| {
        let seats: HashMap<&str, Seats> = rows(SEATS)
            .filter_map(|l| {
                let c: Vec<&str> = l.split(',').collect();
                let n = |i: usize| c.get(i).and_then(|v| v.parse::<u32>().ok());
                Some((
                    *c.first()?,
                    Seats {
                        wide: *c.get(1)? == "wide",
                        first: n(2)?,
                        business: n(3)?,
                        premium_economy: n(4)?,
                        economy: n(5)?,
                    },
                ))
            })
            .collect();
        let aircraft = rows(FUEL)
            .filter_map(|l| {
                let mut c = l.splitn(3, ',');
                let icao = c.next()?;
                let lto_kg = c.next()?.parse().ok()?;
                let ccd = c
                    .next()?
                    .split(' ')
                    .filter_map(|p| {
                        let (nm, kg) = p.split_once(':')?;
                        Some((nm.parse().ok()?, kg.parse().ok()?))
                    })
                    .collect();
                Some((
                    icao,
                    Aircraft {
                        icao,
                        lto_kg,
                        ccd,
                        seats: seats.get(icao).copied(),
                    },
                ))
            })
            .collect();
        let default_seats = seats.get("_default").copied().unwrap_or(Seats {
            wide: false,
            first: 0,
            business: 0,
            premium_economy: 0,
            economy: 50,
        });
        Tables {
            aircraft,
            default_seats,
            airport_pairs: pairs(AIRPORT_PAIRS),
            country_pairs: pairs(COUNTRY_PAIRS),
        }
    })
}

/// Designators the official client lists that the EEA table names
/// otherwise: the A380-800 is `A388`; the An-158, a stretched An-148, takes
/// the An-148's figures (the TIM's "similar aircraft" fallback).
const ALIASES: [(&str, &str); 2] = [("A380", "A388"), ("A158", "A148")];

/// The aircraft of an ICAO type designator (case-insensitive).
pub fn aircraft(code: &str) -> Option<&'static Aircraft> {
    let code = code.trim().to_ascii_uppercase();
    let code = ALIASES
        .iter()
        .find(|(alias, _)| *alias == code)
        .map_or(code.as_str(), |(_, to)| to);
    tables().aircraft.get(code)
}

/// [`aircraft`], or a 400 naming the value.
pub fn require(field: &str, code: &str) -> Result<&'static Aircraft, EstimateError> {
    aircraft(code).ok_or_else(|| EstimateError::Invalid {
        field: field.to_owned(),
        reason: format!(
            "`{code}` is not an ICAO aircraft type of the EEA fuel table (e.g. B789, A320, B38M)"
        ),
    })
}

/// Where a flown-distance ratio came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RatioSource {
    /// GAIA 2019, this airport pair.
    AirportPair,
    /// GAIA 2019, this country pair.
    CountryPair,
    /// Teoh et al.'s 2019 mean, no pair known.
    Default,
    /// A distance the request gave is taken as flown.
    AsGiven,
}

/// One flight of a type: its distance and fuel.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FlightFuel {
    pub aircraft: &'static Aircraft,
    /// Great-circle (or given) distance, km.
    pub km: Decimal,
    /// Flown ÷ great-circle distance.
    pub ratio: Decimal,
    pub ratio_source: RatioSource,
    /// The flown distance less the LTO cycle's 17 NM (never negative), NM.
    pub ccd_nm: Decimal,
    /// CCD fuel, kg.
    pub ccd_kg: Decimal,
    /// LTO + CCD fuel, kg.
    pub fuel_kg: Decimal,
}

impl FlightFuel {
    /// Tank-to-wake CO2e of the whole flight, kg.
    pub fn ttw_kg(&self) -> Decimal {
        self.fuel_kg * authored::TIM_JET_FUEL_TTW.value()
    }

    /// Well-to-wake CO2e of the whole flight, kg: tank-to-wake + well-to-tank
    /// (3.1894 + 0.6465 = 3.8359 kg per kg of fuel, the TIM 3.0 table).
    pub fn wtw_kg(&self) -> Decimal {
        self.fuel_kg * (authored::TIM_JET_FUEL_TTW.value() + authored::TIM_JET_FUEL_WTT.value())
    }

    /// The belly-cargo share of the payload mass (the TIM's cargo mass fraction).
    pub fn cargo_mass_fraction(&self) -> Decimal {
        if self.passenger_seats().wide {
            authored::CARGO_MASS_FRACTION_WIDE.value()
        } else {
            authored::CARGO_MASS_FRACTION_NARROW.value()
        }
    }

    /// The seats passengers are allocated over: the type's, or the
    /// `_default` configuration (50 economy seats, narrow-body) for a type
    /// without one.
    pub fn passenger_seats(&self) -> Seats {
        self.aircraft.seats.unwrap_or(tables().default_seats)
    }

    /// The share of the flight's emissions one passenger of `cabin` carries:
    /// (1 − cargo share) × cabin factor ÷ (equivalent capacity × load factor).
    pub fn passenger_share(&self, cabin: CabinClass) -> Option<Decimal> {
        let seats = self.passenger_seats();
        let capacity = seats.equivalent_capacity() * authored::TIM_LOAD_FACTOR.value();
        if capacity.is_zero() {
            return None;
        }
        Some((Decimal::ONE - self.cargo_mass_fraction()) * seats.cabin_factor(cabin) / capacity)
    }

    /// The share of the flight's emissions `kg` of belly freight carries: by
    /// payload mass, each passenger 100 kg with baggage, the passengers the
    /// seats × load factor, the cargo the cargo mass fraction of the payload.
    /// `None` for a type without a seat configuration (a freighter: Tonne
    /// has no open payload capacities).
    pub fn freight_share(&self, kg: Decimal) -> Option<Decimal> {
        let payload = self.payload_kg()?;
        (!payload.is_zero()).then(|| kg / payload)
    }

    /// The flight's payload mass (passengers and belly cargo), kg.
    pub fn payload_kg(&self) -> Option<Decimal> {
        let seats = self.aircraft.seats?;
        let passengers = Decimal::from(seats.total())
            * authored::TIM_LOAD_FACTOR.value()
            * authored::TIM_PASSENGER_MASS_KG.value();
        let rest = Decimal::ONE - self.cargo_mass_fraction();
        (!rest.is_zero()).then(|| passengers / rest)
    }
}

/// The flown distance's ratio for a pair of airports.
fn ratio(a: &places::Airport, b: &places::Airport) -> (Decimal, RatioSource) {
    let t = tables();
    if let (Some(x), Some(y)) = (a.icao(), b.icao())
        && let Some(r) = t.airport_pairs.get(format!("{x}-{y}").as_str())
    {
        return (*r, RatioSource::AirportPair);
    }
    if let Some(r) = t
        .country_pairs
        .get(format!("{}-{}", a.country(), b.country()).as_str())
    {
        return (*r, RatioSource::CountryPair);
    }
    (
        authored::TIM_DEFAULT_DISTANCE_RATIO.value(),
        RatioSource::Default,
    )
}

/// The fuel of a flight of `aircraft` over `route`.
pub fn flight_fuel(
    field: &str,
    aircraft: &'static Aircraft,
    route: &FlightRoute,
) -> Result<FlightFuel, EstimateError> {
    let (km, ratio, ratio_source) = match route {
        FlightRoute::Distance(d) => (d.km(), Decimal::ONE, RatioSource::AsGiven),
        FlightRoute::Airports {
            source,
            destination,
        } => {
            let (a, b) = places::airport_pair(field, source, destination)?;
            let km = km_decimal(a.position.km_to(&b.position));
            let (r, s) = ratio(&a, &b);
            (km, r, s)
        }
    };
    Ok(fuel_over(aircraft, km, ratio, ratio_source))
}

/// The fuel of a flight of `aircraft` over a great-circle distance between
/// two places that are not both airports (the default flown-distance ratio).
pub fn great_circle_fuel(aircraft: &'static Aircraft, km: Decimal) -> FlightFuel {
    fuel_over(
        aircraft,
        km,
        authored::TIM_DEFAULT_DISTANCE_RATIO.value(),
        RatioSource::Default,
    )
}

fn fuel_over(
    aircraft: &'static Aircraft,
    km: Decimal,
    ratio: Decimal,
    ratio_source: RatioSource,
) -> FlightFuel {
    let ccd_nm = (km * ratio / KM_PER_NM - authored::TIM_LTO_NM.value()).max(Decimal::ZERO);
    let ccd_kg = aircraft.ccd_kg(ccd_nm);
    FlightFuel {
        aircraft,
        km,
        ratio,
        ratio_source,
        ccd_nm,
        ccd_kg,
        fuel_kg: aircraft.lto_kg + ccd_kg,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::units::Distance;

    fn d(s: &str) -> Decimal {
        s.parse().unwrap()
    }

    #[test]
    fn the_eea_check_figures_of_sources_section_12() {
        let b789 = aircraft("B789").unwrap();
        assert_eq!(b789.lto_kg, d("1638.46"));
        assert_eq!(b789.ccd_kg(d("500")), d("5851.61"));
        assert_eq!(b789.ccd_kg(d("5000")), d("52961.55"));
        // the TIM's own example: 5250 NM is halfway between 5000 and 5500
        assert_eq!(b789.ccd_kg(d("5250")), d("55516.74"));
        // extrapolated beyond the table and below it, never negative
        assert!(b789.ccd_kg(d("9000")) > b789.ccd_kg(d("8000")));
        assert_eq!(b789.ccd_kg(d("-3")), Decimal::ZERO);
        assert_eq!(
            b789.seats.map(|s| (s.wide, s.business, s.economy)),
            Some((true, 28, 262))
        );
        assert_eq!(aircraft("a380").map(|a| a.icao), Some("A388"));
        assert!(aircraft("B7X9").is_none());
        assert!(require("aircraft_type", "ZZZZ").is_err());
    }

    /// The TIM document's worked example, ZRH–SFO on a B789 with 48 business,
    /// 21 premium economy and 188 economy seats, figures by hand from it.
    #[test]
    fn the_tim_worked_example_by_hand() {
        let b789 = aircraft("B789").unwrap();
        let f = flight_fuel(
            "route",
            b789,
            &FlightRoute::Airports {
                source: "ZRH".into(),
                destination: "SFO".into(),
            },
        )
        .unwrap();
        // GAIA's LSZH-KSFO ratio, as in the example
        assert_eq!(f.ratio, d("1.0273"));
        assert_eq!(f.ratio_source, RatioSource::AirportPair);
        // 9369 km great-circle in the example; our airport positions give the same to 0.1 %
        assert!((f.km - d("9369")).abs() < d("10"), "{}", f.km);
        // CCD at 5180 NM: 52961.55 + 180 × (58071.93 − 52961.55) / 500 = 54801.29
        let at_5180 = b789.ccd_kg(d("5180"));
        assert_eq!(at_5180, d("54801.2868"));
        // the example's total, 56440 kg of fuel, within 0.1 % (our airport
        // reference points put the great circle a few km longer)
        assert!((f.fuel_kg - d("56440")).abs() < d("56.44"), "{}", f.fuel_kg);
        // the example's seat areas: 0 × 5 + 48 × 4 + 21 × 1.5 + 188 = 411.5
        let seats = Seats {
            wide: true,
            first: 0,
            business: 48,
            premium_economy: 21,
            economy: 188,
        };
        assert_eq!(seats.equivalent_capacity(), d("411.5"));
        // economy, tank-to-wake, per passenger: 56440 × 3.1894 × 0.92 ÷ 411.5 ÷ 0.845 = 476.27 kg
        let per = d("56440") * d("3.1894") * d("0.92") / d("411.5") / d("0.845");
        assert_eq!(per.round_dp(2), d("476.27"));
    }

    #[test]
    fn shares_follow_seats_and_payload() {
        let a320 = aircraft("A320").unwrap();
        let f = flight_fuel(
            "route",
            a320,
            &FlightRoute::Distance(Distance::from_km(d("1000"))),
        )
        .unwrap();
        assert_eq!(f.ratio_source, RatioSource::AsGiven);
        // narrow-body: 12 business, 138 economy → 12 × 1.5 + 138 = 156 seats of floor
        let economy = f.passenger_share(CabinClass::Economy).unwrap();
        assert_eq!(
            economy.round_dp(20),
            (Decimal::ONE / (d("156") * d("0.845"))).round_dp(20)
        );
        assert_eq!(
            f.passenger_share(CabinClass::Business)
                .unwrap()
                .round_dp(20),
            (economy * d("1.5")).round_dp(20)
        );
        // 1 t of belly freight on 150 seats × 0.845 × 100 kg = 12,675 kg of payload
        assert_eq!(f.freight_share(d("1000")).unwrap(), d("1000") / d("12675"));
        // a freighter-only type has no seats: no share
        let an12 = aircraft("AN12").unwrap();
        let g = flight_fuel(
            "route",
            an12,
            &FlightRoute::Distance(Distance::from_km(d("1000"))),
        )
        .unwrap();
        assert_eq!(g.freight_share(d("1000")), None);
    }
}
