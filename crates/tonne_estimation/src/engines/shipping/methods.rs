//! What each shipping method name of the 2024 document is computed with: the
//! most specific open factor (DESNZ 2025 by vehicle class, laden share,
//! refrigeration, fuel; ships by type and size), how closely it matches the
//! method (a [`Grade`]), and — where it stands in for a factor no open source
//! publishes — which one is used and why.
//!
//! ```
//! use tonne_estimation::shipping::{self, Grade};
//!
//! // a 7.5 t rigid, refrigerated: DESNZ's own row
//! let m = shipping::resolve_simple("truck_rigid_7_5t_refrigerated").unwrap();
//! assert_eq!(m.grade, Grade::A);
//! assert!(m.stand_in.is_none());
//! // a CNG articulated truck: DESNZ publishes diesel HGVs only
//! let m = shipping::resolve_simple("truck_articulated_40t_si_engine_cng").unwrap();
//! assert_eq!(m.grade, Grade::C);
//! assert!(m.stand_in.unwrap().contains("diesel"));
//! ```

mod resolved;
mod sea;
mod truck;

use crate::factors::desnz_2025 as desnz;
use crate::factors::{Factor, authored};

use super::{CargoType, Mode, Shipment};

pub use resolved::{DataQuality, Grade, Resolved};
use resolved::{average, stand_in};
use sea::sea_simple;
use truck::truck;

/// Whether `name` is one of the contract's simple shipping methods
/// (`SimpleShippingMethod` or `SimpleSeaShippingMethod`).
pub fn is_simple_method(name: &str) -> bool {
    resolve_simple(name).is_some()
}

/// The factor of a simple method name, or `None` for a name the contract
/// does not have.
pub fn resolve_simple(name: &str) -> Option<Resolved> {
    if let Some(sea) = name.strip_prefix("sea_") {
        return sea_simple(sea);
    }
    if !SIMPLE_NAMES.contains(&name) {
        return None;
    }
    named(name).or_else(|| truck(name))
}

