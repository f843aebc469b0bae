//! The time ranges and intervals analytics are asked for.

use time::{Date, Duration, Month};

/// The longest range an analytics request may cover, in days (ten years and a
/// leap day or three): a daily series is at most this many points.
pub const MAX_RANGE_DAYS: i64 = 3_660;

/// How many days back `from` defaults to when it is not given (the contract's
/// "defaults to 30 days ago").
pub const DEFAULT_RANGE_DAYS: i64 = 30;

/// Why a time range was refused (`time_range_invalid`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum RangeError {
    /// `from` is after `through`.
    #[error("from must not be after through")]
    Reversed,
    /// The range covers more than [`MAX_RANGE_DAYS`] days.
    #[error("the range may cover at most {MAX_RANGE_DAYS} days")]
    TooLong,
}

/// An inclusive range of UTC days, checked: `from <= through`, at most
/// [`MAX_RANGE_DAYS`] days.
///
/// ```
/// use time::macros::date;
/// use tonne_impact::{DateRange, RangeError};
///
/// let today = date!(2026 - 11 - 26);
/// let default = DateRange::resolve(None, None, today).unwrap();
/// assert_eq!((default.from(), default.through()), (date!(2026 - 10 - 27), today));
/// assert_eq!(default.days(), 31);
/// assert_eq!(
///     DateRange::resolve(Some(date!(2026 - 12 - 01)), None, today),
///     Err(RangeError::Reversed)
/// );
/// assert_eq!(
///     DateRange::resolve(Some(date!(2000 - 01 - 01)), None, today),
///     Err(RangeError::TooLong)
/// );
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DateRange {
    from: Date,
    through: Date,
}

impl DateRange {
    /// The range a request names: `through` defaults to `today`, `from` to
    /// [`DEFAULT_RANGE_DAYS`] days before `through`'s default (today), as the
    /// contract says ("30 days ago").
    pub fn resolve(
        from: Option<Date>,
        through: Option<Date>,
        today: Date,
    ) -> Result<Self, RangeError> {
        let through = through.unwrap_or(today);
        let from = from.unwrap_or(today - Duration::days(DEFAULT_RANGE_DAYS));
        Self::new(from, through)
    }

    /// A checked range.
    pub fn new(from: Date, through: Date) -> Result<Self, RangeError> {
        if from > through {
            return Err(RangeError::Reversed);
        }
        if (through - from).whole_days() + 1 > MAX_RANGE_DAYS {
            return Err(RangeError::TooLong);
        }
        Ok(Self { from, through })
    }

    /// The first day.
    pub fn from(&self) -> Date {
        self.from
    }

    /// The last day (inclusive).
    pub fn through(&self) -> Date {
        self.through
    }

    /// How many days it covers.
    pub fn days(&self) -> i64 {
        (self.through - self.from).whole_days() + 1
    }

    /// Whether `day` is inside.
    pub fn contains(&self, day: Date) -> bool {
        self.from <= day && day <= self.through
    }

    /// The first day of every `interval` bucket the range touches, in order.
    pub fn buckets(&self, interval: Interval) -> Vec<Date> {
        let mut out = Vec::new();
        let mut day = interval.bucket_of(self.from);
        while day <= self.through {
            out.push(day);
            day = interval.next(day);
        }
        out
    }
}

/// The step of a series (`interval`: `day` or `month`; day by default).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Interval {
    /// One point per UTC day.
    #[default]
    Day,
    /// One point per calendar month, dated its first day.
    Month,
}

impl Interval {
    /// The first day of the bucket holding `day`.
    pub fn bucket_of(self, day: Date) -> Date {
        match self {
            Interval::Day => day,
            Interval::Month => day.replace_day(1).unwrap_or(day),
        }
    }

    fn next(self, bucket: Date) -> Date {
        match self {
            Interval::Day => bucket + Duration::days(1),
            Interval::Month => {
                let (year, month) = match bucket.month() {
                    Month::December => (bucket.year() + 1, Month::January),
                    m => (bucket.year(), m.next()),
                };
                Date::from_calendar_date(year, month, 1).unwrap_or(Date::MAX)
            }
        }
    }

    /// The contract's spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Interval::Day => "day",
            Interval::Month => "month",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::date;

    #[test]
    fn a_range_of_exactly_the_maximum_is_allowed_and_one_more_day_is_not() {
        let from = date!(2020 - 01 - 01);
        let through = from + Duration::days(MAX_RANGE_DAYS - 1);
        assert_eq!(
            DateRange::new(from, through).unwrap().days(),
            MAX_RANGE_DAYS
        );
        assert_eq!(
            DateRange::new(from, through + Duration::days(1)),
            Err(RangeError::TooLong)
        );
    }

    #[test]
    fn one_day_is_a_range() {
        let day = date!(2026 - 02 - 28);
        let range = DateRange::new(day, day).unwrap();
        assert_eq!(range.buckets(Interval::Day), vec![day]);
        assert_eq!(range.buckets(Interval::Month), vec![date!(2026 - 02 - 01)]);
    }

    #[test]
    fn month_buckets_cross_the_year() {
        let range = DateRange::new(date!(2025 - 11 - 30), date!(2026 - 02 - 01)).unwrap();
        assert_eq!(
            range.buckets(Interval::Month),
            vec![
                date!(2025 - 11 - 01),
                date!(2025 - 12 - 01),
                date!(2026 - 01 - 01),
                date!(2026 - 02 - 01)
            ]
        );
        assert_eq!(range.buckets(Interval::Day).len(), 64);
    }

    #[test]
    fn a_future_through_with_a_default_from_is_fine_but_a_past_one_before_from_is_not() {
        let today = date!(2026 - 11 - 26);
        assert!(DateRange::resolve(None, Some(date!(2026 - 12 - 31)), today).is_ok());
        assert_eq!(
            DateRange::resolve(None, Some(date!(2026 - 10 - 01)), today),
            Err(RangeError::Reversed)
        );
    }
}
