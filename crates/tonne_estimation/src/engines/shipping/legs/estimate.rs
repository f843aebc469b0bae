//! What a leg's estimate is: its well-to-wheel mass, stages, distance,
//! factor and intensity.

use rust_decimal::Decimal;
use tonne_kernel::Mass;

use crate::factors::Factor;
use crate::units::Distance;

/// A leg's estimate, well-to-wheel (ISO 14083 / GLEC): `mass == ttw + wtt`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LegEstimate {
    /// CO2e, well-to-wheel: [`LegEstimate::ttw`] + [`LegEstimate::wtt`], to the gram.
    pub mass: Mass,
    /// Tank-to-wheel: payload × distance × the leg's direct factor(s), rounded
    /// to the gram. Where the factor has no well-to-tank row (Tonne's
    /// inland-waterway assumptions) the whole mass, of unknown stage.
    pub ttw: Mass,
    /// Well-to-tank: the tank-to-wheel mass × the DESNZ well-to-tank row ÷
    /// the factor (every other factor scales both alike; air by haul band:
    /// the band's WTT row with the band floor), rounded to the gram; zero
    /// where the factor has no well-to-tank row.
    pub wtt: Mass,
    /// Distance used.
    pub distance: Distance,
    /// Fallback notes.
    pub methodology: Vec<&'static str>,
    /// The leg's emission factor (id, description and row in `source`, unit,
    /// [`Factor::year`], [`Factor::publication`]): the first factor multiplied.
    pub factor: Factor,
    /// The leg's intensity, kg CO2e per tonne·km (a logistics site's: per
    /// tonne handled).
    pub intensity: Intensity,
}

/// A leg's intensity in kg CO2e per tonne·km: its tank-to-wheel mass per
/// tonne over its distance (for air, the haul band's factor or floor), and the
/// well-to-tank part of the same row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Intensity {
    /// Tank-to-wheel.
    pub ttw: Decimal,
    /// Well-to-tank (`None` where the factor has no well-to-tank row).
    pub wtt: Option<Decimal>,
}

impl Intensity {
    /// Well-to-wheel: `ttw + wtt`.
    pub fn wtw(&self) -> Decimal {
        self.ttw + self.wtt.unwrap_or_default()
    }
}
