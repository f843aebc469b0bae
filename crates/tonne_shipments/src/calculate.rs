//! A checked row's emissions: each leg through Tonne's freight engine
//! (`tonne_estimation::shipping`), well-to-wheel, summed by carriage phase.
//! Client-provided figures are taken as sent.

use rust_decimal::Decimal;
use tonne_estimation::route::{Place, Route};
use tonne_estimation::shipping::road::{RoadFuel, RoadMethod};
use tonne_estimation::shipping::{self, CargoType, Leg, Method, Shipment, hubs};
use tonne_estimation::{Distance, EstimateError};
use tonne_kernel::Mass;

use crate::emissions::{FactorInfo, LegEmissions, ShipmentEmissions, Totals};
use crate::errors::RowError;
use crate::model::{
    ClientEmissions, LegDraft, LegMethod, Load, Location, SeaVessel, ShipmentDraft,
};
use crate::vocabulary::EmissionsSource;

/// The note of a sea leg whose vessel Tonne was asked to infer.
pub const VESSEL_INFERENCE_FALLBACK: &str = "vessel_inference_unavailable_container_ship_fallback";
/// The note of a road leg whose fuel has no factor for its vehicle.
pub const ROAD_FUEL_FALLBACK: &str = "road_fuel_unavailable_diesel_fallback";

/// The emissions of a checked row ([`ShipmentDraft::check`]).
///
/// Shipment-level client figures win (source `manual`); otherwise every leg
/// is calculated unless the client sent its figures. A leg without a load
/// carries the previous leg's (the goods do not change on the way).
pub fn emissions(draft: &ShipmentDraft) -> Result<ShipmentEmissions, RowError> {
    if let Some(e) = &draft.client_emissions {
        return Ok(manual_total(draft.legs.len(), e));
    }
    let mut load: Option<Load> = None;
    let mut legs = Vec::with_capacity(draft.legs.len());
    let mut all_manual = true;
    for (i, leg) in draft.legs.iter().enumerate() {
        if leg.load.is_known() {
            load = Some(leg.load);
        }
        let emissions = match &leg.client_emissions {
            Some(e) => Some(manual_leg(e)),
            None => {
                all_manual = false;
                calculate_leg(i, leg, load)?
            }
        };
        legs.push((leg.carriage, emissions));
    }
    let source = if all_manual {
        EmissionsSource::Manual
    } else {
        EmissionsSource::Calculated
    };
    Ok(ShipmentEmissions::of_legs(source, legs))
}

fn kg(field: &str, kg: Decimal) -> Result<Mass, RowError> {
    (kg * Decimal::from(1000))
        .round()
        .try_into()
        .map(Mass::from_grams)
        .map_err(|_| RowError::new(field, "is too large"))
}

fn grams(kg: Decimal) -> Mass {
    Mass::from_grams(
        (kg * Decimal::from(1000))
            .round()
            .try_into()
            .unwrap_or(i64::MAX),
    )
}

/// The client's split, or its total as unknown-stage tank-to-wheel.
fn split(e: &ClientEmissions) -> (Mass, Mass) {
    let total = grams(e.total_kg);
    match (e.wtt_kg.map(grams), e.ttw_kg.map(grams)) {
        (Some(wtt), _) => (wtt, Mass::from_grams(total.grams() - wtt.grams())),
        (None, Some(ttw)) => (Mass::from_grams(total.grams() - ttw.grams()), ttw),
        (None, None) => (Mass::from_grams(0), total),
    }
}

fn manual_leg(e: &ClientEmissions) -> LegEmissions {
    let (wtt, ttw) = split(e);
    LegEmissions {
        wtt,
        ttw,
        distance_km: e.distance_km,
        activity: Decimal::ZERO,
        factor: None,
        grade: None,
        flagged: false,
        notes: vec!["client_provided".to_owned()],
    }
}

