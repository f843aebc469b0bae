//! Default emission intensities of logistics sites (hubs), kg CO2e per
//! tonne handled, well-to-wheel.
//!
//! Source: **GLEC Framework for Logistics Emissions Accounting and Reporting,
//! v3.0** (Smart Freight Centre, 2023; revised edition of 2024-04-02), Part 3
//! "Data" (pp. 75–124), default emission intensity values for logistics
//! sites (hub operation categories), derived there from Fraunhofer IML's
//! hub data (Dobers et al., *Guide for Greenhouse Gas Emissions Accounting
//! at Logistics Sites*, Fraunhofer Verlag, 2019).
//!
//! Transcription: the ten figures below as a public methodology note
//! transcribes that table ("Transshipment emission factors": Transshipment,
//! Storage + Transshipment, Warehouse, Liquid Bulk Terminals, Maritime
//! Container Terminals; ambient, temperature-controlled and mixed columns).
//! Tonne could not open the PDF here: the exact table number and page
//! inside pp. 75–124 are **not verified** — checking them against the
//! publication is an open item (docs/methodology.md).
//!
//! Licence and citation terms: the GLEC Framework is © Smart Freight Centre
//! and not openly licensed (`shared/data/SOURCES.md` §4); no copy of it or of
//! its tables is carried. These are individual published default values,
//! quoted as facts with this citation, as Smart Freight Centre asks users of
//! the Framework to cite it: "Smart Freight Centre (2023). Global Logistics
//! Emissions Council Framework for Logistics Emissions Accounting and
//! Reporting, v3.0".
//!
//! Boundary: the Framework's hub defaults are well-to-wheel (the energy of
//! the site's buildings and handling equipment, with its production) per
//! tonne passing through; they are **not split** by energy carrier. Tonne's
//! split `[A]`: the whole figure is well-to-tank (ISO 14083 counts the
//! emissions of electricity, the main energy of these sites, upstream of its
//! use: its tank-to-wheel part is zero), so `wtt = figure × tonnes`,
//! `ttw = 0`. See `crate::shipping::hubs`.

use super::Factor;

const GLEC_V3: &str = "GLEC Framework v3.0 (Smart Freight Centre, 2023; rev. 2024-04-02), Part 3 Data pp. 75-124, logistics-site default intensity (from Fraunhofer IML 2019)";

const UNIT: &str = "kg CO2e/t";

/// Transhipment site, ambient: 0.6 kg CO2e per tonne.
pub const HUB_TRANSHIPMENT_AMBIENT: Factor =
    Factor::named("HUB_TRANSHIPMENT_AMBIENT", 6, 1, GLEC_V3, UNIT);
/// Transhipment site, mixed (ambient and temperature-controlled): 2.2 kg CO2e per tonne.
pub const HUB_TRANSHIPMENT_MIXED: Factor =
    Factor::named("HUB_TRANSHIPMENT_MIXED", 22, 1, GLEC_V3, UNIT);
/// Storage and transhipment, ambient: 2.1 kg CO2e per tonne.
pub const HUB_STORAGE_TRANSHIPMENT_AMBIENT: Factor =
    Factor::named("HUB_STORAGE_TRANSHIPMENT_AMBIENT", 21, 1, GLEC_V3, UNIT);
/// Storage and transhipment, mixed: 4.0 kg CO2e per tonne.
pub const HUB_STORAGE_TRANSHIPMENT_MIXED: Factor =
    Factor::named("HUB_STORAGE_TRANSHIPMENT_MIXED", 40, 1, GLEC_V3, UNIT);
/// Warehouse, ambient: 17.5 kg CO2e per tonne.
pub const HUB_WAREHOUSE_AMBIENT: Factor =
    Factor::named("HUB_WAREHOUSE_AMBIENT", 175, 1, GLEC_V3, UNIT);
/// Warehouse, mixed: 33.0 kg CO2e per tonne.
pub const HUB_WAREHOUSE_MIXED: Factor = Factor::named("HUB_WAREHOUSE_MIXED", 330, 1, GLEC_V3, UNIT);
/// Liquid bulk terminal, ambient: 3.1 kg CO2e per tonne.
pub const HUB_LIQUID_BULK_AMBIENT: Factor =
    Factor::named("HUB_LIQUID_BULK_AMBIENT", 31, 1, GLEC_V3, UNIT);
/// Liquid bulk terminal, mixed: 8.1 kg CO2e per tonne.
pub const HUB_LIQUID_BULK_MIXED: Factor =
    Factor::named("HUB_LIQUID_BULK_MIXED", 81, 1, GLEC_V3, UNIT);
/// Maritime container terminal, ambient: 10.7 kg CO2e per tonne.
pub const HUB_CONTAINER_TERMINAL_AMBIENT: Factor =
    Factor::named("HUB_CONTAINER_TERMINAL_AMBIENT", 107, 1, GLEC_V3, UNIT);
/// Maritime container terminal, temperature-controlled: 12.6 kg CO2e per tonne.
pub const HUB_CONTAINER_TERMINAL_TEMPERATURE_CONTROLLED: Factor = Factor::named(
    "HUB_CONTAINER_TERMINAL_TEMPERATURE_CONTROLLED",
    126,
    1,
    GLEC_V3,
    UNIT,
);

/// Every hub factor, for the catalogue and the tests.
pub const ALL: [Factor; 10] = [
    HUB_TRANSHIPMENT_AMBIENT,
    HUB_TRANSHIPMENT_MIXED,
    HUB_STORAGE_TRANSHIPMENT_AMBIENT,
    HUB_STORAGE_TRANSHIPMENT_MIXED,
    HUB_WAREHOUSE_AMBIENT,
    HUB_WAREHOUSE_MIXED,
    HUB_LIQUID_BULK_AMBIENT,
    HUB_LIQUID_BULK_MIXED,
    HUB_CONTAINER_TERMINAL_AMBIENT,
    HUB_CONTAINER_TERMINAL_TEMPERATURE_CONTROLLED,
];
