//! The contract's estimate requests as the domain's [`NewEstimate`]: the quote
//! terms, the engine input and the document as submitted.

use std::collections::BTreeMap;

use serde::Serialize;
use tonne_estimation::estimate::{
    Annotations, AnnotationsPatch, BundleShare, EstimateRequest, IDEMPOTENCY_KEY_MAX_CHARS,
    NewEstimate, QuoteTerms, Submitted,
};
use tonne_kernel::MassUnit;
use tonne_ordering::Percentage;

use crate::error::ApiError;
use crate::routes::estimates::requests::{
    CompanyEstimateRequest, ElectricityEstimateRequest, EmissionFactorEstimateRequest,
    FlightEstimateRequest, IndividualEstimateRequest, MultiLegShippingByFuelRequest,
    MultiLegShippingEstimateRequest, PassengerTransportationEstimateRequest, SharedFields,
    ShippingEstimateRequest, TransactionEstimateRequest,
    UpdatePassengerTransportationEstimateAnnotationsRequest,
    UpdateShippingEstimateAnnotationsRequest, UpdateTransactionEstimateAnnotationsRequest,
    timestamp,
};
use crate::wire::selection;

/// A wire request as the domain's: the quote terms first (a malformed
/// `bundle_selection` refuses the request, so that the echoed request always
/// conforms; a well-formed one that cannot be priced becomes the quote's
/// `Errors`), then the engine input, and the document as submitted.
pub fn submission<B: SharedFields + Serialize>(
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
    let annotations = annotations(body)?;
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
        annotations,
    })
}

/// The most `metadata` pairs, and the longest key and value (characters).
pub const METADATA_MAX_PAIRS: usize = 50;
const METADATA_MAX_KEY_CHARS: usize = 40;
const METADATA_MAX_VALUE_CHARS: usize = 500;

/// `idempotency_key` and `metadata`, checked.
fn annotations<B: SharedFields>(body: &B) -> Result<Annotations, ApiError> {
    Ok(Annotations {
        idempotency_key: idempotency_key(body.idempotency_key())?,
        metadata: metadata(body.metadata())?.unwrap_or_default(),
        actual: None,
        occurred_at: None,
    })
}

/// An `idempotency_key`, checked.
fn idempotency_key(key: Option<&str>) -> Result<Option<String>, ApiError> {
    match key {
        Some(k) if k.is_empty() || k.chars().count() > IDEMPOTENCY_KEY_MAX_CHARS => {
            Err(ApiError::validation(
                "idempotency_key",
                format!("must be 1 to {IDEMPOTENCY_KEY_MAX_CHARS} characters"),
            ))
        }
        k => Ok(k.map(str::to_owned)),
    }
}

/// A `metadata` object, checked.
fn metadata(
    metadata: Option<&BTreeMap<String, String>>,
) -> Result<Option<BTreeMap<String, String>>, ApiError> {
    let Some(metadata) = metadata else {
        return Ok(None);
    };
    if metadata.len() > METADATA_MAX_PAIRS {
        return Err(ApiError::validation(
            "metadata",
            format!("must have at most {METADATA_MAX_PAIRS} keys"),
        ));
    }
    for (k, v) in metadata {
        if k.is_empty() || k.chars().count() > METADATA_MAX_KEY_CHARS {
            return Err(ApiError::validation(
                "metadata",
                format!("keys must be 1 to {METADATA_MAX_KEY_CHARS} characters"),
            ));
        }
        if v.chars().count() > METADATA_MAX_VALUE_CHARS {
            return Err(ApiError::validation(
                &format!("metadata.{k}"),
                format!("must be at most {METADATA_MAX_VALUE_CHARS} characters"),
            ));
        }
    }
    Ok(Some(metadata.clone()))
}

/// `is_shipment`/`is_transaction` and `shipped_at`/`transaction_processed_at`.
pub(crate) fn occurrence(
    new: &mut NewEstimate,
    actual: Option<bool>,
    field: &str,
    at: Option<&String>,
) -> Result<(), ApiError> {
    new.annotations.actual = actual;
    new.annotations.occurred_at = at.map(|t| timestamp(field, t)).transpose()?;
    Ok(())
}

