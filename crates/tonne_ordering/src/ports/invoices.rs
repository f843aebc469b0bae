//! The invoices' storage port and their use cases.

use async_trait::async_trait;
use time::OffsetDateTime;
use tonne_kernel::{Actor, AuditEntry, Cursor, OrganisationId, Page, PageRequest, StoreError};

use crate::invoices::{Invoice, InvoiceBuilder, InvoiceId, Issued, Party, Period, TaxRate};

/// An organisation's name and the billing details it keeps.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BillingOnFile {
    /// The organisation's name (the buyer when no details are kept).
    pub organisation_name: String,
    /// Its billing details, once given.
    pub details: Option<Party>,
}

/// Why an invoice could not be credited.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CreditOutcome {
    /// The credit note, issued.
    Credited(Box<Invoice>),
    /// No such invoice.
    NotFound,
    /// Already taken back, paid (a paid invoice is refunded outside Tonne), or
    /// itself a credit note: the invoice as it stands.
    Refused(Box<Invoice>),
}

/// Storage of invoices, their one number sequence and the organisations'
/// billing details.
#[cfg_attr(any(test, feature = "mock"), mockall::automock)]
#[async_trait]
pub trait InvoiceRepository: Send + Sync {
    /// The organisation's name and billing details; `None` for an unknown organisation.
    async fn billing(
        &self,
        organisation: OrganisationId,
    ) -> Result<Option<BillingOnFile>, StoreError>;
    /// Replaces the organisation's billing details and writes `audit`, in one transaction.
    async fn set_billing(
        &self,
        organisation: OrganisationId,
        details: Party,
        audit: AuditEntry,
    ) -> Result<(), StoreError>;
    /// In one transaction: takes the installation's number sequence (so that
    /// concurrent issuers queue), reads the organisation's invoiceable orders
    /// in the builder's period — live, paid by invoice, not cancelled or
    /// failed, on no invoice that stands —, builds the drafts
    /// ([`InvoiceBuilder::build`]), numbers them next in the sequence,
    /// stores them and appends an `invoice.issued` event for each to the
    /// organisation's outbox. Nothing to invoice: an empty list, nothing written.
    async fn issue(
        &self,
        organisation: OrganisationId,
        builder: &InvoiceBuilder,
    ) -> Result<Vec<Invoice>, StoreError>;
    /// In one transaction: issues the credit note of an invoice that is
    /// issued and unpaid, numbered next in the sequence, and marks the
    /// invoice credited (its orders may be invoiced again); writes `audit`.
    async fn credit(
        &self,
        id: InvoiceId,
        at: OffsetDateTime,
        audit: AuditEntry,
    ) -> Result<CreditOutcome, StoreError>;
    /// Marks an issued invoice paid (not a credit note, not credited) and
    /// writes `audit`; `None` when it is not in that state (nothing written).
    async fn mark_paid(
        &self,
        id: InvoiceId,
        at: OffsetDateTime,
        audit: AuditEntry,
    ) -> Result<Option<Invoice>, StoreError>;
    /// The invoice or credit note, or `None`.
    async fn get(&self, id: InvoiceId) -> Result<Option<Invoice>, StoreError>;
    /// Invoices and credit notes (the organisation's, or every one), highest
    /// number first, strictly after the cursor's. MUST return `NotFound` when
    /// the cursor names none of them.
    async fn list(
        &self,
        organisation: Option<OrganisationId>,
        page: &PageRequest<Cursor>,
    ) -> Result<Page<Invoice>, StoreError>;
    /// The organisations with invoiceable orders in the period.
    async fn organisations_to_invoice(
        &self,
        period: Period,
    ) -> Result<Vec<OrganisationId>, StoreError>;
}

/// What went wrong with an invoice use case.
#[derive(Debug, thiserror::Error)]
pub enum InvoiceError {
    /// No such invoice or organisation (or not the caller's).
    #[error("not found")]
    NotFound,
    /// A field that cannot be: its name and why.
    #[error("{0}: {1}")]
    Invalid(&'static str, String),
    /// The invoice is not in a state that allows it (the invoice as it stands).
    #[error("the invoice is {}", .0.status().as_str())]
    Conflict(Box<Invoice>),
    /// An order of the invoice could not be paid.
    #[error("order {0}: {1}")]
    Order(String, crate::TransitionError),
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// The invoice use cases.
#[cfg_attr(any(test, feature = "mock"), mockall::automock)]
#[async_trait]
pub trait InvoicingService: Send + Sync {
    /// Issues the organisation's invoices over `period` (one per currency;
    /// none when nothing is left to invoice), as `by`.
    async fn issue(
        &self,
        organisation: OrganisationId,
        period: Period,
        by: &Actor,
    ) -> Result<Issued, InvoiceError>;
    /// Issues every organisation's invoices over `period`.
    async fn issue_all(&self, period: Period, by: &Actor) -> Result<Vec<Issued>, InvoiceError>;
    /// An invoice; with `organisation`, `NotFound` unless it is that organisation's.
    async fn invoice(
        &self,
        id: &str,
        organisation: Option<OrganisationId>,
    ) -> Result<Invoice, InvoiceError>;
    /// Invoices, highest number first (the organisation's, or every one).
    async fn invoices(
        &self,
        organisation: Option<OrganisationId>,
        page: PageRequest<Cursor>,
    ) -> Result<Page<Invoice>, InvoiceError>;
    /// Operator: marks an invoice paid, and pays each of its orders that
    /// waits for payment (`received` or `placed`), each step audited as done `by`.
    async fn mark_paid(&self, id: &str, by: &Actor) -> Result<Invoice, InvoiceError>;
    /// Operator: takes an unpaid invoice back with a credit note (returned).
    async fn credit(&self, id: &str, by: &Actor) -> Result<Invoice, InvoiceError>;
    /// The organisation's name and billing details.
    async fn billing(&self, organisation: OrganisationId) -> Result<BillingOnFile, InvoiceError>;
    /// Replaces the organisation's billing details (checked by [`Party::parse`]), as `by`.
    async fn set_billing(
        &self,
        organisation: OrganisationId,
        details: Party,
        by: &Actor,
    ) -> Result<(), InvoiceError>;
    /// The seller and tax rate invoices are issued with.
    fn terms(&self) -> (Party, TaxRate);
}
