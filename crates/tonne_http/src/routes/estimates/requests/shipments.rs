//! Shipping, single and multi-leg.

use serde::{Deserialize, Serialize};
use tonne_estimation::shipping::{self, CargoType, Method, Shipment};
use tonne_kernel::Mass;
// the contract's vocabularies, stated once for the estimates and the shipments
use utoipa::ToSchema;

use super::ShippingRouteRequest;
use super::fields::{country, timestamp};
use crate::error::ApiError;
use crate::wire::MassRequest;

pub use super::methods::*;

/// Cargo types of containers.
#[derive(Debug, Clone, Copy, Deserialize, Serialize, ToSchema)]
#[schema(as = CargoBody)]
#[serde(rename_all = "snake_case")]
pub enum CargoRequest {
    Lightweight,
    Average,
    Heavyweight,
    ContainerOnly,
}

/// A shipment by mass.
#[tonne_http_macros::request]
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[schema(as = MassShipmentBody)]
pub struct MassShipmentRequest {
    pub mass: MassRequest,
}

/// A shipment in TEU.
#[tonne_http_macros::request]
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[schema(as = ContainerShipmentBody)]
pub struct ContainerShipmentRequest {
    /// TEU, decimal string.
    pub containers: String,
    /// Cargo type (average when absent).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cargo_type: Option<CargoRequest>,
    /// Actual mass, if known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mass: Option<MassRequest>,
}

/// The contract's `Shipment`.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[schema(as = ShipmentBody)]
#[serde(untagged)]
pub enum ShipmentRequest {
    /// By mass.
    Mass(MassShipmentRequest),
    /// In containers.
    Containers(ContainerShipmentRequest),
}

fn shipment_mass(m: &MassRequest) -> Result<Mass, ApiError> {
    Mass::parse(&m.amount, m.unit.into())
        .map_err(|e| ApiError::validation("shipment.mass.amount", e))
}

impl ShipmentRequest {
    fn parse(&self) -> Result<Shipment, ApiError> {
        Ok(match self {
            ShipmentRequest::Mass(m) => Shipment::Mass(shipment_mass(&m.mass)?),
            ShipmentRequest::Containers(c) => {
                let teu = tonne_estimation::parse_amount("shipment.containers", &c.containers)?;
                Shipment::Containers {
                    teu,
                    cargo: match c.cargo_type {
                        None | Some(CargoRequest::Average) => CargoType::Average,
                        Some(CargoRequest::Lightweight) => CargoType::Lightweight,
                        Some(CargoRequest::Heavyweight) => CargoType::Heavyweight,
                        Some(CargoRequest::ContainerOnly) => CargoType::ContainerOnly,
                    },
                    mass: c.mass.as_ref().map(shipment_mass).transpose()?,
                }
            }
        })
    }
}

estimate_request! {
/// The contract's `ShippingEstimateRequest`.
pub struct ShippingEstimateRequest as ShippingRequest {
    /// What is shipped.
    pub shipment: ShipmentRequest,
    /// Required for a transport method; absent for a logistics site
    /// (`LogisticsSiteMethod`), which has no route.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub route: Option<ShippingRouteRequest>,
    pub method: MethodRequest,
    /// ISO alpha-3 (accepted and checked; the factors are not country-specific yet).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub country_code: Option<String>,
    /// Whether this is an actual shipment (2024; an annotation).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub is_shipment: Option<bool>,
    /// When the goods were shipped, RFC 3339 (2024; an annotation).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shipped_at: Option<String>,
}
}

impl ShippingEstimateRequest {
    /// Engine input.
    pub fn parse(&self) -> Result<(Shipment, shipping::Leg), ApiError> {
        if let Some(at) = &self.shipped_at {
            timestamp("shipped_at", at)?;
        }
        if let Some(c) = &self.country_code {
            country("country_code", c)?;
        }
        let shipment = self.shipment.parse()?;
        Ok((shipment, leg("", self.route.as_ref(), &self.method)?))
    }
}

/// A leg of either kind: a transport method needs its route; a logistics
/// site (`LogisticsSiteMethod`) has none (a route sent with one is refused:
/// it would not be used). `prefix` is `""` or `legs[i].`.
fn leg(
    prefix: &str,
    route: Option<&ShippingRouteRequest>,
    method: &MethodRequest,
) -> Result<shipping::Leg, ApiError> {
    let method = method.parse(&format!("{prefix}method"))?;
    let route_field = format!("{prefix}route");
    let route = match (&method, route) {
        (Method::Site(_), None) => tonne_estimation::route::Route::Distance(
            tonne_estimation::Distance::from_km(rust_decimal::Decimal::ZERO),
        ),
        (Method::Site(_), Some(_)) => {
            return Err(ApiError::validation(
                &route_field,
                "must be absent for a logistics site (it has no route)",
            ));
        }
        (_, Some(r)) => r.parse(&route_field)?,
        (_, None) => return Err(ApiError::validation(&route_field, "is required")),
    };
    Ok(shipping::Leg { route, method })
}

/// One leg of a multi-leg shipment.
#[tonne_http_macros::request]
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[schema(as = ShippingLegBody)]
pub struct ShippingLegRequest {
    /// Required for a transport method; absent for a logistics site.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub route: Option<ShippingRouteRequest>,
    pub method: MethodRequest,
    /// ISO alpha-3.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub country_code: Option<String>,
}

estimate_request! {
/// The contract's `MultiLegShippingEstimateRequest`.
pub struct MultiLegShippingEstimateRequest as MultiLegShippingRequest {
    /// What is shipped (all legs).
    pub shipment: ShipmentRequest,
    /// 1 to 10 legs.
    pub legs: Vec<ShippingLegRequest>,
    /// Whether this is an actual shipment (2024; an annotation).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub is_shipment: Option<bool>,
    /// When the goods were shipped, RFC 3339 (2024; an annotation).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shipped_at: Option<String>,
    /// Client 3.9.2's `RouteInference` (`on` or `off`): accepted; Tonne has
    /// no route inference, so the legs are computed as sent (as `off`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub route_inference: Option<String>,
    /// The client account of the caller's organisation this estimate is made
    /// on behalf of (client 3.9.2's `EstimateClientAccountRequest`; found by
    /// handle or idempotency key, created if none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub client_account: Option<super::EstimateClientAccountRequest>,
}
}

impl MultiLegShippingEstimateRequest {
    /// Engine input.
    pub fn parse(&self) -> Result<(Shipment, Vec<shipping::Leg>), ApiError> {
        if let Some(at) = &self.shipped_at {
            timestamp("shipped_at", at)?;
        }
        if self.legs.is_empty() || self.legs.len() > 10 {
            return Err(ApiError::validation("legs", "must have 1 to 10 legs"));
        }
        if let Some(r) = &self.route_inference
            && !matches!(r.as_str(), "on" | "off")
        {
            return Err(ApiError::validation("route_inference", "must be on or off"));
        }
        let legs = self
            .legs
            .iter()
            .enumerate()
            .map(|(i, l)| {
                if let Some(c) = &l.country_code {
                    country(&format!("legs[{i}].country_code"), c)?;
                }
                leg(&format!("legs[{i}]."), l.route.as_ref(), &l.method)
            })
            .collect::<Result<Vec<_>, ApiError>>()?;
        Ok((self.shipment.parse()?, legs))
    }
}
