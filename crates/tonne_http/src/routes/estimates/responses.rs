//! The estimate answers: one Rust type per contract schema (`…Response`, the
//! contract's schema name kept in the OpenAPI document), and [`render`], which
//! builds them from the domain's `Estimate`.

use std::collections::BTreeMap;

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use serde_json::value::RawValue;
use time::format_description::well_known::Rfc3339;
use tonne_estimation::Distance;
use tonne_estimation::estimate::{Estimate, EstimateDetail, LegFacts, RouteEnd, ShippingLeg};
use tonne_estimation::explain::{Explanation, FactorUse, Part, Wtw};
use tonne_kernel::Mass;
use utoipa::{IntoParams, ToSchema};

use crate::error::ApiError;
use crate::wire::QuoteBody;

/// The quote of an estimate: `OrderQuoteByQuantity`, or the `Errors` of a
/// selection that cannot be quoted (the estimate itself still succeeds).
#[derive(Debug, Serialize)]
#[serde(untagged)]
pub enum EstimateQuoteResponse {
    /// The quote.
    Quote(Box<QuoteBody>),
    /// Why there is none.
    Errors(Value),
}

/// The contract's `EmissionEstimateResponse` (the base of every kind's answer).
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = EstimateDoc)]
pub struct EstimateResponse {
    /// 32-character id.
    id: String,
    /// CO2e, in tonnes unless `estimate_mass_unit` says otherwise.
    mass: AnyMassResponse,
    /// `OrderQuoteByQuantity`, or `Errors` when quoting failed.
    #[schema(value_type = Object)]
    quote: EstimateQuoteResponse,
    /// The request as accepted.
    #[schema(value_type = Object)]
    request: Box<RawValue>,
    /// Tonne's extension: how the mass was obtained (see docs/API.md).
    explanation: ExplanationResponse,
    /// The `metadata` sent with the request (absent when none).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    metadata: BTreeMap<String, String>,
    /// The `idempotency_key` sent with the request.
    #[serde(skip_serializing_if = "Option::is_none")]
    idempotency_key: Option<String>,
}

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

/// The 2024 contract's `EstimateMassUnit`: the unit estimate masses are
/// answered in (`estimate_mass_unit`; tonnes by default).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum EstimateMassUnit {
    Mg,
    G,
    Kg,
    #[default]
    T,
}

impl EstimateMassUnit {
    fn as_str(self) -> &'static str {
        match self {
            EstimateMassUnit::Mg => "mg",
            EstimateMassUnit::G => "g",
            EstimateMassUnit::Kg => "kg",
            EstimateMassUnit::T => "t",
        }
    }

    /// A mass in this unit, exactly (masses are whole grams).
    fn amount(self, m: Mass) -> String {
        let g = Decimal::from(m.grams());
        let v = match self {
            EstimateMassUnit::Mg => g * Decimal::from(1000),
            EstimateMassUnit::G => g,
            EstimateMassUnit::Kg => Decimal::new(m.grams(), 3),
            EstimateMassUnit::T => Decimal::new(m.grams(), 6),
        };
        v.normalize().to_string()
    }

    /// kg per tonne·km in this unit per tonne·km.
    fn per_tkm(self, kg: Decimal) -> Decimal {
        let v = match self {
            EstimateMassUnit::Mg => kg * Decimal::from(1_000_000),
            EstimateMassUnit::G => kg * Decimal::from(1000),
            EstimateMassUnit::Kg => kg,
            EstimateMassUnit::T => kg / Decimal::from(1000),
        };
        v.round_dp(12).normalize()
    }

    fn intensity_unit(self) -> &'static str {
        match self {
            EstimateMassUnit::Mg => "mg_per_tkm",
            EstimateMassUnit::G => "g_per_tkm",
            EstimateMassUnit::Kg => "kg_per_tkm",
            EstimateMassUnit::T => "t_per_tkm",
        }
    }
}

/// The query of the shipping estimate routes.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct EstimateMassUnitQuery {
    /// The unit of the answer's masses (default `t`).
    pub estimate_mass_unit: Option<EstimateMassUnit>,
}

/// The filters of `GET /v1/estimates/shipping/all` (its page is `limit` and
/// `after`, as every list's).
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ShippingEstimatesQuery {
    /// `true` or `false`: only estimates of actual shipments, or only the
    /// others (an estimate that never said counts as `false`).
    #[param(value_type = Option<bool>)]
    pub is_shipment: Option<String>,
    /// RFC 3339: estimates created at or after (with `through`).
    pub from: Option<String>,
    /// RFC 3339: estimates created at or before (with `from`).
    pub through: Option<String>,
}

/// How an answer is rendered: the unit of its masses.
#[derive(Debug, Clone, Copy, Default)]
pub struct RenderOptions {
    pub mass_unit: EstimateMassUnit,
}

