//! The checks of single fields that the request shapes share: a field's
//! path, passengers, a country code, a timestamp.

use rust_decimal::Decimal;

use crate::error::ApiError;

/// `prefix.field`, or `field` at the top.
pub(super) fn at(prefix: &str, field: &str) -> String {
    if prefix.is_empty() {
        field.to_owned()
    } else {
        format!("{prefix}.{field}")
    }
}

pub(super) fn passengers(field: &str, n: Option<&serde_json::Number>) -> Result<Decimal, ApiError> {
    let Some(n) = n else { return Ok(Decimal::ONE) };
    // the range (0 to 10,000) is the engine's rule
    let value = n
        .as_f64()
        .and_then(Decimal::from_f64_retain)
        .ok_or_else(|| ApiError::validation(field, "must be a number between 0 and 10000"))?;
    Ok(value.round_dp(6))
}

/// An assigned ISO 3166-1 alpha-3 code (the contract's `ShippingCountryCode`),
/// for `country_code`s no engine looks up (shipping); the others are checked by
/// the engines themselves.
pub(super) fn country(field: &str, code: &str) -> Result<String, ApiError> {
    if code.len() != 3 || tonne_estimation::country_name(code).is_none() {
        return Err(ApiError::validation(
            field,
            "must be an ISO 3166-1 alpha-3 code such as \"GBR\"",
        ));
    }
    Ok(code.to_owned())
}

/// An RFC 3339 timestamp (`shipped_at`, `transaction_processed_at`); the
/// text is kept as sent in the echoed `request`.
pub fn timestamp(field: &str, value: &str) -> Result<time::OffsetDateTime, ApiError> {
    time::OffsetDateTime::parse(value, &time::format_description::well_known::Rfc3339).map_err(
        |_| {
            ApiError::validation(
                field,
                "must be an RFC 3339 timestamp such as 2023-12-01T12:30:30Z",
            )
        },
    )
}
