//! The span of UTC dates an invoice covers.

use time::{Date, Month};

/// UTC dates from `from` to `to`, both included.
///
/// ```
/// use tonne_ordering::invoices::Period;
/// let p = Period::month("2026-02").unwrap();
/// assert_eq!((p.from.to_string(), p.to.to_string()), ("2026-02-01".into(), "2026-02-28".into()));
/// assert!(Period::month("2026-13").is_err());
/// assert!(Period::new(p.to, p.from).is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Period {
    /// The first day.
    pub from: Date,
    /// The last day (included).
    pub to: Date,
}

/// A period that cannot be.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PeriodError {
    /// Not `YYYY-MM`.
    #[error("a month as YYYY-MM, such as 2026-10")]
    Month,
    /// Not `YYYY-MM-DD`.
    #[error("a date as YYYY-MM-DD")]
    Date,
    /// Ends before it starts, or spans more than 366 days.
    #[error("from must not be after to, and a period spans at most 366 days")]
    Span,
}

const DATE: &[time::format_description::BorrowedFormatItem<'static>] =
    time::macros::format_description!("[year]-[month]-[day]");

impl Period {
    /// `from` to `to`, both included: at most 366 days.
    pub fn new(from: Date, to: Date) -> Result<Self, PeriodError> {
        if from > to || (to - from).whole_days() > 365 {
            return Err(PeriodError::Span);
        }
        Ok(Self { from, to })
    }

    /// A calendar month given as `YYYY-MM`.
    pub fn month(raw: &str) -> Result<Self, PeriodError> {
        let (year, month) = raw.trim().split_once('-').ok_or(PeriodError::Month)?;
        if year.len() != 4 || month.len() != 2 {
            return Err(PeriodError::Month);
        }
        let year: i32 = year.parse().map_err(|_| PeriodError::Month)?;
        let month: u8 = month.parse().map_err(|_| PeriodError::Month)?;
        let month = Month::try_from(month).map_err(|_| PeriodError::Month)?;
        let from = Date::from_calendar_date(year, month, 1).map_err(|_| PeriodError::Month)?;
        let to = Date::from_calendar_date(year, month, month.length(year))
            .map_err(|_| PeriodError::Month)?;
        Ok(Self { from, to })
    }

    /// Two `YYYY-MM-DD` dates.
    pub fn parse(from: &str, to: &str) -> Result<Self, PeriodError> {
        let date = |raw: &str| Date::parse(raw.trim(), DATE).map_err(|_| PeriodError::Date);
        Self::new(date(from)?, date(to)?)
    }

    /// The calendar month before the one `today` is in.
    pub fn last_month(today: Date) -> Self {
        let first = today.replace_day(1).unwrap_or(today);
        let last = first.previous_day().unwrap_or(first);
        Self {
            from: last.replace_day(1).unwrap_or(last),
            to: last,
        }
    }

    /// Whether the day is in the period.
    pub fn contains(&self, day: Date) -> bool {
        self.from <= day && day <= self.to
    }
}

impl std::fmt::Display for Period {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} to {}", self.from, self.to)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use time::macros::date;

    #[test]
    fn months_end_on_their_last_day() {
        assert_eq!(Period::month("2024-02").unwrap().to, date!(2024 - 02 - 29));
        assert_eq!(Period::month("2026-12").unwrap().to, date!(2026 - 12 - 31));
        for bad in ["2026-1", "26-01", "2026-00", "2026/01", "", "2026-01-01"] {
            assert_eq!(Period::month(bad), Err(PeriodError::Month), "{bad}");
        }
    }

    #[test]
    fn last_month_crosses_the_year() {
        let p = Period::last_month(date!(2027 - 01 - 15));
        assert_eq!(
            (p.from, p.to),
            (date!(2026 - 12 - 01), date!(2026 - 12 - 31))
        );
    }

    #[test]
    fn a_period_is_at_most_a_leap_year() {
        assert!(Period::parse("2024-01-01", "2024-12-31").is_ok());
        assert_eq!(
            Period::parse("2024-01-01", "2025-01-01"),
            Err(PeriodError::Span)
        );
        assert_eq!(
            Period::parse("2024-01-02", "2024-01-01"),
            Err(PeriodError::Span)
        );
        assert_eq!(
            Period::parse("2024-1-1", "2024-01-01"),
            Err(PeriodError::Date)
        );
        assert!(
            Period::parse("2024-01-01", "2024-01-01")
                .unwrap()
                .contains(date!(2024 - 01 - 01))
        );
    }
}
