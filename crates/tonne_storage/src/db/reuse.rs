//! Whether a pooled connection may serve the next unit of work.

use diesel_async::{AsyncConnection, TransactionManager as _};

/// Whether the connection can serve the next unit: not left inside a
/// transaction (a unit whose caller went away mid-way) nor broken.
pub(crate) fn reusable<C: AsyncConnection>(c: &mut C) -> bool {
    if C::TransactionManager::is_broken_transaction_manager(c) {
        return false;
    }
    matches!(
        C::TransactionManager::transaction_manager_status_mut(c).transaction_depth(),
        Ok(None)
    )
}
