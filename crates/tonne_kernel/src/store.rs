//! The error of every driven storage port, and the marker of a store that
//! cannot serve now.

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

impl StoreError {
    /// This failure as an error the use case has no answer for: the context
    /// chain of [`StoreError::Unexpected`] as it is, any other variant wrapped
    /// (its text is the variant's: "not found", "duplicate").
    ///
    /// ```
    /// use tonne_kernel::StoreError;
    ///
    /// let e = StoreError::Unexpected(anyhow::anyhow!("pool timed out").context("reading orders"));
    /// assert_eq!(format!("{:#}", e.unexpected()), "reading orders: pool timed out");
    /// assert_eq!(StoreError::NotFound.unexpected().to_string(), "not found");
    /// assert_eq!(StoreError::Duplicate.unexpected().to_string(), "duplicate");
    /// ```
    pub fn unexpected(self) -> anyhow::Error {
        match self {
            StoreError::Unexpected(e) => e,
            other => anyhow::anyhow!(other),
        }
    }
}

/// A store that cannot serve now but may in a moment: its connection pool is
/// exhausted past the configured wait, or the database is unreachable. Adapters
/// put it in an [`StoreError::Unexpected`] chain; a driving adapter that finds
/// it answers "unavailable, retry" (HTTP 503 with `Retry-After`) rather than an
/// internal error.
///
/// ```
/// use tonne_kernel::{StoreError, Unavailable};
///
/// let e = StoreError::Unexpected(anyhow::Error::new(Unavailable("pool exhausted")).context("reading"));
/// assert!(Unavailable::is_in(&e));
/// assert!(!Unavailable::is_in(&StoreError::NotFound));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("store unavailable: {0}")]
pub struct Unavailable(pub &'static str);

impl Unavailable {
    /// Whether `error`'s source chain holds an [`Unavailable`].
    pub fn is_in(error: &(dyn std::error::Error + 'static)) -> bool {
        let mut next = Some(error);
        while let Some(e) = next {
            if e.is::<Unavailable>() {
                return true;
            }
            next = e.source();
        }
        false
    }
}
