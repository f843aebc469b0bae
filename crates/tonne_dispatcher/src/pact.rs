//! PACT answers on their way out: a token from the partner's token endpoint
//! (OAuth 2 client credentials, HTTP Basic), then the event posted to its
//! events endpoint — over the webhooks' guarded client (only addresses the
//! target policy allows, no redirects, bounded answers).

use std::time::Duration;

use async_trait::async_trait;
use serde::Deserialize;
use tonne_accounts::pact::partners::{GatewayError, PactPartner, PartnerGateway, PartnerSecret};
use tonne_webhooks::TargetPolicy;

use crate::sender::{HttpSender, describe, refused_in_chain};

/// At most this much of a token answer is read.
const MAX_TOKEN_ANSWER: usize = 16 * 1024;

/// The gateway over HTTP.
#[derive(Debug, Clone)]
pub struct PactGateway {
    http: HttpSender,
}

impl PactGateway {
    /// A gateway whose calls give up after `timeout` and connect only where
    /// `policy` allows (the webhooks' policy).
    pub fn new(timeout: Duration, policy: TargetPolicy) -> anyhow::Result<Self> {
        Ok(Self {
            http: HttpSender::new(timeout, policy)?,
        })
    }

    async fn token(
        &self,
        partner: &PactPartner,
        secret: &PartnerSecret,
    ) -> Result<String, GatewayError> {
        let answer = self
            .http
            .client()
            .post(&partner.token_url)
            .basic_auth(&partner.client_id, Some(secret.expose()))
            .header(
                reqwest::header::CONTENT_TYPE,
                "application/x-www-form-urlencoded",
            )
            .header(reqwest::header::ACCEPT, "application/json")
            .body("grant_type=client_credentials")
            .send()
            .await
            .map_err(|e| failed("the token endpoint", &e))?;
        let status = answer.status();
        let body = bounded(answer, MAX_TOKEN_ANSWER).await?;
        if !status.is_success() {
            return Err(GatewayError(format!(
                "the token endpoint answered {}",
                status.as_u16()
            )));
        }
        #[derive(Deserialize)]
        struct Token {
            access_token: String,
        }
        serde_json::from_slice::<Token>(&body)
            .map(|t| t.access_token)
            .map_err(|_| GatewayError("the token endpoint's answer holds no access_token".into()))
    }
}

fn failed(what: &str, e: &reqwest::Error) -> GatewayError {
    GatewayError(match refused_in_chain(e) {
        Some(why) => format!("{what} is refused: {why}"),
        None if e.is_timeout() => format!("{what} did not answer in time"),
        None => format!("{what} could not be reached: {}", describe(e)),
    })
}

/// The answer's body, at most `limit` bytes (a longer one is refused).
async fn bounded(mut answer: reqwest::Response, limit: usize) -> Result<Vec<u8>, GatewayError> {
    let mut body = Vec::new();
    while let Some(chunk) = answer
        .chunk()
        .await
        .map_err(|e| GatewayError(format!("reading the answer failed: {}", describe(&e))))?
    {
        body.extend_from_slice(&chunk);
        if body.len() > limit {
            return Err(GatewayError(format!(
                "the answer is longer than {limit} bytes"
            )));
        }
    }
    Ok(body)
}

#[async_trait]
impl PartnerGateway for PactGateway {
    async fn deliver(
        &self,
        partner: &PactPartner,
        secret: &PartnerSecret,
        event: &str,
    ) -> Result<(), GatewayError> {
        let token = self.token(partner, secret).await?;
        let answer = self
            .http
            .client()
            .post(partner.events_url())
            .bearer_auth(token)
            .header(
                reqwest::header::CONTENT_TYPE,
                "application/cloudevents+json; charset=UTF-8",
            )
            .body(event.to_owned())
            .send()
            .await
            .map_err(|e| failed("the events endpoint", &e))?;
        let status = answer.status();
        // the answer is not needed; reading a bounded part frees the connection
        let _ = bounded(answer, crate::MAX_RESPONSE_BYTES).await;
        if status.is_success() {
            Ok(())
        } else {
            Err(GatewayError(format!(
                "the events endpoint answered {}",
                status.as_u16()
            )))
        }
    }
}
