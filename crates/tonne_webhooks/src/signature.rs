//! The `Lune-HMAC` header: signing (the dispatcher) and verification (receivers).

use hmac::{Hmac, Mac as _};
use sha2::Sha256;
use subtle::ConstantTimeEq as _;
use time::OffsetDateTime;
use tonne_kernel::OrganisationId;

/// The header's name.
pub const HEADER: &str = "Lune-HMAC";

type HmacSha256 = Hmac<Sha256>;

fn mac(secret: &str, timestamp: i64, body: &[u8]) -> HmacSha256 {
    // HMAC accepts keys of any length, so this cannot fail.
    let mut mac = match HmacSha256::new_from_slice(secret.as_bytes()) {
        Ok(mac) => mac,
        Err(_) => unreachable_key_length(),
    };
    mac.update(timestamp.to_string().as_bytes());
    mac.update(b".");
    mac.update(body);
    mac
}

#[allow(clippy::panic)]
fn unreachable_key_length() -> ! {
    panic!("HMAC-SHA256 accepts keys of every length")
}

/// The lowercase hex HMAC-SHA256 of `"<timestamp>.<body>"` under the secret's UTF-8 bytes.
///
/// ```
/// // python3 -c 'import hmac,hashlib; print(hmac.new(b"whsec_test",
/// //   b"1700000000.{}", hashlib.sha256).hexdigest())'
/// assert_eq!(
///     tonne_webhooks::signature::hex_signature("whsec_test", 1_700_000_000, b"{}"),
///     "35495024f4ef3f94e5a93e22221544c4b75e9a42300cd965ab81cb85cd994e91"
/// );
/// ```
pub fn hex_signature(secret: &str, timestamp: i64, body: &[u8]) -> String {
    hex::encode(mac(secret, timestamp, body).finalize().into_bytes())
}

/// The whole header value:
/// `timestamp=<unix seconds>,organisation=<organisation id>,v1=<hex signature>`.
pub fn header_value(
    secret: &str,
    organisation: OrganisationId,
    timestamp: i64,
    body: &[u8],
) -> String {
    format!(
        "timestamp={timestamp},organisation={organisation},v1={}",
        hex_signature(secret, timestamp, body)
    )
}

/// Why a webhook request did not verify.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum VerifyError {
    /// The header is not `timestamp=…,organisation=…,v1=…` (the reason says what is wrong).
    #[error("malformed Lune-HMAC header: {0}")]
    MalformedHeader(&'static str),
    /// The timestamp is further from now than the tolerance (a replay, or a skewed clock).
    #[error("the Lune-HMAC timestamp is {age_seconds} s away from now, beyond the tolerance")]
    StaleTimestamp {
        /// How far the timestamp is from now, in seconds (absolute).
        age_seconds: i64,
    },
    /// No `v1` signature matches the body under this secret.
    #[error("no v1 signature matches the body")]
    BadSignature,
}

/// A parsed `Lune-HMAC` header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignatureHeader {
    /// Unix seconds when the request was signed.
    pub timestamp: i64,
    /// The organisation the webhook belongs to, as sent (not checked here).
    pub organisation: String,
    /// Every `v1=` value, decoded from hex.
    pub signatures: Vec<Vec<u8>>,
}

impl SignatureHeader {
    /// Parses a header value. Unknown keys are ignored (future schemes); every `v1`
    /// is kept, so a sender may sign with several secrets.
    pub fn parse(value: &str) -> Result<Self, VerifyError> {
        let mut timestamp = None;
        let mut organisation = None;
        let mut signatures = Vec::new();
        for part in value.split(',') {
            let (key, val) = part
                .trim()
                .split_once('=')
                .ok_or(VerifyError::MalformedHeader("every part must be key=value"))?;
            match key {
                "timestamp" => {
                    let t = val
                        .parse::<i64>()
                        .map_err(|_| VerifyError::MalformedHeader("timestamp is not an integer"))?;
                    if timestamp.replace(t).is_some() {
                        return Err(VerifyError::MalformedHeader("timestamp appears twice"));
                    }
                }
                "organisation" => organisation = Some(val.to_owned()),
                "v1" => signatures.push(
                    hex::decode(val)
                        .map_err(|_| VerifyError::MalformedHeader("v1 is not hexadecimal"))?,
                ),
                _ => {}
            }
        }
        Ok(Self {
            timestamp: timestamp.ok_or(VerifyError::MalformedHeader("no timestamp"))?,
            organisation: organisation.ok_or(VerifyError::MalformedHeader("no organisation"))?,
            signatures: if signatures.is_empty() {
                return Err(VerifyError::MalformedHeader("no v1 signature"));
            } else {
                signatures
            },
        })
    }
}