fn estimate_mass(m: Mass, unit: EstimateMassUnit) -> MassResponse {
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

fn shipping_mass(m: Mass, wtw: Option<Wtw>, unit: EstimateMassUnit) -> ShippingMassResponse {
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

/// The 2024 contract's `EmissionFactorWithGasEmissions`: the factor an
/// estimate used, from Tonne's tables.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = EmissionFactorWithGasEmissions)]
pub struct EmissionFactorResponse {
    /// Tonne's stable name of the factor (`SEA_CONTAINER_AVERAGE`, `mcc:5812`).
    id: String,
    name: String,
    /// `beis` (DESNZ, formerly BEIS), `epa` (USEEIO), or `lune` (Tonne's own figure).
    source: &'static str,
    source_version: String,
    publication_year: u16,
    numerator_unit: &'static str,
    denominator_unit: String,
    created_at: String,
    region: String,
    category: Option<String>,
    gas_emissions: GasEmissionsResponse,
}

/// The 2024 contract's `GasEmissions`, per unit of the factor's activity.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = GasEmissions)]
pub struct GasEmissionsResponse {
    /// kg CO2e, all gases.
    co2e: String,
    /// kg of CO2.
    #[serde(skip_serializing_if = "Option::is_none")]
    co2: Option<String>,
    /// kg of methane (the gas, not its CO2e).
    #[serde(skip_serializing_if = "Option::is_none")]
    methane: Option<String>,
    /// kg of nitrous oxide (the gas).
    #[serde(skip_serializing_if = "Option::is_none")]
    nitrous_oxide: Option<String>,
    /// 3.9.2's `GasWTWBreakdown`: the factor (tank-to-wheel) and the DESNZ
    /// well-to-tank row of the same activity, kg CO2e per unit.
    #[serde(skip_serializing_if = "Option::is_none")]
    wtw_breakdown: Option<GasWtwResponse>,
}

/// 3.9.2's `GasWTWBreakdown`.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = GasWTWBreakdown)]
pub struct GasWtwResponse {
    source: &'static str,
    wtt_co2e: String,
    ttw_co2e: String,
}

fn plain(d: Decimal) -> String {
    d.round_dp(12).normalize().to_string()
}

/// The contract's name of a factor's activity unit (`EmissionFactorDenominatorUnit`).
fn denominator(unit: &str) -> String {
    let per = unit.split_once('/').map_or(unit, |(_, per)| per);
    match per {
        "tonne.km" => "t*km".into(),
        "passenger.km" => "person*km".into(),
        "km" => "km".into(),
        "kWh" | "kWh (Gross CV)" => "kWh".into(),
        "cubic metres" => "m3".into(),
        "tonnes" => "t".into(),
        "USD (2022)" => "USD".into(),
        "kg fuel" => "kg".into(),
        "litres" => "l".into(),
        "EUR (2011)" => "EUR".into(),
        "day" => "kg*day".into(),
        other => other.to_owned(),
    }
}

pub(crate) fn emission_factor(f: &FactorUse) -> EmissionFactorResponse {
    let desnz = f.source.starts_with("UK Government GHG Conversion Factors");
    let epa = f.source.starts_with("US EPA");
    // the listed factor answers for what the use does not carry: an EXIOBASE
    // factor's region, a factor whose citation names no year (the TIM's)
    let listed = f
        .catalogue_id
        .as_deref()
        .and_then(|id| tonne_estimation::catalogue::catalogue().get(id))
        .filter(|_| !desnz && !epa && (f.id.starts_with("exiobase:") || f.year.is_none()));
    if let Some(l) = listed {
        return EmissionFactorResponse {
            id: f.id.clone(),
            name: l.name.clone(),
            source: l.source.as_str(),
            source_version: l.source_version.clone(),
            publication_year: l.publication_year,
            numerator_unit: "kg",
            denominator_unit: l.denominator.to_owned(),
            created_at: format!("{}T00:00:00Z", l.published),
            region: l.region.clone(),
            category: f.row.clone().or_else(|| l.category.clone()),
            gas_emissions: gas_emissions(f),
        };
    }
    let year = f.year.unwrap_or(0);
    EmissionFactorResponse {
        id: f.id.clone(),
        // the DESNZ category path (after the row id), or the row as written
        name: f.row.as_deref().map_or_else(
            || f.id.clone(),
            |r| r.split_once(": ").map_or(r, |(_, path)| path).to_owned(),
        ),
        source: if desnz {
            "beis"
        } else if epa {
            "epa"
        } else {
            "lune"
        },
        source_version: if desnz {
            "2025 v1 (2025-06-10)".into()
        } else if epa {
            "1.3.0".into()
        } else {
            year.to_string()
        },
        publication_year: year,
        numerator_unit: if f.unit.starts_with("g CO2e") {
            "g"
        } else {
            "kg"
        },
        denominator_unit: denominator(&f.unit),
        created_at: if desnz {
            "2025-06-10T00:00:00Z".into()
        } else {
            format!("{year:04}-01-01T00:00:00Z")
        },
        region: if desnz {
            "United Kingdom".into()
        } else if epa {
            "United States".into()
        } else {
            "Global".into()
        },
        category: f.row.clone(),
        gas_emissions: gas_emissions(f),
    }
}

/// A factor use's gases as the contract shows them.
fn gas_emissions(f: &FactorUse) -> GasEmissionsResponse {
    GasEmissionsResponse {
        co2e: plain(f.value),
        co2: f.gases.as_ref().map(|g| plain(g.co2)),
        methane: f.gases.as_ref().map(|g| plain(g.methane_kg())),
        nitrous_oxide: f.gases.as_ref().map(|g| plain(g.nitrous_oxide_kg())),
        wtw_breakdown: f.gases.as_ref().map(|g| GasWtwResponse {
            source: "direct_from_source",
            wtt_co2e: plain(g.wtt),
            ttw_co2e: plain(f.value),
        }),
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

fn distance_response(d: &Distance) -> DistanceResponse {
    DistanceResponse {
        amount: d.to_km_string(),
        unit: "km",
    }
}

/// How an estimate's mass was obtained: its parts (adding up to `mass`) and notes.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = ExplanationDoc)]
pub struct ExplanationResponse {
    parts: Vec<ExplanationPartResponse>,
    /// Fallbacks, precision, floors.
    notes: Vec<String>,
    /// The factor set it was computed with (absent for estimates stored
    /// before Tonne recorded it); a `PUT` answers the set that recomputed it.
    #[serde(skip_serializing_if = "Option::is_none")]
    factor_set: Option<String>,
}

/// One part of the mass.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = PartDoc)]
pub struct ExplanationPartResponse {
    /// `consumption`, `flight`, `legs[0]`, `energy`, …
    name: String,
    mass: MassResponse,
    /// The well-to-tank mass inside `mass`, for a part computed
    /// well-to-wheel or well-to-wake (freight legs, flights and passenger
    /// legs by aircraft type); absent when `mass` is its factors' product.
    #[serde(skip_serializing_if = "Option::is_none")]
    wtt: Option<MassResponse>,
    factors: Vec<FactorResponse>,
    quantities: Vec<QuantityResponse>,
}

/// A factor used, with its provenance.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = FactorDoc)]
pub struct FactorResponse {
    /// Tonne's stable name, e.g. `RAIL_NATIONAL`, `grid:DEU`, `mcc:5812`.
    id: String,
    /// Decimal string.
    value: String,
    unit: String,
    /// Publication (or Tonne's stated assumption, marked `[A]`).
    source: String,
    /// Table and row.
    #[serde(skip_serializing_if = "Option::is_none")]
    row: Option<String>,
    /// Year of the data.
    #[serde(skip_serializing_if = "Option::is_none")]
    year: Option<u16>,
    /// Its id in `GET /v1/emission-factors` (emission factors only; absent
    /// for conversion constants and estimates stored before Tonne recorded it).
    #[serde(skip_serializing_if = "Option::is_none")]
    catalogue_id: Option<String>,
}

/// An activity quantity a factor multiplied.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = QuantityDoc)]
pub struct QuantityResponse {
    name: String,
    /// Decimal string.
    amount: String,
    unit: String,
    /// How it was obtained.
    method: String,
}

fn explanation_response(e: &Explanation) -> ExplanationResponse {
    ExplanationResponse {
        parts: e
            .parts
            .iter()
            .map(|p| ExplanationPartResponse {
                name: p.name.clone(),
                mass: mass_response(p.mass),
                wtt: p.wtt.map(mass_response),
                factors: p
                    .factors
                    .iter()
                    .map(|f| FactorResponse {
                        id: f.id.clone(),
                        value: f.value.normalize().to_string(),
                        unit: f.unit.clone(),
                        source: f.source.clone(),
                        row: f.row.clone(),
                        year: f.year,
                        catalogue_id: f.catalogue_id.clone(),
                    })
                    .collect(),
                quantities: p
                    .quantities
                    .iter()
                    .map(|q| QuantityResponse {
                        name: q.name.clone(),
                        amount: q.amount.normalize().to_string(),
                        unit: q.unit.clone(),
                        method: q.method.clone(),
                    })
                    .collect(),
            })
            .collect(),
        notes: e.notes.clone(),
        factor_set: e.factor_set.clone(),
    }
}

/// One passenger leg's estimate.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = PassengerLegDoc)]
pub struct PassengerLegResponse {
    mass: MassResponse,
    /// The distance the leg's factor multiplied (omitted for estimates stored
    /// before Tonne kept their explanation).
    #[serde(skip_serializing_if = "Option::is_none")]
    distance: Option<DistanceResponse>,
    /// The leg's DESNZ factor, with its gases and well-to-tank row; `null`
    /// for estimates stored before Tonne kept their explanation.
    emission_factor: Option<EmissionFactorResponse>,
}

fn passenger_leg(m: Mass, part: Option<&Part>) -> PassengerLegResponse {
    PassengerLegResponse {
        mass: mass_response(m),
        distance: part
            .and_then(|p| p.quantities.iter().find(|q| q.name == "distance"))
            .map(|q| distance_response(&Distance::from_km(q.amount))),
        emission_factor: part.and_then(Part::emission_factor).map(emission_factor),
    }
}

/// The contract's `PassengerTransportationEmissionEstimate`.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = PassengerEstimateDoc)]
pub struct PassengerEstimateResponse {
    #[serde(flatten)]
    base: EstimateResponse,
    /// Per leg, in request order.
    legs: Vec<PassengerLegResponse>,
    /// As sent or annotated (default `false`).
    is_passenger_transportation: bool,
    /// As sent or annotated (RFC 3339); omitted when never said.
    #[serde(skip_serializing_if = "Option::is_none")]
    passenger_transportation_travelled_at: Option<String>,
}

/// What a shipping leg's answer says beside its mass (the 2024
/// `BaseShippingLegEmissionEstimate` and `ShippingLegEmissionEstimate` fields,
/// with 3.9.2's `activity`, `intensity`, `raw_distance` and `data_quality_score`).
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = ShippingLegFields)]
pub struct ShippingLegFieldsResponse {
    /// Distance used.
    distance: DistanceResponse,
    /// Before the surface detour factor.
    raw_distance: DistanceResponse,
    /// After it (the distance used).
    adjusted_distance: DistanceResponse,
    /// Fallbacks used (`imo_unavailable_container_ship_fallback`, `…_trade_lane_fallback`).
    methodology: Vec<&'static str>,
    /// `user_input`, `great_circle_distance` or `sea_distance_algorithm`.
    distance_calculation_method: Option<&'static str>,
    /// No vessel tracking or carrier schedules: always `null`.
    #[schema(value_type = Option<Object>)]
    distance_calculation_details: Option<()>,
    /// Source and destination, for a route between places.
    route: Option<CalculatedRouteResponse>,
    /// `null` only for estimates stored before Tonne kept their explanation.
    emission_factor: Option<EmissionFactorResponse>,
    /// The road method's `RoadMethodologyDetails` (HGV legs); `null` for
    /// every other method.
    methodology_details: Option<RoadMethodologyResponse>,
    /// Payload × distance.
    activity: Option<LogisticsActivityResponse>,
    /// Per tonne·km, by stage.
    intensity: Option<IntensityResponse>,
    /// The leg's grades (3.x's `DataQualityScore`); `null` for legs stored
    /// before Tonne graded them.
    data_quality_score: Option<DataQualityResponse>,
    /// The containers in tonnes, when sent as TEU without a mass.
    converted_shipment: Option<ConvertedShipmentResponse>,
    /// `user_provided_cargo_type` or `average_cargo_type`, with `converted_shipment`.
    shipment_conversion_method: Option<&'static str>,
    /// One method is one leg: always `null`.
    #[schema(value_type = Option<Object>)]
    resolved_legs: Option<()>,
}

/// A leg's data quality (3.x's `DataQualityScore`): the worst grade, and
/// each component's.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = DataQualityScoreDoc)]
pub struct DataQualityResponse {
    score: &'static str,
    components: DataQualityComponentsResponse,
}

/// The components of a leg's data quality.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = DataQualityComponentsDoc)]
pub struct DataQualityComponentsResponse {
    emission_factor_score: &'static str,
    route_score: Option<&'static str>,
    shipment_score: &'static str,
}

/// The contract's `ShippingLegEmissionEstimate`.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = ShippingLegDoc)]
pub struct ShippingLegResponse {
    mass: ShippingMassResponse,
    #[serde(flatten)]
    fields: ShippingLegFieldsResponse,
}

/// The 2024 contract's `CalculatedRoute`.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = CalculatedRoute)]
pub struct CalculatedRouteResponse {
    source: RouteLocationResponse,
    legs: Vec<RouteLegResponse>,
    /// No third-party routing: `null`.
    #[schema(value_type = Option<String>)]
    attribution: Option<()>,
}

/// The 2024 contract's `CalculatedRouteLocation`.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = CalculatedRouteLocation)]
pub struct RouteLocationResponse {
    label: Option<String>,
    coordinates: CoordinatesResponse,
}

/// Degrees WGS84.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = GeographicCoordinates)]
pub struct CoordinatesResponse {
    lat: f64,
    lon: f64,
}

/// The 2024 contract's `CalculatedRouteLeg`.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = CalculatedRouteLeg)]
pub struct RouteLegResponse {
    location: RouteLocationResponse,
    raw_distance: DistanceResponse,
    distance: DistanceResponse,
    adjusted_distance: DistanceResponse,
}

/// 3.9.2's `LogisticsActivity`.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = LogisticsActivity)]
pub struct LogisticsActivityResponse {
    value: String,
    unit: &'static str,
}

/// 3.9.2's `LogisticsIntensityBreakdown`.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = LogisticsIntensityBreakdown)]
pub struct IntensityResponse {
    wtt: IntensityValueResponse,
    ttw: IntensityValueResponse,
    wtw: IntensityValueResponse,
    unknown: IntensityValueResponse,
}

/// 3.9.2's `LogisticsIntensity`.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = LogisticsIntensity)]
pub struct IntensityValueResponse {
    amount: String,
    unit: &'static str,
}

/// The 2024 contract's `ConvertedShipment`.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = ConvertedShipment)]
pub struct ConvertedShipmentResponse {
    amount: String,
    unit: &'static str,
}

fn location(end: &RouteEnd) -> RouteLocationResponse {
    use rust_decimal::prelude::ToPrimitive;
    RouteLocationResponse {
        label: Some(end.label.clone()),
        coordinates: CoordinatesResponse {
            lat: end.lat.to_f64().unwrap_or_default(),
            lon: end.lon.to_f64().unwrap_or_default(),
        },
    }
}

fn route(f: &LegFacts, distance: &Distance) -> Option<CalculatedRouteResponse> {
    let [source, destination] = f.ends.as_ref()?;
    Some(CalculatedRouteResponse {
        source: location(source),
        legs: vec![RouteLegResponse {
            location: location(destination),
            raw_distance: distance_response(&f.raw_distance),
            distance: distance_response(&f.raw_distance),
            adjusted_distance: distance_response(distance),
        }],
        attribution: None,
    })
}

fn intensity(f: &LegFacts, unit: EstimateMassUnit) -> IntensityResponse {
    let v = |kg: Decimal| IntensityValueResponse {
        amount: unit.per_tkm(kg).to_string(),
        unit: unit.intensity_unit(),
    };
    match f.wtt_kg_per_tkm {
        Some(wtt) => IntensityResponse {
            wtt: v(wtt),
            ttw: v(f.ttw_kg_per_tkm),
            wtw: v(wtt + f.ttw_kg_per_tkm),
            unknown: v(Decimal::ZERO),
        },
        None => IntensityResponse {
            wtt: v(Decimal::ZERO),
            ttw: v(Decimal::ZERO),
            wtw: v(f.ttw_kg_per_tkm),
            unknown: v(f.ttw_kg_per_tkm),
        },
    }
}

/// Which fields the request's `shipment` carried (of either shipping
/// request): all the answers read back from the request. Read with
/// `IgnoredAny`, so nothing of the request is copied.
#[derive(Debug, Default, Deserialize)]
struct SentRequest {
    #[serde(default)]
    shipment: SentShipment,
}

#[derive(Debug, Default, Deserialize)]
struct SentShipment {
    containers: Option<serde::de::IgnoredAny>,
    mass: Option<serde::de::IgnoredAny>,
    cargo_type: Option<serde::de::IgnoredAny>,
}

/// The shipment as the request sent it (`shipment` of either shipping request).
fn conversion(
    request: &SentRequest,
    f: Option<&LegFacts>,
) -> (Option<ConvertedShipmentResponse>, Option<&'static str>) {
    let shipment = &request.shipment;
    match f {
        Some(f) if shipment.containers.is_some() && shipment.mass.is_none() => (
            Some(ConvertedShipmentResponse {
                amount: f.payload_tonnes.normalize().to_string(),
                unit: "t",
            }),
            Some(if shipment.cargo_type.is_some() {
                "user_provided_cargo_type"
            } else {
                "average_cargo_type"
            }),
        ),
        _ => (None, None),
    }
}

fn leg_fields(
    l: &ShippingLeg,
    part: Option<&Part>,
    request: &SentRequest,
    unit: EstimateMassUnit,
) -> ShippingLegFieldsResponse {
    let f = l.facts.as_ref();
    let (converted_shipment, shipment_conversion_method) = conversion(request, f);
    ShippingLegFieldsResponse {
        distance: distance_response(&l.distance),
        raw_distance: distance_response(f.map_or(&l.distance, |f| &f.raw_distance)),
        adjusted_distance: distance_response(&l.distance),
        methodology: l.methodology.iter().map(|m| m.as_str()).collect(),
        distance_calculation_method: f.map(|f| f.distance_method.as_str()),
        distance_calculation_details: None,
        route: f.and_then(|f| route(f, &l.distance)),
        emission_factor: part.and_then(Part::emission_factor).map(emission_factor),
        methodology_details: f.and_then(|f| f.road.as_deref()).map(road_details),
        activity: f.map(|f| LogisticsActivityResponse {
            value: (f.payload_tonnes * l.distance.km())
                .round_dp(6)
                .normalize()
                .to_string(),
            unit: "t*km",
        }),
        intensity: f.map(|f| intensity(f, unit)),
        data_quality_score: f.and_then(|f| f.quality).map(|q| DataQualityResponse {
            score: q.score.as_str(),
            components: DataQualityComponentsResponse {
                emission_factor_score: q.emission_factor.as_str(),
                route_score: q.route.map(|r| r.as_str()),
                shipment_score: q.shipment.as_str(),
            },
        }),
        converted_shipment,
        shipment_conversion_method,
        resolved_legs: None,
    }
}

fn leg_wtw(l: &ShippingLeg, part: Option<&Part>) -> Option<Wtw> {
    l.facts
        .as_ref()
        .map(|f| f.wtw)
        .or_else(|| part.map(Part::wtw))
}

fn leg_response(
    l: &ShippingLeg,
    part: Option<&Part>,
    request: &SentRequest,
    unit: EstimateMassUnit,
) -> ShippingLegResponse {
    ShippingLegResponse {
        mass: shipping_mass(l.mass, leg_wtw(l, part), unit),
        fields: leg_fields(l, part, request, unit),
    }
}

/// What a shipping estimate says of itself (2024: `is_shipment`,
/// `shipped_at`, `external_estimate_url`, `source`; 3.9.2: `created_at`,
/// `filename`, `user_fullname`).
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = ShipmentFields)]
pub struct ShipmentFieldsResponse {
    /// As sent or annotated (default `false`).
    is_shipment: bool,
    /// As sent or annotated; else when the estimate was created (RFC 3339).
    shipped_at: String,
    /// Tonne has no estimate pages: `null`.
    #[schema(value_type = Option<String>)]
    external_estimate_url: Option<()>,
    /// Always `api`.
    source: &'static str,
    /// RFC 3339.
    created_at: String,
    /// Not from a file: `null`.
    #[schema(value_type = Option<String>)]
    filename: Option<()>,
    /// Made with an API key, not by a person: `null`.
    #[schema(value_type = Option<String>)]
    user_fullname: Option<()>,
}

