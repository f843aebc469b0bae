//! Figures Tonne states itself: published numbers transcribed by hand (with
//! their citation) and Tonne's own assumptions (marked `[A]`), each replaceable
//! when a better source turns up. `docs/methodology.md` lists them all.

use super::Factor;

// --- Diet (Scarborough et al. 2014) -------------------------------------------

const SCARBOROUGH: &str = "Scarborough et al. 2014, Climatic Change 125:179-192, doi:10.1007/s10584-014-1169-1, age/sex-adjusted means, 2000 kcal/day (UK EPIC-Oxford)";

/// High meat-eaters (≥100 g meat/day): 7.19 kg CO2e per day.
pub const DIET_HIGH_MEAT: Factor =
    Factor::named("DIET_HIGH_MEAT", 719, 2, SCARBOROUGH, "kg CO2e/day");
/// Medium meat-eaters (50–99 g/day): 5.63 kg CO2e per day.
pub const DIET_MEDIUM_MEAT: Factor =
    Factor::named("DIET_MEDIUM_MEAT", 563, 2, SCARBOROUGH, "kg CO2e/day");
/// Low meat-eaters (<50 g/day): 4.67 kg CO2e per day.
pub const DIET_LOW_MEAT: Factor =
    Factor::named("DIET_LOW_MEAT", 467, 2, SCARBOROUGH, "kg CO2e/day");
/// Fish-eaters: 3.91 kg CO2e per day.
pub const DIET_FISH: Factor = Factor::named("DIET_FISH", 391, 2, SCARBOROUGH, "kg CO2e/day");
/// Vegetarians: 3.81 kg CO2e per day.
pub const DIET_VEGETARIAN: Factor =
    Factor::named("DIET_VEGETARIAN", 381, 2, SCARBOROUGH, "kg CO2e/day");
/// Vegans: 2.89 kg CO2e per day.
pub const DIET_VEGAN: Factor = Factor::named("DIET_VEGAN", 289, 2, SCARBOROUGH, "kg CO2e/day");

// --- Exchange rates -----------------------------------------------------------

const ECB_2022: &str = "ECB euro foreign exchange reference rates, annual average 2022 (transcribed; matches the USD-2022 base of USEEIO v1.3.0)";

/// US dollars per euro, 2022 average: 1.0530.
pub const USD_PER_EUR: Factor = Factor::named("USD_PER_EUR", 10530, 4, ECB_2022, "USD/EUR");
/// Pounds sterling per euro, 2022 average: 0.85276.
pub const GBP_PER_EUR: Factor = Factor::named("GBP_PER_EUR", 85276, 5, ECB_2022, "GBP/EUR");
/// Swiss francs per euro, 2022 average: 1.0047.
pub const CHF_PER_EUR: Factor = Factor::named("CHF_PER_EUR", 10047, 4, ECB_2022, "CHF/EUR");
/// Swedish kronor per euro, 2022 average: 10.6296.
pub const SEK_PER_EUR: Factor = Factor::named("SEK_PER_EUR", 106296, 4, ECB_2022, "SEK/EUR");
/// Danish kroner per euro, 2022 average: 7.4396.
pub const DKK_PER_EUR: Factor = Factor::named("DKK_PER_EUR", 74396, 4, ECB_2022, "DKK/EUR");
/// Norwegian kroner per euro, 2022 average: 10.1026.
pub const NOK_PER_EUR: Factor = Factor::named("NOK_PER_EUR", 101026, 4, ECB_2022, "NOK/EUR");
/// Polish złoty per euro, 2022 average: 4.6861.
pub const PLN_PER_EUR: Factor = Factor::named("PLN_PER_EUR", 46861, 4, ECB_2022, "PLN/EUR");

// --- Distances and activity assumptions [A] -------------------------------------

