//! The ordering domain of Tonne: the catalogue of carbon projects and the
//! bundles orders are placed against, bundle selections, and the allocation and
//! pricing engine that quotes (and, later, orders) run.
//!
//! Everything here is pure: storage is reached through [`ports`].
//!
//! ```
//! use rust_decimal::Decimal;
//! use tonne_kernel::{Currency, Mass, MassUnit, Money};
//! use tonne_ordering::pricing::{CommissionRate, Line, quote_lines};
//!
//! // 1.5 t at 10.00 GBP/t, 10 % commission.
//! let rate = CommissionRate::new(Decimal::new(10, 2)).unwrap();
//! let lines = [Line { quantity: Mass::parse("1.5", MassUnit::T).unwrap(), unit_price: Money::from_minor(1000, Currency::Gbp) }];
//! let priced = quote_lines(&lines, Currency::Gbp, rate).unwrap();
//! assert_eq!(priced.offset_cost.to_decimal_string(), "15.00");
//! assert_eq!(priced.commission.to_decimal_string(), "1.50");
//! assert_eq!(priced.total_cost.to_decimal_string(), "16.50");
//! ```
#![deny(clippy::float_arithmetic)]

pub mod allocation;
pub mod allocation_events;
mod catalogue;
mod commands;
mod errors;
mod ids;
pub mod invoices;
mod orders;
mod payment_events;
mod perimeter;
pub mod ports;
pub mod pricing;
mod quote;
mod selection;
mod service;
mod stats;
mod stock;
mod views;

pub use allocation_events::{AllocationEvent, AllocationId, AllocationStatus};
pub use catalogue::{
    Approach, Bundle, BundleId, BundlePortfolio, BundlePortfolioId, BundlePrice, CarbonPermanence,
    Media, OffsetType, Project, ProjectFacts, ProjectId, Registry,
};
pub use commands::{LinkOrigin, MassRequest, OrderRequest, Pricing, ValueRequest};
pub use errors::{
    CatalogueError, CreateOrderError, PlaceError, QuoteError, ReadOrderError, RecordError,
    TransitionError,
};
pub use orders::{
    AwaitingFilter, IdempotencyKey, MAX_SERIAL_CHARS, NewEvent, Order, OrderId, OrderKind,
    OrderStatus, PaymentMethod, ProjectAllocation, ProjectStatus, RetirementRecord,
    allocate_projects, registry_serial,
};
pub use payment_events::{DISPUTE_HOLD, PaymentEvent, PaymentEventApplied};
pub use perimeter::{Coordinates, MAX_PERIMETER_POINTS, Perimeter, PerimeterError};
pub use ports::OrderingService;
#[cfg(any(test, feature = "mock"))]
pub use ports::{
    MockAccountDirectory, MockCatalogueRepository, MockInvoiceRepository, MockInvoicingService,
    MockOrderRepository, MockOrderingService,
};
pub use quote::{Quote, QuoteLine};
pub use selection::{Percentage, SelectionEntry};
pub use service::{Invoicing, Ordering, Settings};
pub use stats::{DailyOrders, OrderStats, fill_days};
pub use stock::{
    BundleEdit, BundleEditError, DESCRIPTION_MAX, FieldError, REASON_MAX, StockChange, StockEntry,
    StockEntryId, StockError, StockReason, price_field,
};
pub use views::{AccountHolder, BundleView, Certificate, CertifiedProject, ProjectView};
