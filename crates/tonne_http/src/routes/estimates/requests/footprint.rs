//! Company and individual years.

use serde::{Deserialize, Serialize};
use tonne_estimation::footprint::{CarFuel, CompanyRequest, IndividualRequest};
use tonne_estimation::{Area, AreaUnit};
use utoipa::ToSchema;

use super::{DietRequest, DistanceRequest, MoneyRequest};
use crate::error::ApiError;

/// `square_meters` or `square_feet`.
#[derive(Debug, Clone, Copy, Deserialize, Serialize, ToSchema)]
#[schema(as = AreaUnitBody)]
#[serde(rename_all = "snake_case")]
pub enum AreaUnitRequest {
    SquareMeters,
    SquareFeet,
}

/// The contract's `Area`.
#[tonne_http_macros::request]
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[schema(as = AreaBody)]
pub struct AreaRequest {
    /// Decimal string.
    pub amount: String,
    pub unit: AreaUnitRequest,
}

/// Cloud providers.
#[derive(Debug, Clone, Copy, Deserialize, Serialize, ToSchema)]
#[schema(as = CloudProviderBody)]
#[serde(rename_all = "lowercase")]
pub enum CloudProviderRequest {
    Aws,
    Gcp,
    Azure,
    Ovh,
    Other,
}

/// On-premise infrastructure.
#[tonne_http_macros::request]
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[schema(as = OnPremiseBody)]
pub struct OnPremiseRequest {
    /// Yearly electricity bill.
    pub electricity_cost: MoneyRequest,
}

/// Cloud use.
#[tonne_http_macros::request]
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[schema(as = CloudBody)]
pub struct CloudRequest {
    /// Yearly cost.
    pub cost: MoneyRequest,
    pub provider: CloudProviderRequest,
}

/// Tech use.
#[tonne_http_macros::request]
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[schema(as = TechBody)]
pub struct TechRequest {
    /// On premise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub on_premise: Option<OnPremiseRequest>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cloud: Option<CloudRequest>,
}

fn count(field: &str, v: i64) -> Result<u64, ApiError> {
    u64::try_from(v)
        .ok()
        .filter(|v| *v <= 1_000_000_000_000)
        .ok_or_else(|| ApiError::validation(field, "must be an integer between 0 and 10^12"))
}

fn percent(field: &str, v: i64) -> Result<u8, ApiError> {
    u8::try_from(v)
        .ok()
        .filter(|v| *v <= 100)
        .ok_or_else(|| ApiError::validation(field, "must be an integer between 0 and 100"))
}

estimate_request! {
/// The contract's `CompanyEstimateRequest` (yearly values).
pub struct CompanyEstimateRequest as CompanyRequestBody {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub months: Option<i64>,
    pub employees: i64,
    pub remote_employees_percentage: i64,
    pub office_area: AreaRequest,
    pub country_code: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub postcode: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub city: Option<String>,
    pub electricity_consumption: i64,
    pub green_electricity_used: bool,
    pub gas_consumption: i64,
    pub company_cars: i64,
    pub average_car_distance_travelled: DistanceRequest,
    pub employees_using_public_transport: i64,
    pub short_flights: i64,
    pub medium_flights: i64,
    pub long_flights: i64,
    pub first_or_business_class_percentage: i64,
    pub food_and_drinks_expenses: MoneyRequest,
    pub vegetarian_and_vegan_percentage: i64,
    pub electronic_device_expenses: MoneyRequest,
    pub garbage: i64,
    pub recycled_garbage_percentage: i64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tech: Option<TechRequest>,
}
}

