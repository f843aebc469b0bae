//! A transport leg: the factors its method chooses, its distance, and the
//! well-to-wheel mass and intensity of its payload, with what it multiplied.

use rust_decimal::Decimal;
use tonne_kernel::Mass;

use crate::errors::EstimateError;
use crate::factors::desnz_2025 as desnz;
use crate::factors::{Factor, authored};
use crate::flight::Band;
use crate::shipping::methods::{DataQuality, Grade, resolve_simple, shipment_grade};
use crate::shipping::{
    FLIGHT_NUMBER_FALLBACK, Fuel, IMO_FALLBACK, IMO_TRADE_LANE_FALLBACK, INFERRED_VESSEL_FALLBACK,
    Leg, Method, Mode, Shipment, road,
};
use crate::units::kg_to_mass;

use super::distance::{Measured, distance, route_grade};
use super::estimate::{Intensity, LegEstimate};
use super::factors::{air_freight_factor, aircraft_freight, container_factors, wtt_ratio};

/// What a shipping leg multiplied: its mode and the factors whose product is
/// its intensity (air: the haul band's factor).
#[derive(Debug, Clone)]
pub(crate) struct LegTrace {
    pub mode: Mode,
    pub factors: Vec<Factor>,
    /// The distance and how it was obtained.
    pub measured: Measured,
    /// Payload in tonnes.
    pub tonnes: Decimal,
    /// Air freight by aircraft type: the flight's fuel and the shipment's share.
    pub aircraft: Option<crate::flight::AircraftUse>,
    /// The leg's data quality.
    pub quality: DataQuality,
    /// Where the factor stands in for one no open source has: which, and why.
    pub stand_in: Option<String>,
    /// The road method's intensity and load model.
    pub road: Option<road::RoadUse>,
}

