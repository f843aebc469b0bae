//! The HTTP client: authentication, the pinned version, idempotency keys,
//! timeouts, and Stripe's error envelope.

use std::time::Duration;

use serde::Deserialize;
use serde::de::DeserializeOwned;

use crate::config::{API_VERSION, StripeConfig};
use crate::error::StripeError;

/// How long a connection may take to open.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);
/// How long a whole call may take (Stripe's own calls are well under this).
const CALL_TIMEOUT: Duration = Duration::from_secs(30);

/// A client of Stripe's API (cheap to clone: one connection pool).
#[derive(Clone, Debug)]
pub struct StripeClient {
    pub(crate) config: StripeConfig,
    http: reqwest::Client,
}

#[derive(Deserialize)]
struct Envelope {
    error: ApiError,
}

#[derive(Deserialize)]
struct ApiError {
    #[serde(rename = "type", default)]
    kind: String,
    #[serde(default)]
    code: Option<String>,
    #[serde(default)]
    decline_code: Option<String>,
    #[serde(default)]
    message: Option<String>,
}

impl StripeClient {
    /// A client over `config`.
    pub fn new(config: StripeConfig) -> Self {
        let http = reqwest::Client::builder()
            .connect_timeout(CONNECT_TIMEOUT)
            .timeout(CALL_TIMEOUT)
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .unwrap_or_else(|_| reqwest::Client::new());
        Self { config, http }
    }

    /// Whether the client's key is a test-mode key.
    pub fn is_test_mode(&self) -> bool {
        self.config.is_test_key()
    }

    /// `POST path` with a form body and an idempotency key.
    pub(crate) async fn post<T: DeserializeOwned>(
        &self,
        path: &str,
        form: &[(String, String)],
        idempotency_key: &str,
    ) -> Result<T, StripeError> {
        let request = self
            .http
            .post(self.config.endpoint(path))
            .header("Idempotency-Key", idempotency_key)
            .form(form);
        self.send(request).await
    }

    /// `GET path`.
    pub(crate) async fn get<T: DeserializeOwned>(&self, path: &str) -> Result<T, StripeError> {
        self.send(self.http.get(self.config.endpoint(path))).await
    }

    async fn send<T: DeserializeOwned>(
        &self,
        request: reqwest::RequestBuilder,
    ) -> Result<T, StripeError> {
        let res = request
            .bearer_auth(&self.config.secret_key)
            .header("Stripe-Version", API_VERSION)
            .send()
            .await
            // the error's text names the address, never the key
            .map_err(|e| StripeError::Transport(e.without_url().to_string()))?;
        let status = res.status();
        let body = res
            .bytes()
            .await
            .map_err(|e| StripeError::Transport(e.without_url().to_string()))?;
        if status.is_success() {
            return serde_json::from_slice(&body).map_err(|e| StripeError::Decode(e.to_string()));
        }
        let error = serde_json::from_slice::<Envelope>(&body)
            .ok()
            .map(|e| e.error);
        Err(StripeError::Api {
            status: status.as_u16(),
            kind: error.as_ref().map(|e| e.kind.clone()).unwrap_or_default(),
            code: error.as_ref().and_then(|e| e.code.clone()),
            decline_code: error.as_ref().and_then(|e| e.decline_code.clone()),
            message: error
                .and_then(|e| e.message)
                .unwrap_or_else(|| format!("HTTP {status}")),
        })
    }
}

/// Stripe's ids are letters, digits and `_`: anything else is refused
/// before it is put in a path.
pub(crate) fn checked_id(id: &str) -> Result<&str, StripeError> {
    if !id.is_empty()
        && id.len() <= 255
        && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
    {
        Ok(id)
    } else {
        Err(StripeError::Config(format!("{id:?} is not a Stripe id")))
    }
}
