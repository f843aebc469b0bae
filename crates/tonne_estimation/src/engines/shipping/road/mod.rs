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

mod fuels;
mod vehicles;

pub use fuels::RoadFuel;
pub use vehicles::RoadVehicle;

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
mod tests;
