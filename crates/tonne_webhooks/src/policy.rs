//! The delivery policy: what acknowledges a batch, when to retry, when to give up.

use std::time::Duration;

/// The default delays before the 2nd, 3rd, … attempt of one batch: about 5 s, 5 min,
/// 30 min, 2 h, 5 h, 10 h, 10 h, 24 h, 24 h — ten attempts over about three days.
pub const DEFAULT_SCHEDULE_SECONDS: [u64; 9] =
    [5, 300, 1_800, 7_200, 18_000, 36_000, 36_000, 86_400, 86_400];

/// Jitter applied to every scheduled delay: ±20 %, in per mille.
pub const JITTER_PERMILLE: i64 = 200;

/// A `Retry-After` is honoured between these bounds.
pub const RETRY_AFTER_MIN: Duration = Duration::from_secs(1);
/// See [`RETRY_AFTER_MIN`].
pub const RETRY_AFTER_MAX: Duration = Duration::from_secs(24 * 3_600);

/// The delays between attempts of one batch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RetrySchedule(Vec<Duration>);

/// A schedule that is not a comma-separated list of whole seconds.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the retry schedule must be comma-separated whole seconds, e.g. `5,300,1800`: {0}")]
pub struct ScheduleError(String);

impl RetrySchedule {
    /// The default schedule ([`DEFAULT_SCHEDULE_SECONDS`]).
    pub fn standard() -> Self {
        Self(
            DEFAULT_SCHEDULE_SECONDS
                .iter()
                .map(|s| Duration::from_secs(*s))
                .collect(),
        )
    }

    /// `TONNE_WEBHOOK_RETRY_SCHEDULE`: comma-separated seconds, the delays before the
    /// second, third, … attempts (`1,1,2` means four attempts in all). An empty list
    /// means one attempt only.
    ///
    /// ```
    /// use std::time::Duration;
    /// use tonne_webhooks::RetrySchedule;
    /// let s = RetrySchedule::parse("1,1,2").unwrap();
    /// assert_eq!(s.attempts(), 4);
    /// assert_eq!(s.delays()[2], Duration::from_secs(2));
    /// assert!(RetrySchedule::parse("1,x").is_err());
    /// ```
    pub fn parse(text: &str) -> Result<Self, ScheduleError> {
        if text.trim().is_empty() {
            return Ok(Self(Vec::new()));
        }
        text.split(',')
            .map(|part| {
                part.trim()
                    .parse::<u64>()
                    .map(Duration::from_secs)
                    .map_err(|_| ScheduleError(format!("`{}`", part.trim())))
            })
            .collect::<Result<Vec<_>, _>>()
            .map(Self)
    }

    /// The delays.
    pub fn delays(&self) -> &[Duration] {
        &self.0
    }

    /// Attempts in all (one more than the delays).
    pub fn attempts(&self) -> usize {
        self.0.len().saturating_add(1)
    }
}

/// How much of a receiver's answer the delivery log keeps.
pub const BODY_START_BYTES: usize = 256;

/// The first bytes of an answer as text people can read: at most
/// [`BODY_START_BYTES`] bytes, invalid UTF-8 and control characters replaced.
///
/// ```
/// use tonne_webhooks::body_start;
/// assert_eq!(body_start(b"{\"ok\":true}\n"), "{\"ok\":true} ");
/// assert_eq!(body_start(&[b'a'; 1000]).len(), 256);
/// ```
pub fn body_start(bytes: &[u8]) -> String {
    let cut = bytes.get(..BODY_START_BYTES).unwrap_or(bytes);
    String::from_utf8_lossy(cut)
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

/// What happened to one request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SendOutcome {
    /// The receiver answered.
    Response {
        /// HTTP status.
        status: u16,
        /// Its `Retry-After`, when it sent one that parses.
        retry_after: Option<Duration>,
        /// The first bytes of its body as text (at most [`BODY_START_BYTES`];
        /// invalid UTF-8 replaced), for people reading the delivery log.
        body_start: String,
    },
    /// No answer within the timeout.
    Timeout,
    /// Could not connect, or the connection broke (the text says how).
    Network(String),
    /// The target resolved to an address the policy refuses (DNS rebinding, or the
    /// operator's policy changed): nothing was sent.
    Refused(String),
}

impl SendOutcome {
    /// The HTTP status, if the receiver answered.
    pub fn status(&self) -> Option<u16> {
        match self {
            SendOutcome::Response { status, .. } => Some(*status),
            _ => None,
        }
    }