fn manual_total(legs: usize, e: &ClientEmissions) -> ShipmentEmissions {
    let (wtt, ttw) = split(e);
    ShipmentEmissions {
        source: EmissionsSource::Manual,
        legs: vec![None; legs],
        phases: None,
        total: Totals {
            wtt,
            ttw,
            activity: Decimal::ZERO,
        },
        distance_km: e.distance_km,
        flagged: false,
    }
}

fn place(field: &str, l: &Location) -> Result<Place, RowError> {
    Ok(match l {
        Location::Address { city, country_code } => Place::Address {
            city: city.clone(),
            country_code: country_code.clone(),
        },
        Location::Coordinates(p) => Place::Coordinates(*p),
        Location::Locode(code) => Place::Seaport(code.clone()),
        Location::Airport(code) => Place::Airport(code.clone()),
        Location::Unknown(code) => {
            return Err(RowError::new(
                field,
                format!(
                    "'{code}' is neither a known airport code nor a known UN/LOCODE; send the leg's distance"
                ),
            ));
        }
    })
}

fn route(i: usize, leg: &LegDraft) -> Result<Route, RowError> {
    if let Some(km) = leg.distance_km {
        return Ok(Route::Distance(Distance::from_km(km)));
    }
    match (&leg.origin, &leg.destination) {
        (Some(o), Some(d)) => Ok(Route::Between {
            source: place(&format!("legs[{i}].origin"), o)?,
            destination: place(&format!("legs[{i}].destination"), d)?,
        }),
        _ => Err(RowError::new(
            format!("legs[{i}].distance"),
            "is required unless both origin and destination are given",
        )),
    }
}

fn payload(i: usize, load: Option<Load>) -> Result<Shipment, RowError> {
    let field = format!("legs[{i}].load");
    match load {
        Some(Load {
            tonnes: Some(t), ..
        }) => Ok(Shipment::Mass(kg(&field, t * Decimal::from(1000))?)),
        Some(Load { teu: Some(teu), .. }) => Ok(Shipment::Containers {
            teu,
            cargo: CargoType::Average,
            mass: None,
        }),
        _ => Err(RowError::new(
            field,
            "a mass or containers is required to calculate emissions (on this leg or an earlier one)",
        )),
    }
}

/// The road engine's method: the vehicle, its fuel (a fuel the engine does
/// not know stands in as diesel, with a note), refrigeration, and the leg's
/// load and empty-running factors.
fn road(
    leg: &LegDraft,
    vehicle_type: &str,
    fuel: &str,
    refrigerated: bool,
) -> (Method, Vec<&'static str>) {
    let (fuel, notes) = match RoadFuel::parse(fuel) {
        Some(f) => (f, vec![]),
        None => (
            RoadFuel::parse("diesel").unwrap_or(RoadFuel::AutoDetect),
            vec![ROAD_FUEL_FALLBACK],
        ),
    };
    (
        Method::Road(RoadMethod {
            vehicle_type: vehicle_type.to_owned(),
            fuel,
            load_factor: leg.load_factor,
            empty_runs_factor: leg.empty_run_factor,
            refrigerated,
            gradient: None,
            situation: None,
            emission_standard: None,
        }),
        notes,
    )
}

