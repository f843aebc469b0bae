//! The amounts of the estimate answers: masses (plain, in the requested unit,
//! or with their well-to-wheel stages) and distances.

use serde::Serialize;
use tonne_estimation::Distance;
use tonne_estimation::explain::Wtw;
use tonne_kernel::Mass;
use utoipa::ToSchema;

use super::queries::EstimateMassUnit;

/// An estimate's mass: plain, or with its stages (shipping).
#[derive(Debug, Serialize, ToSchema)]
#[serde(untagged)]
pub enum AnyMassResponse {
    Plain(MassResponse),
    Shipping(ShippingMassResponse),
}

/// A mass in the answers (tonnes).
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = MassDoc)]
pub struct MassResponse {
    /// Decimal string, up to six decimals.
    amount: String,
    /// Always `t`.
    unit: &'static str,
}

pub fn mass_response(m: Mass) -> MassResponse {
    MassResponse {
        amount: m.to_tonnes_string(),
        unit: "t",
    }
}

pub(super) fn estimate_mass(m: Mass, unit: EstimateMassUnit) -> MassResponse {
    MassResponse {
        amount: unit.amount(m),
        unit: unit.as_str(),
    }
}

/// The mass of a shipping answer (3.9.2's `EstimateMassWithBreakdowns`):
/// the mass with its life-cycle stages, and air pollutants (none known: `null`).
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = EstimateMassWithBreakdowns)]
pub struct ShippingMassResponse {
    amount: String,
    unit: &'static str,
    /// `null` for estimates stored before Tonne kept the stages.
    wtw_details: Option<WtwResponse>,
    /// NOx, NMHC, SO2, PM: DESNZ publishes none of them, so always `null`.
    #[schema(value_type = Option<Object>)]
    pollutants: Option<()>,
}

/// 3.9.2's `WTWBreakdown`: well-to-tank, tank-to-wheel and unassigned parts.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = WTWBreakdown)]
pub struct WtwResponse {
    wtt: MassResponse,
    ttw: MassResponse,
    unknown: MassResponse,
}

pub(super) fn shipping_mass(
    m: Mass,
    wtw: Option<Wtw>,
    unit: EstimateMassUnit,
) -> ShippingMassResponse {
    ShippingMassResponse {
        amount: unit.amount(m),
        unit: unit.as_str(),
        wtw_details: wtw.map(|w| WtwResponse {
            wtt: estimate_mass(w.wtt, unit),
            ttw: estimate_mass(w.ttw, unit),
            unknown: estimate_mass(w.unknown, unit),
        }),
        pollutants: None,
    }
}

/// A distance in the answers (km).
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = DistanceDoc)]
pub struct DistanceResponse {
    /// Decimal string, up to three decimals.
    amount: String,
    /// Always `km`.
    unit: &'static str,
}

pub(super) fn distance_response(d: &Distance) -> DistanceResponse {
    DistanceResponse {
        amount: d.to_km_string(),
        unit: "km",
    }
}
