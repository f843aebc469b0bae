//! `tonne invoices …`: issue an organisation's (or every organisation's)
//! invoices for a month or a period, list them, mark one paid (which pays
//! its orders), take one back with a credit note, write one's PDF. The
//! seller's details and the tax rate (`TONNE_INVOICE_*`, `[invoice]` in the
//! configuration file) are read by the server and these commands alike.

use clap::{Args, Subcommand};
use tonne_kernel::{Actor, OrganisationId, PageRequest};
use tonne_ordering::invoices::{Invoice, Party, Period, TaxRate};
use tonne_storage::DatabaseUrl;

use crate::wiring::InvoiceTerms;

/// The seller invoices name and the tax rate they apply.
#[derive(Debug, Clone, Args)]
pub(super) struct InvoiceArgs {
    /// The seller's legal name, printed on every invoice; unset: invoices cannot be issued.
    #[arg(long, env = "TONNE_INVOICE_SELLER_NAME", global = true)]
    invoice_seller_name: Option<String>,
    /// The seller's postal address (lines separated by `\n` or `;`).
    #[arg(long, env = "TONNE_INVOICE_SELLER_ADDRESS", global = true)]
    invoice_seller_address: Option<String>,
    /// The seller's tax (VAT) registration number.
    #[arg(long, env = "TONNE_INVOICE_SELLER_TAX_ID", global = true)]
    invoice_seller_tax_id: Option<String>,
    /// Where buyers write about invoices.
    #[arg(long, env = "TONNE_INVOICE_SELLER_EMAIL", global = true)]
    invoice_seller_email: Option<String>,
    /// The tax rate in percent applied to every invoice's subtotal.
    #[arg(
        long,
        env = "TONNE_INVOICE_TAX_RATE",
        global = true,
        default_value = "0"
    )]
    invoice_tax_rate: String,
}

impl InvoiceArgs {
    /// The terms these settings give; a bad field is refused at start.
    pub(super) fn terms(&self) -> anyhow::Result<InvoiceTerms> {
        let tax_rate = TaxRate::parse(&self.invoice_tax_rate)
            .map_err(|e| anyhow::anyhow!("TONNE_INVOICE_TAX_RATE: {e}"))?;
        let Some(name) = self
            .invoice_seller_name
            .as_deref()
            .filter(|n| !n.trim().is_empty())
        else {
            return Ok(InvoiceTerms {
                seller: Party::default(),
                tax_rate,
            });
        };
        let address = self
            .invoice_seller_address
            .as_deref()
            .unwrap_or_default()
            .replace("\\n", "\n")
            .replace(';', "\n");
        let seller = Party::parse(
            name,
            &address,
            self.invoice_seller_tax_id.as_deref().unwrap_or_default(),
            self.invoice_seller_email.as_deref().unwrap_or_default(),
        )
        .map_err(|(field, why)| {
            anyhow::anyhow!("TONNE_INVOICE_SELLER_{}: {why}", field.to_uppercase())
        })?;
        Ok(InvoiceTerms { seller, tax_rate })
    }
}

#[derive(Debug, Subcommand)]
pub(super) enum InvoicesCommand {
    /// Issue invoices for a month (or --from/--to): one per organisation and
    /// currency over its live orders paid by invoice not invoiced yet.
    Issue {
        /// The month, YYYY-MM (default: last month).
        #[arg(long, conflicts_with_all = ["from", "to"])]
        month: Option<String>,
        /// First day of a period, YYYY-MM-DD (with --to).
        #[arg(long, requires = "to")]
        from: Option<String>,
        /// Last day of the period, included.
        #[arg(long, requires = "from")]
        to: Option<String>,
        /// Only this organisation (default: every organisation with orders to invoice).
        #[arg(long)]
        organisation: Option<String>,
    },
    /// List invoices, highest number first.
    List {
        /// Only this organisation's.
        #[arg(long)]
        organisation: Option<String>,
        /// How many (1 to 100).
        #[arg(long, default_value = "100")]
        limit: String,
    },
    /// Mark an invoice paid: its orders waiting for payment become paid.
    Pay {
        /// The invoice's id.
        invoice_id: String,
    },
    /// Take an unpaid invoice back with a credit note (its orders may be invoiced again).
    Credit {
        /// The invoice's id.
        invoice_id: String,
    },
    /// Write an invoice's PDF.
    Pdf {
        /// The invoice's id.
        invoice_id: String,
        /// The file to write (never over an existing one).
        #[arg(long)]
        out: std::path::PathBuf,
    },
}

