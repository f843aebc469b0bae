//! The dispatcher: runs the engine a request names and explains its result
//! ([`crate::explain`]). Engines that round each part (passenger and
//! shipping legs, footprints) give their parts; single-product estimates are
//! one part, and the parts add up to the estimate's mass to the gram.
//!
//! ```
//! use tonne_estimation::estimate::EstimateRequest;
//! use tonne_estimation::flight::{CabinClass, FlightRequest, FlightRoute};
//! use rust_decimal::Decimal;
//!
//! let computed = EstimateRequest::Flight(FlightRequest {
//!     route: FlightRoute::Airports { source: "LHR".into(), destination: "JFK".into() },
//!     cabin: CabinClass::Economy,
//!     passengers: Decimal::ONE,
//!     aircraft_type: None,
//! }).compute().unwrap();
//! let part = &computed.explanation.parts[0];
//! assert_eq!(part.factors[0].id, "FLIGHT_LONG_HAUL_ECONOMY");
//! assert_eq!(part.factors[0].year, Some(2025));
//! assert_eq!(part.quantities[0].name, "distance");
//! assert!(part.quantities[0].method.contains("great-circle"));
//! assert_eq!(part.mass, computed.mass.unwrap());
//! ```

use crate::EstimateError;
use crate::estimate::{Computed, EstimateDetail, EstimateRequest};
use crate::explain::Explanation;

mod freight;
mod parts;
mod shipments;
mod single_part;
mod travel;

use travel::passengers;

impl EstimateRequest {
    /// Runs the engine: the mass, the kind's detail and the explanation,
    /// which names the factor set and each emission factor's catalogue id.
    /// Pure: the same request gives the same result with the same tables.
    pub fn compute(&self) -> Result<Computed, EstimateError> {
        let mut computed = compute(self)?;
        let explanation = &mut computed.explanation;
        explanation.factor_set = Some(crate::catalogue::FACTOR_SET_VERSION.to_owned());
        for f in explanation
            .parts
            .iter_mut()
            .flat_map(|p| p.factors.iter_mut())
        {
            if f.catalogue_id.is_none() {
                f.catalogue_id = crate::catalogue::catalogue()
                    .of_engine_factor(&f.id)
                    .map(|c| c.id.clone());
            }
        }
        Ok(computed)
    }
}

/// Runs the engine of a request and explains it.
fn compute(request: &EstimateRequest) -> Result<Computed, EstimateError> {
    match request {
        EstimateRequest::Electricity {
            consumption,
            country_code,
        } => single_part::electricity(*consumption, country_code.as_deref()),
        EstimateRequest::Flight(r) => single_part::flight(r),
        EstimateRequest::PassengerTransportation(r) => passengers(r),
        EstimateRequest::Shipping { shipment, leg } => shipments::one_leg(shipment, leg),
        EstimateRequest::MultiLegShipping { shipment, legs } => {
            shipments::multi_leg(shipment, legs)
        }
        EstimateRequest::MultiLegShippingByFuel { legs } => shipments::by_fuel(legs),
        EstimateRequest::Transaction(r) => single_part::transaction(r),
        EstimateRequest::Company(r) => {
            let (e, parts, notes) = crate::footprint::company_explained(r)?;
            Ok(whole(e.mass, EstimateDetail::Company(e), parts, notes))
        }
        EstimateRequest::Individual(r) => {
            let (e, parts, notes) = crate::footprint::individual_explained(r)?;
            Ok(whole(e.mass, EstimateDetail::Plain, parts, notes))
        }
        EstimateRequest::TransactionDocument(r) => crate::transaction_document::compute(r),
        EstimateRequest::EmissionFactor(r) => single_part::emission_factor(r),
    }
}

/// An estimate of several parts.
fn whole(
    mass: tonne_kernel::Mass,
    detail: EstimateDetail,
    parts: Vec<crate::explain::Part>,
    notes: Vec<String>,
) -> Computed {
    Computed {
        mass: Some(mass),
        detail,
        explanation: Explanation {
            parts,
            notes,
            factor_set: None,
        },
    }
}

#[cfg(test)]
mod tests;
