//! The rows of a `load!` as domain values.

use super::DbError;

/// The first row of a `load!` as its domain value, or `None` when there was no row.
pub(crate) fn first_row<R, T>(
    rows: Result<Vec<R>, DbError>,
    to_domain: impl FnOnce(R) -> diesel::QueryResult<T>,
) -> Result<Option<T>, DbError> {
    Ok(rows?.into_iter().next().map(to_domain).transpose()?)
}

/// Every row of a `load!` as its domain value.
pub(crate) fn all_rows<R, T>(
    rows: Result<Vec<R>, DbError>,
    to_domain: impl FnMut(R) -> diesel::QueryResult<T>,
) -> Result<Vec<T>, DbError> {
    Ok(rows?
        .into_iter()
        .map(to_domain)
        .collect::<diesel::QueryResult<Vec<T>>>()?)
}
