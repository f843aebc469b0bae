//! The shipping answers (single leg and multi-leg): their legs, routes,
//! intensities, data quality and the shipment fields, rendered from the
//! domain's shipping legs.

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use time::format_description::well_known::Rfc3339;
use tonne_estimation::Distance;
use tonne_estimation::estimate::{Estimate, LegFacts, RouteEnd, ShippingLeg};
use tonne_estimation::explain::{Part, Wtw};
use utoipa::ToSchema;

use super::amounts::{DistanceResponse, ShippingMassResponse, distance_response, shipping_mass};
use super::base::EstimateResponse;
use super::factor::{EmissionFactorResponse, emission_factor};
use super::queries::EstimateMassUnit;
use super::road::{RoadMethodologyResponse, road_details};

/// What a shipping leg's answer says beside its mass (the 2024
/// `BaseShippingLegEmissionEstimate` and `ShippingLegEmissionEstimate` fields,
/// with 3.9.2's `activity`, `intensity`, `raw_distance` and `data_quality_score`).
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = ShippingLegFields)]
pub struct ShippingLegFieldsResponse {
    /// Distance used.
    pub(super) distance: DistanceResponse,
    /// Before the surface detour factor.
    pub(super) raw_distance: DistanceResponse,
    /// After it (the distance used).
    pub(super) adjusted_distance: DistanceResponse,
    /// Fallbacks used (`imo_unavailable_container_ship_fallback`, `…_trade_lane_fallback`).
    pub(super) methodology: Vec<&'static str>,
    /// `user_input`, `great_circle_distance` or `sea_distance_algorithm`;
    /// `null` for a logistics site.
    pub(super) distance_calculation_method: Option<&'static str>,
    /// No vessel tracking or carrier schedules: always `null`.
    #[schema(value_type = Option<Object>)]
    pub(super) distance_calculation_details: Option<()>,
    /// Source and destination, for a route between places.
    pub(super) route: Option<CalculatedRouteResponse>,
    /// `null` only for estimates stored before Tonne kept their explanation.
    pub(super) emission_factor: Option<EmissionFactorResponse>,
    /// The road method's `RoadMethodologyDetails` (HGV legs); `null` for
    /// every other method.
    pub(super) methodology_details: Option<RoadMethodologyResponse>,
    /// Payload × distance.
    pub(super) activity: Option<LogisticsActivityResponse>,
    /// Per tonne·km, by stage.
    pub(super) intensity: Option<IntensityResponse>,
    /// The leg's grades (3.x's `DataQualityScore`); `null` for legs stored
    /// before Tonne graded them.
    pub(super) data_quality_score: Option<DataQualityResponse>,
    /// The containers in tonnes, when sent as TEU without a mass.
    pub(super) converted_shipment: Option<ConvertedShipmentResponse>,
    /// `user_provided_cargo_type` or `average_cargo_type`, with `converted_shipment`.
    pub(super) shipment_conversion_method: Option<&'static str>,
    /// One method is one leg: always `null`.
    #[schema(value_type = Option<Object>)]
    pub(super) resolved_legs: Option<()>,
}

/// A leg's data quality (3.x's `DataQualityScore`): the worst grade, and
/// each component's.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = DataQualityScoreDoc)]
pub struct DataQualityResponse {
    pub(super) score: &'static str,
    pub(super) components: DataQualityComponentsResponse,
}

/// The components of a leg's data quality.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = DataQualityComponentsDoc)]
pub struct DataQualityComponentsResponse {
    pub(super) emission_factor_score: &'static str,
    pub(super) route_score: Option<&'static str>,
    pub(super) shipment_score: &'static str,
}

/// The contract's `ShippingLegEmissionEstimate`.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = ShippingLegDoc)]
pub struct ShippingLegResponse {
    pub(super) mass: ShippingMassResponse,
    #[serde(flatten)]
    pub(super) fields: ShippingLegFieldsResponse,
}

/// The 2024 contract's `CalculatedRoute`.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = CalculatedRoute)]
pub struct CalculatedRouteResponse {
    pub(super) source: RouteLocationResponse,
    pub(super) legs: Vec<RouteLegResponse>,
    /// No third-party routing: `null`.
    #[schema(value_type = Option<String>)]
    pub(super) attribution: Option<()>,
}

/// The 2024 contract's `CalculatedRouteLocation`.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = CalculatedRouteLocation)]
pub struct RouteLocationResponse {
    pub(super) label: Option<String>,
    pub(super) coordinates: CoordinatesResponse,
}

/// Degrees WGS84.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = GeographicCoordinates)]
pub struct CoordinatesResponse {
    pub(super) lat: f64,
    pub(super) lon: f64,
}

/// The 2024 contract's `CalculatedRouteLeg`.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = CalculatedRouteLeg)]
pub struct RouteLegResponse {
    pub(super) location: RouteLocationResponse,
    pub(super) raw_distance: DistanceResponse,
    pub(super) distance: DistanceResponse,
    pub(super) adjusted_distance: DistanceResponse,
}

/// 3.9.2's `LogisticsActivity`.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = LogisticsActivity)]
pub struct LogisticsActivityResponse {
    pub(super) value: String,
    pub(super) unit: &'static str,
}

/// 3.9.2's `LogisticsIntensityBreakdown`.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = LogisticsIntensityBreakdown)]
pub struct IntensityResponse {
    pub(super) wtt: IntensityValueResponse,
    pub(super) ttw: IntensityValueResponse,
    pub(super) wtw: IntensityValueResponse,
    pub(super) unknown: IntensityValueResponse,
}

