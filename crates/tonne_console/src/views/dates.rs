//! Times as the console writes them for people, in UTC.

use tonne_http::certificate::human_date;

/// A time kept to the hour (a key's last use), as `25 November 2026, 14:00–15:00 UTC`.
pub(crate) fn human_hour(at: time::OffsetDateTime) -> String {
    let next = (at.hour() + 1) % 24;
    format!("{}, {:02}:00–{next:02}:00 UTC", human_date(at), at.hour())
}

/// A time to the minute: `25 November 2026 14:05 UTC`.
pub(crate) fn when(at: time::OffsetDateTime) -> String {
    format!("{} {:02}:{:02} UTC", human_date(at), at.hour(), at.minute())
}