fn shipment_fields(e: &Estimate) -> ShipmentFieldsResponse {
    let created_at = e.created_at.format(&Rfc3339).unwrap_or_default();
    ShipmentFieldsResponse {
        is_shipment: e.annotations.actual.unwrap_or(false),
        shipped_at: e
            .annotations
            .occurred_at
            .and_then(|t| t.format(&Rfc3339).ok())
            .unwrap_or_else(|| created_at.clone()),
        external_estimate_url: None,
        source: "api",
        created_at,
        filename: None,
        user_fullname: None,
    }
}

/// The contract's `SingleShippingEmissionEstimate`.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = ShippingEstimateDoc)]
pub struct ShippingEstimateResponse {
    #[serde(flatten)]
    base: EstimateResponse,
    #[serde(flatten)]
    leg: ShippingLegFieldsResponse,
    #[serde(flatten)]
    shipment: ShipmentFieldsResponse,
}

/// The contract's `MultiLegShippingEmissionEstimate`.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = MultiLegEstimateDoc)]
pub struct MultiLegEstimateResponse {
    #[serde(flatten)]
    base: EstimateResponse,
    /// Per leg, in request order.
    legs: Vec<ShippingLegResponse>,
    /// Σ legs.
    distance: DistanceResponse,
    /// Σ legs' raw distances.
    raw_distance: DistanceResponse,
    /// Σ legs' distances used.
    adjusted_distance: DistanceResponse,
    /// The leg's grades (3.x's `DataQualityScore`); `null` for legs stored
    /// before Tonne graded them.
    data_quality_score: Option<DataQualityResponse>,
    #[serde(flatten)]
    shipment: ShipmentFieldsResponse,
}

