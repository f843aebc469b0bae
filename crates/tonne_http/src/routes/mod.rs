//! Route handlers, grouped by resource.

pub mod accounts;
pub mod analytics;
pub mod bundle_selections;
pub mod business_analytics;
pub mod catalogue;
pub mod data_sheets;
pub mod emission_factors;
pub mod estimates;
pub mod invoices;
pub mod offset_links;
pub mod orders;
pub mod payments;
pub mod project_perimeter;
pub mod quotes;
pub mod shipments;
pub mod shipping_analytics;
pub mod sustainability_pages;
pub mod system;
pub mod webhook_request;
pub mod webhooks;