/// [`leg`] with what it multiplied.
pub(crate) fn leg_traced(
    prefix: &str,
    shipment: &Shipment,
    leg: &Leg,
) -> Result<(LegEstimate, LegTrace), EstimateError> {
    let field = |name: &str| {
        if prefix.is_empty() {
            name.to_owned()
        } else {
            format!("{prefix}.{name}")
        }
    };
    let route_field = field("route");
    let mut methodology = Vec::new();
    // the mode and the factors whose product is its intensity in kg CO2e per
    // tonne·km (air: by haul band, below)
    let unknown = || EstimateError::invalid(&field("method"), "is not a known shipping method");
    // the road method's own intensity (not a product of its rows)
    let mut road_use: Option<road::RoadUse> = None;
    // the factor's grade, and where it stands in for one no open source has, why
    let (mode, mut factors, mut grade, stand_in) = match &leg.method {
        Method::Simple(name) => {
            let r = resolve_simple(name).ok_or_else(unknown)?;
            (r.mode, r.factors, r.grade, r.stand_in)
        }
        Method::Sea {
            vessel,
            fuel,
            heavy_load,
        } => {
            let mut f = vec![vessel.factor()];
            if *fuel == Some(Fuel::Lng) {
                f.push(authored::LNG_RATIO);
            }
            if *heavy_load {
                f.push(authored::HEAVY_LOAD_RATIO);
            }
            (Mode::Sea, f, Grade::B, None)
        }
        Method::Container { refrigerated, .. } => {
            (Mode::Sea, container_factors(*refrigerated), Grade::B, None)
        }
        Method::Vessel {
            refrigerated,
            trade_lane,
            ..
        } => {
            methodology.push(if trade_lane.is_some() {
                IMO_TRADE_LANE_FALLBACK
            } else {
                IMO_FALLBACK
            });
            (Mode::Sea, container_factors(*refrigerated), Grade::C, None)
        }
        Method::Road(m) => {
            let r = road::resolve(&field("method"), m)?;
            let (grade, factors) = (r.grade, r.factors.clone());
            let notes = r.notes.join("; ");
            road_use = Some(r);
            (
                Mode::Road,
                factors,
                grade,
                (!notes.is_empty()).then_some(notes),
            )
        }
        Method::InferredVessel { .. } => {
            // the contract's nearest flag: no vessel identified, the generic container ship
            methodology.push(IMO_FALLBACK);
            (
                Mode::Sea,
                container_factors(false),
                Grade::C,
                Some(INFERRED_VESSEL_FALLBACK.to_owned()),
            )
        }
        // typical seats, the global load factor: one step below an exact row
        Method::Aircraft { .. } => (Mode::Air, vec![authored::TIM_JET_FUEL_TTW], Grade::B, None),
        Method::FlightNumber { configuration, .. } => {
            methodology.push(FLIGHT_NUMBER_FALLBACK);
            let r = resolve_simple(configuration)
                .filter(|r| r.mode == Mode::Air)
                .ok_or_else(|| {
                    EstimateError::invalid(
                        &field("method.aircraft_configuration"),
                        "must be plane, cargo_plane or passenger_plane",
                    )
                })?;
            (r.mode, r.factors, Grade::C, r.stand_in)
        }
        Method::Site(_) => {
            return Err(EstimateError::invalid(
                &field("method"),
                "is a logistics site: it has no route or distance (see hubs::hub)",
            ));
        }
    };
    let measured = distance(&route_field, &leg.route, mode)?;
    let distance = measured.distance;
    let tonnes = shipment.tonnes();
    let mut aircraft = None;
    if let Method::Aircraft { aircraft_type } = &leg.method {
        let used = aircraft_freight(
            &field("method.aircraft_type"),
            aircraft_type,
            &leg.route,
            &measured,
            tonnes,
        )?;
        match used {
            Some(used) => aircraft = Some(used),
            // a type without seats: a freighter whose payload Tonne does not know
            None => {
                methodology.push(FLIGHT_NUMBER_FALLBACK);
                factors = vec![desnz::AIR_FREIGHT_LONG_HAUL];
                grade = Grade::C;
            }
        }
    }
    let kg_per_tonne = match (&aircraft, mode) {
        // the share is by payload mass: a tonne carries 1,000 kg ÷ payload
        (Some(used), _) => {
            used.fuel.ttw_kg() * Decimal::from(1000)
                / used.fuel.payload_kg().unwrap_or(Decimal::ONE)
        }
        (None, Mode::Air) => {
            factors = vec![air_freight_factor(Band::of(distance.km()))];
            crate::flight::banded_kg(distance.km(), |b| air_freight_factor(b).value())
        }
        (None, _) => match &road_use {
            Some(r) => distance.km() * r.ttw,
            None => distance.km() * factors.iter().map(Factor::value).product::<Decimal>(),
        },
    };
    let kg = tonnes * kg_per_tonne;
    let primary = *factors.first().ok_or_else(unknown)?;
    // well-to-tank per tonne: the leg's kg × WTT ÷ factor of its emission
    // factor; air by haul band takes each band's WTT row with the same floor
    // as its factor, so that neither stage falls from band to band
    let wtt_per_tonne = match (&aircraft, mode) {
        (None, Mode::Air) => Some(crate::flight::banded_kg(distance.km(), |b| {
            let f = air_freight_factor(b);
            crate::factors::GasSplit::of(f.id).map_or(Decimal::ZERO, |g| g.wtt)
        })),
        (None, _) if road_use.is_some() => road_use.as_ref().map(|r| distance.km() * r.wtt),
        // the leg's factors with the emission factor's WTT row in its place
        // (exact decimals: no division by the factor)
        (None, _) => crate::factors::GasSplit::of(primary.id).map(|g| {
            distance.km()
                * g.wtt
                * factors
                    .iter()
                    .skip(1)
                    .map(Factor::value)
                    .product::<Decimal>()
        }),
        (Some(_), _) => wtt_ratio(&primary).map(|r| kg_per_tonne * r),
    };
    let ttw = kg_to_mass(&route_field, kg)?;
    let wtt = kg_to_mass(&route_field, tonnes * wtt_per_tonne.unwrap_or_default())?;
    let km = distance.km();
    let per_tkm = |per_tonne: Decimal| {
        if km.is_zero() {
            None
        } else {
            Some(per_tonne / km)
        }
    };
    let zero_km = match &road_use {
        Some(r) => r.ttw,
        None => factors.iter().map(Factor::value).product::<Decimal>(),
    };
    let ttw_intensity = per_tkm(kg_per_tonne).unwrap_or(zero_km);
    let wtt_intensity = wtt_per_tonne.map(|w| {
        per_tkm(w).unwrap_or_else(|| match &road_use {
            Some(r) => r.wtt,
            None => zero_km * wtt_ratio(&primary).unwrap_or_default(),
        })
    });
    Ok((
        LegEstimate {
            mass: Mass::from_grams(ttw.grams().saturating_add(wtt.grams())),
            ttw,
            wtt,
            distance,
            methodology,
            factor: primary,
            intensity: Intensity {
                ttw: ttw_intensity,
                wtt: wtt_intensity,
            },
        },
        LegTrace {
            mode,
            factors,
            measured,
            tonnes,
            aircraft,
            quality: DataQuality::of(
                grade,
                Some(route_grade(measured.method, mode)),
                shipment_grade(shipment),
            ),
            stand_in,
            road: road_use,
        },
    ))
}