/// [A] Road, rail and inland-waterway distance from great-circle distance: × 1.2.
pub const CIRCUITY_SURFACE: Factor = Factor::named(
    "CIRCUITY_SURFACE",
    12,
    1,
    "[A] Tonne assumption: detour factor for surface transport without a router",
    "km/km GCD",
);
/// Great-circle distance threshold below which a flight is "domestic" (DESNZ haul guidance: < 500 km).
pub const DOMESTIC_FLIGHT_KM: Factor = Factor::named(
    "DOMESTIC_FLIGHT_KM",
    500,
    0,
    "DESNZ 2025 methodology: domestic flights are typically under 500 km",
    "km",
);
/// Short-haul / long-haul boundary (DESNZ 2025: short-haul flights are under 3,700 km).
pub const SHORT_HAUL_LIMIT_KM: Factor = Factor::named(
    "SHORT_HAUL_LIMIT_KM",
    3700,
    0,
    "DESNZ 2025 methodology: short-haul < 3,700 km",
    "km",
);
/// [A] Typical great-circle distance of a "short" (< 3 h) flight.
pub const SHORT_FLIGHT_KM: Factor = Factor::named(
    "SHORT_FLIGHT_KM",
    1100,
    0,
    "[A] Tonne assumption: typical < 3 h flight",
    "km",
);
/// [A] Typical great-circle distance of a "medium" (3–6 h) flight.
pub const MEDIUM_FLIGHT_KM: Factor = Factor::named(
    "MEDIUM_FLIGHT_KM",
    3000,
    0,
    "[A] Tonne assumption: typical 3–6 h flight",
    "km",
);
/// [A] Typical great-circle distance of a "long" (> 6 h) flight.
pub const LONG_FLIGHT_KM: Factor = Factor::named(
    "LONG_FLIGHT_KM",
    8000,
    0,
    "[A] Tonne assumption: typical > 6 h flight",
    "km",
);
/// [A] Yearly public-transport commute of one employee: 2 × 10 km × 220 days.
pub const COMMUTE_PKM_PER_YEAR: Factor = Factor::named(
    "COMMUTE_PKM_PER_YEAR",
    4400,
    0,
    "[A] Tonne assumption: 2 trips × 10 km × 220 working days",
    "passenger.km/year",
);
/// [A] One public-transport day of an individual: 2 trips × 10 km.
pub const COMMUTE_PKM_PER_DAY: Factor = Factor::named(
    "COMMUTE_PKM_PER_DAY",
    20,
    0,
    "[A] Tonne assumption: 2 trips × 10 km",
    "passenger.km/day",
);
/// [A] Weeks of commuting per year for an individual (52 less holidays).
pub const COMMUTE_WEEKS_PER_YEAR: Factor = Factor::named(
    "COMMUTE_WEEKS_PER_YEAR",
    46,
    0,
    "[A] Tonne assumption: 52 weeks less 6 of holidays",
    "weeks/year",
);
/// [A] Working hours of one full-time employee per year: 7.5 h × 220 days.
pub const FTE_HOURS_PER_YEAR: Factor = Factor::named(
    "FTE_HOURS_PER_YEAR",
    1650,
    0,
    "[A] Tonne assumption: 7.5 h × 220 working days",
    "h/year",
);
/// Default yearly distance of an individual's car (the contract's default).
pub const DEFAULT_CAR_KM: Factor = Factor::named(
    "DEFAULT_CAR_KM",
    8000,
    0,
    "Lune contract default for average_car_distance_travelled",
    "km/year",
);

// --- Offices (CIBSE TM46:2008 benchmarks) -----------------------------------------

const TM46: &str = "CIBSE TM46:2008 energy benchmarks, category 'General office' (typical)";

/// General office electricity: 95 kWh per m² per year.
pub const OFFICE_ELECTRICITY_KWH_PER_M2: Factor =
    Factor::named("OFFICE_ELECTRICITY_KWH_PER_M2", 95, 0, TM46, "kWh/m²/year");
/// General office fossil thermal energy: 120 kWh per m² per year.
pub const OFFICE_HEAT_KWH_PER_M2: Factor =
    Factor::named("OFFICE_HEAT_KWH_PER_M2", 120, 0, TM46, "kWh/m²/year");

// --- Electricity tariffs for on-premise tech [A] -----------------------------------

/// [A] Business electricity price used to turn an electricity bill into kWh, per currency (major units per kWh).
pub const TARIFF_SOURCE: &str =
    "[A] Tonne assumption: indicative 2024 business electricity prices per kWh";

// --- Flights by aircraft type (Travel Impact Model 3.0.0) -------------------------

const TIM: &str = "Google Travel Impact Model 3.0.0 methodology (CC BY 4.0)";

