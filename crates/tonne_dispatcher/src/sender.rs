//! The outbound HTTP client: SSRF-safe, no redirects, bounded answers.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;
use tracing::Instrument as _;

use async_trait::async_trait;
use reqwest::dns::{Addrs, Name, Resolve, Resolving};
use tonne_webhooks::ports::{HostResolver, OutboundRequest, WebhookSender};
use tonne_webhooks::target::{TargetHost, TargetPolicy};
use tonne_webhooks::{BODY_START_BYTES, SendOutcome, body_start, signature};

/// At most this much of an answer is read (then the connection is dropped).
pub const MAX_RESPONSE_BYTES: usize = 64 * 1024;

/// The `User-Agent` of every request.
pub const USER_AGENT: &str = concat!(
    "Tonne-Webhooks/",
    env!("CARGO_PKG_VERSION"),
    " (+https://github.com/tonne)"
);

/// A resolver that hands reqwest only the addresses the policy allows, so the
/// address connected to is the one checked (no DNS-rebinding window).
#[derive(Debug, Clone, Copy)]
struct PolicyResolver {
    policy: TargetPolicy,
}

impl Resolve for PolicyResolver {
    fn resolve(&self, name: Name) -> Resolving {
        let policy = self.policy;
        let host = name.as_str().to_owned();
        Box::pin(async move {
            let found: Vec<SocketAddr> =
                tokio::net::lookup_host((host.as_str(), 0)).await?.collect();
            let mut refused = None;
            let allowed: Vec<SocketAddr> = found
                .into_iter()
                .filter(|a| match policy.check_address(a.ip()) {
                    Ok(()) => true,
                    Err(reason) => {
                        refused = Some((a.ip(), reason));
                        false
                    }
                })
                .collect();
            if allowed.is_empty() {
                // The attempt's error is shown to the webhook's owner: it says
                // only that the host is refused; what it resolved to (perhaps
                // an address inside the operator's network) stays in the log.
                let why = match refused {
                    Some((ip, reason)) => {
                        tracing::warn!(
                            host = %host,
                            address = %ip,
                            reason = reason.describe(),
                            "webhook delivery refused: the host resolves to a refused address"
                        );
                        format!("{host} must resolve to public addresses only")
                    }
                    None => format!("{host} has no address"),
                };
                let err: Box<dyn std::error::Error + Send + Sync> = Box::new(Refused(why));
                return Err(err);
            }
            let addrs: Addrs = Box::new(allowed.into_iter());
            Ok(addrs)
        })
    }
}

/// The resolver's refusal, found again in reqwest's error chain.
#[derive(Debug)]
struct Refused(String);

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}
impl std::error::Error for Refused {}

/// The dispatcher's HTTP client.
#[derive(Debug, Clone)]
pub struct HttpSender {
    client: reqwest::Client,
    policy: TargetPolicy,
}

impl HttpSender {
    /// A client that gives up after `timeout`, connects only where `policy` allows,
    /// never follows redirects and ignores proxy settings of the environment.
    pub fn new(timeout: Duration, policy: TargetPolicy) -> anyhow::Result<Self> {
        let client = reqwest::Client::builder()
            .timeout(timeout)
            .connect_timeout(timeout.min(Duration::from_secs(10)))
            .redirect(reqwest::redirect::Policy::none())
            .no_proxy()
            .user_agent(USER_AGENT)
            .pool_max_idle_per_host(8)
            .pool_idle_timeout(Duration::from_secs(30))
            .tcp_nodelay(true)
            .dns_resolver(Arc::new(PolicyResolver { policy }))
            .build()?;
        Ok(Self { client, policy })
    }

    /// The guarded client itself, for the other outbound calls (PACT answers).
    pub(crate) fn client(&self) -> &reqwest::Client {
        &self.client
    }
}

fn retry_after(headers: &reqwest::header::HeaderMap) -> Option<Duration> {
    let value = headers
        .get(reqwest::header::RETRY_AFTER)?
        .to_str()
        .ok()?
        .trim();
    if let Ok(secs) = value.parse::<u64>() {
        return Some(Duration::from_secs(secs));
    }
    let at = httpdate::parse_http_date(value).ok()?;
    Some(
        at.duration_since(std::time::SystemTime::now())
            .unwrap_or_default(),
    )
}

pub(crate) fn describe(e: &reqwest::Error) -> String {
    use std::error::Error as _;
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        text.push_str(": ");
        text.push_str(&s.to_string());
        source = s.source();
    }
    text
}

