//! Traces: every request, store call, estimation engine, quote and webhook
//! delivery as OpenTelemetry spans exported over OTLP/HTTP (protobuf), and the
//! W3C trace context (`traceparent`) carried from an incoming request through
//! the order events it stores to the webhook deliveries they cause.
//!
//! Tonne's crates make spans with `tracing` at `DEBUG` level (the request span
//! at `INFO`); [`Exporter::layer`] turns the spans of `tonne*` targets into
//! OpenTelemetry spans. Without an exporter no layer wants the `DEBUG` spans,
//! so they are never built, and [`current_traceparent`] answers `None`.
//!
//! ```
//! // No exporter installed: there is no trace to carry.
//! assert_eq!(tonne_telemetry::current_traceparent(), None);
//! assert!(tonne_telemetry::TraceParent::parse("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01").is_some());
//! assert!(tonne_telemetry::TraceParent::parse("not a traceparent").is_none());
//! ```

use std::collections::HashMap;
use std::net::TcpStream;
use std::time::Duration;

use opentelemetry::propagation::TextMapPropagator as _;
use opentelemetry::trace::{TraceContextExt as _, TracerProvider as _};
use opentelemetry_otlp::WithExportConfig as _;
use opentelemetry_sdk::propagation::TraceContextPropagator;
use opentelemetry_sdk::trace::SdkTracerProvider;
use tracing_opentelemetry::OpenTelemetrySpanExt as _;
use tracing_subscriber::Layer;
use tracing_subscriber::filter::filter_fn;
use tracing_subscriber::registry::LookupSpan;

/// The W3C header that carries a trace across processes.
pub const TRACEPARENT: &str = "traceparent";

/// Why no exporter runs.
#[derive(Debug, thiserror::Error)]
pub enum ExporterError {
    /// The endpoint is not an `http://` or `https://` URL with a host.
    #[error("TONNE_OTLP_ENDPOINT `{0}` is not an http(s) URL with a host")]
    BadEndpoint(String),
    /// Nothing answered at the endpoint's address when the exporter started.
    #[error("the OTLP endpoint {endpoint} does not answer ({reason}); no traces will be exported")]
    Unreachable {
        /// The endpoint as configured.
        endpoint: String,
        /// What connecting said.
        reason: String,
    },
    /// The exporter could not be built.
    #[error("cannot build the OTLP exporter: {0}")]
    Build(String),
}

/// A running OTLP exporter: spans go to `{endpoint}/v1/traces` in batches
/// from a bounded queue (2,048 spans; when full, new spans are dropped), on
/// its own thread, so that a slow or vanished collector never slows a request.
pub struct Exporter {
    provider: SdkTracerProvider,
}

impl Exporter {
    /// Starts exporting to the collector at `endpoint` (its base URL, e.g.
    /// `http://collector:4318`), naming this process `service`. The endpoint
    /// must answer a TCP connection within a second, else no exporter runs.
    ///
    /// The batch settings follow the OpenTelemetry variables (`OTEL_BSP_*`).
    pub fn start(endpoint: &str, service: &str) -> Result<Self, ExporterError> {
        let base = endpoint.trim_end_matches('/');
        probe(base)?;
        let exporter = opentelemetry_otlp::SpanExporter::builder()
            .with_http()
            .with_endpoint(format!("{base}/v1/traces"))
            .with_timeout(Duration::from_secs(10))
            .build()
            .map_err(|e| ExporterError::Build(e.to_string()))?;
        let provider = SdkTracerProvider::builder()
            .with_batch_exporter(exporter)
            .with_resource(
                opentelemetry_sdk::Resource::builder_empty()
                    .with_service_name(service.to_owned())
                    .build(),
            )
            .build();
        Ok(Self { provider })
    }

    /// The tracing layer that turns the spans of Tonne's crates (targets
    /// `tonne*`, `DEBUG` and above) into OpenTelemetry spans.
    pub fn layer<S>(&self) -> impl Layer<S> + use<S>
    where
        S: tracing::Subscriber + for<'span> LookupSpan<'span>,
    {
        tracing_opentelemetry::layer()
            .with_tracer(self.provider.tracer("tonne"))
            .with_filter(filter_fn(|meta| {
                meta.target().starts_with("tonne") && *meta.level() <= tracing::Level::DEBUG
            }))
    }

