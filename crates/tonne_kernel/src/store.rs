/// Errors of the driven storage ports of every domain.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The row to change does not exist.
    #[error("not found")]
    NotFound,
    /// A unique constraint refused the write.
    #[error("duplicate")]
    Duplicate,
    /// Anything else (connection, pool, unexpected SQL error), with context.
    #[error(transparent)]
    Unexpected(#[from] anyhow::Error),
}