/// Jet fuel burnt, tank-to-wake: 3.1894 kg CO2e per kg (CORSIA 74 g CO2e/MJ ×
/// ISO 14083 lower heating value 43.1 MJ/kg), as the TIM uses it.
pub const TIM_JET_FUEL_TTW: Factor = Factor::named(
    "TIM_JET_FUEL_TTW",
    31894,
    4,
    "Google Travel Impact Model 3.0.0 (CC BY 4.0): CORSIA LCA methodology v6 table 5, 74 g CO2e/MJ × ISO 14083 table K.1/K.3 LHV 43.1 MJ/kg",
    "kg CO2e/kg fuel",
);
/// Jet fuel, well-to-tank: 0.6465 kg CO2e per kg (CORSIA 15 g CO2e/MJ × 43.1).
pub const TIM_JET_FUEL_WTT: Factor = Factor::named(
    "TIM_JET_FUEL_WTT",
    6465,
    4,
    "Google Travel Impact Model 3.0.0 (CC BY 4.0): CORSIA LCA methodology v6, WTW 89 − TTW 74 = 15 g CO2e/MJ × 43.1 MJ/kg",
    "kg CO2e/kg fuel (well-to-tank)",
);
/// The distance the EEA model flies within the LTO cycle: 17 NM.
pub const TIM_LTO_NM: Factor = Factor::named("TIM_LTO_NM", 17, 0, TIM, "NM");
/// Flown ÷ great-circle distance where GAIA has no pair: 1.052 (Teoh et al.
/// 2023, mean lateral inefficiency of 2019).
pub const TIM_DEFAULT_DISTANCE_RATIO: Factor =
    Factor::named("TIM_DEFAULT_DISTANCE_RATIO", 1052, 3, TIM, "ratio");
/// Passenger load factor where no carrier data is known: 84.5 % (US 2019, FRED LOADFACTOR).
pub const TIM_LOAD_FACTOR: Factor = Factor::named("TIM_LOAD_FACTOR", 845, 3, TIM, "ratio");
/// Mass of a passenger with baggage: 100 kg (ISO 14083 A.4.2, as the TIM uses it).
pub const TIM_PASSENGER_MASS_KG: Factor = Factor::named("TIM_PASSENGER_MASS_KG", 100, 0, TIM, "kg");
/// `[A]` Belly-cargo share of a wide-body's payload mass: 8 %, the TIM's
/// worked example (ZRH–SFO, B789); the TIM's own figures come from BTS T-100
/// data by route and distance band that Tonne does not carry.
pub const CARGO_MASS_FRACTION_WIDE: Factor = Factor::named(
    "CARGO_MASS_FRACTION_WIDE",
    8,
    2,
    "[A] Tonne: the Travel Impact Model 3.0.0 worked example's cargo mass fraction",
    "ratio",
);
/// `[A]` Belly-cargo share of a narrow-body's payload mass: 0 (holds carry
/// baggage; no open per-type figure).
pub const CARGO_MASS_FRACTION_NARROW: Factor = Factor::named(
    "CARGO_MASS_FRACTION_NARROW",
    0,
    0,
    "[A] Tonne: no open cargo mass fraction for narrow-bodies; baggage fills the holds",
    "ratio",
);

// --- Freight assumptions ------------------------------------------------------------

/// Mass of an average loaded TEU: 10 t (GLEC Framework default payload per TEU, average cargo).
pub const TEU_AVERAGE_T: Factor = Factor::named(
    "TEU_AVERAGE_T",
    10,
    0,
    "GLEC Framework v2 default: 10 t per TEU (average cargo), as widely cited",
    "t/TEU",
);
/// Light cargo: 6 t per TEU.
pub const TEU_LIGHT_T: Factor = Factor::named(
    "TEU_LIGHT_T",
    6,
    0,
    "GLEC Framework v2 default: 6 t per TEU (light cargo), as widely cited",
    "t/TEU",
);
/// Heavy cargo: 14.5 t per TEU.
pub const TEU_HEAVY_T: Factor = Factor::named(
    "TEU_HEAVY_T",
    145,
    1,
    "GLEC Framework v2 default: 14.5 t per TEU (heavy cargo), as widely cited",
    "t/TEU",
);
/// An empty container (tare) of 2.3 t per TEU.
pub const TEU_EMPTY_T: Factor = Factor::named(
    "TEU_EMPTY_T",
    23,
    1,
    "[A] Tonne assumption: tare of a 20-foot container",
    "t/TEU",
);
/// [A] Refrigerated container transport against dry: × 1.25.
pub const REEFER_UPLIFT: Factor = Factor::named(
    "REEFER_UPLIFT",
    125,
    2,
    "[A] Tonne assumption: reefer power demand over dry containers",
    "ratio",
);
/// [A] LNG-fuelled vessel against HFO: × 0.85.
pub const LNG_RATIO: Factor = Factor::named(
    "LNG_RATIO",
    85,
    2,
    "[A] Tonne assumption: LNG well-to-wake against HFO",
    "ratio",
);
/// [A] Bulk carrier with a heavy load against an average one: × 0.9.
pub const HEAVY_LOAD_RATIO: Factor = Factor::named(
    "HEAVY_LOAD_RATIO",
    9,
    1,
    "[A] Tonne assumption: better utilisation when heavily laden",
    "ratio",
);