/// The 2024 document's `SimpleShippingMethod` names (its
/// `SimpleSeaShippingMethod` names are read by pattern: `sea_{type}_{size}_{fuel}`).
pub const SIMPLE_NAMES: [&str; 147] = [
    "inland_waterway_motor_vessel_extra_small",
    "inland_waterway_motor_vessel_small",
    "inland_waterway_motor_vessel_medium",
    "inland_waterway_motor_vessel_large",
    "inland_waterway_coupled_convoy",
    "inland_waterway_pushed_convoy_small",
    "inland_waterway_pushed_convoy_medium",
    "inland_waterway_pushed_convoy_large",
    "inland_waterway_tanker",
    "inland_waterway_container_vessel_medium",
    "inland_waterway_container_vessel_large",
    "inland_waterway_container_vessel_convoy",
    "diesel_freight_train",
    "electric_freight_train",
    "diesel_freight_train_us_average",
    "diesel_freight_train_eu_average",
    "diesel_freight_train_eu_container",
    "diesel_freight_train_eu_cars",
    "diesel_freight_train_eu_chemicals",
    "diesel_freight_train_eu_coal_steel",
    "diesel_freight_train_eu_building_materials",
    "diesel_freight_train_eu_manufactured_products",
    "diesel_freight_train_eu_cereals",
    "diesel_freight_train_eu_truck_and_trailer",
    "diesel_freight_train_eu_trailer_only",
    "electric_freight_train_eu_average",
    "electric_freight_train_eu_container",
    "electric_freight_train_eu_cars",
    "electric_freight_train_eu_chemicals",
    "electric_freight_train_eu_coal_steel",
    "electric_freight_train_eu_building_materials",
    "electric_freight_train_eu_manufactured_products",
    "electric_freight_train_eu_cereals",
    "electric_freight_train_eu_truck_and_trailer",
    "electric_freight_train_eu_trailer_only",
    "diesel_truck",
    "diesel_truck_refrigerated",
    "truck_generic_van",
    "truck_generic_urban",
    "truck_generic_mgv",
    "truck_generic_hgv",
    "truck_rigid_7_5t",
    "truck_rigid_12t",
    "truck_rigid_20t",
    "truck_rigid_26t",
    "truck_rigid_32t",
    "truck_articulated_34t",
    "truck_articulated_40t",
    "truck_articulated_44t",
    "truck_articulated_60t",
    "truck_articulated_72t",
    "truck_generic_van_petrol",
    "truck_generic_van_cng",
    "truck_generic_van_lpg",
    "truck_rigid_7_5t_cng",
    "truck_rigid_12t_cng",
    "truck_rigid_20t_cng",
    "truck_rigid_26t_cng",
    "truck_rigid_26t_lng",
    "truck_articulated_44t_light_load",
    "truck_articulated_44t_heavy_load",
    "truck_articulated_44t_container",
    "truck_articulated_60t_heavy_load",
    "truck_articulated_60t_container",
    "truck_articulated_72t_heavy_load",
    "truck_articulated_72t_container",
    "truck_articulated_40t_si_engine_lng_container",
    "truck_articulated_40t_si_engine_cng",
    "truck_articulated_40t_si_engine_bio_lng",
    "truck_articulated_40t_si_engine_cng_container",
    "truck_articulated_40t_si_engine_bio_lng_container",
    "truck_articulated_40t_hpdi_lng_diesel",
    "truck_articulated_40t_hpdi_cng_diesel",
    "truck_articulated_40t_hpdi_bio_lng_diesel",
    "truck_generic_van_electric",
    "truck_rigid_7_5t_electric",
    "truck_rigid_7_5t_electric_light_load",
    "truck_rigid_12t_electric",
    "truck_rigid_12t_electric_light_load",
    "truck_rigid_20t_electric",
    "truck_rigid_20t_electric_light_load",
    "truck_rigid_40t_electric",
    "truck_rigid_40t_electric_light_load",
    "truck_generic_van_refrigerated",
    "truck_generic_urban_refrigerated",
    "truck_generic_mgv_refrigerated",
    "truck_generic_hgv_refrigerated",
    "truck_rigid_7_5t_refrigerated",
    "truck_rigid_12t_refrigerated",
    "truck_rigid_20t_refrigerated",
    "truck_rigid_26t_refrigerated",
    "truck_rigid_32t_refrigerated",
    "truck_articulated_34t_refrigerated",
    "truck_articulated_40t_refrigerated",
    "truck_articulated_44t_refrigerated",
    "truck_articulated_60t_refrigerated",
    "truck_articulated_72t_refrigerated",
    "truck_generic_van_petrol_refrigerated",
    "truck_generic_van_cng_refrigerated",
    "truck_generic_van_lpg_refrigerated",
    "truck_rigid_7_5t_cng_refrigerated",
    "truck_rigid_12t_cng_refrigerated",
    "truck_rigid_20t_cng_refrigerated",
    "truck_rigid_26t_cng_refrigerated",
    "truck_rigid_26t_lng_refrigerated",
    "truck_articulated_44t_light_load_refrigerated",
    "truck_articulated_44t_heavy_load_refrigerated",
    "truck_articulated_44t_container_refrigerated",
    "truck_articulated_60t_heavy_load_refrigerated",
    "truck_articulated_60t_container_refrigerated",
    "truck_articulated_72t_heavy_load_refrigerated",
    "truck_articulated_72t_container_refrigerated",
    "truck_articulated_40t_si_engine_lng_container_refrigerated",
    "truck_articulated_40t_si_engine_cng_refrigerated",
    "truck_articulated_40t_si_engine_bio_lng_refrigerated",
    "truck_articulated_40t_si_engine_cng_container_refrigerated",
    "truck_articulated_40t_si_engine_bio_lng_container_refrigerated",
    "truck_articulated_40t_hpdi_lng_diesel_refrigerated",
    "truck_articulated_40t_hpdi_cng_diesel_refrigerated",
    "truck_articulated_40t_hpdi_bio_lng_diesel_refrigerated",
    "truck_generic_van_electric_refrigerated",
    "truck_rigid_7_5t_electric_refrigerated",
    "truck_rigid_7_5t_electric_light_load_refrigerated",
    "truck_rigid_12t_electric_refrigerated",
    "truck_rigid_12t_electric_light_load_refrigerated",
    "truck_rigid_20t_electric_refrigerated",
    "truck_rigid_20t_electric_light_load_refrigerated",
    "truck_rigid_40t_electric_refrigerated",
    "truck_rigid_40t_electric_light_load_refrigerated",
    "truck_na_van",
    "truck_na_general",
    "truck_na_auto_carrier",
    "truck_na_dray",
    "truck_na_expedited",
    "truck_na_flatbed",
    "truck_na_heavy_bulk",
    "truck_na_dry_van_ltl",
    "truck_na_dry_van_tl",
    "truck_na_mixed",
    "truck_na_moving",
    "truck_na_package",
    "truck_na_refrigerated",
    "truck_na_specialized",
    "truck_na_tanker",
    "plane",
    "passenger_plane",
    "cargo_plane",
];

