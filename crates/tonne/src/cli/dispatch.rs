//! `tonne dispatch`: a webhook dispatcher on its own.

use std::time::Duration;

use clap::Args;
use tonne_storage::{DatabaseUrl, PoolSettings};

use serde_json::json;

use super::serve::{WebhookArgs, shutdown_signal};
use crate::wiring::Services;

#[derive(Debug, Args)]
pub(super) struct DispatchArgs {
    /// Serve `/health` and `/metrics` (Prometheus) on this address.
    #[arg(
        long,
        env = "TONNE_DISPATCH_METRICS_BIND",
        default_value = "127.0.0.1:9465"
    )]
    metrics_bind: String,
    #[command(flatten)]
    webhooks: WebhookArgs,
}

pub(super) async fn run(
    url: DatabaseUrl,
    args: DispatchArgs,
    secrets: Option<String>,
) -> anyhow::Result<()> {
    if matches!(url, DatabaseUrl::Sqlite(_)) {
        anyhow::bail!(
            "`tonne dispatch` needs PostgreSQL: on SQLite exactly one dispatcher runs, the one inside `tonne serve`"
        );
    }
    let config = args.webhooks.dispatcher()?;
    let services = Services::open(
        &url,
        PoolSettings {
            max_size: u32::try_from(config.concurrency.min(16))
                .unwrap_or(16)
                .max(2),
            ..PoolSettings::default()
        },
        Duration::ZERO,
        tonne_ordering::Settings::default(),
        args.webhooks.options(secrets),
        tonne_links::Settings::default(),
        crate::fulfilment::CardProcessors::default(),
    )
    .await?;
    let registry = prometheus::Registry::new_custom(Some("tonne".into()), None)?;
    let metrics = tonne_dispatcher::DispatchMetrics::new(&registry)?;
    let dispatcher = tonne_dispatcher::Dispatcher::new(
        std::sync::Arc::new(services.webhook_store.clone()),
        config,
        metrics,
    )?;
    println!(
        "Tonne dispatcher {} delivering webhooks (database: {url}); metrics on http://{}/metrics",
        dispatcher.owner(),
        args.metrics_bind
    );
    let listener = std::net::TcpListener::bind(&args.metrics_bind)
        .map_err(|e| anyhow::anyhow!("cannot listen on {}: {e}", args.metrics_bind))?;
    let metrics_server = actix_web::HttpServer::new(move || {
        let registry = registry.clone();
        actix_web::App::new()
            .route(
                "/health",
                actix_web::web::get()
                    .to(|| async { actix_web::HttpResponse::Ok().json(json!({"status": "ok"})) }),
            )
            .route(
                "/metrics",
                actix_web::web::get().to(move || {
                    let registry = registry.clone();
                    async move {
                        use prometheus::Encoder as _;
                        let mut out = Vec::new();
                        let _ = prometheus::TextEncoder::new().encode(&registry.gather(), &mut out);
                        actix_web::HttpResponse::Ok()
                            .content_type("text/plain; version=0.0.4")
                            .body(out)
                    }
                }),
            )
    })
    .workers(1)
    .listen(listener)?
    .disable_signals()
    .run();
    let metrics_handle = metrics_server.handle();
    let metrics_task = tokio::spawn(metrics_server);
    let (stop, stopped) = tokio::sync::watch::channel(false);
    let task = tokio::spawn(dispatcher.run(stopped));
    shutdown_signal().await;
    tracing::info!("stop signal received; finishing in-flight webhook requests");
    let _ = stop.send(true);
    let _ = task.await;
    metrics_handle.stop(true).await;
    let _ = metrics_task.await;
    Ok(())
}
