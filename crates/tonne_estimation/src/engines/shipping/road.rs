//! The road method (the 2024 document's and client 3.9.2's
//! `RoadShippingMethod`): a vehicle class, a fuel, and optionally its load
//! factor and empty running, from the DESNZ 2025 HGV rows.
//!
//! DESNZ publishes each HGV class per vehicle·km at 0 % and 100 % laden
//! (`E0`, `E1`; its 50 % row is their midpoint: kg per vehicle·km is linear
//! in the load), per tonne·km at 100 % laden (`T1`), and per tonne·km at the
//! UK fleet's average loading (`A`, empty running included). With a load
//! factor `L` (0 < L ≤ 1) and an empty-runs factor `e` (the share of
//! kilometres run empty, 0 ≤ e < 1):
//!
//! - capacity `C = E1 ÷ T1` (tonnes: DESNZ's own full payload of the class);
//! - per laden vehicle·km `E(L) = E0 + (E1 − E0) × L`;
//! - each laden km carries `e ÷ (1 − e)` empty km at `E0`;
//! - kg CO2e per tonne·km `= (E(L) + E0 × e ÷ (1 − e)) ÷ (C × L)`.
//!
//! At `L = 1, e = 0` this is DESNZ's 100 % laden row, at `L = 0.5` its 50 %
//! row. Well-to-tank: the same with the WTT rows of `E0` and `E1`. Neither
//! sent: DESNZ's average-laden row `A` (and its WTT row); the load factor it
//! implies, `u = E0 ÷ (A × C − (E1 − E0))`, is the default when only the
//! empty-runs factor is sent. Vans have no laden rows: the van row of the
//! fuel, load and empty running not applied (said in the notes).
//!
//! Fuels: the HGV rows are diesel (the UK pump blend). Another fuel scales the
//! class's rows by its kg CO2e per MJ (net CV) over diesel's, from the DESNZ
//! "Fuels" (and Bioenergy) rows, the WTT rows by the same ratio of WTT rows —
//! the same energy per tonne·km assumed (graded C). Vans by petrol, CNG or
//! LPG take DESNZ's own van row.

use rust_decimal::Decimal;

use crate::errors::EstimateError;
use crate::factors::desnz_2025 as desnz;
use crate::factors::{Factor, GasSplit};

use super::fuel::LegFuel;
use super::methods::Grade;

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
    fn rows(self, refrigerated: bool) -> ClassRows {
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

struct ClassRows {
    average: Factor,
    /// 0 % laden per km, 100 % laden per km, 100 % laden per tonne·km.
    laden: Option<[Factor; 3]>,
}

/// The contract's road fuels (`RoadFuel`; client 3.9.2 adds `lng` and `auto_detect`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RoadFuel {
    /// A liquid fuel of the by-fuel legs (gasoline, diesel, blends, ethanol, HVO, LPG).
    Liquid(LegFuel),
    Cng,
    Lng,
    /// Not said: diesel, the DESNZ rows' fuel.
    AutoDetect,
}

impl RoadFuel {
    /// Parses the contract's name.
    pub fn parse(name: &str) -> Option<Self> {
        match name {
            "cng" => Some(RoadFuel::Cng),
            "lng" => Some(RoadFuel::Lng),
            "auto_detect" => Some(RoadFuel::AutoDetect),
            other => LegFuel::parse(other).map(RoadFuel::Liquid),
        }
    }

    /// The contract's name.
    pub fn name(self) -> String {
        match self {
            RoadFuel::Liquid(f) => f.name(),
            RoadFuel::Cng => "cng".into(),
            RoadFuel::Lng => "lng".into(),
            RoadFuel::AutoDetect => "auto_detect".into(),
        }
    }

    fn is_diesel(self) -> bool {
        matches!(
            self,
            RoadFuel::Liquid(LegFuel::Diesel) | RoadFuel::AutoDetect
        )
    }

