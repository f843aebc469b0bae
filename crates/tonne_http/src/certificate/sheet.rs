//! What a certificate says, page and PDF alike: its title, the date written
//! for people, and the [`Sheet`] of a certificate with its project [`Row`]s.

use time::OffsetDateTime;
use tonne_kernel::AccountMode;
use tonne_ordering::Certificate;

/// The certificate's title.
pub const TITLE: &str = "Certificate of carbon credit retirement";

/// A date written for people: `23 November 2026` (UTC).
pub fn human_date(at: OffsetDateTime) -> String {
    let d = at.date();
    format!("{} {} {}", d.day(), d.month(), d.year())
}

/// One project line of a certificate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    pub project_name: String,
    pub project_type: String,
    /// The project's country (`Unknown` if it left the catalogue).
    pub country: String,
    /// The registry's name.
    pub registry: String,
    /// The retirement's serial number, or `None` while the registry has not issued one.
    pub serial: Option<String>,
    /// The project's record on its registry, where the catalogue has one.
    pub registry_link: Option<String>,
    /// Tonnes of CO₂e.
    pub tonnes: String,
}

/// What a certificate says, page and PDF alike.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sheet {
    pub order_id: String,
    pub account_name: String,
    /// The account's logo (an absolute URL), if it has one.
    pub logo_url: Option<String>,
    pub beneficiary: String,
    /// Completion date, written for people.
    pub date: String,
    /// Total tonnes of CO₂e.
    pub total_tonnes: String,
    /// A test-mode order: nothing was retired, the serials are simulated.
    pub test_mode: bool,
    pub rows: Vec<Row>,
    /// The public page's absolute URL.
    pub public_url: String,
}

impl Sheet {
    /// The sheet of a certificate; `public_url` is the server's public base URL.
    pub fn of(c: &Certificate, public_url: &str) -> Self {
        let o = &c.order;
        Self {
            order_id: o.id.to_string(),
            account_name: c.holder.name.clone(),
            logo_url: c.holder.logo.clone(),
            beneficiary: c.holder.beneficiary.clone(),
            // the last transition of a complete order is its completion
            date: human_date(o.updated_at),
            total_tonnes: o.quantity.to_tonnes_string(),
            test_mode: o.mode == AccountMode::Test,
            rows: c
                .projects
                .iter()
                .map(|p| Row {
                    project_name: p.allocation.project_name.clone(),
                    project_type: p.allocation.project_type.clone(),
                    country: p.country_name.clone().unwrap_or_else(|| "Unknown".into()),
                    registry: p.allocation.registry.as_str().to_owned(),
                    serial: p.allocation.serial.clone(),
                    // this retirement's record where the operator gave one,
                    // else the project's page at its registry
                    registry_link: p
                        .allocation
                        .registry_record
                        .clone()
                        .or_else(|| p.registry_link.clone()),
                    tonnes: p.allocation.quantity.to_tonnes_string(),
                })
                .collect(),
            public_url: format!(
                "{}{}",
                public_url.trim_end_matches('/'),
                tonne_wire::public_certificate_path(o)
            ),
        }
    }

    /// What the footer says about test mode, if anything.
    pub fn test_notice(&self) -> Option<&'static str> {
        self.test_mode.then_some(
            "Test mode: this order was simulated. No carbon credits were retired and the serial numbers are not real.",
        )
    }
}