pub(crate) fn refused_in_chain(e: &reqwest::Error) -> Option<String> {
    use std::error::Error as _;
    let mut source = e.source();
    while let Some(s) = source {
        if let Some(r) = s.downcast_ref::<Refused>() {
            return Some(r.0.clone());
        }
        source = s.source();
    }
    None
}

#[async_trait]
impl WebhookSender for HttpSender {
    async fn send(&self, request: &OutboundRequest) -> SendOutcome {
        // The delivery continues the trace of the event that caused it (else the
        // current one), and the receiver gets it as `traceparent`.
        let span = tracing::debug_span!(
            "webhook delivery",
            otel.kind = "client",
            server.address = %match request.url.host() {
                TargetHost::Domain(name) => name.clone(),
                TargetHost::Ip(ip) => ip.to_string(),
            },
            http.response.status_code = tracing::field::Empty,
        );
        if let Some(parent) = &request.traceparent {
            tonne_telemetry::adopt_parent(&span, parent);
        }
        let traceparent = tonne_telemetry::traceparent_of(&span);
        let outcome = self
            .post(request, traceparent)
            .instrument(span.clone())
            .await;
        if let Some(status) = outcome.status() {
            span.record("http.response.status_code", status);
        }
        outcome
    }
}

impl HttpSender {
    async fn post(&self, request: &OutboundRequest, traceparent: Option<String>) -> SendOutcome {
        // An address literal never reaches the resolver: check it here.
        if let TargetHost::Ip(ip) = request.url.host()
            && let Err(reason) = self.policy.check_address(*ip)
        {
            return SendOutcome::Refused(format!("{ip} is {}", reason.describe()));
        }
        let sent = self
            .client
            .post(request.url.as_str())
            .header(reqwest::header::CONTENT_TYPE, "application/json")
            .header(signature::HEADER, &request.signature);
        let sent = match traceparent {
            Some(value) => sent.header(tonne_telemetry::TRACEPARENT, value),
            None => sent,
        };
        let sent = sent.body(request.body.clone()).send().await;
        let response = match sent {
            Ok(r) => r,
            Err(e) if e.is_timeout() => return SendOutcome::Timeout,
            Err(e) => {
                return match refused_in_chain(&e) {
                    Some(why) => SendOutcome::Refused(why),
                    None => SendOutcome::Network(describe(&e)),
                };
            }
        };
        let status = response.status().as_u16();
        let retry_after = retry_after(response.headers());
        // Read a bounded part of the answer (so a slow or huge body cannot hold the
        // stream or memory), then drop the connection if more was coming.
        let mut read = 0_usize;
        let mut start: Vec<u8> = Vec::new();
        let mut response = response;
        while read < MAX_RESPONSE_BYTES {
            match response.chunk().await.transpose() {
                Some(Ok(chunk)) => {
                    let room = BODY_START_BYTES.saturating_sub(start.len());
                    start.extend_from_slice(chunk.get(..room).unwrap_or(&chunk));
                    read = read.saturating_add(chunk.len());
                }
                Some(Err(e)) if e.is_timeout() => return SendOutcome::Timeout,
                Some(Err(_)) | None => break,
            }
        }
        SendOutcome::Response {
            status,
            retry_after,
            body_start: body_start(&start),
        }
    }
}

/// DNS for registration checks, with a bound on how long a lookup may take.
#[derive(Debug, Clone, Copy)]
pub struct SystemResolver {
    /// Longest wait for an answer.
    pub timeout: Duration,
}

#[async_trait]
impl HostResolver for SystemResolver {
    async fn resolve(&self, host: &str, port: u16) -> Result<Vec<IpAddr>, String> {
        match tokio::time::timeout(self.timeout, tokio::net::lookup_host((host, port))).await {
            Ok(Ok(addrs)) => Ok(addrs.map(|a| a.ip()).collect()),
            Ok(Err(e)) => Err(e.to_string()),
            Err(_) => Err(format!("no answer within {} s", self.timeout.as_secs())),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::str::FromStr as _;

    use super::*;

    /// An attempt's error is shown to the webhook's owner: a host that
    /// resolves to a refused address is named, the address it resolved to
    /// is not (it may be inside the operator's network).
    #[tokio::test]
    async fn a_refused_resolution_does_not_name_the_address() {
        let resolver = PolicyResolver {
            policy: TargetPolicy {
                allow_private: false,
            },
        };
        let name = Name::from_str("localhost").expect("a DNS name");
        let Err(refused) = resolver.resolve(name).await else {
            panic!("localhost resolved to an allowed address");
        };
        let text = refused.to_string();
        assert!(
            text.contains("must resolve to public addresses only"),
            "{text}"
        );
        assert!(
            !text.contains("127.0.0.1") && !text.contains("::1"),
            "{text}"
        );
    }
}
