//! The estimation domain's error: why an estimate could not be made, one
//! variant per contract error code.

/// Why an estimate could not be made. Each variant maps to one contract error code.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EstimateError {
    /// A field is invalid (`validation_error`); the message names it.
    #[error("{field}: {reason}")]
    Invalid {
        /// Field path, e.g. `legs[1].route.amount`.
        field: String,
        reason: String,
    },
    /// A well-formed country code Tonne has no data for (`validation_error`).
    #[error("{field}: unknown country `{code}`")]
    UnknownCountry {
        field: String,
        /// Code sent.
        code: String,
    },
    /// A well-formed airport code that is not in the table (`airport_invalid`).
    #[error("{field}: unknown airport `{code}`")]
    AirportInvalid {
        field: String,
        /// Code sent.
        code: String,
    },
    /// A well-formed UN/LOCODE that is not a known seaport (`port_not_found`).
    #[error("{field}: unknown seaport `{code}`")]
    PortNotFound {
        field: String,
        /// Code sent.
        code: String,
    },
    /// An address whose city is not a known place of its country (`address_not_found`).
    #[error("{field}: no place called `{city}` is known in {country_code}")]
    AddressNotFound {
        field: String,
        /// The city as sent.
        city: String,
        /// The country as sent.
        country_code: String,
    },
    /// No exchange rate for a currency (`exchange_rate_not_found`).
    #[error("no exchange rate for {0}")]
    ExchangeRateNotFound(String),
    /// No factor of the catalogue has this id (`emission_factor_id_invalid`).
    #[error(
        "emission_factor_id: no emission factor has the id `{0}` (see GET /v1/emission-factors)"
    )]
    EmissionFactorIdInvalid(String),
    /// The activity's unit measures something else than the factor's
    /// denominator (`emission_factor_unit_mismatch`).
    #[error("activity.unit: `{activity}` cannot be converted to the factor's unit `{factor}`")]
    EmissionFactorUnitMismatch {
        /// The activity's unit as sent.
        activity: String,
        /// The factor's denominator.
        factor: String,
    },
}

impl EstimateError {
    pub(crate) fn invalid(field: &str, reason: &str) -> Self {
        EstimateError::Invalid {
            field: field.to_owned(),
            reason: reason.to_owned(),
        }
    }
}
