//! The invoice use cases: issuing (per organisation, or for every one),
//! reading, paying (which pays the invoice's orders) and crediting, and the
//! organisations' billing details.

use std::sync::Arc;

use async_trait::async_trait;
use tonne_kernel::{Actor, AuditEntry, Clock, Cursor, OrganisationId, Page, PageRequest, Snapshot};

use crate::invoices::{Invoice, InvoiceBuilder, InvoiceId, Issued, Party, Period, TaxRate};
use crate::orders::OrderStatus;
use crate::ports::{
    BillingOnFile, CreditOutcome, InvoiceError, InvoiceRepository, InvoicingService,
    OrderingService,
};

/// The invoice use cases over the invoices' store and the ordering service
/// (which pays an invoice's orders), issuing as `seller` at `tax_rate`.
///
/// ```
/// use std::sync::Arc;
/// use tonne_kernel::SystemClock;
/// use tonne_ordering::invoices::{Party, TaxRate};
/// use tonne_ordering::ports::{InvoiceRepository, InvoicingService};
/// use tonne_ordering::{Invoicing, OrderingService};
///
/// fn wire(store: Arc<dyn InvoiceRepository>, ordering: Arc<dyn OrderingService>) -> Arc<dyn InvoicingService> {
///     let seller = Party::parse("Tonne Ltd", "1 High Street\nLondon", "GB123456789", "").unwrap();
///     Arc::new(Invoicing::new(store, ordering, Arc::new(SystemClock), seller, TaxRate::default()))
/// }
/// # let _ = wire;
/// ```
#[derive(Clone)]
pub struct Invoicing {
    store: Arc<dyn InvoiceRepository>,
    ordering: Arc<dyn OrderingService>,
    clock: Arc<dyn Clock>,
    seller: Party,
    tax_rate: TaxRate,
}

impl Invoicing {
    /// Wires the use cases.
    pub fn new(
        store: Arc<dyn InvoiceRepository>,
        ordering: Arc<dyn OrderingService>,
        clock: Arc<dyn Clock>,
        seller: Party,
        tax_rate: TaxRate,
    ) -> Self {
        Self {
            store,
            ordering,
            clock,
            seller,
            tax_rate,
        }
    }

    fn audit(&self, by: &Actor, action: &str, invoice: &Invoice) -> AuditEntry {
        AuditEntry::new(self.clock.now(), by.clone(), action, "invoice", invoice.id)
            .in_organisation(invoice.organisation_id)
            .before(Snapshot::new().with("status", invoice.status().as_str()))
    }

    async fn found(&self, id: &str) -> Result<Invoice, InvoiceError> {
        let id: InvoiceId = id.parse().map_err(|_| InvoiceError::NotFound)?;
        self.store.get(id).await?.ok_or(InvoiceError::NotFound)
    }
}

#[async_trait]
impl InvoicingService for Invoicing {
    async fn issue(
        &self,
        organisation: OrganisationId,
        period: Period,
        _by: &Actor,
    ) -> Result<Issued, InvoiceError> {
        if self.seller.name.is_empty() {
            return Err(InvoiceError::Invalid(
                "seller",
                "no seller is configured: set TONNE_INVOICE_SELLER_NAME and TONNE_INVOICE_SELLER_ADDRESS (and the tax id, if any)".into(),
            ));
        }
        let on_file = self
            .store
            .billing(organisation)
            .await?
            .ok_or(InvoiceError::NotFound)?;
        let builder = InvoiceBuilder {
            period,
            seller: self.seller.clone(),
            buyer: on_file
                .details
                .unwrap_or_else(|| Party::named(&on_file.organisation_name)),
            tax_rate: self.tax_rate,
            at: self.clock.now(),
        };
        let invoices = self.store.issue(organisation, &builder).await?;
        Ok(Issued {
            organisation_id: organisation,
            invoices,
        })
    }