    /// A short description for the attempt log (`None` for an answer).
    pub fn error(&self) -> Option<String> {
        match self {
            SendOutcome::Response { .. } => None,
            SendOutcome::Timeout => Some("timeout".into()),
            SendOutcome::Network(e) => Some(format!("network: {e}")),
            SendOutcome::Refused(e) => Some(format!("refused: {e}")),
        }
    }
}

/// What to do after an attempt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// 2xx: the batch is acknowledged; the stream moves on.
    Delivered,
    /// Try the same batch again after this delay.
    RetryAfter(Duration),
    /// Disable the webhook (the stream keeps its position: re-enabling resumes it).
    Disable(String),
}

/// Success, retries and when to give up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeliveryPolicy {
    /// Delays between attempts of one batch.
    pub schedule: RetrySchedule,
}

impl DeliveryPolicy {
    /// The verdict on an attempt, given how many attempts of this batch failed
    /// before it, and a jitter sample in per mille (`-1000..=1000`, scaled to ±20 %).
    ///
    /// - any 2xx acknowledges; `410 Gone` disables the webhook at once;
    /// - anything else (3xx — redirects are not followed —, 4xx, 5xx, timeout,
    ///   network error, refused address) is a failure: the next delay of the
    ///   schedule with ±20 % jitter, or `Retry-After` (on 429 and 503, bounded to
    ///   1 s – 24 h) instead; when the schedule is exhausted the webhook is disabled.
    ///
    /// ```
    /// use std::time::Duration;
    /// use tonne_webhooks::{DeliveryPolicy, RetrySchedule, SendOutcome, Verdict};
    /// let policy = DeliveryPolicy { schedule: RetrySchedule::parse("10").unwrap() };
    /// let ok = SendOutcome::Response { status: 204, retry_after: None, body_start: String::new() };
    /// assert_eq!(policy.verdict(&ok, 0, 0), Verdict::Delivered);
    /// let err = SendOutcome::Response { status: 500, retry_after: None, body_start: String::new() };
    /// assert_eq!(policy.verdict(&err, 0, 0), Verdict::RetryAfter(Duration::from_secs(10)));
    /// assert_eq!(policy.verdict(&err, 0, 1000), Verdict::RetryAfter(Duration::from_secs(12)));
    /// assert!(matches!(policy.verdict(&err, 1, 0), Verdict::Disable(_)));
    /// ```
    pub fn verdict(&self, outcome: &SendOutcome, failed_before: u32, jitter: i64) -> Verdict {
        if let SendOutcome::Response { status, .. } = outcome {
            if (200..300).contains(status) {
                return Verdict::Delivered;
            }
            if *status == 410 {
                return Verdict::Disable("the receiver answered 410 Gone".into());
            }
        }
        let index = usize::try_from(failed_before).unwrap_or(usize::MAX);
        let Some(scheduled) = self.schedule.delays().get(index) else {
            return Verdict::Disable(format!(
                "{} attempts failed; the retry schedule is exhausted (last: {})",
                self.schedule.attempts(),
                describe(outcome)
            ));
        };
        match outcome {
            SendOutcome::Response {
                status: 429 | 503,
                retry_after: Some(asked),
                ..
            } => Verdict::RetryAfter((*asked).clamp(RETRY_AFTER_MIN, RETRY_AFTER_MAX)),
            _ => Verdict::RetryAfter(jittered(*scheduled, jitter)),
        }
    }
}

fn describe(outcome: &SendOutcome) -> String {
    match outcome {
        SendOutcome::Response { status, .. } => format!("HTTP {status}"),
        other => other.error().unwrap_or_default(),
    }
}

