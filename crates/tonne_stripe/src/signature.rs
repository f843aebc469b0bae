//! `Stripe-Signature`: `t=<unix seconds>,v1=<hex HMAC-SHA256>[,v1=…]`, the
//! HMAC keyed with the endpoint's signing secret over `"<t>.<body>"`.
//! Stripe may send several `v1` signatures (while a secret is rolled); one
//! matching suffices. Other schemes (`v0`) are ignored.

use hmac::{Hmac, Mac};
use sha2::Sha256;
use subtle::ConstantTimeEq;
use time::{Duration, OffsetDateTime};

/// How far the signing time may be from now: Stripe's own libraries' default.
pub const DEFAULT_TOLERANCE: Duration = Duration::minutes(5);

/// Why a webhook body is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SignatureError {
    #[error("the Stripe-Signature header is missing or malformed")]
    Malformed,
    #[error("no v1 signature matches the body")]
    Mismatch,
    #[error("the signature's time is outside the tolerance")]
    Stale,
}

/// Checks `body` against its `Stripe-Signature` header and the endpoint's
/// signing secret (`whsec_…`), at `now`, within `tolerance`.
///
/// ```
/// use hmac::{Hmac, Mac};
/// use time::OffsetDateTime;
/// use tonne_stripe::{verify_signature, DEFAULT_TOLERANCE, SignatureError};
///
/// let body = br#"{"id":"evt_1","type":"payment_intent.succeeded"}"#;
/// let now = OffsetDateTime::from_unix_timestamp(1_700_000_000).unwrap();
/// let mut mac = Hmac::<sha2::Sha256>::new_from_slice(b"whsec_test").unwrap();
/// mac.update(b"1700000000.");
/// mac.update(body);
/// let header = format!("t=1700000000,v1={}", hex::encode(mac.finalize().into_bytes()));
/// assert_eq!(verify_signature(body, &header, "whsec_test", now, DEFAULT_TOLERANCE), Ok(()));
/// assert_eq!(
///     verify_signature(body, &header, "whsec_other", now, DEFAULT_TOLERANCE),
///     Err(SignatureError::Mismatch)
/// );
/// let later = now + time::Duration::minutes(6);
/// assert_eq!(
///     verify_signature(body, &header, "whsec_test", later, DEFAULT_TOLERANCE),
///     Err(SignatureError::Stale)
/// );
/// ```
pub fn verify_signature(
    body: &[u8],
    header: &str,
    secret: &str,
    now: OffsetDateTime,
    tolerance: Duration,
) -> Result<(), SignatureError> {
    let mut timestamp: Option<&str> = None;
    let mut signatures = Vec::new();
    for part in header.split(',') {
        let (key, value) = part
            .trim()
            .split_once('=')
            .ok_or(SignatureError::Malformed)?;
        match key {
            "t" if timestamp.is_none() => timestamp = Some(value),
            "t" => return Err(SignatureError::Malformed),
            "v1" => {
                let sig = hex::decode(value).map_err(|_| SignatureError::Malformed)?;
                signatures.push(sig);
            }
            _ => {}
        }
    }
    let t = timestamp.ok_or(SignatureError::Malformed)?;
    if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) || signatures.is_empty() {
        return Err(SignatureError::Malformed);
    }
    let seconds: i64 = t.parse().map_err(|_| SignatureError::Malformed)?;
    let signed_at =
        OffsetDateTime::from_unix_timestamp(seconds).map_err(|_| SignatureError::Malformed)?;
    let mut mac =
        Hmac::<Sha256>::new_from_slice(secret.as_bytes()).map_err(|_| SignatureError::Mismatch)?;
    mac.update(t.as_bytes());
    mac.update(b".");
    mac.update(body);
    let expected = mac.finalize().into_bytes();
    let matched = signatures.iter().fold(false, |any, sig| {
        any | bool::from(sig.as_slice().ct_eq(expected.as_slice()))
    });
    if !matched {
        return Err(SignatureError::Mismatch);
    }
    // checked after the signature, so a forged header learns nothing of the clock
    if (now - signed_at).abs() > tolerance {
        return Err(SignatureError::Stale);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn sign(secret: &str, t: i64, body: &[u8]) -> String {
        let mut mac = Hmac::<Sha256>::new_from_slice(secret.as_bytes()).unwrap();
        mac.update(format!("{t}.").as_bytes());
        mac.update(body);
        hex::encode(mac.finalize().into_bytes())
    }

    fn at(t: i64) -> OffsetDateTime {
        OffsetDateTime::from_unix_timestamp(t).unwrap()
    }

    #[test]
    fn any_v1_signature_may_match_while_a_secret_is_rolled() {
        let body = b"{}";
        let good = sign("whsec_new", 100, body);
        let old = sign("whsec_old", 100, body);
        let header = format!("t=100,v1={old},v1={good},v0=ignored");
        assert_eq!(
            verify_signature(body, &header, "whsec_new", at(100), DEFAULT_TOLERANCE),
            Ok(())
        );
        assert_eq!(
            verify_signature(body, &header, "whsec_old", at(100), DEFAULT_TOLERANCE),
            Ok(())
        );
    }

    #[test]
    fn a_changed_body_or_time_does_not_match() {
        let body = b"{\"amount\":100}";
        let sig = sign("whsec_a", 100, body);
        let header = format!("t=100,v1={sig}");
        assert_eq!(
            verify_signature(
                b"{\"amount\":999}",
                &header,
                "whsec_a",
                at(100),
                DEFAULT_TOLERANCE
            ),
            Err(SignatureError::Mismatch)
        );
        let moved = format!("t=101,v1={sig}");
        assert_eq!(
            verify_signature(body, &moved, "whsec_a", at(101), DEFAULT_TOLERANCE),
            Err(SignatureError::Mismatch)
        );
    }

    #[test]
    fn stale_and_future_signatures_are_refused() {
        let body = b"{}";
        let header = format!("t=1000,v1={}", sign("s", 1000, body));
        assert_eq!(
            verify_signature(body, &header, "s", at(1300), DEFAULT_TOLERANCE),
            Ok(())
        );
        assert_eq!(
            verify_signature(body, &header, "s", at(1301), DEFAULT_TOLERANCE),
            Err(SignatureError::Stale)
        );
        assert_eq!(
            verify_signature(body, &header, "s", at(699), DEFAULT_TOLERANCE),
            Err(SignatureError::Stale)
        );
    }

    #[test]
    fn malformed_headers_are_refused() {
        for header in [
            "",
            "t=100",
            "v1=abcd",
            "t=,v1=00",
            "t=-5,v1=00",
            "t=100,v1=zz",
            "t=100,t=101,v1=00",
            "garbage",
            "t=99999999999999999999,v1=00",
        ] {
            assert_eq!(
                verify_signature(b"{}", header, "s", at(100), DEFAULT_TOLERANCE),
                Err(SignatureError::Malformed),
                "{header}"
            );
        }
    }
}