    /// Exports what is queued (waiting at most a few seconds) and stops.
    pub fn shutdown(self) {
        let _ = self.provider.force_flush();
        let _ = self.provider.shutdown_with_timeout(Duration::from_secs(5));
    }
}

/// Connects to the endpoint's host and port once (at most one second).
fn probe(endpoint: &str) -> Result<(), ExporterError> {
    let bad = || ExporterError::BadEndpoint(endpoint.to_owned());
    let url = url::Url::parse(endpoint).map_err(|_| bad())?;
    if !matches!(url.scheme(), "http" | "https") || url.host().is_none() {
        return Err(bad());
    }
    let unreachable = |reason: String| ExporterError::Unreachable {
        endpoint: endpoint.to_owned(),
        reason,
    };
    let addresses = url
        .socket_addrs(|| None)
        .map_err(|e| unreachable(e.to_string()))?;
    let mut last = "no address".to_owned();
    for address in addresses {
        match TcpStream::connect_timeout(&address, Duration::from_secs(1)) {
            Ok(_) => return Ok(()),
            Err(e) => last = e.to_string(),
        }
    }
    Err(unreachable(last))
}

/// A W3C `traceparent` value, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TraceParent(String);

impl TraceParent {
    /// Accepts `00-{32 hex}-{16 hex}-{2 hex}` with non-zero ids.
    pub fn parse(text: &str) -> Option<Self> {
        let cx = context_of(text);
        cx.span()
            .span_context()
            .is_valid()
            .then(|| Self(text.trim().to_owned()))
    }

    /// The header value.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

fn context_of(traceparent: &str) -> opentelemetry::Context {
    let carrier = HashMap::from([(TRACEPARENT.to_owned(), traceparent.trim().to_owned())]);
    TraceContextPropagator::new().extract(&carrier)
}

/// The `traceparent` naming `span` (for a child of it in another process), or
/// `None` when spans are not exported.
pub fn traceparent_of(span: &tracing::Span) -> Option<String> {
    if span.is_disabled() {
        return None;
    }
    let cx = span.context();
    if !cx.span().span_context().is_valid() {
        return None;
    }
    let mut carrier = HashMap::new();
    TraceContextPropagator::new().inject_context(&cx, &mut carrier);
    carrier.remove(TRACEPARENT)
}

/// Renames `span` in the exported trace (a request learns its route only
/// after routing); the name is formatted only when spans are exported.
pub fn rename(span: &tracing::Span, name: impl std::fmt::Display) {
    if span.is_disabled() {
        return;
    }
    let cx = span.context();
    let exported = cx.span();
    if exported.span_context().is_valid() {
        exported.update_name(name.to_string());
    }
}

/// The `traceparent` of the current span, or `None` when spans are not exported.
pub fn current_traceparent() -> Option<String> {
    traceparent_of(&tracing::Span::current())
}

/// Makes `span` (just created, not yet entered) a child of the remote span
/// `traceparent` names; an invalid value, or no exporter, leaves it alone.
pub fn adopt_parent(span: &tracing::Span, traceparent: &str) {
    if span.is_disabled() {
        return;
    }
    let cx = context_of(traceparent);
    if cx.span().span_context().is_valid() {
        let _ = span.set_parent(cx);
    }
}

/// The name of a storage operation from the type name of the closure that
/// runs it: `OrderStore::create` from
/// `tonne_storage::orders::<impl X for tonne_storage::orders::OrderStore>::create::{{closure}}`
/// or from `<tonne_storage::orders::OrderStore as X>::create::<'_>::{{closure}}`.
///
/// ```
/// assert_eq!(
///     tonne_telemetry::operation_name(
///         "tonne_storage::orders::<impl tonne_ordering::ports::OrderRepository for tonne_storage::orders::OrderStore>::create::{{closure}}::{{closure}}"
///     ),
///     "OrderStore::create"
/// );
/// assert_eq!(
///     tonne_telemetry::operation_name(
///         "<tonne_storage::catalogue::CatalogueStore as tonne_ordering::ports::CatalogueRepository>::is_empty::<'_, '_>::{{closure}}"
///     ),
///     "CatalogueStore::is_empty"
/// );
/// assert_eq!(tonne_telemetry::operation_name("tonne_storage::db::Db::ping::{{closure}}"), "Db::ping");
/// ```
pub fn operation_name(type_name: &str) -> String {
    let segments: Vec<&str> = split_path(type_name)
        .into_iter()
        .filter(|s| {
            let generic_arguments =
                s.starts_with('<') && !s.contains(" as ") && !s.starts_with("<impl ");
            *s != "{{closure}}" && !generic_arguments
        })
        .collect();
    // The method is the last plain segment; its owner the segment before it.
    let Some(method_at) = segments.iter().rposition(|s| !s.starts_with('<')) else {
        return type_name.to_owned();
    };
    let method = segments.get(method_at).copied().unwrap_or_default();
    let method = method.split('<').next().unwrap_or(method);
    let owner = match method_at.checked_sub(1).and_then(|i| segments.get(i)) {
        Some(owner) => owner_type(owner),
        None => return method.to_owned(),
    };
    format!("{owner}::{method}")
}

/// Splits a type path at `::` outside angle brackets.
fn split_path(path: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut depth, mut start) = (0_i32, 0_usize);
    let bytes = path.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes.get(i) {
            Some(b'<') => depth += 1,
            Some(b'>') => depth -= 1,
            Some(b':') if depth == 0 && bytes.get(i + 1) == Some(&b':') => {
                out.push(path.get(start..i).unwrap_or_default());
                start = i + 2;
                i += 1;
            }
            _ => {}
        }
        i += 1;
    }
    out.push(path.get(start..).unwrap_or_default());
    out
}