/// `delay` scaled by `1 + 0.2 × jitter/1000` (jitter clamped to ±1000), in whole milliseconds.
pub fn jittered(delay: Duration, jitter: i64) -> Duration {
    let jitter = jitter.clamp(-1_000, 1_000);
    let millis = i64::try_from(delay.as_millis()).unwrap_or(i64::MAX / 2_000);
    let factor = 1_000 + JITTER_PERMILLE * jitter / 1_000; // 800..=1200
    let scaled = millis.saturating_mul(factor) / 1_000;
    Duration::from_millis(u64::try_from(scaled.max(0)).unwrap_or(0))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn policy() -> DeliveryPolicy {
        DeliveryPolicy {
            schedule: RetrySchedule::standard(),
        }
    }

    fn status(s: u16) -> SendOutcome {
        SendOutcome::Response {
            status: s,
            retry_after: None,
            body_start: String::new(),
        }
    }

    #[test]
    fn standard_schedule_spans_about_three_days_in_ten_attempts() {
        let s = RetrySchedule::standard();
        assert_eq!(s.attempts(), 10);
        let total: u64 = s.delays().iter().map(Duration::as_secs).sum();
        assert!((2 * 86_400..4 * 86_400).contains(&total), "{total}");
    }

    #[test]
    fn every_2xx_acknowledges_and_nothing_else_does() {
        for s in [200, 201, 202, 204, 299] {
            assert_eq!(
                policy().verdict(&status(s), 3, 0),
                Verdict::Delivered,
                "{s}"
            );
        }
        for s in [
            100, 301, 302, 304, 400, 401, 404, 409, 429, 500, 502, 503, 504,
        ] {
            assert!(
                matches!(policy().verdict(&status(s), 0, 0), Verdict::RetryAfter(_)),
                "{s}"
            );
        }
        for o in [
            SendOutcome::Timeout,
            SendOutcome::Network("reset".into()),
            SendOutcome::Refused("loopback".into()),
        ] {
            assert_eq!(
                policy().verdict(&o, 0, 0),
                Verdict::RetryAfter(Duration::from_secs(5))
            );
        }
    }

    #[test]
    fn gone_disables_at_once() {
        assert!(
            matches!(policy().verdict(&status(410), 0, 0), Verdict::Disable(r) if r.contains("410"))
        );
    }

    #[test]
    fn the_schedule_is_followed_then_the_webhook_is_disabled() {
        let p = policy();
        for (i, secs) in DEFAULT_SCHEDULE_SECONDS.iter().enumerate() {
            let failed = u32::try_from(i).unwrap();
            assert_eq!(
                p.verdict(&status(500), failed, 0),
                Verdict::RetryAfter(Duration::from_secs(*secs))
            );
        }
        match p.verdict(&status(500), 9, 0) {
            Verdict::Disable(reason) => assert!(
                reason.contains("10 attempts") && reason.contains("HTTP 500"),
                "{reason}"
            ),
            other => panic!("{other:?}"),
        }
        let short = DeliveryPolicy {
            schedule: RetrySchedule::parse("1,1,2").unwrap(),
        };
        assert!(
            matches!(short.verdict(&SendOutcome::Timeout, 2, 0), Verdict::RetryAfter(d) if d == Duration::from_secs(2))
        );
        assert!(
            matches!(short.verdict(&SendOutcome::Timeout, 3, 0), Verdict::Disable(r) if r.contains("timeout"))
        );
    }

    #[test]
    fn jitter_stays_within_twenty_percent() {
        let base = Duration::from_secs(300);
        assert_eq!(jittered(base, -1_000), Duration::from_secs(240));
        assert_eq!(jittered(base, 1_000), Duration::from_secs(360));
        assert_eq!(jittered(base, 5_000), Duration::from_secs(360));
        for j in (-1_000..=1_000).step_by(7) {
            let d = jittered(base, j);
            assert!(
                d >= Duration::from_secs(240) && d <= Duration::from_secs(360),
                "{j}: {d:?}"
            );
        }
    }

    #[test]
    fn retry_after_is_honoured_within_bounds_on_429_and_503_only() {
        let p = policy();
        let asked = |s: u16, secs: u64| SendOutcome::Response {
            status: s,
            retry_after: Some(Duration::from_secs(secs)),
            body_start: String::new(),
        };
        assert_eq!(
            p.verdict(&asked(429, 120), 0, 0),
            Verdict::RetryAfter(Duration::from_secs(120))
        );
        assert_eq!(
            p.verdict(&asked(503, 0), 0, 0),
            Verdict::RetryAfter(RETRY_AFTER_MIN)
        );
        assert_eq!(
            p.verdict(&asked(503, 10 * 86_400), 0, 0),
            Verdict::RetryAfter(RETRY_AFTER_MAX)
        );
        // on other statuses the schedule applies
        assert_eq!(
            p.verdict(&asked(500, 120), 0, 0),
            Verdict::RetryAfter(Duration::from_secs(5))
        );
    }

    #[test]
    fn schedules_parse_strictly() {
        assert_eq!(RetrySchedule::parse("").unwrap().attempts(), 1);
        assert_eq!(
            RetrySchedule::parse(" 5, 300 ").unwrap().delays(),
            &[Duration::from_secs(5), Duration::from_secs(300)]
        );
        for bad in ["5,", "-1", "1.5", "a"] {
            assert!(RetrySchedule::parse(bad).is_err(), "{bad}");
        }
    }
}
