//! `tonne offset-links …`: signed analytics URLs.

use clap::Subcommand;
use tonne_storage::DatabaseUrl;

use super::admin::services as admin_services;

#[derive(Debug, Subcommand)]
pub(super) enum OffsetLinksCommand {
    /// Print a signed URL of a link's analytics page (no API key needed to open it).
    AnalyticsUrl {
        /// The offset link's id.
        link_id: String,
        /// How long the URL works, in hours (1 to 744, 31 days: the page lists
        /// customers' emails to whoever holds the URL).
        #[arg(long, default_value_t = 24, value_parser = clap::value_parser!(u32).range(1..=744))]
        valid_hours: u32,
        /// The server's public base URL.
        #[arg(
            long,
            env = "TONNE_PUBLIC_URL",
            default_value = "http://127.0.0.1:8080"
        )]
        public_url: String,
    },
}

pub(super) async fn run(
    url: &DatabaseUrl,
    command: OffsetLinksCommand,
    secrets: Option<String>,
) -> anyhow::Result<()> {
    let services = admin_services(url, secrets).await?;
    match command {
        OffsetLinksCommand::AnalyticsUrl {
            link_id,
            valid_hours,
            public_url,
        } => {
            if !services.page_key_is_stable {
                anyhow::bail!(
                    "TONNE_SECRETS_KEY is not set: the server's hosted-page key is random per process, \
                     so no URL printed here would verify. Set TONNE_SECRETS_KEY for the server and this command"
                );
            }
            let id: tonne_links::OffsetLinkId = link_id
                .parse()
                .map_err(|_| anyhow::anyhow!("`{link_id}` is not an offset link id"))?;
            services.links.analytics_of(id).await.map_err(|e| match e {
                tonne_links::LinkError::NotFound => anyhow::anyhow!("no offset link has id {id}"),
                other => anyhow::anyhow!(other),
            })?;
            let expires =
                services.links.now().unix_timestamp() + i64::from(valid_hours.max(1)) * 3600;
            println!(
                "{}",
                tonne_pages::analytics_url(
                    public_url.trim_end_matches('/'),
                    &services.page_key,
                    id,
                    expires
                )
            );
        }
    }
    Ok(())
}