/// The short name of the type a segment names: `<A as B>` and `<impl B for A>` are `A`.
fn owner_type(segment: &str) -> &str {
    let inner = segment
        .strip_prefix('<')
        .and_then(|s| s.strip_suffix('>'))
        .unwrap_or(segment);
    let named = if let Some(rest) = inner.strip_prefix("impl ") {
        rest.rsplit(" for ").next().unwrap_or(rest)
    } else {
        inner.split(" as ").next().unwrap_or(inner)
    };
    let short = named.split('<').next().unwrap_or(named);
    short.rsplit("::").next().unwrap_or(short)
}

#[cfg(test)]
mod tests {
    use super::*;
    use tracing_subscriber::layer::SubscriberExt as _;

    #[test]
    fn a_span_adopts_a_remote_parent_and_names_itself_for_the_next_hop() {
        // A provider without an exporter still gives spans real ids.
        let provider = SdkTracerProvider::builder().build();
        let subscriber = tracing_subscriber::registry()
            .with(tracing_opentelemetry::layer().with_tracer(provider.tracer("test")));
        tracing::subscriber::with_default(subscriber, || {
            let span = tracing::info_span!("request");
            adopt_parent(
                &span,
                "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
            );
            let next = span.in_scope(current_traceparent).unwrap();
            assert!(
                next.starts_with("00-4bf92f3577b34da6a3ce929d0e0e4736-"),
                "{next}"
            );
            assert!(!next.contains("00f067aa0ba902b7"), "a new span id: {next}");
            let unrelated = tracing::info_span!("other");
            adopt_parent(&unrelated, "00-garbage");
            let own = traceparent_of(&unrelated).unwrap();
            assert!(!own.contains("4bf92f3577b34da6a3ce929d0e0e4736"));
        });
    }

    #[test]
    fn endpoints_are_checked_before_anything_runs() {
        assert!(matches!(
            Exporter::start("collector:4318", "t"),
            Err(ExporterError::BadEndpoint(_))
        ));
        // A port nothing listens on (bound, then closed).
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let refused = Exporter::start(&format!("http://127.0.0.1:{port}"), "t");
        assert!(matches!(refused, Err(ExporterError::Unreachable { .. })));
    }

    #[test]
    fn storage_operations_are_named_by_owner_and_method() {
        assert_eq!(
            operation_name(
                "tonne_storage::webhooks::delivery::<impl tonne_webhooks::ports::DeliveryStore for tonne_storage::webhooks::WebhookStore>::pending::{{closure}}"
            ),
            "WebhookStore::pending"
        );
        assert_eq!(operation_name("f"), "f");
    }
}
