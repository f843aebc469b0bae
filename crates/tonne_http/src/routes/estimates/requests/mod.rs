//! The contract's estimate request shapes and their conversion to the engines'
//! inputs. Every conversion error names its field; unknown fields are refused;
//! `null` is refused for optional fields, as everywhere in the API.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use tonne_estimation::Spend;
use tonne_estimation::diet::Diet;
use tonne_estimation::flight::CabinClass;
use utoipa::ToSchema;

use crate::error::ApiError;
use crate::wire::{CurrencyCode, MassUnitRequest, SelectionRequest};
use fields::at;

/// Fields every estimate request shares: a name and the quote's selection.
pub trait SharedFields {
    /// `bundle_selection`.
    fn bundle_selection(&self) -> Option<Vec<SelectionRequest>>;
    /// `quantity_trunc`.
    fn quantity_trunc(&self) -> Option<MassUnitRequest>;
    /// `idempotency_key`.
    fn idempotency_key(&self) -> Option<&str>;
    /// `metadata`.
    fn metadata(&self) -> Option<&BTreeMap<String, String>>;
}

/// Declares an estimate request: the given fields, then the five every
/// estimate request shares (`name`, the quote's `bundle_selection` and
/// `quantity_trunc`, and the 2024 `metadata` and `idempotency_key`), strict
/// (`deny_unknown_fields`, `null` refused for optional fields), with its
/// [`SharedFields`].
macro_rules! estimate_request {
    ($(#[$meta:meta])* pub struct $name:ident as $schema:ident { $($body:tt)* }) => {
        #[tonne_http_macros::request]
        #[derive(Debug, Clone, serde::Deserialize, serde::Serialize, utoipa::ToSchema)]
        #[schema(as = $schema)]
        $(#[$meta])*
        pub struct $name {
            $($body)*
            /// A name to reference this calculation.
            #[serde(skip_serializing_if = "Option::is_none")]
            pub name: Option<String>,
            /// Bundles and percentages for the quote (else the account's or the catalogue's default).
            #[serde(skip_serializing_if = "Option::is_none")]
            pub bundle_selection: Option<Vec<crate::wire::SelectionRequest>>,
            /// Truncation unit of the quote's quantities.
            #[serde(skip_serializing_if = "Option::is_none")]
            pub quantity_trunc: Option<crate::wire::MassUnitRequest>,
            /// String pairs the client attaches; answered as sent.
            #[serde(skip_serializing_if = "Option::is_none")]
            pub metadata: Option<std::collections::BTreeMap<String, String>>,
            /// Account-unique key (at most 100 characters): a repeat is 409.
            #[serde(skip_serializing_if = "Option::is_none")]
            pub idempotency_key: Option<String>,
        }

        impl crate::routes::estimates::requests::SharedFields for $name {
            fn bundle_selection(&self) -> Option<Vec<crate::wire::SelectionRequest>> {
                self.bundle_selection.clone()
            }
            fn quantity_trunc(&self) -> Option<crate::wire::MassUnitRequest> {
                self.quantity_trunc
            }
            fn idempotency_key(&self) -> Option<&str> {
                self.idempotency_key.as_deref()
            }
            fn metadata(&self) -> Option<&std::collections::BTreeMap<String, String>> {
                self.metadata.as_ref()
            }
        }
    };
}

pub(crate) use estimate_request;

mod annotations;
mod client_account;
mod factors;
mod fields;
mod footprint;
mod fuel;
mod methods;
mod places;
mod shipments;
mod transactions;
mod transport;

pub use annotations::{
    UpdatePassengerTransportationEstimateAnnotationsRequest,
    UpdateShippingEstimateAnnotationsRequest, UpdateTransactionEstimateAnnotationsRequest,
};
pub use client_account::EstimateClientAccountRequest;
pub use factors::{ActivityRequest, EmissionFactorEstimateRequest};
pub use fields::timestamp;
pub use footprint::{
    AreaRequest, AreaUnitRequest, CarFuelRequest, CloudProviderRequest, CloudRequest,
    CompanyEstimateRequest, IndividualEstimateRequest, OnPremiseRequest, TechRequest,
};
pub use fuel::{FuelLegRequest, MultiLegShippingByFuelRequest};
pub use places::*;
pub use shipments::{
    CargoRequest, ContainerMethodRequest, ContainerShipmentRequest, MassShipmentRequest,
    MethodRequest, MultiLegShippingEstimateRequest, SeaMethodRequest, ShipmentRequest,
    ShippingEstimateRequest, ShippingLegRequest,
};
pub use transactions::{MerchantRequest, RegionFallbackRequest, TransactionEstimateRequest};
pub use transport::{
    FlightEstimateRequest, FlightLegRequest, PassengerLegRequest,
    PassengerTransportationEstimateRequest, RailLegRequest, RailRequest, RoadLegRequest,
    VehicleRequest,
};

/// The contract's `MonetaryAmount`.
#[tonne_http_macros::request]
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[schema(as = MoneyBody)]
pub struct MoneyRequest {
    /// Decimal string.
    pub value: String,
    pub currency: CurrencyCode,
}

impl MoneyRequest {
    fn parse(&self, field: &str) -> Result<Spend, ApiError> {
        Ok(Spend::parse(
            &at(field, "value"),
            &self.value,
            self.currency.into(),
        )?)
    }
}

/// The contract's diets.
#[derive(Debug, Clone, Copy, Deserialize, Serialize, ToSchema)]
#[schema(as = DietBody)]
#[serde(rename_all = "snake_case")]
pub enum DietRequest {
    HighMeatEater,
    MediumMeatEater,
    LowMeatEater,
    FishEater,
    Vegetarian,
    Vegan,
}

impl From<DietRequest> for Diet {
    fn from(d: DietRequest) -> Self {
        match d {
            DietRequest::HighMeatEater => Diet::HighMeatEater,
            DietRequest::MediumMeatEater => Diet::MediumMeatEater,
            DietRequest::LowMeatEater => Diet::LowMeatEater,
            DietRequest::FishEater => Diet::FishEater,
            DietRequest::Vegetarian => Diet::Vegetarian,
            DietRequest::Vegan => Diet::Vegan,
        }
    }
}

/// Cabin class.
#[derive(Debug, Clone, Copy, Deserialize, Serialize, ToSchema)]
#[schema(as = CabinBody)]
#[serde(rename_all = "lowercase")]
pub enum CabinRequest {
    Economy,
    Business,
    First,
}

impl From<CabinRequest> for CabinClass {
    fn from(c: CabinRequest) -> Self {
        match c {
            CabinRequest::Economy => CabinClass::Economy,
            CabinRequest::Business => CabinClass::Business,
            CabinRequest::First => CabinClass::First,
        }
    }
}

/// kWh, MWh or GWh.
#[derive(Debug, Clone, Copy, Deserialize, Serialize, ToSchema)]
#[schema(as = EnergyUnitBody)]
pub enum EnergyUnitRequest {
    #[serde(rename = "kWh")]
    KWh,
    #[serde(rename = "MWh")]
    MWh,
    #[serde(rename = "GWh")]
    GWh,
}

/// The contract's `ElectricityConsumption`.
#[tonne_http_macros::request]
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[schema(as = ConsumptionBody)]
pub struct ConsumptionRequest {
    /// Decimal string.
    pub amount: String,
    pub unit: EnergyUnitRequest,
}

estimate_request! {
/// The contract's `ElectricityEstimateRequest`.
pub struct ElectricityEstimateRequest as ElectricityRequest {
    pub consumption: ConsumptionRequest,
    /// ISO alpha-3; the world average when absent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub country_code: Option<String>,
}
}

impl ElectricityEstimateRequest {
    /// Consumption and country.
    pub fn parse(
        &self,
    ) -> Result<(tonne_estimation::electricity::Energy, Option<String>), ApiError> {
        use tonne_estimation::electricity::{Energy, EnergyUnit};
        let unit = match self.consumption.unit {
            EnergyUnitRequest::KWh => EnergyUnit::KWh,
            EnergyUnitRequest::MWh => EnergyUnit::MWh,
            EnergyUnitRequest::GWh => EnergyUnit::GWh,
        };
        let energy = Energy::parse(&self.consumption.amount, unit)?;
        // the engine checks the code (shape and table)
        Ok((energy, self.country_code.clone()))
    }
}
