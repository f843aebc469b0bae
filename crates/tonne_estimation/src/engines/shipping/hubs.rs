//! Logistics sites (hubs: warehouses, transhipment sites, terminals), the
//! ISO 14083 hub operation: `kg CO2e = tonnes handled × the site type's
//! default intensity (kg CO2e/t)`, the GLEC Framework v3 defaults
//! ([`crate::factors::glec_hubs`]). No distance: a hub leg has no route.
//!
//! Every name of client 3.9.2's `LogisticsSiteMethod` has a figure. Where
//! the Framework publishes none for a name (chilled transhipment, storage
//! and warehouses: it gives ambient and mixed only; a container terminal of
//! unstated temperature) the nearest is used and said:
//!
//! | name | figure | why |
//! |---|---|---|
//! | `*_chilled` (transhipment, storage and transhipment, warehouse) | the type's **mixed** figure | mixed sites include the temperature-controlled operation; no chilled-only default is published (an underestimate for all-chilled sites) |
//! | `maritime_container_terminal` | ambient | no temperature stated; ambient is the default of unrefrigerated cargo |
//! | `maritime_container_terminal_chilled` | temperature-controlled | the published temperature-controlled figure |
//!
//! Stages `[A]`: the figure is not split by energy carrier in the source;
//! Tonne reports it all as well-to-tank (the electricity a site runs on has
//! no tank-to-wheel emissions under ISO 14083), tank-to-wheel zero.

use rust_decimal::Decimal;
use tonne_kernel::Mass;

use super::Shipment;
use super::methods::shipment_grade;
use super::{DataQuality, Grade};
use crate::errors::EstimateError;
use crate::factors::Factor;
use crate::factors::glec_hubs as glec;
use crate::units::kg_to_mass;

/// Client 3.9.2's `LogisticsSiteMethod` names.
pub const LOGISTICS_SITES: [&str; 14] = [
    "maritime_container_terminal",
    "maritime_container_terminal_ambient",
    "maritime_container_terminal_chilled",
    "transhipment_site_ambient",
    "transhipment_site_chilled",
    "transhipment_site_mixed",
    "storage_and_transhipment_ambient",
    "storage_and_transhipment_chilled",
    "storage_and_transhipment_mixed",
    "warehouse_ambient",
    "warehouse_chilled",
    "warehouse_mixed",
    "liquid_bulk_terminals_ambient",
    "liquid_bulk_terminals_mixed",
];

/// Whether `name` is a `LogisticsSiteMethod`.
pub fn is_logistics_site(name: &str) -> bool {
    LOGISTICS_SITES.contains(&name)
}

/// A site type resolved to its figure.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Site {
    /// The `LogisticsSiteMethod` name.
    pub name: &'static str,
    /// kg CO2e per tonne handled, well-to-wheel.
    pub factor: Factor,
    /// How closely the figure matches: B for the type's own default (an
    /// industry average), C for the nearest type's.
    pub grade: Grade,
    /// Where the figure is the nearest type's: which, and why.
    pub stand_in: Option<&'static str>,
}

const CHILLED: &str = "no chilled-only default is published (GLEC v3 gives ambient and mixed): the site type's mixed figure is used";
const UNSTATED: &str =
    "no temperature stated: the ambient maritime container terminal figure is used";

/// The figure of a `LogisticsSiteMethod` name.
///
/// ```
/// use tonne_estimation::shipping::hubs;
/// let s = hubs::site("warehouse_chilled").unwrap();
/// assert_eq!(s.factor.id, "HUB_WAREHOUSE_MIXED");
/// assert!(s.stand_in.is_some());
/// assert!(hubs::site("warehouse_frozen").is_none());
/// ```
pub fn site(name: &str) -> Option<Site> {
    let name = *LOGISTICS_SITES.iter().find(|n| **n == name)?;
    let (factor, stand_in) = match name {
        "maritime_container_terminal" => (glec::HUB_CONTAINER_TERMINAL_AMBIENT, Some(UNSTATED)),
        "maritime_container_terminal_ambient" => (glec::HUB_CONTAINER_TERMINAL_AMBIENT, None),
        "maritime_container_terminal_chilled" => {
            (glec::HUB_CONTAINER_TERMINAL_TEMPERATURE_CONTROLLED, None)
        }
        "transhipment_site_ambient" => (glec::HUB_TRANSHIPMENT_AMBIENT, None),
        "transhipment_site_chilled" => (glec::HUB_TRANSHIPMENT_MIXED, Some(CHILLED)),
        "transhipment_site_mixed" => (glec::HUB_TRANSHIPMENT_MIXED, None),
        "storage_and_transhipment_ambient" => (glec::HUB_STORAGE_TRANSHIPMENT_AMBIENT, None),
        "storage_and_transhipment_chilled" => (glec::HUB_STORAGE_TRANSHIPMENT_MIXED, Some(CHILLED)),
        "storage_and_transhipment_mixed" => (glec::HUB_STORAGE_TRANSHIPMENT_MIXED, None),
        "warehouse_ambient" => (glec::HUB_WAREHOUSE_AMBIENT, None),
        "warehouse_chilled" => (glec::HUB_WAREHOUSE_MIXED, Some(CHILLED)),
        "warehouse_mixed" => (glec::HUB_WAREHOUSE_MIXED, None),
        "liquid_bulk_terminals_ambient" => (glec::HUB_LIQUID_BULK_AMBIENT, None),
        _ => (glec::HUB_LIQUID_BULK_MIXED, None),
    };
    Some(Site {
        name,
        factor,
        grade: if stand_in.is_some() {
            Grade::C
        } else {
            Grade::B
        },
        stand_in,
    })
}

