//! Value parsers that check a setting where it is read — flag, environment or
//! configuration file alike — so that a bad value is refused at start with
//! the place it came from. Each returns the setting's type, so that nothing
//! parses it again.

/// `TONNE_SECRETS_KEY`: 32 bytes as 64 hexadecimal characters or base64 (empty: unset).
pub fn secrets_key(text: &str) -> Result<String, String> {
    if !text.trim().is_empty() {
        tonne_storage::SecretsKey::parse(text).map_err(|e| e.to_string())?;
    }
    Ok(text.to_owned())
}

/// `TONNE_WEBHOOK_RETRY_SCHEDULE`: comma-separated seconds.
pub fn retry_schedule(text: &str) -> Result<tonne_webhooks::RetrySchedule, String> {
    tonne_webhooks::RetrySchedule::parse(text).map_err(|e| e.to_string())
}

/// `TONNE_COMMISSION_RATE`: a fraction at least 0 and below 1.
pub fn commission_rate(text: &str) -> Result<tonne_ordering::pricing::CommissionRate, String> {
    let rate: rust_decimal::Decimal = text.parse().map_err(|_| "not a decimal".to_owned())?;
    tonne_ordering::pricing::CommissionRate::new(rate)
        .ok_or_else(|| "must be at least 0 and below 1".to_owned())
}

/// `TONNE_TRUSTED_PROXIES`: comma-separated addresses or CIDRs (empty: none).
pub fn trusted_proxies(text: &str) -> Result<tonne_http::client_addr::TrustedProxies, String> {
    text.parse()
        .map_err(|e: tonne_http::client_addr::InvalidProxy| e.to_string())
}

/// A positive decimal (the offset links' largest value and mass).
pub fn positive_decimal(text: &str) -> Result<rust_decimal::Decimal, String> {
    text.parse::<rust_decimal::Decimal>()
        .ok()
        .filter(|d| d.is_sign_positive() && !d.is_zero())
        .ok_or_else(|| "not a positive decimal".to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_values_are_refused_with_a_reason() {
        assert!(secrets_key("abc").unwrap_err().contains("32 bytes"));
        assert!(secrets_key(&"ab".repeat(32)).is_ok());
        assert!(secrets_key("").is_ok());
        assert!(retry_schedule("5,x").is_err());
        assert!(retry_schedule("5,60").is_ok());
        assert_eq!(
            commission_rate("1").unwrap_err(),
            "must be at least 0 and below 1"
        );
        assert!(commission_rate("0.2").is_ok());
        assert!(positive_decimal("0").is_err() && positive_decimal("12.5").is_ok());
    }
}