const IWW: &str = "[A] Tonne assumption pending GLEC inland-waterway defaults (no openly licensed table; DESNZ has none)";
/// Inland waterway motor vessel, small: 0.045 kg CO2e/t·km.
pub const IWW_MOTOR_SMALL: Factor =
    Factor::named("IWW_MOTOR_SMALL", 45, 3, IWW, "kg CO2e/tonne.km");
/// Inland waterway motor vessel, medium.
pub const IWW_MOTOR_MEDIUM: Factor =
    Factor::named("IWW_MOTOR_MEDIUM", 38, 3, IWW, "kg CO2e/tonne.km");
/// Inland waterway motor vessel, large.
pub const IWW_MOTOR_LARGE: Factor =
    Factor::named("IWW_MOTOR_LARGE", 32, 3, IWW, "kg CO2e/tonne.km");
/// Inland waterway coupled convoy.
pub const IWW_COUPLED: Factor = Factor::named("IWW_COUPLED", 27, 3, IWW, "kg CO2e/tonne.km");
/// Inland waterway pushed convoy, small.
pub const IWW_PUSHED_SMALL: Factor =
    Factor::named("IWW_PUSHED_SMALL", 33, 3, IWW, "kg CO2e/tonne.km");
/// Inland waterway pushed convoy, medium.
pub const IWW_PUSHED_MEDIUM: Factor =
    Factor::named("IWW_PUSHED_MEDIUM", 26, 3, IWW, "kg CO2e/tonne.km");
/// Inland waterway pushed convoy, large.
pub const IWW_PUSHED_LARGE: Factor =
    Factor::named("IWW_PUSHED_LARGE", 22, 3, IWW, "kg CO2e/tonne.km");
/// Inland waterway tanker.
pub const IWW_TANKER: Factor = Factor::named("IWW_TANKER", 32, 3, IWW, "kg CO2e/tonne.km");
/// Inland waterway container vessel, medium.
pub const IWW_CONTAINER_MEDIUM: Factor =
    Factor::named("IWW_CONTAINER_MEDIUM", 34, 3, IWW, "kg CO2e/tonne.km");
/// Inland waterway container vessel, large.
pub const IWW_CONTAINER_LARGE: Factor =
    Factor::named("IWW_CONTAINER_LARGE", 28, 3, IWW, "kg CO2e/tonne.km");
/// Inland waterway container vessel convoy.
pub const IWW_CONTAINER_CONVOY: Factor =
    Factor::named("IWW_CONTAINER_CONVOY", 20, 3, IWW, "kg CO2e/tonne.km");

/// The emission factors of this file (the rest are conversion constants and
/// assumptions): what the factor catalogue lists from it.
pub const EMISSION_FACTORS: &[Factor] = &[
    TIM_JET_FUEL_TTW,
    DIET_HIGH_MEAT,
    DIET_MEDIUM_MEAT,
    DIET_LOW_MEAT,
    DIET_FISH,
    DIET_VEGETARIAN,
    DIET_VEGAN,
    IWW_MOTOR_SMALL,
    IWW_MOTOR_MEDIUM,
    IWW_MOTOR_LARGE,
    IWW_COUPLED,
    IWW_PUSHED_SMALL,
    IWW_PUSHED_MEDIUM,
    IWW_PUSHED_LARGE,
    IWW_TANKER,
    IWW_CONTAINER_MEDIUM,
    IWW_CONTAINER_LARGE,
    IWW_CONTAINER_CONVOY,
];