/// The contract's `RoadMethodologyDetails`: the load model of a road leg.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = RoadMethodologyDetails)]
pub struct RoadMethodologyResponse {
    energy_consumption: EnergyConsumptionResponse,
    /// Tonnes (DESNZ's full payload of the class).
    vehicle_capacity: String,
    load_factor: f64,
    empty_runs_factor: f64,
    emission_standard: String,
    /// `load_factor × (1 − empty_runs_factor)`.
    capacity_utilisation: f64,
    situation: String,
    gradient: String,
}

/// MJ per tonne·km.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = EnergyConsumption)]
pub struct EnergyConsumptionResponse {
    amount: String,
    /// Always `MJ/tkm`.
    unit: &'static str,
}

/// What the contract requires and DESNZ's rows do not vary with, when not
/// sent: placeholders (docs/API.md).
const ROAD_PLACEHOLDERS: (&str, &str, &str) = ("flat", "motorway_rural_freeflow", "euro6");

fn road_details(r: &tonne_estimation::estimate::RoadFacts) -> RoadMethodologyResponse {
    use rust_decimal::prelude::ToPrimitive;
    let number = |d: Decimal| d.to_f64().unwrap_or_default();
    RoadMethodologyResponse {
        energy_consumption: EnergyConsumptionResponse {
            amount: r.energy_mj_per_tkm.normalize().to_string(),
            unit: "MJ/tkm",
        },
        vehicle_capacity: r.capacity_t.normalize().to_string(),
        load_factor: number(r.load_factor),
        empty_runs_factor: number(r.empty_runs_factor),
        emission_standard: r
            .emission_standard
            .clone()
            .unwrap_or_else(|| ROAD_PLACEHOLDERS.2.into()),
        capacity_utilisation: number(r.capacity_utilisation),
        situation: r
            .situation
            .clone()
            .unwrap_or_else(|| ROAD_PLACEHOLDERS.1.into()),
        gradient: r
            .gradient
            .clone()
            .unwrap_or_else(|| ROAD_PLACEHOLDERS.0.into()),
    }
}