fn method(leg: &LegDraft) -> (Method, Vec<&'static str>) {
    match &leg.method {
        LegMethod::Simple(name) | LegMethod::Rail(name) => (Method::Simple(name.clone()), vec![]),
        LegMethod::Road {
            vehicle_type,
            fuel,
            refrigerated,
        } => road(leg, vehicle_type, fuel, *refrigerated),
        LegMethod::AircraftType(t) => (
            Method::Aircraft {
                aircraft_type: t.clone(),
            },
            vec![],
        ),
        LegMethod::FlightNumber(n) => (
            Method::FlightNumber {
                flight_number: n.clone(),
                configuration: "plane".to_owned(),
            },
            vec![],
        ),
        LegMethod::Sea(SeaVessel::Imo {
            imo,
            refrigerated,
            trade_lane,
        }) => (
            Method::Vessel {
                imo: imo.clone(),
                refrigerated: *refrigerated,
                trade_lane: trade_lane.clone(),
            },
            vec![],
        ),
        // no schedules or AIS: the trade's average container vessel (as the
        // engine's inferred-vessel method), refrigerated when the leg is
        LegMethod::Sea(SeaVessel::Inferred {
            refrigerated,
            trade_lane,
        }) => (
            Method::Container {
                refrigerated: *refrigerated,
                trade_lane: trade_lane.clone(),
            },
            vec![VESSEL_INFERENCE_FALLBACK],
        ),
        LegMethod::Sea(SeaVessel::Container {
            refrigerated,
            trade_lane,
        }) => (
            Method::Container {
                refrigerated: *refrigerated,
                trade_lane: trade_lane.clone(),
            },
            vec![],
        ),
        LegMethod::Sea(SeaVessel::Typed(name)) => (Method::Simple(name.clone()), vec![]),
        // never reached: sites are answered before (`site_leg`)
        LegMethod::LogisticsSite(name) => (Method::Simple(name.clone()), vec![]),
    }
}

fn estimate_error(i: usize, e: EstimateError) -> RowError {
    let text = e.to_string();
    match text.split_once(": ") {
        Some((field, message)) if field.starts_with("legs[") => RowError::new(field, message),
        _ => RowError::new(format!("legs[{i}]"), text),
    }
}

/// A logistics site (hub): the tonnes handled × the site type's GLEC v3
/// default intensity, all well-to-tank `[A]`; no distance and no transport
/// activity (a hub moves the goods nowhere), the factor per tonne.
fn site_leg(i: usize, name: &str, load: Option<Load>) -> Result<LegEmissions, RowError> {
    let shipment = payload(i, load)?;
    let h = hubs::hub(&format!("legs[{i}].method"), &shipment, name)
        .map_err(|e| estimate_error(i, e))?;
    let notes: Vec<String> = h.site.stand_in.iter().map(|s| (*s).to_owned()).collect();
    Ok(LegEmissions {
        wtt: h.wtt,
        ttw: h.ttw,
        distance_km: Decimal::ZERO,
        activity: Decimal::ZERO,
        factor: Some(FactorInfo {
            id: h.site.factor.id.to_owned(),
            description: format!("logistics site: {}", h.site.name),
            source: h.site.factor.source.to_owned(),
            region: "GLO".to_owned(),
            year: h.site.factor.year(),
            intensity: h.site.factor.value().normalize(),
            numerator: "kg CO2e".to_owned(),
            denominator: "t".to_owned(),
        }),
        grade: Some(h.quality.score.as_str().to_owned()),
        flagged: !notes.is_empty(),
        notes,
    })
}

