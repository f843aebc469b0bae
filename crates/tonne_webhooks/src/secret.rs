//! [`WebhookSecret`]: the random secret a webhook's deliveries are signed with.

use std::fmt;

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use rand::RngCore as _;
use rand::TryRngCore as _;

/// Every secret starts with this, so that one found in a log or a repository is
/// recognisable (and scanners can look for it).
const PREFIX: &str = "whsec_";
/// 32 random bytes encode to 43 base64url characters.
const BODY_LEN: usize = 43;

/// A webhook's signing secret: 32 bytes from the operating system's CSPRNG,
/// shown as `whsec_` followed by 43 base64url characters.
///
/// The HMAC key is the secret **exactly as the API shows it** (its UTF-8 bytes),
/// so a receiver pastes it into its configuration and uses it as is. `Debug`
/// never shows it.
///
/// ```
/// use tonne_webhooks::WebhookSecret;
/// let secret = WebhookSecret::generate();
/// assert!(secret.expose().starts_with("whsec_"));
/// assert_eq!(secret.expose().len(), 49);
/// assert_eq!(secret.last4().len(), 4);
/// assert!(secret.expose().ends_with(&secret.last4()));
/// assert_eq!(format!("{secret:?}"), "WebhookSecret(<redacted>)");
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct WebhookSecret(String);

impl WebhookSecret {
    /// A fresh random secret.
    pub fn generate() -> Self {
        let mut bytes = [0_u8; 32];
        // The OS RNG directly; the thread RNG (a CSPRNG seeded from it) if it fails.
        if rand::rngs::OsRng.try_fill_bytes(&mut bytes).is_err() {
            rand::rng().fill_bytes(&mut bytes);
        }
        Self(format!("{PREFIX}{}", URL_SAFE_NO_PAD.encode(bytes)))
    }

    /// A secret read back from storage. Returns `None` if it is not one Tonne made.
    pub fn from_stored(text: String) -> Option<Self> {
        let body = text.strip_prefix(PREFIX)?;
        let ok = body.len() == BODY_LEN
            && body
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
        ok.then_some(Self(text))
    }

    /// The whole secret: shown only when a webhook is created or its secret rotated,
    /// and used as the HMAC key.
    pub fn expose(&self) -> &str {
        &self.0
    }

    /// The last four characters: what `GET` and list show.
    pub fn last4(&self) -> String {
        let start = self.0.len().saturating_sub(4);
        self.0.get(start..).unwrap_or_default().to_owned()
    }
}

impl fmt::Debug for WebhookSecret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("WebhookSecret(<redacted>)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_are_distinct_and_round_trip_through_storage() {
        let a = WebhookSecret::generate();
        let b = WebhookSecret::generate();
        assert_ne!(a, b);
        assert_eq!(WebhookSecret::from_stored(a.expose().to_owned()), Some(a));
        for bad in [
            "",
            "whsec_",
            "whsec_abc",
            "xxxxx_0123456789012345678901234567890123456789012",
        ] {
            assert!(
                WebhookSecret::from_stored(bad.to_owned()).is_none(),
                "{bad}"
            );
        }
    }
}