/// Client 3.9.2's `FuelMethodologyDetails`.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = FuelMethodologyDetails)]
pub struct FuelMethodologyResponse {
    energy_density: EnergyDensityResponse,
}

/// An energy density (MJ per litre, net calorific value).
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = EnergyDensity)]
pub struct EnergyDensityResponse {
    /// Decimal string.
    amount: String,
    /// Always `MJ/l`.
    unit: &'static str,
}

/// One leg of client 3.9.2's `CreateMultiLegShippingEstimateByFuelResponse`.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = FuelLegEstimate)]
pub struct FuelLegResponse {
    /// Well-to-wheel, with its stages.
    mass: ShippingMassResponse,
    /// The fuel's DESNZ factor per litre (a blend's: the volume-weighted mix).
    emission_factor: Option<EmissionFactorResponse>,
    methodology_details: FuelMethodologyResponse,
}

/// The score of 3.9.2's by-fuel answer (`{score}`).
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = FuelDataQualityScore)]
pub struct ScoreOnlyResponse {
    score: &'static str,
}

/// Client 3.9.2's `CreateMultiLegShippingEstimateByFuelResponse`.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = MultiLegByFuelEstimateDoc)]
pub struct ByFuelEstimateResponse {
    #[serde(flatten)]
    base: EstimateResponse,
    /// Per leg, in request order.
    legs: Vec<FuelLegResponse>,
    /// The worst of the legs' fuel grades.
    data_quality_score: Option<ScoreOnlyResponse>,
    #[serde(flatten)]
    shipment: ShipmentFieldsResponse,
}