/// 3.9.2's `LogisticsIntensity`.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = LogisticsIntensity)]
pub struct IntensityValueResponse {
    pub(super) amount: String,
    pub(super) unit: &'static str,
}

/// The 2024 contract's `ConvertedShipment`.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = ConvertedShipment)]
pub struct ConvertedShipmentResponse {
    pub(super) amount: String,
    pub(super) unit: &'static str,
}

pub(super) fn location(end: &RouteEnd) -> RouteLocationResponse {
    use rust_decimal::prelude::ToPrimitive;
    RouteLocationResponse {
        label: Some(end.label.clone()),
        coordinates: CoordinatesResponse {
            lat: end.lat.to_f64().unwrap_or_default(),
            lon: end.lon.to_f64().unwrap_or_default(),
        },
    }
}

pub(super) fn route(f: &LegFacts, distance: &Distance) -> Option<CalculatedRouteResponse> {
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

pub(super) fn intensity(f: &LegFacts, unit: EstimateMassUnit) -> IntensityResponse {
    // a logistics site's (no distance): per tonne handled
    let per = if f.distance_method.is_some() {
        unit.intensity_unit()
    } else {
        unit.intensity_unit_per_t()
    };
    let v = |kg: Decimal| IntensityValueResponse {
        amount: unit.per_tkm(kg).to_string(),
        unit: per,
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
pub(super) struct SentRequest {
    #[serde(default)]
    pub(super) shipment: SentShipment,
}

#[derive(Debug, Default, Deserialize)]
pub(super) struct SentShipment {
    pub(super) containers: Option<serde::de::IgnoredAny>,
    pub(super) mass: Option<serde::de::IgnoredAny>,
    pub(super) cargo_type: Option<serde::de::IgnoredAny>,
}

/// The shipment as the request sent it (`shipment` of either shipping request).
pub(super) fn conversion(
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

pub(super) fn leg_fields(
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
        distance_calculation_method: f.and_then(|f| f.distance_method).map(|m| m.as_str()),
        distance_calculation_details: None,
        route: f.and_then(|f| route(f, &l.distance)),
        emission_factor: part.and_then(Part::emission_factor).map(emission_factor),
        methodology_details: f.and_then(|f| f.road.as_deref()).map(road_details),
        activity: f.map(|f| match f.distance_method {
            Some(_) => LogisticsActivityResponse {
                value: (f.payload_tonnes * l.distance.km())
                    .round_dp(6)
                    .normalize()
                    .to_string(),
                unit: "t*km",
            },
            // a logistics site: the tonnes handled
            None => LogisticsActivityResponse {
                value: f.payload_tonnes.normalize().to_string(),
                unit: "t",
            },
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

pub(super) fn leg_wtw(l: &ShippingLeg, part: Option<&Part>) -> Option<Wtw> {
    l.facts
        .as_ref()
        .map(|f| f.wtw)
        .or_else(|| part.map(Part::wtw))
}

pub(super) fn leg_response(
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
    pub(super) is_shipment: bool,
    /// As sent or annotated; else when the estimate was created (RFC 3339).
    pub(super) shipped_at: String,
    /// An actual shipment's page while the account's pages are public: its
    /// public logistics page (`/logistics/{account_id}`); else `null`.
    pub(super) external_estimate_url: Option<String>,
    /// Always `api`.
    pub(super) source: &'static str,
    /// RFC 3339.
    pub(super) created_at: String,
    /// Not from a file: `null`.
    #[schema(value_type = Option<String>)]
    pub(super) filename: Option<()>,
    /// Made with an API key, not by a person: `null`.
    #[schema(value_type = Option<String>)]
    pub(super) user_fullname: Option<()>,
}

pub(super) fn shipment_fields(
    e: &Estimate,
    logistics_page: Option<&str>,
) -> ShipmentFieldsResponse {
    let created_at = e.created_at.format(&Rfc3339).unwrap_or_default();
    ShipmentFieldsResponse {
        is_shipment: e.annotations.actual.unwrap_or(false),
        shipped_at: e
            .annotations
            .occurred_at
            .and_then(|t| t.format(&Rfc3339).ok())
            .unwrap_or_else(|| created_at.clone()),
        external_estimate_url: logistics_page
            .filter(|_| e.annotations.actual == Some(true))
            .map(str::to_owned),
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
    pub(super) base: EstimateResponse,
    #[serde(flatten)]
    pub(super) leg: ShippingLegFieldsResponse,
    #[serde(flatten)]
    pub(super) shipment: ShipmentFieldsResponse,
}

/// The contract's `MultiLegShippingEmissionEstimate`.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = MultiLegEstimateDoc)]
pub struct MultiLegEstimateResponse {
    #[serde(flatten)]
    pub(super) base: EstimateResponse,
    /// Per leg, in request order.
    pub(super) legs: Vec<ShippingLegResponse>,
    /// Σ legs.
    pub(super) distance: DistanceResponse,
    /// Σ legs' raw distances.
    pub(super) raw_distance: DistanceResponse,
    /// Σ legs' distances used.
    pub(super) adjusted_distance: DistanceResponse,
    /// The leg's grades (3.x's `DataQualityScore`); `null` for legs stored
    /// before Tonne graded them.
    pub(super) data_quality_score: Option<DataQualityResponse>,
    #[serde(flatten)]
    pub(super) shipment: ShipmentFieldsResponse,
}
