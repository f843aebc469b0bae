//! Stripe's settings (`TONNE_STRIPE_*`, `[stripe]` in the configuration
//! file): a mode whose secret key is set takes hosted-page cards through
//! Stripe; the server and the operator's commands (`tonne orders advance`
//! captures a card order) read them alike.

use clap::Args;
use tonne_stripe::{StripeClient, StripeConfig};

use crate::fulfilment::{CardProcessors, StripeMode};

/// Stripe's keys and addresses.
#[derive(Debug, Clone, Args)]
pub(super) struct StripeArgs {
    /// Live mode's Stripe secret key (`sk_live_…` or a restricted `rk_live_…`); unset: live
    /// hosted-page payments are confirmed by the operator.
    #[arg(
        long,
        env = "TONNE_STRIPE_SECRET_KEY",
        global = true,
        hide_env_values = true
    )]
    stripe_secret_key: Option<String>,
    /// Live mode's Stripe publishable key (`pk_live_…`), for Stripe.js on the hosted pages.
    #[arg(long, env = "TONNE_STRIPE_PUBLISHABLE_KEY", global = true)]
    stripe_publishable_key: Option<String>,
    /// Test mode's Stripe secret key (`sk_test_…`); unset: test mode keeps the built-in card
    /// simulator.
    #[arg(
        long,
        env = "TONNE_STRIPE_TEST_SECRET_KEY",
        global = true,
        hide_env_values = true
    )]
    stripe_test_secret_key: Option<String>,
    /// Test mode's Stripe publishable key (`pk_test_…`).
    #[arg(long, env = "TONNE_STRIPE_TEST_PUBLISHABLE_KEY", global = true)]
    stripe_test_publishable_key: Option<String>,
    /// The signing secret (`whsec_…`) of the live webhook endpoint Stripe sends
    /// `/stripe/webhook` events to.
    #[arg(
        long,
        env = "TONNE_STRIPE_WEBHOOK_SECRET",
        global = true,
        hide_env_values = true
    )]
    stripe_webhook_secret: Option<String>,
    /// The signing secret of the test-mode webhook endpoint.
    #[arg(
        long,
        env = "TONNE_STRIPE_TEST_WEBHOOK_SECRET",
        global = true,
        hide_env_values = true
    )]
    stripe_test_webhook_secret: Option<String>,
    /// Stripe's API (tests point it at a local fake; plain http only to loopback).
    #[arg(long, env = "TONNE_STRIPE_API_URL", global = true, default_value = tonne_stripe::STRIPE_API_URL)]
    stripe_api_url: String,
    /// Where the hosted pages load Stripe.js from.
    #[arg(
        long,
        env = "TONNE_STRIPE_JS_URL",
        global = true,
        default_value = "https://js.stripe.com/v3/"
    )]
    stripe_js_url: String,
}

impl StripeArgs {
    /// The processors these settings connect; a key without its publishable
    /// twin, or a key of the other mode, is refused at start.
    pub(super) fn processors(&self) -> anyhow::Result<CardProcessors> {
        tonne_stripe::stripe_url(&self.stripe_js_url)
            .map_err(|e| anyhow::anyhow!("TONNE_STRIPE_JS_URL: {e}"))?;
        let mode = |secret: &Option<String>,
                    publishable: &Option<String>,
                    name: &str,
                    live: bool|
         -> anyhow::Result<Option<StripeMode>> {
            let Some(secret) = secret.as_deref().filter(|s| !s.trim().is_empty()) else {
                return Ok(None);
            };
            let Some(publishable) = publishable.as_deref().filter(|s| !s.trim().is_empty()) else {
                anyhow::bail!(
                    "TONNE_STRIPE_{name}SECRET_KEY is set without TONNE_STRIPE_{name}PUBLISHABLE_KEY"
                );
            };
            let config = StripeConfig::new(secret.trim(), &self.stripe_api_url)
                .map_err(|e| anyhow::anyhow!("TONNE_STRIPE_{name}SECRET_KEY: {e}"))?;
            if config.is_test_key() == live {
                anyhow::bail!(
                    "TONNE_STRIPE_{name}SECRET_KEY is a {} key",
                    if live { "test-mode" } else { "live-mode" }
                );
            }
            Ok(Some(StripeMode {
                client: StripeClient::new(config),
                publishable_key: publishable.trim().to_owned(),
                js_url: self.stripe_js_url.clone(),
            }))
        };
        let webhook_secrets = [
            &self.stripe_webhook_secret,
            &self.stripe_test_webhook_secret,
        ]
        .into_iter()
        .flatten()
        .map(|s| s.trim().to_owned())
        .filter(|s| !s.is_empty())
        .collect();
        Ok(CardProcessors {
            webhook_secrets,
            live: mode(
                &self.stripe_secret_key,
                &self.stripe_publishable_key,
                "",
                true,
            )?,
            test: mode(
                &self.stripe_test_secret_key,
                &self.stripe_test_publishable_key,
                "TEST_",
                false,
            )?,
        })
    }
}