/// The contract's `TransactionEmissionEstimate`.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = TransactionEstimateDoc)]
pub struct TransactionEstimateResponse {
    #[serde(flatten)]
    base: EstimateResponse,
    /// The text whose factor was used: what a search term matched, else the
    /// merchant category's description (omitted only for estimates stored
    /// before Tonne kept their explanation).
    #[serde(skip_serializing_if = "Option::is_none")]
    search_term_match: Option<String>,
    /// Tonne's matching is by trigrams, not semantic: `null`.
    #[schema(value_type = Option<f64>)]
    search_term_match_score: Option<()>,
    /// `null` (no embedding model).
    #[schema(value_type = Option<String>)]
    semantic_matching_model: Option<()>,
    /// The spend factor; `null` for estimates stored before Tonne kept it.
    emission_factor: Option<EmissionFactorResponse>,
    /// The buyer's diet over a medium meat-eater's, on food purchases.
    diet_factor: Option<String>,
    /// Units of the factor's currency per unit of the spend's: euros per
    /// unit at the 2011 rate (EXIOBASE factors), or 2022 USD per unit
    /// (estimates stored when Tonne used USEEIO).
    exchange_rate: Option<String>,
    /// The start of the year the rate averages (2011-01-01, or 2022-01-01
    /// for USEEIO estimates).
    exchange_rate_date: Option<&'static str>,
    /// As sent, else `null`.
    #[schema(value_type = Option<bool>)]
    is_transaction: Value,
    /// As sent, else `null`.
    #[schema(value_type = Option<String>)]
    transaction_processed_at: Value,
    /// Tonne has no estimate pages: `null`.
    #[schema(value_type = Option<String>)]
    external_estimate_url: Option<()>,
}

