//! Where Stripe is and the key Tonne calls it with.

use url::Url;

use crate::error::StripeError;

/// Stripe's own API address.
pub const STRIPE_API_URL: &str = "https://api.stripe.com";

/// The Stripe API version every request names (`Stripe-Version`), so an
/// account's default version changing on Stripe's side changes nothing here.
pub const API_VERSION: &str = "2024-06-20";

/// The secret key and the API's address.
#[derive(Clone)]
pub struct StripeConfig {
    pub(crate) secret_key: String,
    pub(crate) api_url: Url,
}

/// An address of Stripe's (its API, Stripe.js): HTTPS, or plain HTTP to a
/// loopback address (a local fake), without credentials.
///
/// ```
/// assert!(tonne_stripe::stripe_url("https://js.stripe.com/v3/").is_ok());
/// assert!(tonne_stripe::stripe_url("http://127.0.0.1:8420/js.stripe.com/v3/").is_ok());
/// assert!(tonne_stripe::stripe_url("http://js.stripe.example/v3/").is_err());
/// ```
pub fn stripe_url(raw: &str) -> Result<Url, StripeError> {
    let url = Url::parse(raw)
        .map_err(|e| StripeError::Config(format!("the address is not a URL: {e}")))?;
    let loopback = match url.host() {
        Some(url::Host::Domain(d)) => d == "localhost",
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        None => false,
    };
    let allowed = url.scheme() == "https" || (url.scheme() == "http" && loopback);
    if !allowed || !url.username().is_empty() || url.password().is_some() {
        return Err(StripeError::Config(
            "the address must be https (plain http only to a loopback fake), without credentials"
                .into(),
        ));
    }
    Ok(url)
}

impl StripeConfig {
    /// A key (`sk_live_…`, `sk_test_…`, or a restricted `rk_…`) and the
    /// API's base address: HTTPS, or plain HTTP to a loopback address (a
    /// local fake) — the key is never sent in clear over a network.
    pub fn new(secret_key: &str, api_url: &str) -> Result<Self, StripeError> {
        let key = secret_key.trim();
        if key.is_empty() || key.chars().any(|c| c.is_whitespace() || c.is_control()) {
            return Err(StripeError::Config(
                "the secret key is empty or not one word".into(),
            ));
        }
        let url = stripe_url(api_url.trim_end_matches('/'))?;
        Ok(Self {
            secret_key: key.to_owned(),
            api_url: url,
        })
    }

    /// Whether the key is a test-mode key.
    pub fn is_test_key(&self) -> bool {
        self.secret_key.starts_with("sk_test_") || self.secret_key.starts_with("rk_test_")
    }

    pub(crate) fn endpoint(&self, path: &str) -> String {
        format!("{}{path}", self.api_url.as_str().trim_end_matches('/'))
    }
}

impl std::fmt::Debug for StripeConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StripeConfig")
            .field("secret_key", &"[redacted]")
            .field("api_url", &self.api_url.as_str())
            .finish()
    }
}
