//! Client 3.9.2's `CreateMultiLegShippingEstimateByFuelRequest`: legs by
//! the fuel burnt.

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use tonne_estimation::shipping::fuel::{FuelLeg, LegFuel};
use utoipa::ToSchema;

use super::fields::timestamp;
use crate::error::ApiError;

/// One leg: the fuel and the litres of it burnt.
#[tonne_http_macros::request]
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[schema(as = FuelLegBody)]
pub struct FuelLegRequest {
    /// `gasoline`, `diesel`, `99_diesel_1_biodiesel`, `98_diesel_2_biodiesel`,
    /// `95_diesel_5_biodiesel`, `93_diesel_7_biodiesel`, `90_diesel_10_biodiesel`,
    /// `80_diesel_20_biodiesel`, `50_diesel_50_biodiesel`, `ethanol_from_corn`,
    /// `hvo_from_tallow` or `lpg`.
    pub fuel: String,
    /// Litres burnt on the leg (greater than 0).
    #[schema(value_type = f64)]
    pub fuel_consumed_litres: serde_json::Number,
}

estimate_request! {
/// Client 3.9.2's `CreateMultiLegShippingEstimateByFuelRequest`.
pub struct MultiLegShippingByFuelRequest as CreateMultiLegShippingEstimateByFuelRequest {
    /// 1 to 10 legs.
    pub legs: Vec<FuelLegRequest>,
    /// Whether this is an actual shipment (an annotation).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub is_shipment: Option<bool>,
    /// When the goods were shipped, RFC 3339 (an annotation).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shipped_at: Option<String>,
}
}

/// A JSON number as a decimal, exactly as written.
fn litres(field: &str, n: &serde_json::Number) -> Result<Decimal, ApiError> {
    let text = n.to_string();
    let value = text
        .parse::<Decimal>()
        .or_else(|_| Decimal::from_scientific(&text))
        .map_err(|_| ApiError::validation(field, "must be a number greater than 0"))?;
    if value <= Decimal::ZERO || value > Decimal::from(1_000_000_000_i64) {
        return Err(ApiError::validation(
            field,
            "must be a number greater than 0 (at most 1,000,000,000)",
        ));
    }
    Ok(value)
}

impl MultiLegShippingByFuelRequest {
    /// Engine input.
    pub fn parse(&self) -> Result<Vec<FuelLeg>, ApiError> {
        if let Some(at) = &self.shipped_at {
            timestamp("shipped_at", at)?;
        }
        if self.legs.is_empty() || self.legs.len() > 10 {
            return Err(ApiError::validation("legs", "must have 1 to 10 legs"));
        }
        self.legs
            .iter()
            .enumerate()
            .map(|(i, l)| {
                let fuel = LegFuel::parse(&l.fuel).ok_or_else(|| {
                    ApiError::validation(
                        &format!("legs[{i}].fuel"),
                        "is not a known fuel (gasoline, diesel, 99_diesel_1_biodiesel, 98_diesel_2_biodiesel, 95_diesel_5_biodiesel, 93_diesel_7_biodiesel, 90_diesel_10_biodiesel, 80_diesel_20_biodiesel, 50_diesel_50_biodiesel, ethanol_from_corn, hvo_from_tallow, lpg)",
                    )
                })?;
                Ok(FuelLeg {
                    fuel,
                    litres: litres(
                        &format!("legs[{i}].fuel_consumed_litres"),
                        &l.fuel_consumed_litres,
                    )?,
                })
            })
            .collect()
    }
}
