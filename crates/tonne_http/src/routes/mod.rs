//! Route handlers, grouped by resource.

pub mod accounts;
pub mod system;