fn line(i: &Invoice) -> String {
    format!(
        "{}  {}  {}  {}  {} {}  {} line(s)  {}",
        i.printed_number(),
        i.id,
        i.organisation_id,
        i.period,
        i.total.to_decimal_string(),
        i.currency.code(),
        i.lines.len(),
        i.status().as_str()
    )
}

fn organisation(raw: &str) -> anyhow::Result<OrganisationId> {
    raw.parse()
        .map_err(|_| anyhow::anyhow!("--organisation: not an organisation id"))
}

pub(super) async fn run(
    url: &DatabaseUrl,
    command: InvoicesCommand,
    secrets: Option<String>,
    terms: InvoiceTerms,
) -> anyhow::Result<()> {
    let services = super::admin::services(url, secrets)
        .await?
        .with_invoice_terms(terms);
    let invoices = &services.invoices;
    let by = Actor::CommandLine;
    match command {
        InvoicesCommand::Issue {
            month,
            from,
            to,
            organisation: only,
        } => {
            let period = match (month, from, to) {
                (Some(m), _, _) => {
                    Period::month(&m).map_err(|e| anyhow::anyhow!("--month: {e}"))?
                }
                (None, Some(f), Some(t)) => {
                    Period::parse(&f, &t).map_err(|e| anyhow::anyhow!("--from/--to: {e}"))?
                }
                _ => Period::last_month(time::OffsetDateTime::now_utc().date()),
            };
            let issued = match only {
                Some(o) => vec![invoices.issue(organisation(&o)?, period, &by).await?],
                None => invoices.issue_all(period, &by).await?,
            };
            let count: usize = issued.iter().map(|i| i.invoices.len()).sum();
            for i in issued.iter().flat_map(|i| &i.invoices) {
                println!("{}", line(i));
            }
            println!("{count} invoice(s) issued for {period}");
        }
        InvoicesCommand::List {
            organisation: only,
            limit,
        } => {
            let limit = limit.parse().map_err(|e| anyhow::anyhow!("--limit: {e}"))?;
            let only = only.as_deref().map(organisation).transpose()?;
            let page = invoices
                .invoices(only, PageRequest { limit, after: None })
                .await?;
            for i in &page.items {
                println!("{}", line(i));
            }
            if page.items.is_empty() {
                println!("no invoices");
            }
        }
        InvoicesCommand::Pay { invoice_id } => {
            let i = invoices.mark_paid(&invoice_id, &by).await?;
            println!("{} is paid, and so are its orders", i.printed_number());
        }
        InvoicesCommand::Credit { invoice_id } => {
            let note = invoices.credit(&invoice_id, &by).await?;
            println!(
                "{} ({}) takes {invoice_id} back",
                note.printed_number(),
                note.id
            );
        }
        InvoicesCommand::Pdf { invoice_id, out } => {
            let i = invoices.invoice(&invoice_id, None).await?;
            let pdf = tonne_http::invoice::render(&i);
            use std::io::Write as _;
            let mut file = std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&out)
                .map_err(|e| anyhow::anyhow!("{}: {e}", out.display()))?;
            file.write_all(&pdf)?;
            println!("{} written to {}", i.printed_number(), out.display());
        }
    }
    Ok(())
}