fn transaction_response(
    base: EstimateResponse,
    e: &Estimate,
    search_term_match: Option<&String>,
) -> TransactionEstimateResponse {
    let facts = e.explanation.transaction_facts();
    // the merchant category of the factor's row ("MCC 5411 Grocery…")
    let category = facts
        .as_ref()
        .and_then(|f| f.merchant_category())
        .map(|c| c.description.clone());
    TransactionEstimateResponse {
        base,
        search_term_match: search_term_match.cloned().or(category),
        search_term_match_score: None,
        semantic_matching_model: None,
        emission_factor: facts.as_ref().map(|f| emission_factor(f.emission_factor)),
        diet_factor: facts
            .as_ref()
            .and_then(|f| f.diet_factor)
            .map(|d| d.normalize().to_string()),
        exchange_rate: facts.as_ref().map(|f| f.exchange_rate.to_string()),
        exchange_rate_date: facts.as_ref().map(|f| f.exchange_rate_date),
        is_transaction: e.annotations.actual.map_or(Value::Null, Value::Bool),
        transaction_processed_at: e
            .annotations
            .occurred_at
            .and_then(|t| t.format(&Rfc3339).ok())
            .map_or(Value::Null, Value::String),
        external_estimate_url: None,
    }
}

/// Company components (each a part of the total).
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = CompanyComponentsDoc)]
pub struct CompanyComponentsResponse {
    material_and_waste: MassResponse,
    energy: MassResponse,
    travel_and_commute: MassResponse,
    food_and_drink: MassResponse,
    tech: MassResponse,
    remote_employee: MassResponse,
}

/// The contract's `EmissionFactorEstimate`: the factor as it was when used.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = EmissionFactorEstimateDoc)]
pub struct EmissionFactorEstimateResponse {
    #[serde(flatten)]
    base: EstimateResponse,
    emission_factor: crate::routes::emission_factors::EmissionFactorResponse,
}

/// The contract's `CompanyEmissionEstimate`.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = CompanyEstimateDoc)]
pub struct CompanyEstimateResponse {
    #[serde(flatten)]
    base: EstimateResponse,
    scope1: MassResponse,
    scope2: MassResponse,
    scope3: MassResponse,
    components: CompanyComponentsResponse,
}

/// An estimate's answer, whichever its kind.
#[derive(Debug, Serialize)]
#[serde(untagged)]
pub enum AnyEstimateResponse {
    /// Electricity, flight, individual.
    Plain(EstimateResponse),
    Passenger(PassengerEstimateResponse),
    Shipping(Box<ShippingEstimateResponse>),
    MultiLeg(Box<MultiLegEstimateResponse>),
    Transaction(Box<TransactionEstimateResponse>),
    Company(Box<CompanyEstimateResponse>),
    EmissionFactor(Box<EmissionFactorEstimateResponse>),
    ByFuel(Box<ByFuelEstimateResponse>),
    TransactionDocument(
        Box<crate::routes::transaction_documents::wire::TransactionDocumentResponse>,
    ),
}

/// One entry of `GET /v1/estimates/shipping/all`: a single-leg or a multi-leg
/// shipping estimate (the contract's `AnyShippingEmissionEstimate`).
#[derive(Debug, Serialize, ToSchema)]
#[serde(untagged)]
#[schema(as = AnyShippingEmissionEstimate)]
pub enum AnyShippingEstimateResponse {
    /// `SingleShippingEmissionEstimate`.
    Shipping(Box<ShippingEstimateResponse>),
    /// `MultiLegShippingEmissionEstimate`.
    MultiLeg(Box<MultiLegEstimateResponse>),
}

