//! The road vehicle classes of the contract and the DESNZ 2025 HGV and van
//! rows each class (refrigerated or not) takes.

use crate::factors::Factor;
use crate::factors::desnz_2025 as desnz;

/// The contract's road vehicle types, by DESNZ class.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RoadVehicle {
    /// `truck_generic_van`: vans up to 3.5 t.
    Van,
    /// `truck_rigid_7_5t`: rigid 3.5–7.5 t.
    Rigid7_5,
    /// `truck_rigid_12t`: rigid 7.5–17 t.
    Rigid17,
    /// `truck_rigid_20t`, `_26t`, `_32t`: rigid over 17 t.
    RigidOver17,
    /// `truck_articulated_34t`: articulated 3.5–33 t.
    Artic33,
    /// `truck_articulated_40t`, `_44t` (and `_60t`, `_72t`, stand-ins):
    /// articulated over 33 t.
    ArticOver33,
    /// `truck`: all HGVs.
    Truck,
}

impl RoadVehicle {
    /// The class of a contract vehicle type, and whether it stands in for a
    /// vehicle DESNZ does not publish (60 t and 72 t road trains).
    pub fn parse(name: &str) -> Option<(Self, bool)> {
        Some(match name {
            "truck_generic_van" => (RoadVehicle::Van, false),
            "truck_rigid_7_5t" => (RoadVehicle::Rigid7_5, false),
            "truck_rigid_12t" => (RoadVehicle::Rigid17, false),
            "truck_rigid_20t" | "truck_rigid_26t" | "truck_rigid_32t" => {
                (RoadVehicle::RigidOver17, false)
            }
            "truck_articulated_34t" => (RoadVehicle::Artic33, false),
            "truck_articulated_40t" | "truck_articulated_44t" => (RoadVehicle::ArticOver33, false),
            "truck_articulated_60t" | "truck_articulated_72t" => (RoadVehicle::ArticOver33, true),
            "truck" => (RoadVehicle::Truck, false),
            _ => return None,
        })
    }

    /// The class's DESNZ rows: average laden per tonne·km, 0 % and 100 %
    /// laden per vehicle·km, 100 % laden per tonne·km (`None` for vans).
    pub(super) fn rows(self, refrigerated: bool) -> ClassRows {
        use RoadVehicle::*;
        let r = |average, laden: Option<[Factor; 3]>| ClassRows { average, laden };
        match (self, refrigerated) {
            (Van, _) => r(desnz::VAN_AVERAGE_DIESEL, None),
            (Rigid7_5, false) => r(
                desnz::HGV_RIGID_3_5_TO_7_5,
                Some([
                    desnz::HGV_RIGID_3_5_TO_7_5_EMPTY_KM,
                    desnz::HGV_RIGID_3_5_TO_7_5_FULL_KM,
                    desnz::HGV_RIGID_3_5_TO_7_5_FULL_LADEN,
                ]),
            ),
            (Rigid7_5, true) => r(
                desnz::HGV_REFRIGERATED_RIGID_3_5_TO_7_5,
                Some([
                    desnz::HGV_REFRIGERATED_RIGID_3_5_TO_7_5_EMPTY_KM,
                    desnz::HGV_REFRIGERATED_RIGID_3_5_TO_7_5_FULL_KM,
                    desnz::HGV_REFRIGERATED_RIGID_3_5_TO_7_5_FULL_LADEN,
                ]),
            ),
            (Rigid17, false) => r(
                desnz::HGV_RIGID_7_5_TO_17,
                Some([
                    desnz::HGV_RIGID_7_5_TO_17_EMPTY_KM,
                    desnz::HGV_RIGID_7_5_TO_17_FULL_KM,
                    desnz::HGV_RIGID_7_5_TO_17_FULL_LADEN,
                ]),
            ),
            (Rigid17, true) => r(
                desnz::HGV_REFRIGERATED_RIGID_7_5_TO_17,
                Some([
                    desnz::HGV_REFRIGERATED_RIGID_7_5_TO_17_EMPTY_KM,
                    desnz::HGV_REFRIGERATED_RIGID_7_5_TO_17_FULL_KM,
                    desnz::HGV_REFRIGERATED_RIGID_7_5_TO_17_FULL_LADEN,
                ]),
            ),
            (RigidOver17, false) => r(
                desnz::HGV_RIGID_OVER_17,
                Some([
                    desnz::HGV_RIGID_OVER_17_EMPTY_KM,
                    desnz::HGV_RIGID_OVER_17_FULL_KM,
                    desnz::HGV_RIGID_OVER_17_FULL_LADEN,
                ]),
            ),
            (RigidOver17, true) => r(
                desnz::HGV_REFRIGERATED_RIGID_OVER_17,
                Some([
                    desnz::HGV_REFRIGERATED_RIGID_OVER_17_EMPTY_KM,
                    desnz::HGV_REFRIGERATED_RIGID_OVER_17_FULL_KM,
                    desnz::HGV_REFRIGERATED_RIGID_OVER_17_FULL_LADEN,
                ]),
            ),
            (Artic33, false) => r(
                desnz::HGV_ARTIC_3_5_TO_33,
                Some([
                    desnz::HGV_ARTIC_3_5_TO_33_EMPTY_KM,
                    desnz::HGV_ARTIC_3_5_TO_33_FULL_KM,
                    desnz::HGV_ARTIC_3_5_TO_33_FULL_LADEN,
                ]),
            ),
            (Artic33, true) => r(
                desnz::HGV_REFRIGERATED_ARTIC_3_5_TO_33,
                Some([
                    desnz::HGV_REFRIGERATED_ARTIC_3_5_TO_33_EMPTY_KM,
                    desnz::HGV_REFRIGERATED_ARTIC_3_5_TO_33_FULL_KM,
                    desnz::HGV_REFRIGERATED_ARTIC_3_5_TO_33_FULL_LADEN,
                ]),
            ),
            (ArticOver33, false) => r(
                desnz::HGV_ARTIC_OVER_33,
                Some([
                    desnz::HGV_ARTIC_OVER_33_EMPTY_KM,
                    desnz::HGV_ARTIC_OVER_33_FULL_KM,
                    desnz::HGV_ARTIC_OVER_33_FULL_LADEN,
                ]),
            ),
            (ArticOver33, true) => r(
                desnz::HGV_REFRIGERATED_ARTIC_OVER_33,
                Some([
                    desnz::HGV_REFRIGERATED_ARTIC_OVER_33_EMPTY_KM,
                    desnz::HGV_REFRIGERATED_ARTIC_OVER_33_FULL_KM,
                    desnz::HGV_REFRIGERATED_ARTIC_OVER_33_FULL_LADEN,
                ]),
            ),
            (Truck, false) => r(
                desnz::HGV_ALL,
                Some([
                    desnz::HGV_ALL_EMPTY_KM,
                    desnz::HGV_ALL_FULL_KM,
                    desnz::HGV_ALL_FULL_LADEN,
                ]),
            ),
            (Truck, true) => r(
                desnz::HGV_REFRIGERATED_ALL,
                Some([
                    desnz::HGV_REFRIGERATED_ALL_EMPTY_KM,
                    desnz::HGV_REFRIGERATED_ALL_FULL_KM,
                    desnz::HGV_REFRIGERATED_ALL_FULL_LADEN,
                ]),
            ),
        }
    }
}

pub(super) struct ClassRows {
    pub(super) average: Factor,
    /// 0 % laden per km, 100 % laden per km, 100 % laden per tonne·km.
    pub(super) laden: Option<[Factor; 3]>,
}
