//! Route handlers, grouped by resource.

pub mod accounts;
pub mod catalogue;
pub mod quotes;
pub mod system;