/// Verifies a webhook request as a receiver should: parse the `Lune-HMAC` header,
/// refuse a timestamp further than `tolerance` from `now` (either way), and accept
/// if any `v1` signature equals HMAC-SHA256(secret, `"<timestamp>.<raw body>"`),
/// compared in constant time. Pass the body **exactly as received** (not re-serialised).
///
/// ```
/// use time::{Duration, OffsetDateTime};
/// use tonne_webhooks::{signature, verify, VerifyError};
///
/// let secret = "whsec_0123456789012345678901234567890123456789012";
/// let body = br#"{"events":[]}"#;
/// let now = OffsetDateTime::from_unix_timestamp(1_700_000_000).unwrap();
/// let org = "0190c6f1a7b27c3e9f2d4b1a2c3d4e5f".parse().unwrap();
/// let header = signature::header_value(secret, org, now.unix_timestamp(), body);
///
/// assert_eq!(verify(secret, &header, body, now, Duration::minutes(5)), Ok(()));
/// assert_eq!(
///     verify(secret, &header, b"{\"events\":[1]}", now, Duration::minutes(5)),
///     Err(VerifyError::BadSignature)
/// );
/// let later = now + Duration::minutes(10);
/// assert!(matches!(
///     verify(secret, &header, body, later, Duration::minutes(5)),
///     Err(VerifyError::StaleTimestamp { age_seconds: 600 })
/// ));
/// assert!(matches!(verify(secret, "nonsense", body, now, Duration::minutes(5)), Err(VerifyError::MalformedHeader(_))));
/// ```
pub fn verify(
    secret: &str,
    header: &str,
    body: &[u8],
    now: OffsetDateTime,
    tolerance: time::Duration,
) -> Result<(), VerifyError> {
    let parsed = SignatureHeader::parse(header)?;
    let age_seconds = now
        .unix_timestamp()
        .saturating_sub(parsed.timestamp)
        .saturating_abs();
    if age_seconds > tolerance.whole_seconds() {
        return Err(VerifyError::StaleTimestamp { age_seconds });
    }
    let expected = mac(secret, parsed.timestamp, body).finalize().into_bytes();
    let mut matched = subtle::Choice::from(0);
    for candidate in &parsed.signatures {
        // Lengths are public (32 bytes); the comparison of contents is constant-time.
        if candidate.len() == expected.len() {
            matched |= candidate.as_slice().ct_eq(expected.as_slice());
        }
    }
    if bool::from(matched) {
        Ok(())
    } else {
        Err(VerifyError::BadSignature)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SECRET: &str = "whsec_test";

    #[test]
    fn matches_an_independently_computed_vector() {
        // python3 -c 'import hmac,hashlib;print(hmac.new(b"whsec_test",
        //   b"1700000000.{\"events\":[]}", hashlib.sha256).hexdigest())'
        assert_eq!(
            hex_signature(SECRET, 1_700_000_000, br#"{"events":[]}"#),
            PYTHON_VECTOR
        );
    }

    const PYTHON_VECTOR: &str = "4f6f9b7a41398ad124e52a1320534f978e522923f3f2b2724e31d7a9dbf78a7f";

    fn now() -> OffsetDateTime {
        OffsetDateTime::from_unix_timestamp(1_700_000_000).unwrap_or(OffsetDateTime::UNIX_EPOCH)
    }

    fn org() -> OrganisationId {
        OrganisationId::from_uuid(uuid::Uuid::from_u128(7))
    }

    #[test]
    fn header_has_the_documented_shape() {
        let h = header_value(SECRET, org(), 1_700_000_000, b"{}");
        assert!(
            h.starts_with("timestamp=1700000000,organisation=00000000000000000000000000000007,v1=")
        );
        let parsed = SignatureHeader::parse(&h).unwrap();
        assert_eq!(parsed.timestamp, 1_700_000_000);
        assert_eq!(parsed.signatures.len(), 1);
        assert_eq!(parsed.signatures[0].len(), 32);
    }

    #[test]
    fn accepts_any_of_several_v1_values() {
        let good = hex_signature(SECRET, 1_700_000_000, b"{}");
        let other = hex_signature("whsec_other", 1_700_000_000, b"{}");
        let header = format!("timestamp=1700000000,organisation=x,v1={other},v1={good}");
        assert_eq!(
            verify(SECRET, &header, b"{}", now(), time::Duration::minutes(5)),
            Ok(())
        );
        let header = format!("timestamp=1700000000,organisation=x,v1={other}");
        assert_eq!(
            verify(SECRET, &header, b"{}", now(), time::Duration::minutes(5)),
            Err(VerifyError::BadSignature)
        );
    }

    #[test]
    fn a_wrong_secret_body_or_timestamp_fails() {
        let header = header_value(SECRET, org(), 1_700_000_000, b"{}");
        let tol = time::Duration::minutes(5);
        assert_eq!(
            verify("whsec_tesu", &header, b"{}", now(), tol),
            Err(VerifyError::BadSignature)
        );
        assert_eq!(
            verify(SECRET, &header, b"{ }", now(), tol),
            Err(VerifyError::BadSignature)
        );
        let moved = header.replace("timestamp=1700000000", "timestamp=1700000001");
        assert_eq!(
            verify(SECRET, &moved, b"{}", now(), tol),
            Err(VerifyError::BadSignature)
        );
        // a timestamp from the future beyond the tolerance is stale too
        let early = now() - time::Duration::minutes(6);
        assert_eq!(
            verify(SECRET, &header, b"{}", early, tol),
            Err(VerifyError::StaleTimestamp { age_seconds: 360 })
        );
    }

    #[test]
    fn malformed_headers_are_named() {
        for (header, why) in [
            ("", "every part must be key=value"),
            (
                "timestamp=abc,organisation=o,v1=00",
                "timestamp is not an integer",
            ),
            ("organisation=o,v1=00", "no timestamp"),
            ("timestamp=1,v1=00", "no organisation"),
            ("timestamp=1,organisation=o", "no v1 signature"),
            ("timestamp=1,organisation=o,v1=zz", "v1 is not hexadecimal"),
            (
                "timestamp=1,timestamp=2,organisation=o,v1=00",
                "timestamp appears twice",
            ),
        ] {
            assert_eq!(
                SignatureHeader::parse(header),
                Err(VerifyError::MalformedHeader(why)),
                "{header}"
            );
        }
    }
}
