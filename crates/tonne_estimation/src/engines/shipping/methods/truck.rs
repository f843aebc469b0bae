//! Trucks by DESNZ 2025 vehicle class: the class a method name names (rigid
//! or articulated, size, refrigeration, fuel, laden share) and its factor.

use crate::factors::Factor;
use crate::factors::desnz_2025 as desnz;
use crate::shipping::Mode;

use super::resolved::{Grade, Resolved};

/// A road class: its diesel row, its refrigerated row, and how closely the
/// class matches DESNZ's.
pub(super) struct Class {
    pub(super) name: &'static str,
    pub(super) diesel: Factor,
    pub(super) refrigerated: Option<Factor>,
    pub(super) grade: Grade,
    /// Why the class is a stand-in, if it is.
    pub(super) why: Option<&'static str>,
}

pub(super) const CLASSES: [Class; 16] = [
    Class {
        name: "diesel_truck",
        diesel: desnz::HGV_ALL,
        refrigerated: Some(desnz::HGV_REFRIGERATED_ALL),
        grade: Grade::B,
        why: None,
    },
    Class {
        name: "truck_generic_van",
        diesel: desnz::VAN_AVERAGE_DIESEL,
        refrigerated: None,
        grade: Grade::B,
        why: None,
    },
    Class {
        name: "truck_generic_urban",
        diesel: desnz::HGV_RIGID_3_5_TO_7_5,
        refrigerated: Some(desnz::HGV_REFRIGERATED_RIGID_3_5_TO_7_5),
        grade: Grade::B,
        why: None,
    },
    Class {
        name: "truck_generic_mgv",
        diesel: desnz::HGV_RIGID_7_5_TO_17,
        refrigerated: Some(desnz::HGV_REFRIGERATED_RIGID_7_5_TO_17),
        grade: Grade::B,
        why: None,
    },
    Class {
        name: "truck_generic_hgv",
        diesel: desnz::HGV_ALL,
        refrigerated: Some(desnz::HGV_REFRIGERATED_ALL),
        grade: Grade::B,
        why: None,
    },
    Class {
        name: "truck_rigid_7_5t",
        diesel: desnz::HGV_RIGID_3_5_TO_7_5,
        refrigerated: Some(desnz::HGV_REFRIGERATED_RIGID_3_5_TO_7_5),
        grade: Grade::A,
        why: None,
    },
    Class {
        name: "truck_rigid_12t",
        diesel: desnz::HGV_RIGID_7_5_TO_17,
        refrigerated: Some(desnz::HGV_REFRIGERATED_RIGID_7_5_TO_17),
        grade: Grade::A,
        why: None,
    },
    Class {
        name: "truck_rigid_20t",
        diesel: desnz::HGV_RIGID_OVER_17,
        refrigerated: Some(desnz::HGV_REFRIGERATED_RIGID_OVER_17),
        grade: Grade::A,
        why: None,
    },
    Class {
        name: "truck_rigid_26t",
        diesel: desnz::HGV_RIGID_OVER_17,
        refrigerated: Some(desnz::HGV_REFRIGERATED_RIGID_OVER_17),
        grade: Grade::A,
        why: None,
    },
    Class {
        name: "truck_rigid_32t",
        diesel: desnz::HGV_RIGID_OVER_17,
        refrigerated: Some(desnz::HGV_REFRIGERATED_RIGID_OVER_17),
        grade: Grade::A,
        why: None,
    },
    Class {
        name: "truck_rigid_40t",
        diesel: desnz::HGV_RIGID_OVER_17,
        refrigerated: Some(desnz::HGV_REFRIGERATED_RIGID_OVER_17),
        grade: Grade::B,
        why: Some("DESNZ's heaviest rigid class is over 17 t"),
    },
    Class {
        name: "truck_articulated_34t",
        diesel: desnz::HGV_ARTIC_3_5_TO_33,
        refrigerated: Some(desnz::HGV_REFRIGERATED_ARTIC_3_5_TO_33),
        grade: Grade::B,
        why: None,
    },
    Class {
        name: "truck_articulated_40t",
        diesel: desnz::HGV_ARTIC_OVER_33,
        refrigerated: Some(desnz::HGV_REFRIGERATED_ARTIC_OVER_33),
        grade: Grade::A,
        why: None,
    },
    Class {
        name: "truck_articulated_44t",
        diesel: desnz::HGV_ARTIC_OVER_33,
        refrigerated: Some(desnz::HGV_REFRIGERATED_ARTIC_OVER_33),
        grade: Grade::A,
        why: None,
    },
    Class {
        name: "truck_articulated_60t",
        diesel: desnz::HGV_ARTIC_OVER_33,
        refrigerated: Some(desnz::HGV_REFRIGERATED_ARTIC_OVER_33),
        grade: Grade::C,
        why: Some("no open factor for 60 t road trains: DESNZ's articulated over 33 t"),
    },
    Class {
        name: "truck_articulated_72t",
        diesel: desnz::HGV_ARTIC_OVER_33,
        refrigerated: Some(desnz::HGV_REFRIGERATED_ARTIC_OVER_33),
        grade: Grade::C,
        why: Some("no open factor for 72 t road trains: DESNZ's articulated over 33 t"),
    },
];