fn calculate_leg(
    i: usize,
    leg: &LegDraft,
    load: Option<Load>,
) -> Result<Option<LegEmissions>, RowError> {
    if let LegMethod::LogisticsSite(name) = &leg.method {
        return site_leg(i, name, load).map(Some);
    }
    let (method, mut notes) = method(leg);
    let shipment = payload(i, load)?;
    let route = route(i, leg)?;
    let f = shipping::freight_leg(&format!("legs[{i}]"), &shipment, &Leg { route, method })
        .map_err(|e| estimate_error(i, e))?;
    notes.extend(f.notes.iter().copied());
    let mut notes: Vec<String> = notes.into_iter().map(str::to_owned).collect();
    if let Some(s) = &f.stand_in {
        notes.push(s.clone());
    }
    let activity = f.tonnes * f.distance.km();
    let total = f.total();
    let factor = f.factor.map(|factor| FactorInfo {
        id: factor.id.to_owned(),
        description: factor
            .row()
            .map(str::to_owned)
            .unwrap_or_else(|| factor.source.to_owned()),
        source: factor.publication().to_owned(),
        region: if factor.row().is_some() { "GBR" } else { "GLO" }.to_owned(),
        year: factor.year(),
        intensity: if activity.is_zero() {
            Decimal::ZERO
        } else {
            (Decimal::from(total.grams()) / Decimal::from(1000) / activity)
                .round_dp(8)
                .normalize()
        },
        numerator: "kg CO2e".to_owned(),
        denominator: "t*km".to_owned(),
    });
    Ok(Some(LegEmissions {
        wtt: f.wtt,
        ttw: f.ttw,
        distance_km: f.distance.km().round_dp(3).normalize(),
        activity: activity.round_dp(6).normalize(),
        factor,
        grade: Some(f.grade.to_owned()),
        flagged: !notes.is_empty(),
        notes,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vocabulary::Carriage;

    fn leg(carriage: Carriage, method: LegMethod, km: i64, tonnes: Option<i64>) -> LegDraft {
        LegDraft {
            order: None,
            carriage,
            method,
            origin: None,
            destination: None,
            distance_km: Some(Decimal::from(km)),
            load: Load {
                tonnes: tonnes.map(Decimal::from),
                teu: None,
            },
            load_factor: None,
            empty_run_factor: None,
            date: None,
            client_emissions: None,
        }
    }

    fn draft(legs: Vec<LegDraft>) -> ShipmentDraft {
        ShipmentDraft {
            reference: None,
            target_internal_id: None,
            target_internal_name: None,
            legs,
            client_emissions: None,
        }
    }

    #[test]
    fn rail_leg_is_well_to_wheel_from_the_desnz_rows() {
        // DESNZ 2025 27_315_3151_14_1 Freighting goods, Rail, Freight train:
        // 0.02779 kg CO2e/t.km (TTW); 28_911_3151_14_1 WTT- rail, Freight train:
        // 0.00691 kg CO2e/t.km. 10 t × 200 km = 2,000 t.km → TTW 55.580 kg,
        // WTT 13.820 kg, well-to-wheel 69.400 kg.
        let d = draft(vec![leg(
            Carriage::Main,
            LegMethod::Rail("diesel_freight_train".into()),
            200,
            Some(10),
        )]);
        let e = emissions(&d).unwrap();
        let l = e.legs[0].clone().unwrap();
        assert_eq!(l.activity, Decimal::from(2000));
        assert_eq!(l.ttw.grams(), 55_580);
        assert_eq!(l.wtt.grams(), 13_820);
        assert_eq!(e.total.total().grams(), 69_400);
        assert_eq!(e.phases.unwrap()[1].total(), e.total.total());
        assert_eq!(e.source, EmissionsSource::Calculated);
    }

    #[test]
    fn a_leg_without_load_carries_the_previous_one() {
        let d = draft(vec![
            leg(
                Carriage::Pre,
                LegMethod::Road {
                    vehicle_type: "truck".into(),
                    fuel: "diesel".into(),
                    refrigerated: false,
                },
                50,
                Some(2),
            ),
            leg(
                Carriage::Main,
                LegMethod::Rail("electric_freight_train".into()),
                500,
                None,
            ),
        ]);
        let e = emissions(&d).unwrap();
        assert_eq!(e.legs[1].as_ref().unwrap().activity, Decimal::from(1000));
        let phases = e.phases.unwrap();
        assert_eq!(
            phases[0].total().grams() + phases[1].total().grams(),
            e.total.total().grams()
        );
    }

    #[test]
    fn no_load_anywhere_fails_the_row_naming_the_field() {
        let d = draft(vec![leg(
            Carriage::Main,
            LegMethod::Rail("diesel_freight_train".into()),
            200,
            None,
        )]);
        assert_eq!(emissions(&d).unwrap_err().field, "legs[0].load");
    }

    #[test]
    fn an_unknown_code_without_distance_fails_the_row() {
        let mut l = leg(
            Carriage::Main,
            LegMethod::Sea(SeaVessel::Container {
                refrigerated: false,
                trade_lane: None,
            }),
            1,
            Some(1),
        );
        l.distance_km = None;
        l.origin = Some(Location::Unknown("ZZZZZ".into()));
        l.destination = Some(Location::Locode("NLRTM".into()));
        assert_eq!(
            emissions(&draft(vec![l])).unwrap_err().field,
            "legs[0].origin"
        );
    }

    #[test]
    fn a_hub_leg_counts_in_the_total() {
        // GLEC Framework v3.0 logistics-site defaults (kg CO2e/t): warehouse,
        // ambient 17.5. Road 12 t × 50 km, then 12 t through the warehouse =
        // 12 × 17.5 = 210 kg, all well-to-tank [A]; the shipment's total is
        // the road leg's plus 210 kg.
        let d = draft(vec![
            leg(
                Carriage::Pre,
                LegMethod::Road {
                    vehicle_type: "truck".into(),
                    fuel: "diesel".into(),
                    refrigerated: false,
                },
                50,
                Some(12),
            ),
            leg(
                Carriage::Main,
                LegMethod::LogisticsSite("warehouse_ambient".into()),
                0,
                None,
            ),
        ]);
        let e = emissions(&d).unwrap();
        let road = e.legs[0].clone().unwrap();
        let hub = e.legs[1].clone().unwrap();
        assert_eq!(hub.wtt.grams(), 210_000);
        assert_eq!(hub.ttw.grams(), 0);
        assert_eq!(hub.activity, Decimal::ZERO);
        assert_eq!(hub.distance_km, Decimal::ZERO);
        let f = hub.factor.unwrap();
        assert_eq!(f.intensity, Decimal::new(175, 1));
        assert_eq!(f.denominator, "t");
        assert_eq!(f.year, Some(2023));
        assert!(!hub.flagged);
        assert_eq!(
            e.total.total().grams(),
            road.total().grams() + 210_000,
            "the total includes the hub"
        );
        assert_eq!(e.phases.unwrap()[1].total().grams(), 210_000);
        // t·km: the road leg's only (the hub moves nothing)
        assert_eq!(e.total.activity, Decimal::from(600));
        assert!(!e.flagged);
    }

    #[test]
    fn a_chilled_warehouse_stands_in_and_is_flagged() {
        let d = draft(vec![leg(
            Carriage::Main,
            LegMethod::LogisticsSite("warehouse_chilled".into()),
            0,
            Some(3),
        )]);
        let e = emissions(&d).unwrap();
        let l = e.legs[0].clone().unwrap();
        // 3 t × 33.0 (warehouse, mixed) = 99 kg
        assert_eq!(l.total().grams(), 99_000);
        assert!(l.flagged && e.flagged);
        assert_eq!(l.grade.as_deref(), Some("C"));
    }

    #[test]
    fn a_hub_without_any_load_fails_naming_the_field() {
        let d = draft(vec![leg(
            Carriage::Main,
            LegMethod::LogisticsSite("warehouse_ambient".into()),
            0,
            None,
        )]);
        assert_eq!(emissions(&d).unwrap_err().field, "legs[0].load");
    }

    #[test]
    fn client_totals_win_and_add_up() {
        let mut d = draft(vec![leg(
            Carriage::Main,
            LegMethod::Rail("diesel_freight_train".into()),
            200,
            None,
        )]);
        d.client_emissions = Some(ClientEmissions {
            total_kg: Decimal::new(1005, 1),
            wtt_kg: Some(Decimal::new(205, 1)),
            ttw_kg: None,
            distance_km: Decimal::from(200),
        });
        let e = emissions(&d).unwrap();
        assert_eq!(e.source, EmissionsSource::Manual);
        assert_eq!(e.total.wtt.grams(), 20_500);
        assert_eq!(e.total.ttw.grams(), 80_000);
    }

    #[test]
    fn an_inferred_vessel_stands_in_and_is_flagged() {
        let d = draft(vec![leg(
            Carriage::Main,
            LegMethod::Sea(SeaVessel::Inferred {
                refrigerated: false,
                trade_lane: None,
            }),
            10_000,
            Some(20),
        )]);
        let l = emissions(&d).unwrap().legs[0].clone().unwrap();
        assert!(l.flagged);
        assert!(l.notes.iter().any(|n| n == VESSEL_INFERENCE_FALLBACK));
    }
}