    async fn issue_all(&self, period: Period, by: &Actor) -> Result<Vec<Issued>, InvoiceError> {
        let mut out = Vec::new();
        for organisation in self.store.organisations_to_invoice(period).await? {
            out.push(self.issue(organisation, period, by).await?);
        }
        Ok(out)
    }

    async fn invoice(
        &self,
        id: &str,
        organisation: Option<OrganisationId>,
    ) -> Result<Invoice, InvoiceError> {
        let invoice = self.found(id).await?;
        match organisation {
            Some(o) if o != invoice.organisation_id => Err(InvoiceError::NotFound),
            _ => Ok(invoice),
        }
    }

    async fn invoices(
        &self,
        organisation: Option<OrganisationId>,
        page: PageRequest<Cursor>,
    ) -> Result<Page<Invoice>, InvoiceError> {
        self.store
            .list(organisation, &page)
            .await
            .map_err(|e| match e {
                tonne_kernel::StoreError::NotFound => {
                    InvoiceError::Invalid("after", "names no invoice of this list".into())
                }
                e => InvoiceError::Store(e),
            })
    }

    async fn mark_paid(&self, id: &str, by: &Actor) -> Result<Invoice, InvoiceError> {
        let invoice = self.found(id).await?;
        if invoice.status() != crate::invoices::InvoiceStatus::Issued
            || invoice.kind != crate::invoices::InvoiceKind::Invoice
        {
            return Err(InvoiceError::Conflict(Box::new(invoice)));
        }
        // Pay the orders first: a failure leaves the invoice unpaid, and a
        // retry skips the orders already paid.
        for line in &invoice.lines {
            let order_id = line.order_id.to_string();
            let order =
                self.ordering.order(&order_id).await.map_err(|e| {
                    InvoiceError::Store(tonne_kernel::StoreError::Unexpected(e.into()))
                })?;
            if matches!(order.status, OrderStatus::Received | OrderStatus::Placed) {
                self.ordering
                    .advance(&order_id, Some(OrderStatus::Paid), None, by)
                    .await
                    .map_err(|e| InvoiceError::Order(order_id.clone(), e))?;
            }
        }
        let audit = self
            .audit(by, "invoice.paid", &invoice)
            .after(Snapshot::new().with("status", "paid"));
        match self
            .store
            .mark_paid(invoice.id, self.clock.now(), audit)
            .await?
        {
            Some(paid) => Ok(paid),
            None => Err(InvoiceError::Conflict(Box::new(self.found(id).await?))),
        }
    }

    async fn credit(&self, id: &str, by: &Actor) -> Result<Invoice, InvoiceError> {
        let invoice = self.found(id).await?;
        let audit = self
            .audit(by, "invoice.credited", &invoice)
            .after(Snapshot::new().with("status", "credited"));
        match self
            .store
            .credit(invoice.id, self.clock.now(), audit)
            .await?
        {
            CreditOutcome::Credited(note) => Ok(*note),
            CreditOutcome::NotFound => Err(InvoiceError::NotFound),
            CreditOutcome::Refused(now) => Err(InvoiceError::Conflict(now)),
        }
    }

    async fn billing(&self, organisation: OrganisationId) -> Result<BillingOnFile, InvoiceError> {
        self.store
            .billing(organisation)
            .await?
            .ok_or(InvoiceError::NotFound)
    }

    async fn set_billing(
        &self,
        organisation: OrganisationId,
        details: Party,
        by: &Actor,
    ) -> Result<(), InvoiceError> {
        if self.store.billing(organisation).await?.is_none() {
            return Err(InvoiceError::NotFound);
        }
        let audit = AuditEntry::new(
            self.clock.now(),
            by.clone(),
            "organisation.billing_updated",
            "organisation",
            organisation,
        )
        .in_organisation(organisation)
        .after(Snapshot::new().with("name", &details.name));
        Ok(self.store.set_billing(organisation, details, audit).await?)
    }

    fn terms(&self) -> (Party, TaxRate) {
        (self.seller.clone(), self.tax_rate)
    }
}