/// A truck or van name: the class, then a fuel, load or technology, then
/// `_refrigerated`.
pub(super) fn truck(name: &str) -> Option<Resolved> {
    let (base, refrigerated) = match name.strip_suffix("_refrigerated") {
        Some(b) => (b, true),
        None => (name, false),
    };
    // the longest class name the base starts with
    let class = CLASSES
        .iter()
        .filter(|c| {
            base.strip_prefix(c.name)
                .is_some_and(|rest| rest.is_empty() || rest.starts_with('_'))
        })
        .max_by_key(|c| c.name.len())?;
    let modifier = base.strip_prefix(class.name)?.trim_start_matches('_');
    let mode = Mode::Road;
    let row = |f: Option<Factor>| f.unwrap_or(class.diesel);
    let reefer_row = if refrigerated {
        class.refrigerated
    } else {
        Some(class.diesel)
    };
    // a refrigerated class DESNZ has no refrigerated row for (vans)
    let no_reefer = refrigerated && class.refrigerated.is_none();
    let mut r = match (class.name, modifier) {
        (_, "") => Resolved {
            mode,
            factors: vec![row(reefer_row)],
            grade: class.grade,
            stand_in: class
                .why
                .map(|w| format!("{w}: {} is used", row(reefer_row).id)),
        },
        ("truck_generic_van", fuel @ ("petrol" | "cng" | "lpg" | "electric")) => {
            let f = match fuel {
                "petrol" => desnz::VAN_AVERAGE_PETROL,
                "cng" => desnz::VAN_AVERAGE_CNG,
                "lpg" => desnz::VAN_AVERAGE_LPG,
                _ => desnz::VAN_AVERAGE_BEV,
            };
            Resolved {
                mode,
                factors: vec![f],
                grade: Grade::A,
                stand_in: None,
            }
        }
        (
            "truck_articulated_44t" | "truck_articulated_60t" | "truck_articulated_72t",
            load @ ("light_load" | "heavy_load" | "container"),
        ) => {
            let (f, grade, why) = match (load, refrigerated) {
                ("light_load", false) => (
                    desnz::HGV_ARTIC_OVER_33_HALF_LADEN,
                    Grade::B,
                    Some("DESNZ's lightest laden share is 50 %"),
                ),
                ("light_load", true) => (
                    desnz::HGV_REFRIGERATED_ARTIC_OVER_33_HALF_LADEN,
                    Grade::B,
                    Some("DESNZ's lightest laden share is 50 %"),
                ),
                ("heavy_load", false) => (desnz::HGV_ARTIC_OVER_33_FULL_LADEN, Grade::A, None),
                ("heavy_load", true) => (
                    desnz::HGV_REFRIGERATED_ARTIC_OVER_33_FULL_LADEN,
                    Grade::A,
                    None,
                ),
                (_, _) => (
                    row(reefer_row),
                    Grade::C,
                    Some("no open factor for container haulage: the class's average laden row"),
                ),
            };
            let grade = grade.max(class.grade);
            Resolved {
                mode,
                factors: vec![f],
                grade,
                stand_in: why.or(class.why).map(|w| format!("{w}: {} is used", f.id)),
            }
        }
        (
            "truck_rigid_7_5t" | "truck_rigid_12t" | "truck_rigid_20t" | "truck_rigid_26t"
            | "truck_rigid_40t",
            "electric" | "electric_light_load",
        ) => Resolved {
            mode,
            factors: vec![row(reefer_row)],
            grade: Grade::D,
            stand_in: Some(format!(
                "no open factor for battery-electric trucks (DESNZ publishes diesel HGVs only; an overestimate): {} is used",
                row(reefer_row).id
            )),
        },
        (
            "truck_rigid_7_5t" | "truck_rigid_12t" | "truck_rigid_20t" | "truck_rigid_26t",
            "cng" | "lng",
        )
        | (
            "truck_articulated_40t",
            "si_engine_lng_container"
            | "si_engine_cng"
            | "si_engine_bio_lng"
            | "si_engine_cng_container"
            | "si_engine_bio_lng_container"
            | "hpdi_lng_diesel"
            | "hpdi_cng_diesel"
            | "hpdi_bio_lng_diesel",
        ) => Resolved {
            mode,
            factors: vec![row(reefer_row)],
            grade: Grade::C,
            stand_in: Some(format!(
                "no open factor for gas-fuelled trucks (DESNZ publishes diesel HGVs only): {} is used",
                row(reefer_row).id
            )),
        },
        _ => return None,
    };
    if no_reefer {
        r.grade = r.grade.max(Grade::C);
        r.stand_in = Some(format!(
            "no open factor for refrigerated vans: {} is used",
            r.factors.first().map_or("", |f| f.id)
        ));
    }
    Some(r)
}
