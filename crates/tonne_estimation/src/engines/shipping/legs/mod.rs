//! A leg's estimate: its distance (as given or measured), the factor its
//! method and cargo choose, the well-to-wheel mass and intensity, and the
//! grade and data quality it earns; several legs summed.

use rust_decimal::Decimal;
use tonne_kernel::Mass;

use crate::errors::EstimateError;
use crate::units::Distance;

use super::{Leg, Method, Shipment};

mod distance;
mod estimate;
mod factors;
mod transport;

pub use estimate::{Intensity, LegEstimate};
pub(crate) use transport::{LegTrace, leg_traced};

/// Estimates one leg of a shipment; `prefix` prefixes error fields (e.g. `legs[1]`).
///
/// ```
/// use tonne_estimation::route::{Place, Route};
/// use tonne_estimation::shipping::{self, CargoType, Leg, Method, Shipment};
/// use rust_decimal::Decimal;
///
/// // 2 TEU of average cargo (20 t) from Shanghai to Rotterdam by container ship:
/// // the sea path over the maritime network (~19,600 km) × (0.01612 kg/t·km
/// // tank-to-wheel + 0.00365 well-to-tank, DESNZ 2025)
/// let e = shipping::leg("", &Shipment::Containers { teu: Decimal::from(2), cargo: CargoType::Average, mass: None }, &Leg {
///     route: Route::Between { source: Place::Seaport("CNSHA".into()), destination: Place::Seaport("NLRTM".into()) },
///     method: Method::Container { refrigerated: false, trade_lane: None },
/// }).unwrap();
/// assert!((19_000..20_500).contains(&e.distance.km().round().try_into().unwrap_or(0_i64)));
/// assert!((7_500_000..8_100_000).contains(&e.mass.grams()));
/// assert_eq!(e.mass.grams(), e.ttw.grams() + e.wtt.grams());
/// ```
pub fn leg(prefix: &str, shipment: &Shipment, leg: &Leg) -> Result<LegEstimate, EstimateError> {
    any_leg_traced(prefix, shipment, leg).map(|(e, _)| e)
}

/// What a leg of either kind multiplied: a transport leg's trace, or a
/// logistics site's figure.
#[derive(Debug, Clone)]
pub(crate) enum Traced {
    /// A transport leg.
    Transport(Box<LegTrace>),
    /// A logistics site (hub).
    Site(super::hubs::HubEstimate),
}

/// [`leg`] with what it multiplied, a transport leg or a logistics site.
/// A site's [`LegEstimate`] has no distance (zero), its intensity is per
/// tonne handled (tank-to-wheel zero, well-to-tank the figure `[A]`).
pub(crate) fn any_leg_traced(
    prefix: &str,
    shipment: &Shipment,
    leg: &Leg,
) -> Result<(LegEstimate, Traced), EstimateError> {
    let Method::Site(name) = &leg.method else {
        return leg_traced(prefix, shipment, leg).map(|(e, t)| (e, Traced::Transport(Box::new(t))));
    };
    let field = if prefix.is_empty() {
        "method".to_owned()
    } else {
        format!("{prefix}.method")
    };
    let h = super::hubs::hub(&field, shipment, name)?;
    Ok((
        LegEstimate {
            mass: h.mass,
            ttw: h.ttw,
            wtt: h.wtt,
            distance: Distance::from_km(Decimal::ZERO),
            methodology: Vec::new(),
            factor: h.site.factor,
            intensity: Intensity {
                ttw: Decimal::ZERO,
                wtt: Some(h.site.factor.value()),
            },
        },
        Traced::Site(h),
    ))
}

/// A multi-leg estimate: legs in order, mass and distance summed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MultiLegEstimate {
    /// Σ legs, well-to-wheel (`ttw + wtt`).
    pub mass: Mass,
    /// Σ legs' tank-to-wheel.
    pub ttw: Mass,
    /// Σ legs' well-to-tank.
    pub wtt: Mass,
    /// Σ distances.
    pub distance: Distance,
    /// Per leg.
    pub legs: Vec<LegEstimate>,
}

/// Estimates 1 to 10 legs; any failing leg fails the whole.
pub fn multi_leg(shipment: &Shipment, legs: &[Leg]) -> Result<MultiLegEstimate, EstimateError> {
    multi_leg_traced(shipment, legs).map(|(e, _)| e)
}

/// [`multi_leg`] with each leg's trace, each leg computed once (the
/// explanation is made from these).
pub(crate) fn multi_leg_traced(
    shipment: &Shipment,
    legs: &[Leg],
) -> Result<(MultiLegEstimate, Vec<Traced>), EstimateError> {
    if legs.is_empty() || legs.len() > 10 {
        return Err(EstimateError::invalid("legs", "must have 1 to 10 legs"));
    }
    let mut out = Vec::with_capacity(legs.len());
    let mut traces = Vec::with_capacity(legs.len());
    let (mut grams, mut km) = (0_i64, Decimal::ZERO);
    let (mut ttw, mut wtt) = (0_i64, 0_i64);
    for (i, l) in legs.iter().enumerate() {
        let (e, trace) = any_leg_traced(&format!("legs[{i}]"), shipment, l)?;
        grams = grams.saturating_add(e.mass.grams());
        ttw = ttw.saturating_add(e.ttw.grams());
        wtt = wtt.saturating_add(e.wtt.grams());
        km += e.distance.km();
        out.push(e);
        traces.push(trace);
    }
    Ok((
        MultiLegEstimate {
            mass: Mass::from_grams(grams),
            ttw: Mass::from_grams(ttw),
            wtt: Mass::from_grams(wtt),
            distance: Distance::from_km(km),
            legs: out,
        },
        traces,
    ))
}