/// Renders an estimate with its quote; `None` for money movement.
pub fn render(
    e: &Estimate,
    quote: EstimateQuoteResponse,
    options: RenderOptions,
) -> Result<Option<AnyEstimateResponse>, ApiError> {
    let Some(mass) = e.mass else { return Ok(None) };
    let request = RawValue::from_string(e.submitted.as_str().to_owned())
        .map_err(|err| ApiError::internal(&anyhow::anyhow!(err)))?;
    let unit = options.mass_unit;
    let shipping = matches!(
        e.detail,
        EstimateDetail::Shipping(_) | EstimateDetail::MultiLegShipping { .. }
    );
    let stages = shipping || matches!(e.detail, EstimateDetail::FuelLegs(_));
    // Only the shipping answers read the request back (the shipment as sent);
    // the other kinds do not parse it again.
    let sent: SentRequest = if shipping {
        serde_json::from_str(e.submitted.as_str()).unwrap_or_default()
    } else {
        SentRequest::default()
    };
    let base = EstimateResponse {
        id: e.id.to_string(),
        mass: if stages {
            let wtw = match &e.detail {
                EstimateDetail::Shipping(l) => leg_wtw(l, e.explanation.parts.first()),
                _ => Some(e.explanation.wtw()).filter(|_| !e.explanation.parts.is_empty()),
            };
            AnyMassResponse::Shipping(shipping_mass(mass, wtw, unit))
        } else {
            AnyMassResponse::Plain(mass_response(mass))
        },
        quote,
        request,
        explanation: explanation_response(&e.explanation),
        metadata: e.annotations.metadata.clone(),
        idempotency_key: e.annotations.idempotency_key.clone(),
    };
    let part = |name: &str| e.explanation.parts.iter().find(|p| p.name == name);
    Ok(Some(match &e.detail {
        EstimateDetail::Plain | EstimateDetail::MoneyMovement => AnyEstimateResponse::Plain(base),
        EstimateDetail::PassengerLegs(legs) => {
            AnyEstimateResponse::Passenger(PassengerEstimateResponse {
                base,
                legs: legs
                    .iter()
                    .enumerate()
                    .map(|(i, m)| passenger_leg(*m, part(&format!("legs[{i}]"))))
                    .collect(),
                is_passenger_transportation: e.annotations.actual.unwrap_or(false),
                passenger_transportation_travelled_at: e
                    .annotations
                    .occurred_at
                    .and_then(|t| t.format(&Rfc3339).ok()),
            })
        }
        EstimateDetail::Shipping(l) => {
            AnyEstimateResponse::Shipping(Box::new(ShippingEstimateResponse {
                base,
                leg: leg_fields(l, part("leg"), &sent, unit),
                shipment: shipment_fields(e),
            }))
        }
        EstimateDetail::MultiLegShipping { distance, legs } => {
            let raw = legs
                .iter()
                .map(|l| l.facts.as_ref().map_or(l.distance, |f| f.raw_distance).km())
                .sum::<Decimal>();
            AnyEstimateResponse::MultiLeg(Box::new(MultiLegEstimateResponse {
                base,
                legs: legs
                    .iter()
                    .enumerate()
                    .map(|(i, l)| leg_response(l, part(&format!("legs[{i}]")), &sent, unit))
                    .collect(),
                distance: distance_response(distance),
                raw_distance: distance_response(&Distance::from_km(raw)),
                adjusted_distance: distance_response(distance),
                data_quality_score: None,
                shipment: shipment_fields(e),
            }))
        }
        EstimateDetail::Transaction { search_term_match } => AnyEstimateResponse::Transaction(
            Box::new(transaction_response(base, e, search_term_match.as_ref())),
        ),
        EstimateDetail::Company(c) => {
            AnyEstimateResponse::Company(Box::new(CompanyEstimateResponse {
                base,
                scope1: mass_response(c.scope1),
                scope2: mass_response(c.scope2),
                scope3: mass_response(c.scope3),
                components: CompanyComponentsResponse {
                    material_and_waste: mass_response(c.material_and_waste),
                    energy: mass_response(c.energy),
                    travel_and_commute: mass_response(c.travel_and_commute),
                    food_and_drink: mass_response(c.food_and_drink),
                    tech: mass_response(c.tech),
                    remote_employee: mass_response(c.remote_employee),
                },
            }))
        }
        EstimateDetail::EmissionFactor(f) => {
            AnyEstimateResponse::EmissionFactor(Box::new(EmissionFactorEstimateResponse {
                base,
                emission_factor: crate::routes::emission_factors::factor_body(f),
            }))
        }
        EstimateDetail::TransactionDocument(d) => AnyEstimateResponse::TransactionDocument(
            Box::new(crate::routes::transaction_documents::wire::document_response(base, e, d)),
        ),
        EstimateDetail::FuelLegs(legs) => {
            AnyEstimateResponse::ByFuel(Box::new(ByFuelEstimateResponse {
                base,
                legs: legs
                    .iter()
                    .enumerate()
                    .map(|(i, l)| FuelLegResponse {
                        mass: shipping_mass(l.mass, Some(l.wtw), unit),
                        emission_factor: part(&format!("legs[{i}]"))
                            .and_then(Part::emission_factor)
                            .map(emission_factor),
                        methodology_details: FuelMethodologyResponse {
                            energy_density: EnergyDensityResponse {
                                amount: l.energy_density.normalize().to_string(),
                                unit: "MJ/l",
                            },
                        },
                    })
                    .collect(),
                data_quality_score: legs
                    .iter()
                    .map(|l| l.grade)
                    .max()
                    .map(|g| ScoreOnlyResponse { score: g.as_str() }),
                shipment: shipment_fields(e),
            }))
        }
    }))
}

/// One answer of a batch: an estimate, the `Errors` of a refused entry, or
/// `{}` for money movement.
#[derive(Debug, Serialize)]
#[serde(untagged)]
pub enum BatchEntryResponse {
    /// An estimate.
    Estimate(Box<AnyEstimateResponse>),
    /// Why the entry was refused.
    Errors(Value),
    /// Money movement.
    Empty {},
}
