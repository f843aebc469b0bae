//! One freight leg well-to-wheel, for callers that report legs themselves
//! (the shipments domain): the engine's tank-to-wheel and well-to-tank CO2e
//! (the publication's well-to-tank row of the same activity), the factor's
//! provenance and the leg's data quality.

use rust_decimal::Decimal;
use tonne_kernel::Mass;

use super::legs::leg_traced;
use super::{Leg, Mode, Shipment};
use crate::errors::EstimateError;
use crate::factors::Factor;
use crate::units::Distance;

/// A freight leg's emissions by life-cycle stage.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FreightLeg {
    /// Tank-to-wheel CO2e.
    pub ttw: Mass,
    /// Well-to-tank CO2e (zero where the publication has no well-to-tank
    /// row for the factor; [`FreightLeg::wtt_known`] says which).
    pub wtt: Mass,
    /// Whether a well-to-tank row was found for the factor.
    pub wtt_known: bool,
    /// The distance used.
    pub distance: Distance,
    /// Payload in tonnes.
    pub tonnes: Decimal,
    /// The mode the method travels by.
    pub mode: Mode,
    /// The emission factor (the first factor in CO2e per unit of activity).
    pub factor: Option<Factor>,
    /// The data-quality grade's wire name (`A_plus` … `D`).
    pub grade: &'static str,
    /// Fallback notes (an unknown vessel or flight).
    pub notes: Vec<&'static str>,
    /// Where the factor stands in for one no open source has: which, and why.
    pub stand_in: Option<String>,
}

impl FreightLeg {
    /// Well-to-wheel: `wtt + ttw`.
    pub fn total(&self) -> Mass {
        Mass::from_grams(self.wtt.grams().saturating_add(self.ttw.grams()))
    }
}

/// A leg well-to-wheel; `prefix` prefixes error fields (e.g. `legs[1]`).
///
/// ```
/// use rust_decimal::Decimal;
/// use tonne_estimation::route::Route;
/// use tonne_estimation::shipping::{self, Leg, Method, Shipment};
/// use tonne_estimation::Distance;
/// use tonne_kernel::Mass;
///
/// // 10 t over 100 km by electric freight train
/// let f = shipping::freight_leg("", &Shipment::Mass(Mass::from_grams(10_000_000)), &Leg {
///     route: Route::Distance(Distance::from_km(Decimal::from(100))),
///     method: Method::Simple("electric_freight_train".into()),
/// }).unwrap();
/// assert_eq!(f.total().grams(), f.wtt.grams() + f.ttw.grams());
/// assert!(f.wtt_known && f.wtt.grams() > 0);
/// ```
pub fn freight_leg(
    prefix: &str,
    shipment: &Shipment,
    leg: &Leg,
) -> Result<FreightLeg, EstimateError> {
    let (estimate, trace) = leg_traced(prefix, shipment, leg)?;
    // the engine's stages: both rounded to the gram, the mass their sum
    let wtt_known = estimate.intensity.wtt.is_some();
    let (ttw, wtt) = (estimate.ttw, estimate.wtt);
    let factor = Some(estimate.factor);
    Ok(FreightLeg {
        ttw,
        wtt,
        wtt_known,
        distance: estimate.distance,
        tonnes: trace.tonnes,
        mode: trace.mode,
        factor,
        grade: trace.quality.score.as_str(),
        notes: estimate.methodology,
        stand_in: trace.stand_in,
    })
}