/// A hub operation's emissions: `mass == ttw + wtt`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HubEstimate {
    /// Well-to-wheel, to the gram.
    pub mass: Mass,
    /// Tank-to-wheel: zero `[A]` (see the module).
    pub ttw: Mass,
    /// Well-to-tank: the whole figure `[A]`.
    pub wtt: Mass,
    /// Tonnes handled.
    pub tonnes: Decimal,
    /// The site and its figure.
    pub site: Site,
    /// Its data quality: the figure's grade and the shipment's (no route).
    pub quality: DataQuality,
}

/// The emissions of handling `shipment` at a site of type `name`; `field`
/// names the method in errors.
///
/// ```
/// use tonne_estimation::shipping::{hubs, Shipment};
/// use tonne_kernel::Mass;
/// // 12 t through an ambient warehouse: 12 × 17.5 = 210 kg CO2e
/// let e = hubs::hub("method", &Shipment::Mass(Mass::from_grams(12_000_000)), "warehouse_ambient").unwrap();
/// assert_eq!(e.mass.grams(), 210_000);
/// assert_eq!(e.wtt.grams() + e.ttw.grams(), e.mass.grams());
/// ```
pub fn hub(field: &str, shipment: &Shipment, name: &str) -> Result<HubEstimate, EstimateError> {
    let site = site(name).ok_or_else(|| {
        EstimateError::invalid(field, "is not one of the contract's logistics sites")
    })?;
    let tonnes = shipment.tonnes();
    let wtt = kg_to_mass(field, tonnes * site.factor.value())?;
    let ttw = Mass::from_grams(0);
    Ok(HubEstimate {
        mass: wtt,
        ttw,
        wtt,
        tonnes,
        site,
        quality: DataQuality::of(site.grade, None, shipment_grade(shipment)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shipping::CargoType;

    fn tonnes(t: i64) -> Shipment {
        Shipment::Mass(Mass::from_grams(t * 1_000_000))
    }

    /// Hand-computed from GLEC Framework v3.0 (2023, rev. 2024-04-02),
    /// Part 3 Data pp. 75–124, logistics-site defaults (kg CO2e/t).
    #[test]
    fn figure_times_tonnes_all_well_to_tank() {
        for (name, t, kg_grams) in [
            // 12 t × 17.5 = 210 kg (warehouse, ambient)
            ("warehouse_ambient", 12, 210_000),
            // 12 t × 33.0 = 396 kg (warehouse, mixed)
            ("warehouse_mixed", 12, 396_000),
            // 25 t × 0.6 = 15 kg (transhipment site, ambient)
            ("transhipment_site_ambient", 25, 15_000),
            // 25 t × 2.2 = 55 kg (transhipment site, mixed)
            ("transhipment_site_mixed", 25, 55_000),
            // 10 t × 2.1 = 21 kg; × 4.0 = 40 kg (storage and transhipment)
            ("storage_and_transhipment_ambient", 10, 21_000),
            ("storage_and_transhipment_mixed", 10, 40_000),
            // 100 t × 3.1 = 310 kg; × 8.1 = 810 kg (liquid bulk terminals)
            ("liquid_bulk_terminals_ambient", 100, 310_000),
            ("liquid_bulk_terminals_mixed", 100, 810_000),
            // 20 t × 10.7 = 214 kg; × 12.6 = 252 kg (maritime container terminal)
            ("maritime_container_terminal_ambient", 20, 214_000),
            ("maritime_container_terminal_chilled", 20, 252_000),
        ] {
            let e = hub("method", &tonnes(t), name).unwrap();
            assert_eq!(e.mass.grams(), kg_grams, "{name}");
            assert_eq!(e.wtt.grams(), kg_grams, "{name}: all well-to-tank [A]");
            assert_eq!(e.ttw.grams(), 0, "{name}");
            assert_eq!(e.site.grade, Grade::B, "{name}");
            assert!(e.site.stand_in.is_none(), "{name}");
        }
    }

    #[test]
    fn every_client_name_has_a_figure_and_stand_ins_say_so() {
        for name in LOGISTICS_SITES {
            let s = site(name).unwrap();
            assert_eq!(s.factor.unit, "kg CO2e/t");
            assert_eq!(s.factor.year(), Some(2023));
            assert_eq!(s.stand_in.is_some(), s.grade == Grade::C, "{name}");
        }
        // chilled: the type's mixed figure (none chilled-only is published)
        assert_eq!(
            site("transhipment_site_chilled").unwrap().factor.value(),
            Decimal::new(22, 1)
        );
        assert_eq!(
            site("storage_and_transhipment_chilled")
                .unwrap()
                .factor
                .value(),
            Decimal::from(4)
        );
        assert_eq!(
            site("warehouse_chilled").unwrap().factor.value(),
            Decimal::from(33)
        );
        // unstated temperature: ambient
        assert_eq!(
            site("maritime_container_terminal").unwrap().factor.value(),
            Decimal::new(107, 1)
        );
        assert!(site("cold_store").is_none());
    }

    #[test]
    fn containers_are_handled_by_their_mass_and_grade_the_shipment() {
        // 2 TEU of average cargo = 20 t × 10.7 = 214 kg; the payload is
        // converted by the average cargo type (C)
        let e = hub(
            "method",
            &Shipment::Containers {
                teu: Decimal::from(2),
                cargo: CargoType::Average,
                mass: None,
            },
            "maritime_container_terminal_ambient",
        )
        .unwrap();
        assert_eq!(e.mass.grams(), 214_000);
        assert_eq!(e.quality.score, Grade::C);
        assert_eq!(e.quality.route, None);
    }

    #[test]
    fn an_unknown_site_names_the_field() {
        let e = hub("legs[1].method", &tonnes(1), "igloo").unwrap_err();
        assert!(e.to_string().starts_with("legs[1].method"), "{e}");
    }
}
