//! The contract's estimate requests as the domain's [`NewEstimate`]: the quote
//! terms, the engine input and the document as submitted.

use serde::Serialize;
use tonne_estimation::estimate::{
    BundleShare, EstimateRequest, NewEstimate, QuoteTerms, Submitted,
};
use tonne_kernel::MassUnit;
use tonne_ordering::Percentage;

use crate::error::ApiError;
use crate::routes::estimates::requests::{
    CompanyEstimateRequest, ElectricityEstimateRequest, FlightEstimateRequest,
    IndividualEstimateRequest, MultiLegShippingEstimateRequest,
    PassengerTransportationEstimateRequest, QuoteFields, ShippingEstimateRequest,
    TransactionEstimateRequest,
};
use crate::wire::selection;

/// A wire request as the domain's: the quote terms first (a malformed
/// `bundle_selection` refuses the request, so that the echoed request always
/// conforms; a well-formed one that cannot be priced becomes the quote's
/// `Errors`), then the engine input, and the document as submitted.
pub fn submission<B: QuoteFields + Serialize>(
    body: &B,
    parse: impl FnOnce(&B) -> Result<EstimateRequest, ApiError>,
) -> Result<NewEstimate, ApiError> {
    let bundle_selection = selection(body.bundle_selection())?.map(|entries| {
        entries
            .into_iter()
            .map(|e| BundleShare {
                bundle_id: e.bundle_id,
                hundredths: e.percentage.map(Percentage::hundredths),
            })
            .collect()
    });
    let request = parse(body)?;
    let document =
        serde_json::to_string(body).map_err(|e| ApiError::internal(&anyhow::anyhow!(e)))?;
    Ok(NewEstimate {
        request,
        quote: QuoteTerms {
            bundle_selection,
            quantity_trunc: body.quantity_trunc().map(MassUnit::from),
        },
        submitted: Submitted::new(document),
    })
}

pub fn electricity(b: &ElectricityEstimateRequest) -> Result<NewEstimate, ApiError> {
    submission(b, |b| {
        let (consumption, country_code) = b.parse()?;
        Ok(EstimateRequest::Electricity {
            consumption,
            country_code,
        })
    })
}

pub fn flight(b: &FlightEstimateRequest) -> Result<NewEstimate, ApiError> {
    submission(b, |b| Ok(EstimateRequest::Flight(b.parse()?)))
}

pub fn passenger(b: &PassengerTransportationEstimateRequest) -> Result<NewEstimate, ApiError> {
    submission(b, |b| {
        Ok(EstimateRequest::PassengerTransportation(b.parse()?))
    })
}

pub fn shipping(b: &ShippingEstimateRequest) -> Result<NewEstimate, ApiError> {
    submission(b, |b| {
        let (shipment, leg) = b.parse()?;
        Ok(EstimateRequest::Shipping { shipment, leg })
    })
}

pub fn multi_leg(b: &MultiLegShippingEstimateRequest) -> Result<NewEstimate, ApiError> {
    submission(b, |b| {
        let (shipment, legs) = b.parse()?;
        Ok(EstimateRequest::MultiLegShipping { shipment, legs })
    })
}

pub fn transaction(b: &TransactionEstimateRequest) -> Result<NewEstimate, ApiError> {
    submission(b, |b| Ok(EstimateRequest::Transaction(b.parse()?)))
}

pub fn company(b: &CompanyEstimateRequest) -> Result<NewEstimate, ApiError> {
    submission(b, |b| Ok(EstimateRequest::Company(b.parse()?)))
}

pub fn individual(b: &IndividualEstimateRequest) -> Result<NewEstimate, ApiError> {
    submission(b, |b| Ok(EstimateRequest::Individual(b.parse()?)))
}