impl CompanyEstimateRequest {
    /// Engine input.
    pub fn parse(&self) -> Result<CompanyRequest, ApiError> {
        let months = match self.months {
            None => 12,
            Some(m) => u32::try_from(m)
                .ok()
                .filter(|m| (1..=1200).contains(m))
                .ok_or_else(|| {
                    ApiError::validation("months", "must be an integer between 1 and 1200")
                })?,
        };
        let unit = match self.office_area.unit {
            AreaUnitRequest::SquareMeters => AreaUnit::SquareMeters,
            AreaUnitRequest::SquareFeet => AreaUnit::SquareFeet,
        };
        let tech = self.tech.as_ref();
        Ok(CompanyRequest {
            months,
            employees: count("employees", self.employees)?,
            remote_employees_percentage: percent(
                "remote_employees_percentage",
                self.remote_employees_percentage,
            )?,
            office_area: Area::parse("office_area.amount", &self.office_area.amount, unit)?,
            country_code: self.country_code.clone(),
            electricity_kwh: count("electricity_consumption", self.electricity_consumption)?,
            green_electricity_used: self.green_electricity_used,
            gas_m3: count("gas_consumption", self.gas_consumption)?,
            company_cars: count("company_cars", self.company_cars)?,
            average_car_distance: self
                .average_car_distance_travelled
                .parse("average_car_distance_travelled")?,
            employees_using_public_transport: count(
                "employees_using_public_transport",
                self.employees_using_public_transport,
            )?,
            short_flights: count("short_flights", self.short_flights)?,
            medium_flights: count("medium_flights", self.medium_flights)?,
            long_flights: count("long_flights", self.long_flights)?,
            first_or_business_class_percentage: percent(
                "first_or_business_class_percentage",
                self.first_or_business_class_percentage,
            )?,
            food_and_drinks_expenses: self
                .food_and_drinks_expenses
                .parse("food_and_drinks_expenses")?,
            vegetarian_and_vegan_percentage: percent(
                "vegetarian_and_vegan_percentage",
                self.vegetarian_and_vegan_percentage,
            )?,
            electronic_device_expenses: self
                .electronic_device_expenses
                .parse("electronic_device_expenses")?,
            garbage_kg: count("garbage", self.garbage)?,
            recycled_garbage_percentage: percent(
                "recycled_garbage_percentage",
                self.recycled_garbage_percentage,
            )?,
            on_premise_electricity_cost: tech
                .and_then(|t| t.on_premise.as_ref())
                .map(|o| o.electricity_cost.parse("tech.on_premise.electricity_cost"))
                .transpose()?,
            cloud_cost: tech
                .and_then(|t| t.cloud.as_ref())
                .map(|c| c.cost.parse("tech.cloud.cost"))
                .transpose()?,
        })
    }
}

/// Car fuels.
#[derive(Debug, Clone, Copy, Deserialize, Serialize, ToSchema)]
#[schema(as = CarFuelBody)]
#[serde(rename_all = "lowercase")]
pub enum CarFuelRequest {
    Gasoline,
    Electric,
    Hybrid,
}

estimate_request! {
/// The contract's `IndividualEstimateRequest` (yearly values).
pub struct IndividualEstimateRequest as IndividualRequestBody {
    pub country_code: String,
    pub car_use: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub car_fuel_type: Option<CarFuelRequest>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub average_car_distance_travelled: Option<DistanceRequest>,
    pub short_flights: i64,
    pub medium_flights: i64,
    pub long_flights: i64,
    pub days_per_week_using_public_transport: i64,
    pub diet: DietRequest,
    pub monthly_grocery_expenses: MoneyRequest,
    pub monthly_restaurant_expenses: MoneyRequest,
    pub monthly_clothing_expenses: MoneyRequest,
    pub monthly_furniture_appliances_expenses: MoneyRequest,
    pub monthly_other_expenses: MoneyRequest,
    pub electricity_consumption: i64,
    pub green_electricity_used: bool,
    pub gas_consumption: i64,
}
}

impl IndividualEstimateRequest {
    /// Engine input.
    pub fn parse(&self) -> Result<IndividualRequest, ApiError> {
        let days = u8::try_from(self.days_per_week_using_public_transport)
            .ok()
            .filter(|d| *d <= 7)
            .ok_or_else(|| {
                ApiError::validation(
                    "days_per_week_using_public_transport",
                    "must be an integer between 0 and 7",
                )
            })?;
        Ok(IndividualRequest {
            country_code: self.country_code.clone(),
            car_use: self.car_use,
            car_fuel: match self.car_fuel_type {
                None | Some(CarFuelRequest::Gasoline) => CarFuel::Gasoline,
                Some(CarFuelRequest::Electric) => CarFuel::Electric,
                Some(CarFuelRequest::Hybrid) => CarFuel::Hybrid,
            },
            car_distance: self
                .average_car_distance_travelled
                .as_ref()
                .map(|d| d.parse("average_car_distance_travelled"))
                .transpose()?,
            short_flights: count("short_flights", self.short_flights)?,
            medium_flights: count("medium_flights", self.medium_flights)?,
            long_flights: count("long_flights", self.long_flights)?,
            days_per_week_using_public_transport: days,
            diet: self.diet.into(),
            monthly_grocery: self
                .monthly_grocery_expenses
                .parse("monthly_grocery_expenses")?,
            monthly_restaurant: self
                .monthly_restaurant_expenses
                .parse("monthly_restaurant_expenses")?,
            monthly_clothing: self
                .monthly_clothing_expenses
                .parse("monthly_clothing_expenses")?,
            monthly_furniture_appliances: self
                .monthly_furniture_appliances_expenses
                .parse("monthly_furniture_appliances_expenses")?,
            monthly_other: self
                .monthly_other_expenses
                .parse("monthly_other_expenses")?,
            electricity_kwh: count("electricity_consumption", self.electricity_consumption)?,
            green_electricity_used: self.green_electricity_used,
            gas_m3: count("gas_consumption", self.gas_consumption)?,
        })
    }
}