/// The inland-waterway, rail, air and North-American names.
fn named(name: &str) -> Option<Resolved> {
    use Mode::{Air, InlandWaterway as Iww, Rail, Road};
    const IWW_WHY: &str = "no open inland-waterway factors (GLEC's defaults are not openly licensed): Tonne's [A] assumption";
    let iww = |f: Factor| stand_in(Iww, f, Grade::D, IWW_WHY);
    const NA_WHY: &str = "no open North-American truck factors: the closest DESNZ (UK fleet) class";
    let na = |f: Factor| stand_in(Road, f, Grade::C, NA_WHY);
    const RAIL_WHY: &str =
        "DESNZ publishes one UK freight-train average (mostly diesel traction, all cargo)";
    match name {
        "inland_waterway_motor_vessel_extra_small" => stand_in(
            Iww,
            authored::IWW_MOTOR_SMALL,
            Grade::D,
            "no factor for extra-small motor vessels: the small one's [A] assumption",
        ),
        "inland_waterway_motor_vessel_small" => iww(authored::IWW_MOTOR_SMALL),
        "inland_waterway_motor_vessel_medium" => iww(authored::IWW_MOTOR_MEDIUM),
        "inland_waterway_motor_vessel_large" => iww(authored::IWW_MOTOR_LARGE),
        "inland_waterway_coupled_convoy" => iww(authored::IWW_COUPLED),
        "inland_waterway_pushed_convoy_small" => iww(authored::IWW_PUSHED_SMALL),
        "inland_waterway_pushed_convoy_medium" => iww(authored::IWW_PUSHED_MEDIUM),
        "inland_waterway_pushed_convoy_large" => iww(authored::IWW_PUSHED_LARGE),
        "inland_waterway_tanker" => iww(authored::IWW_TANKER),
        "inland_waterway_container_vessel_medium" => iww(authored::IWW_CONTAINER_MEDIUM),
        "inland_waterway_container_vessel_large" => iww(authored::IWW_CONTAINER_LARGE),
        "inland_waterway_container_vessel_convoy" => iww(authored::IWW_CONTAINER_CONVOY),
        "diesel_freight_train" => average(Rail, desnz::FREIGHT_TRAIN),
        "electric_freight_train" => stand_in(Rail, desnz::FREIGHT_TRAIN, Grade::C, RAIL_WHY),
        n if n.starts_with("diesel_freight_train_") || n.starts_with("electric_freight_train_") => {
            let known = [
                "us_average",
                "eu_average",
                "eu_container",
                "eu_cars",
                "eu_chemicals",
                "eu_coal_steel",
                "eu_building_materials",
                "eu_manufactured_products",
                "eu_cereals",
                "eu_truck_and_trailer",
                "eu_trailer_only",
            ];
            let rest = n
                .trim_start_matches("diesel_freight_train_")
                .trim_start_matches("electric_freight_train_");
            if !known.contains(&rest) || (n.starts_with("electric") && rest == "us_average") {
                return None;
            }
            stand_in(Rail, desnz::FREIGHT_TRAIN, Grade::C, RAIL_WHY)
        }
        // air freight: the engine bands the factor by distance
        "plane" | "passenger_plane" | "cargo_plane" => average(Air, desnz::AIR_FREIGHT_LONG_HAUL),
        "truck_na_van" => na(desnz::VAN_AVERAGE_DIESEL),
        "truck_na_general" | "truck_na_dray" | "truck_na_mixed" => na(desnz::HGV_ALL),
        "truck_na_auto_carrier" | "truck_na_flatbed" | "truck_na_specialized" => {
            na(desnz::HGV_ARTIC_3_5_TO_33)
        }
        "truck_na_expedited" | "truck_na_dry_van_ltl" => na(desnz::HGV_RIGID_OVER_17),
        "truck_na_heavy_bulk" | "truck_na_dry_van_tl" | "truck_na_tanker" => {
            na(desnz::HGV_ARTIC_OVER_33)
        }
        "truck_na_moving" | "truck_na_package" => na(desnz::HGV_RIGID_7_5_TO_17),
        "truck_na_refrigerated" => na(desnz::HGV_REFRIGERATED_ALL),
        _ => None,
    }
}

#[cfg(test)]
mod tests;

/// How well the payload is known: a mass (A), containers converted by the
/// cargo type the client named (B) or by the average cargo (C).
pub(super) fn shipment_grade(shipment: &Shipment) -> Grade {
    match shipment {
        Shipment::Mass(_) | Shipment::Containers { mass: Some(_), .. } => Grade::A,
        Shipment::Containers {
            cargo: CargoType::Average,
            ..
        } => Grade::C,
        Shipment::Containers { .. } => Grade::B,
    }
}
