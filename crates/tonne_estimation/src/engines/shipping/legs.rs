//! A leg's estimate: its distance (as given or measured), the factor its
//! method and cargo choose, the well-to-wheel mass and intensity, and the
//! grade and data quality it earns; several legs summed.

use rust_decimal::Decimal;
use tonne_kernel::Mass;

use crate::errors::EstimateError;
use crate::factors::desnz_2025 as desnz;
use crate::factors::{Factor, authored};
use crate::flight::Band;
use crate::geo::{LatLon, km_decimal};
use crate::places;
use crate::route::{Route, surface_distance};
use crate::units::{Distance, kg_to_mass};

use super::methods::{DataQuality, Grade, resolve_simple, shipment_grade};
use super::{
    DistanceMethod, FLIGHT_NUMBER_FALLBACK, Fuel, IMO_FALLBACK, IMO_TRADE_LANE_FALLBACK,
    INFERRED_VESSEL_FALLBACK, Leg, Method, Mode, Shipment, road,
};

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

/// Well-to-tank ÷ tank-to-wheel of a factor: its DESNZ (or TIM) well-to-tank
/// row over its value; `None` without one.
pub(crate) fn wtt_ratio(f: &Factor) -> Option<Decimal> {
    let g = crate::factors::GasSplit::of(f.id)?;
    (!f.value().is_zero()).then(|| g.wtt / f.value())
}

/// DESNZ 2025 freight-flight factor (with RF) of a haul band.
pub(super) fn air_freight_factor(band: Band) -> Factor {
    match band {
        Band::Domestic => desnz::AIR_FREIGHT_DOMESTIC,
        Band::ShortHaul => desnz::AIR_FREIGHT_SHORT_HAUL,
        Band::LongHaul => desnz::AIR_FREIGHT_LONG_HAUL,
    }
}

pub(super) fn container_factors(refrigerated: bool) -> Vec<Factor> {
    if refrigerated {
        vec![desnz::SEA_CONTAINER_AVERAGE, authored::REEFER_UPLIFT]
    } else {
        vec![desnz::SEA_CONTAINER_AVERAGE]
    }
}

/// A leg's distance and how it was obtained.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Measured {
    /// The distance used.
    pub distance: Distance,
    pub method: DistanceMethod,
    /// Before the surface detour factor (the distance used otherwise).
    pub raw: Distance,
    /// The located ends, for a route between places.
    pub ends: Option<(LatLon, LatLon)>,
}

pub(super) fn distance(field: &str, route: &Route, mode: Mode) -> Result<Measured, EstimateError> {
    let (source, destination) = match route {
        Route::Distance(d) => {
            return Ok(Measured {
                distance: *d,
                method: DistanceMethod::UserInput,
                raw: *d,
                ends: None,
            });
        }
        Route::Between {
            source,
            destination,
        } => (source, destination),
    };
    let a = source.locate(&format!("{field}.source"))?;
    let b = destination.locate(&format!("{field}.destination"))?;
    let great_circle = Distance::from_km(km_decimal(a.km_to(&b)));
    let (distance, method) = match mode {
        Mode::Road | Mode::Rail | Mode::InlandWaterway => {
            (surface_distance(field, route)?, DistanceMethod::GreatCircle)
        }
        Mode::Air => (great_circle, DistanceMethod::GreatCircle),
        Mode::Sea => {
            let km = places::sea_km(&a, &b).ok_or_else(|| {
                EstimateError::invalid(field, "no sea route joins these points; send a distance")
            })?;
            (
                Distance::from_km(km_decimal(km)),
                DistanceMethod::SeaNetwork,
            )
        }
    };
    Ok(Measured {
        distance,
        method,
        raw: if method == DistanceMethod::SeaNetwork {
            distance
        } else {
            great_circle
        },
        ends: Some((a, b)),
    })
}

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

/// How well a leg's distance is known: sent (A), over the maritime network
/// or a great circle in the air (B), a great circle × a detour factor on
/// land (C).
pub(super) fn route_grade(method: DistanceMethod, mode: Mode) -> Grade {
    match (method, mode) {
        (DistanceMethod::UserInput, _) => Grade::A,
        (DistanceMethod::SeaNetwork, _) | (DistanceMethod::GreatCircle, Mode::Air) => Grade::B,
        (DistanceMethod::GreatCircle, _) => Grade::C,
    }
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

/// Belly freight on a named aircraft type: the flight's fuel between the two
/// airports (GAIA's ratio), over a given distance (as flown) or between other
/// places (great circle × the default ratio), and the shipment's share of
/// the payload. `None` for a type without a seat configuration.
pub(super) fn aircraft_freight(
    field: &str,
    code: &str,
    route: &Route,
    measured: &Measured,
    tonnes: Decimal,
) -> Result<Option<crate::flight::AircraftUse>, EstimateError> {
    use crate::aircraft;
    use crate::flight::{AircraftUse, FlightRoute};
    use crate::route::Place;
    let a = aircraft::require(field, code)?;
    let fuel = match route {
        Route::Distance(d) => aircraft::flight_fuel(field, a, &FlightRoute::Distance(*d))?,
        Route::Between {
            source: Place::Airport(s),
            destination: Place::Airport(d),
        } => aircraft::flight_fuel(
            field,
            a,
            &FlightRoute::Airports {
                source: s.clone(),
                destination: d.clone(),
            },
        )?,
        Route::Between { .. } => aircraft::great_circle_fuel(a, measured.raw.km()),
    };
    let kg = tonnes * Decimal::from(1000);
    Ok(fuel.freight_share(kg).map(|share| AircraftUse {
        fuel,
        share,
        wtt: None,
    }))
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