    /// kg CO2e per MJ (net CV), tank-to-wheel and well-to-tank, and the rows.
    fn per_mj(self) -> (Decimal, Decimal, Vec<Factor>) {
        let mj_per_kwh = Decimal::new(36, 1);
        let gas = |f: Factor| {
            let wtt = GasSplit::of(f.id).map_or(Decimal::ZERO, |g| g.wtt);
            (f.value() / mj_per_kwh, wtt / mj_per_kwh, vec![f])
        };
        match self {
            RoadFuel::Cng => gas(desnz::FUEL_CNG_KWH),
            RoadFuel::Lng => gas(desnz::FUEL_LNG_KWH),
            RoadFuel::AutoDetect => gas(desnz::FUEL_DIESEL_BLEND_KWH),
            RoadFuel::Liquid(f) => {
                let parts = f.components();
                let mj: Decimal = parts.iter().map(|(r, s)| *s * r.mj_per_litre()).sum();
                let ttw: Decimal = parts.iter().map(|(r, s)| *s * r.litre.value()).sum();
                let wtt: Decimal = parts.iter().map(|(r, s)| *s * r.wtt()).sum();
                let rows = parts
                    .iter()
                    .flat_map(|(r, _)| [r.litre, r.energy])
                    .collect();
                (ttw / mj, wtt / mj, rows)
            }
        }
    }
}

/// A road leg's method.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoadMethod {
    /// The contract's vehicle type, as sent (`truck_articulated_40t`, `truck`, …).
    pub vehicle_type: String,
    pub fuel: RoadFuel,
    /// Share of the capacity used when laden, 0 < x ≤ 1.
    pub load_factor: Option<Decimal>,
    /// Share of the kilometres run empty, 0 ≤ x < 1.
    pub empty_runs_factor: Option<Decimal>,
    /// Refrigerated (the DESNZ refrigerated HGV rows).
    pub refrigerated: bool,
    /// `gradient`, `situation`, `emission_standard` as sent: accepted and
    /// echoed; DESNZ's rows do not vary with them.
    pub gradient: Option<String>,
    pub situation: Option<String>,
    pub emission_standard: Option<String>,
}

/// What a road leg multiplies, per tonne·km.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoadUse {
    /// kg CO2e per tonne·km, tank-to-wheel.
    pub ttw: Decimal,
    /// kg CO2e per tonne·km, well-to-tank.
    pub wtt: Decimal,
    /// The rows used: the class's average-laden row first.
    pub factors: Vec<Factor>,
    pub grade: Grade,
    /// What Tonne stands in or leaves out, and why.
    pub notes: Vec<String>,
    /// The load model (HGVs), `None` for vans.
    pub load: Option<RoadLoad>,
}

/// The load model of an HGV leg.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RoadLoad {
    /// Tonnes, `E1 ÷ T1`.
    pub capacity_t: Decimal,
    pub load_factor: Decimal,
    pub empty_runs_factor: Decimal,
    /// `load_factor × (1 − empty_runs_factor)`.
    pub capacity_utilisation: Decimal,
    /// MJ per tonne·km: the tank-to-wheel intensity ÷ the fuel's kg CO2e per MJ.
    pub energy_mj_per_tkm: Decimal,
}

