//! Statements sent together on one PostgreSQL connection, and which of their
//! errors is the one to answer with.
//!
//! Statements started together on a shared [`AsyncPgConnection`] go out in
//! the order they are started and PostgreSQL runs them in that order. In a
//! transaction, once one of them fails, PostgreSQL refuses every later one
//! with "current transaction is aborted" (SQLSTATE 25P02). The futures waiting
//! for the answers do not always complete in the order sent, so the first
//! error to complete (what `try_join!` returns) can be one of those refusals
//! rather than its cause: a repeated order's unique violation then surfaced
//! as an unexpected error.
//!
//! [`sent_together!`] waits for every answer (the refusals come at once) and
//! returns the first error in the order the statements were started, never a
//! refusal when its cause is among them.
//!
//! [`AsyncPgConnection`]: diesel_async::AsyncPgConnection

use diesel::result::{DatabaseErrorKind, Error as DieselError, QueryResult};

/// Runs the statements' futures together (like `try_join!`) and answers all
/// their values, or the cause of their failure (see the module's note).
macro_rules! sent_together {
    ($($statement:expr),+ $(,)?) => {
        $crate::db::FirstCause::first_cause(futures_util::join!($($statement),+))
    };
}
pub(crate) use sent_together;

/// The cause among several statements' results (see [`sent_together!`]).
pub(crate) trait FirstCause {
    /// Every statement's value.
    type Output;

    /// Every value, or the first error that is not a refusal caused by another.
    fn first_cause(self) -> QueryResult<Self::Output>;
}

/// The cause of a failure: the error kept so far, unless it is a refusal
/// caused by an earlier failure and `next` is not.
fn cause(kept: Option<DieselError>, next: DieselError) -> DieselError {
    match kept {
        Some(kept) if !refused_after_failure(&kept) || refused_after_failure(&next) => kept,
        _ => next,
    }
}

/// PostgreSQL's refusal of a statement after an earlier one failed in the same
/// transaction (diesel classifies SQLSTATE 25P02 as `Unknown`; its message is
/// the only mark it keeps).
fn refused_after_failure(e: &DieselError) -> bool {
    matches!(
        e,
        DieselError::DatabaseError(DatabaseErrorKind::Unknown, info)
            if info.message().starts_with("current transaction is aborted")
    )
}

/// The values of `results`, in order, or the cause of their failure.
pub(crate) fn all_or_cause<T>(results: Vec<QueryResult<T>>) -> QueryResult<Vec<T>> {
    let mut values = Vec::with_capacity(results.len());
    let mut failure = None;
    for result in results {
        match result {
            Ok(value) => values.push(value),
            Err(e) => failure = Some(cause(failure, e)),
        }
    }
    match failure {
        Some(e) => Err(e),
        None => Ok(values),
    }
}

macro_rules! first_cause_of_tuple {
    ($($value:ident: $t:ident),+) => {
        impl<$($t),+> FirstCause for ($(QueryResult<$t>,)+) {
            type Output = ($($t,)+);

            fn first_cause(self) -> QueryResult<Self::Output> {
                let ($($value,)+) = self;
                let mut failure = None;
                $(
                    let $value = match $value {
                        Ok(value) => Some(value),
                        Err(e) => {
                            failure = Some(cause(failure, e));
                            None
                        }
                    };
                )+
                match ($($value,)+) {
                    ($(Some($value),)+) => Ok(($($value,)+)),
                    _ => Err(failure.unwrap_or(DieselError::NotFound)),
                }
            }
        }
    };
}

first_cause_of_tuple!(a: A, b: B);
first_cause_of_tuple!(a: A, b: B, c: C);
first_cause_of_tuple!(a: A, b: B, c: C, d: D);
first_cause_of_tuple!(a: A, b: B, c: C, d: D, e: E);

#[cfg(test)]
mod tests {
    use super::*;

    fn refusal() -> DieselError {
        DieselError::DatabaseError(
            DatabaseErrorKind::Unknown,
            Box::new(String::from(
                "current transaction is aborted, commands ignored until end of transaction block",
            )),
        )
    }

    fn unique() -> DieselError {
        DieselError::DatabaseError(
            DatabaseErrorKind::UniqueViolation,
            Box::new(String::from("duplicate key value")),
        )
    }

    #[test]
    fn all_values_come_back_in_order() {
        let r: QueryResult<(i32, &str, bool)> = (Ok(1), Ok("two"), Ok(true)).first_cause();
        assert_eq!(r.unwrap(), (1, "two", true));
    }

    #[test]
    fn the_cause_is_answered_rather_than_the_refusals_it_caused() {
        // however the refusals are placed around it
        let before: QueryResult<((), (), ())> =
            (Err(refusal()), Err(unique()), Err(refusal())).first_cause();
        assert!(matches!(
            before,
            Err(DieselError::DatabaseError(
                DatabaseErrorKind::UniqueViolation,
                _
            ))
        ));
        let after: QueryResult<((), (), ())> =
            (Ok(()), Err(unique()), Err(refusal())).first_cause();
        assert!(matches!(
            after,
            Err(DieselError::DatabaseError(
                DatabaseErrorKind::UniqueViolation,
                _
            ))
        ));
    }

    #[test]
    fn of_two_causes_the_first_started_is_answered() {
        let r: QueryResult<((), ())> = (Err(DieselError::NotFound), Err(unique())).first_cause();
        assert!(matches!(r, Err(DieselError::NotFound)));
    }

    #[test]
    fn a_list_answers_its_values_or_its_cause() {
        assert_eq!(all_or_cause(vec![Ok(1), Ok(2)]).unwrap(), [1, 2]);
        let r = all_or_cause::<()>(vec![Ok(()), Err(refusal()), Err(unique())]);
        assert!(matches!(
            r,
            Err(DieselError::DatabaseError(
                DatabaseErrorKind::UniqueViolation,
                _
            ))
        ));
    }
}