/// A shipping estimate's `PATCH …/annotations`; at least one field.
pub fn shipping_annotations(
    b: &UpdateShippingEstimateAnnotationsRequest,
) -> Result<AnnotationsPatch, ApiError> {
    if b.is_shipment.is_none()
        && b.shipped_at.is_none()
        && b.metadata.is_none()
        && b.idempotency_key.is_none()
    {
        return Err(ApiError::validation(
            "body",
            "send at least one of is_shipment, shipped_at, metadata and idempotency_key",
        ));
    }
    Ok(AnnotationsPatch {
        idempotency_key: idempotency_key(b.idempotency_key.as_deref())?,
        metadata: metadata(b.metadata.as_ref())?,
        actual: b.is_shipment,
        occurred_at: b
            .shipped_at
            .as_ref()
            .map(|t| timestamp("shipped_at", t))
            .transpose()?,
    })
}

/// A transaction estimate's `PATCH …/annotations` (an empty one changes nothing).
pub fn transaction_annotations(
    b: &UpdateTransactionEstimateAnnotationsRequest,
) -> Result<AnnotationsPatch, ApiError> {
    Ok(AnnotationsPatch {
        idempotency_key: idempotency_key(b.idempotency_key.as_deref())?,
        metadata: metadata(b.metadata.as_ref())?,
        actual: b.is_transaction,
        occurred_at: b
            .transaction_processed_at
            .as_ref()
            .map(|t| timestamp("transaction_processed_at", t))
            .transpose()?,
    })
}

/// A passenger-transportation estimate's `PATCH …/annotations` (an empty one
/// changes nothing, as for transactions: client 3.9.2 sends only the fields set).
pub fn passenger_annotations(
    b: &UpdatePassengerTransportationEstimateAnnotationsRequest,
) -> Result<AnnotationsPatch, ApiError> {
    Ok(AnnotationsPatch {
        idempotency_key: None,
        metadata: None,
        actual: b.is_passenger_transportation,
        occurred_at: b
            .passenger_transportation_travelled_at
            .as_ref()
            .map(|t| timestamp("passenger_transportation_travelled_at", t))
            .transpose()?,
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

pub fn emission_factor(b: &EmissionFactorEstimateRequest) -> Result<NewEstimate, ApiError> {
    submission(b, |b| Ok(EstimateRequest::EmissionFactor(b.parse()?)))
}

pub fn flight(b: &FlightEstimateRequest) -> Result<NewEstimate, ApiError> {
    submission(b, |b| Ok(EstimateRequest::Flight(b.parse()?)))
}

pub fn passenger(b: &PassengerTransportationEstimateRequest) -> Result<NewEstimate, ApiError> {
    let mut new = submission(b, |b| {
        Ok(EstimateRequest::PassengerTransportation(b.parse()?))
    })?;
    occurrence(
        &mut new,
        b.is_passenger_transportation,
        "passenger_transportation_travelled_at",
        b.passenger_transportation_travelled_at.as_ref(),
    )?;
    Ok(new)
}

pub fn shipping(b: &ShippingEstimateRequest) -> Result<NewEstimate, ApiError> {
    let mut new = submission(b, |b| {
        let (shipment, leg) = b.parse()?;
        Ok(EstimateRequest::Shipping { shipment, leg })
    })?;
    occurrence(&mut new, b.is_shipment, "shipped_at", b.shipped_at.as_ref())?;
    Ok(new)
}

pub fn multi_leg(b: &MultiLegShippingEstimateRequest) -> Result<NewEstimate, ApiError> {
    let mut new = submission(b, |b| {
        let (shipment, legs) = b.parse()?;
        Ok(EstimateRequest::MultiLegShipping { shipment, legs })
    })?;
    occurrence(&mut new, b.is_shipment, "shipped_at", b.shipped_at.as_ref())?;
    Ok(new)
}

pub fn multi_leg_by_fuel(b: &MultiLegShippingByFuelRequest) -> Result<NewEstimate, ApiError> {
    let mut new = submission(b, |b| {
        Ok(EstimateRequest::MultiLegShippingByFuel { legs: b.parse()? })
    })?;
    occurrence(&mut new, b.is_shipment, "shipped_at", b.shipped_at.as_ref())?;
    Ok(new)
}

pub fn transaction(b: &TransactionEstimateRequest) -> Result<NewEstimate, ApiError> {
    let mut new = submission(b, |b| Ok(EstimateRequest::Transaction(b.parse()?)))?;
    occurrence(
        &mut new,
        b.is_transaction,
        "transaction_processed_at",
        b.transaction_processed_at.as_ref(),
    )?;
    Ok(new)
}

pub fn company(b: &CompanyEstimateRequest) -> Result<NewEstimate, ApiError> {
    submission(b, |b| Ok(EstimateRequest::Company(b.parse()?)))
}

pub fn individual(b: &IndividualEstimateRequest) -> Result<NewEstimate, ApiError> {
    submission(b, |b| Ok(EstimateRequest::Individual(b.parse()?)))
}