/// The intensity of a road leg; `field` names the method in errors.
///
/// ```
/// use tonne_estimation::shipping::road::{self, RoadFuel, RoadMethod};
/// use tonne_estimation::shipping::fuel::LegFuel;
/// use rust_decimal::Decimal;
/// // articulated > 33 t, diesel, full, no empty running: DESNZ's 100 % laden row
/// let r = road::resolve("method", &RoadMethod {
///     vehicle_type: "truck_articulated_40t".into(),
///     fuel: RoadFuel::Liquid(LegFuel::Diesel),
///     load_factor: Some(Decimal::ONE),
///     empty_runs_factor: None,
///     refrigerated: false,
///     gradient: None, situation: None, emission_standard: None,
/// }).unwrap();
/// assert_eq!(r.ttw.round_dp(5), Decimal::new(5988, 5));
/// ```
pub fn resolve(field: &str, m: &RoadMethod) -> Result<RoadUse, EstimateError> {
    let (vehicle, stand_in) = RoadVehicle::parse(&m.vehicle_type).ok_or_else(|| {
        EstimateError::invalid(
            &format!("{field}.vehicle_type"),
            "is not a road vehicle type",
        )
    })?;
    if let Some(l) = m.load_factor
        && (l <= Decimal::ZERO || l > Decimal::ONE)
    {
        return Err(EstimateError::invalid(
            &format!("{field}.load_factor"),
            "must be greater than 0 and at most 1",
        ));
    }
    if let Some(e) = m.empty_runs_factor
        && (e < Decimal::ZERO || e >= Decimal::ONE)
    {
        return Err(EstimateError::invalid(
            &format!("{field}.empty_runs_factor"),
            "must be at least 0 and below 1",
        ));
    }
    let mut notes = Vec::new();
    let mut grade = match vehicle {
        RoadVehicle::Truck => Grade::B,
        _ => Grade::A,
    };
    if stand_in {
        notes.push(format!(
            "DESNZ publishes no road train: {} takes the articulated > 33 t rows",
            m.vehicle_type
        ));
        grade = grade.max(Grade::C);
    }
    let rows = vehicle.rows(m.refrigerated);
    let wtt_of = |f: &Factor| GasSplit::of(f.id).map_or(Decimal::ZERO, |g| g.wtt);
    let mut factors = vec![rows.average];

    // vans: DESNZ's van row of the fuel where it has one
    if vehicle == RoadVehicle::Van {
        if m.refrigerated {
            notes.push("DESNZ has no refrigerated van row: the van row is used".into());
            grade = grade.max(Grade::C);
        }
        if m.load_factor.is_some() || m.empty_runs_factor.is_some() {
            notes.push(
                "DESNZ publishes vans at their average loading only: load and empty runs are not applied"
                    .into(),
            );
        }
        let own = match m.fuel {
            RoadFuel::Liquid(LegFuel::Gasoline) => Some(desnz::VAN_AVERAGE_PETROL),
            RoadFuel::Cng => Some(desnz::VAN_AVERAGE_CNG),
            RoadFuel::Liquid(LegFuel::Lpg) => Some(desnz::VAN_AVERAGE_LPG),
            f if f.is_diesel() => Some(desnz::VAN_AVERAGE_DIESEL),
            _ => None,
        };
        if let Some(f) = own {
            return Ok(RoadUse {
                ttw: f.value(),
                wtt: wtt_of(&f),
                factors: vec![f],
                grade,
                notes,
                load: None,
            });
        }
    }

    // the diesel intensity of the class, at the load given
    let (ttw, wtt, load) = match (rows.laden, m.load_factor, m.empty_runs_factor) {
        (Some([e0, e1, t1]), l, e) if l.is_some() || e.is_some() => {
            let capacity = e1.value() / t1.value();
            // DESNZ's average loading of the class, if no load factor is sent
            let implied =
                e0.value() / (rows.average.value() * capacity - (e1.value() - e0.value()));
            let l = l.unwrap_or(implied);
            let e = e.unwrap_or(Decimal::ZERO);
            let per = |z: Decimal, f: Decimal| {
                (z + (f - z) * l + z * e / (Decimal::ONE - e)) / (capacity * l)
            };
            factors.extend([e0, e1, t1]);
            (
                per(e0.value(), e1.value()),
                per(wtt_of(&e0), wtt_of(&e1)),
                Some((capacity, l, e)),
            )
        }
        (Some([e0, e1, t1]), _, _) => {
            let capacity = e1.value() / t1.value();
            let implied =
                e0.value() / (rows.average.value() * capacity - (e1.value() - e0.value()));
            (
                rows.average.value(),
                wtt_of(&rows.average),
                Some((capacity, implied, Decimal::ZERO)),
            )
        }
        (None, _, _) => (rows.average.value(), wtt_of(&rows.average), None),
    };

    // another fuel: the same energy, its emissions per MJ over diesel's
    let (diesel_ttw, diesel_wtt, diesel_rows) = RoadFuel::AutoDetect.per_mj();
    let (ttw, wtt) = if m.fuel.is_diesel() {
        if m.fuel == RoadFuel::AutoDetect {
            notes.push("fuel auto_detect: the DESNZ rows' diesel".into());
        }
        (ttw, wtt)
    } else {
        let (f_ttw, f_wtt, rows) = m.fuel.per_mj();
        notes.push(format!(
            "DESNZ publishes {} by diesel only: its rows × {} per MJ ÷ diesel per MJ (net CV), tank-to-wheel {} ÷ {}, well-to-tank {} ÷ {} kg CO2e/MJ",
            if vehicle == RoadVehicle::Van { "this van" } else { "HGVs" },
            m.fuel.name(),
            f_ttw.round_dp(6).normalize(),
            diesel_ttw.round_dp(6).normalize(),
            f_wtt.round_dp(6).normalize(),
            diesel_wtt.round_dp(6).normalize(),
        ));
        factors.extend(rows);
        factors.extend(diesel_rows);
        grade = grade.max(Grade::C);
        (ttw * f_ttw / diesel_ttw, wtt * f_wtt / diesel_wtt)
    };
    let load = load.map(|(capacity, l, e)| RoadLoad {
        capacity_t: capacity,
        load_factor: l,
        empty_runs_factor: e,
        capacity_utilisation: l * (Decimal::ONE - e),
        energy_mj_per_tkm: ttw
            / if m.fuel.is_diesel() {
                diesel_ttw
            } else {
                m.fuel.per_mj().0
            },
    });
    Ok(RoadUse {
        ttw,
        wtt,
        factors,
        grade,
        notes,
        load,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn method(vehicle: &str, fuel: &str, l: Option<&str>, e: Option<&str>) -> RoadMethod {
        RoadMethod {
            vehicle_type: vehicle.into(),
            fuel: RoadFuel::parse(fuel).unwrap(),
            load_factor: l.map(|v| v.parse().unwrap()),
            empty_runs_factor: e.map(|v| v.parse().unwrap()),
            refrigerated: false,
            gradient: None,
            situation: None,
            emission_standard: None,
        }
    }

    /// By hand, articulated > 33 t (DESNZ 2025): E0 = 0.64734 (27_304_3129_4_1),
    /// E1 = 1.06921 (27_304_3131_4_1) kg per vehicle·km, T1 = 0.05988
    /// (27_304_3131_14_1) kg per tonne·km; C = 1.06921 ÷ 0.05988 = 17.85588 t.
    /// - L = 0.5, e = 0: (0.64734 + 0.42187 × 0.5) ÷ (17.85588 × 0.5) =
    ///   0.858275 ÷ 8.92794 = 0.096134 (DESNZ's 50 % row: 0.09612);
    /// - L = 0.8, e = 0.25: E(0.8) = 0.64734 + 0.42187 × 0.8 = 0.984836; empty
    ///   0.64734 × 0.25 ÷ 0.75 = 0.215780; (0.984836 + 0.215780) ÷ (17.85588 ×
    ///   0.8 = 14.284704) = 0.084049 kg/t·km; WTT with 0.15178 / 0.25296:
    ///   (0.15178 + 0.10118 × 0.8 + 0.050593) ÷ 14.284704 = 0.019834.
    #[test]
    fn load_factor_and_empty_runs_by_hand() {
        let full = resolve(
            "m",
            &method("truck_articulated_44t", "diesel", Some("1"), None),
        )
        .unwrap();
        assert_eq!(full.ttw.round_dp(5), Decimal::new(5988, 5));
        let half = resolve(
            "m",
            &method("truck_articulated_40t", "diesel", Some("0.5"), None),
        )
        .unwrap();
        assert_eq!(half.ttw.round_dp(6), Decimal::new(96134, 6));
        let r = resolve(
            "m",
            &method("truck_articulated_40t", "diesel", Some("0.8"), Some("0.25")),
        )
        .unwrap();
        assert_eq!(r.ttw.round_dp(6), Decimal::new(84049, 6));
        assert_eq!(r.wtt.round_dp(6), Decimal::new(19834, 6));
        let load = r.load.unwrap();
        assert_eq!(load.capacity_t.round_dp(5), Decimal::new(1785588, 5));
        assert_eq!(load.capacity_utilisation, Decimal::new(6, 1));
        assert_eq!(r.grade, Grade::A);
        // neither sent: DESNZ's average-laden row and its WTT row
        let avg = resolve("m", &method("truck_articulated_40t", "diesel", None, None)).unwrap();
        assert_eq!(
            (avg.ttw, avg.wtt),
            (Decimal::new(7703, 5), Decimal::new(1799, 5))
        );
        // its implied load factor gives the same row back
        let implied = avg.load.unwrap().load_factor;
        let back = resolve(
            "m",
            &RoadMethod {
                load_factor: Some(implied),
                ..method("truck_articulated_40t", "diesel", None, None)
            },
        )
        .unwrap();
        assert_eq!(back.ttw.round_dp(8), Decimal::new(7703, 5));
        // more empty running, more per tonne·km
        let empty = resolve("m", &method("truck", "diesel", Some("0.8"), Some("0.5"))).unwrap();
        let none = resolve("m", &method("truck", "diesel", Some("0.8"), Some("0"))).unwrap();
        assert!(empty.ttw > none.ttw);
        assert_eq!(none.grade, Grade::B);
    }

    /// Petrol in an HGV: the diesel rows × petrol per MJ ÷ diesel per MJ
    /// (2.33984 kg/l ÷ (2.33984 ÷ 0.25431 × 3.6) MJ/l = 0.0706417 vs 0.25953
    /// ÷ 3.6 = 0.0720917 kg/MJ): 0.07703 × 0.0706417 ÷ 0.0720917 = 0.075481.
    #[test]
    fn other_fuels_scale_by_energy_and_vans_take_their_row() {
        let p = resolve(
            "m",
            &method("truck_articulated_40t", "gasoline", None, None),
        )
        .unwrap();
        assert_eq!(p.ttw.round_dp(6), Decimal::new(75481, 6));
        assert_eq!(p.grade, Grade::C);
        assert!(p.notes[0].contains("gasoline"), "{:?}", p.notes);
        let v = resolve("m", &method("truck_generic_van", "lpg", Some("0.5"), None)).unwrap();
        assert_eq!(v.ttw, Decimal::new(68621, 5));
        assert!(v.load.is_none());
        assert!(v.notes[0].contains("average loading"));
        let r = resolve(
            "m",
            &RoadMethod {
                refrigerated: true,
                ..method("truck_rigid_7_5t", "diesel", None, None)
            },
        )
        .unwrap();
        assert_eq!(r.ttw, Decimal::new(62837, 5));
    }

    #[test]
    fn bad_values_name_their_field() {
        for (m, field) in [
            (
                method("truck_articulated_40t", "diesel", Some("0"), None),
                "m.load_factor",
            ),
            (
                method("truck_articulated_40t", "diesel", Some("1.2"), None),
                "m.load_factor",
            ),
            (
                method("truck_articulated_40t", "diesel", None, Some("1")),
                "m.empty_runs_factor",
            ),
            (method("bicycle", "diesel", None, None), "m.vehicle_type"),
        ] {
            let e = resolve("m", &m).unwrap_err();
            assert!(format!("{e:?}").contains(field), "{e:?}");
        }
        assert_eq!(RoadFuel::parse("hydrogen"), None);
    }
}
