//! Which stored rows answer a span of days: the monthly rows for the whole
//! months inside it, the daily rows for the partial months at either end.

use time::Date;
use tonne_impact::DateRange;

use super::rollups::{day_text, month_text};

/// The first and last day of `range` as stored, or every day when `None`.
pub(super) fn days(range: Option<DateRange>) -> (String, String) {
    range.map_or_else(
        || (day_text(Date::MIN), day_text(Date::MAX)),
        |r| (day_text(r.from()), day_text(r.through())),
    )
}

/// A span of days cut where the monthly rows can answer: the whole months
/// inside it (`YYYY-MM`, inclusive) and the days of the partial months at
/// either end (`YYYY-MM-DD`, inclusive).
#[derive(Debug, Default, PartialEq, Eq)]
pub(super) struct Span {
    pub(super) months: Option<(String, String)>,
    pub(super) days: Vec<(String, String)>,
}

pub(super) fn span(from: Date, through: Date) -> Span {
    let text = |a: Date, b: Date| (day_text(a), day_text(b));
    // The first day of a whole month inside, and the last.
    let first = if from.day() == 1 {
        Some(from)
    } else {
        next_month(from)
    };
    let last = match through.next_day() {
        Some(after) if after.day() == 1 => Some(through),
        Some(_) => through.replace_day(1).ok().and_then(Date::previous_day),
        None => Some(through),
    };
    match (first, last) {
        (Some(first), Some(last)) if first <= last => {
            let mut days = Vec::new();
            if let Some(eve) = first.previous_day().filter(|eve| from <= *eve) {
                days.push(text(from, eve));
            }
            if let Some(next) = last.next_day().filter(|next| *next <= through) {
                days.push(text(next, through));
            }
            Span {
                months: Some((month_text(first), month_text(last))),
                days,
            }
        }
        _ => Span {
            months: None,
            days: vec![text(from, through)],
        },
    }
}

/// The first day of the month after `day`'s.
pub(super) fn next_month(day: Date) -> Option<Date> {
    let (year, month) = match day.month() {
        time::Month::December => (day.year().checked_add(1)?, time::Month::January),
        m => (day.year(), m.next()),
    };
    Date::from_calendar_date(year, month, 1).ok()
}

#[cfg(test)]
mod tests {
    use time::macros::date;

    use super::*;

    fn days(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(a, b)| ((*a).to_owned(), (*b).to_owned()))
            .collect()
    }

    #[test]
    fn a_span_reads_whole_months_and_the_days_around_them() {
        assert_eq!(
            span(date!(2026 - 01 - 15), date!(2026 - 04 - 10)),
            Span {
                months: Some(("2026-02".into(), "2026-03".into())),
                days: days(&[("2026-01-15", "2026-01-31"), ("2026-04-01", "2026-04-10")]),
            }
        );
        assert_eq!(
            span(date!(2026 - 02 - 01), date!(2026 - 02 - 28)),
            Span {
                months: Some(("2026-02".into(), "2026-02".into())),
                days: vec![],
            }
        );
        // Within one month, or across a boundary without a whole month: days only.
        assert_eq!(
            span(date!(2026 - 02 - 02), date!(2026 - 02 - 28)).months,
            None
        );
        assert_eq!(
            span(date!(2026 - 01 - 20), date!(2026 - 02 - 10)),
            Span {
                months: None,
                days: days(&[("2026-01-20", "2026-02-10")]),
            }
        );
        // Everything: whole months from the first one, the current month's days.
        let all = span(Date::MIN, date!(2026 - 11 - 26));
        assert_eq!(all.months.as_ref().map(|m| m.1.as_str()), Some("2026-10"));
        assert_eq!(all.days, days(&[("2026-11-01", "2026-11-26")]));
        assert_eq!(span(Date::MIN, Date::MAX).days, vec![]);
    }
}
