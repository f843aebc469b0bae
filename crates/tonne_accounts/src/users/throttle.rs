//! How many failed sign-ins are tolerated, and how long to wait after them.
//!
//! OWASP's authentication guidance: count **failures**, not requests; budgets
//! over minutes to hours with growing waits; keyed so that an attacker's
//! failures never lock the owner out. Three budgets, each a list of [`Step`]s
//! ("at most `failures` within `within`"), each read as a sliding window:
//!
//! - **pair** — one email from one address: 10 in 15 minutes, 20 in an hour,
//!   30 in a day. Past it, that address may not try that email, even with the
//!   right password, until the window moves on.
//! - **email** — one email from every address: 50 in an hour, 150 in a day.
//!   It holds only addresses that have **themselves** failed for that email
//!   within the day (the pair list is not empty): an address that never
//!   failed — the owner's — is never held by others' failures, and a
//!   guessing network gets one guess per address once the ceiling is reached.
//! - **network** — every email from one address (an IPv4 address, or an IPv6
//!   /64: one subscriber's allocation): 30 in 15 minutes, 60 in an hour, 200
//!   in a day. It stops one address spraying many emails.
//!
//! The failures are stored (the store is shared by every server process) and
//! counted here; the policy is pure.

use std::net::IpAddr;

use time::{Duration, OffsetDateTime};

use super::model::TokenHash;

/// Where a sign-in attempt comes from: the client's address and the network
/// it is counted in (the address itself for IPv4, its /64 for IPv6).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AttemptSource {
    address: String,
    network: String,
}

impl AttemptSource {
    /// The source of an attempt from `ip` (an IPv4-mapped IPv6 address counts
    /// as its IPv4 address).
    ///
    /// ```
    /// use tonne_accounts::users::AttemptSource;
    ///
    /// let v6 = AttemptSource::of("2001:db8:1:2:3:4:5:6".parse().unwrap());
    /// assert_eq!(v6.network(), "2001:db8:1:2::/64");
    /// let mapped = AttemptSource::of("::ffff:192.0.2.7".parse().unwrap());
    /// assert_eq!((mapped.address(), mapped.network()), ("192.0.2.7", "192.0.2.7"));
    /// ```
    pub fn of(ip: IpAddr) -> Self {
        let ip = match ip {
            IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(ip, IpAddr::V4),
            IpAddr::V4(_) => ip,
        };
        let network = match ip {
            IpAddr::V4(v4) => v4.to_string(),
            IpAddr::V6(v6) => {
                let [a, b, c, d, ..] = v6.segments();
                format!("{a:x}:{b:x}:{c:x}:{d:x}::/64")
            }
        };
        Self {
            address: ip.to_string(),
            network,
        }
    }

    /// A source as stored.
    pub fn from_stored(address: String, network: String) -> Self {
        Self { address, network }
    }

    /// The client's address.
    pub fn address(&self) -> &str {
        &self.address
    }

    /// The network its failures are counted in across emails.
    pub fn network(&self) -> &str {
        &self.network
    }
}

/// The key one email's failures are counted under: the SHA-256 of what was
/// typed, trimmed and lower-cased. What was typed may not be an address (it
/// may even be a password typed in the wrong field), so it is never stored.
pub fn email_key(typed: &str) -> TokenHash {
    TokenHash::of(&typed.trim().to_lowercase())
}

/// One failed sign-in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignInFailure {
    /// [`email_key`] of the email typed.
    pub email: TokenHash,
    pub source: AttemptSource,
    pub at: OffsetDateTime,
}

/// The failures that bear on an attempt, each list newest first and at most
/// [`Throttle::most_counted`] long.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RecentFailures {
    /// This email from this address.
    pub pair: Vec<OffsetDateTime>,
    /// This email from every address.
    pub email: Vec<OffsetDateTime>,
    /// Every email from this address's network.
    pub network: Vec<OffsetDateTime>,
}

/// One step of a budget: at most `failures` within `within`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Step {
    pub failures: usize,
    pub within: Duration,
}

const fn step(failures: usize, within: Duration) -> Step {
    Step { failures, within }
}

/// The sign-in budgets (see the module's documentation).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Throttle {
    pub pair: Vec<Step>,
    pub email: Vec<Step>,
    pub network: Vec<Step>,
}

impl Default for Throttle {
    fn default() -> Self {
        Self {
            pair: vec![
                step(10, Duration::minutes(15)),
                step(20, Duration::hours(1)),
                step(30, Duration::days(1)),
            ],
            email: vec![step(50, Duration::hours(1)), step(150, Duration::days(1))],
            network: vec![
                step(30, Duration::minutes(15)),
                step(60, Duration::hours(1)),
                step(200, Duration::days(1)),
            ],
        }
    }
}

/// The answer to "may this attempt be checked?".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    Go,
    /// Not before this long.
    Wait(Duration),
}

impl Throttle {
    fn steps(&self) -> impl Iterator<Item = &Step> {
        self.pair.iter().chain(&self.email).chain(&self.network)
    }

    /// How far back failures count: the longest window.
    pub fn horizon(&self) -> Duration {
        self.steps()
            .map(|s| s.within)
            .max()
            .unwrap_or(Duration::ZERO)
    }

    /// How many of the newest failures of each list the verdict reads.
    pub fn most_counted(&self) -> usize {
        self.steps().map(|s| s.failures).max().unwrap_or(0)
    }

    /// Whether an attempt at `now` may be checked, given the recent failures.
    pub fn verdict(&self, recent: &RecentFailures, now: OffsetDateTime) -> Verdict {
        let horizon = now - self.horizon();
        let failed_here = recent.pair.iter().any(|at| *at > horizon);
        let email: &[Step] = if failed_here { &self.email } else { &[] };
        let wait = [
            (self.pair.as_slice(), &recent.pair),
            (email, &recent.email),
            (self.network.as_slice(), &recent.network),
        ]
        .into_iter()
        .flat_map(|(steps, times)| steps.iter().map(move |s| held_until(*s, times, now)))
        .flatten()
        .max();
        match wait {
            Some(until) if until > now => Verdict::Wait(until - now),
            _ => Verdict::Go,
        }
    }
}

/// When a step lets attempts through again: the newest failures, newest
/// first; held while `failures` of them fall within the window.
fn held_until(
    step: Step,
    newest_first: &[OffsetDateTime],
    now: OffsetDateTime,
) -> Option<OffsetDateTime> {
    let oldest_counted = newest_first.get(step.failures.checked_sub(1)?)?;
    let until = *oldest_counted + step.within;
    (until > now).then_some(until)
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    const NOW: OffsetDateTime = datetime!(2026-11-26 12:00 UTC);

    fn every_minute(count: usize) -> Vec<OffsetDateTime> {
        (1..=count)
            .map(|m| NOW - Duration::minutes(i64::try_from(m).unwrap()))
            .collect()
    }

    #[test]
    fn nine_failures_of_a_pair_pass_and_the_tenth_holds_until_the_window_moves() {
        let throttle = Throttle::default();
        let nine = RecentFailures {
            pair: every_minute(9),
            ..RecentFailures::default()
        };
        assert_eq!(throttle.verdict(&nine, NOW), Verdict::Go);
        let ten = RecentFailures {
            pair: every_minute(10),
            ..RecentFailures::default()
        };
        // the 10th newest failed 10 minutes ago: 5 more minutes
        assert_eq!(
            throttle.verdict(&ten, NOW),
            Verdict::Wait(Duration::minutes(5))
        );
    }

    #[test]
    fn the_waits_grow_with_the_failures() {
        let throttle = Throttle::default();
        let at = |count| RecentFailures {
            pair: every_minute(count),
            ..RecentFailures::default()
        };
        // 20 in the last 20 minutes: held until the 20th is an hour old
        assert_eq!(
            throttle.verdict(&at(20), NOW),
            Verdict::Wait(Duration::minutes(40))
        );
        // 30: a day from the 30th
        assert_eq!(
            throttle.verdict(&at(30), NOW),
            Verdict::Wait(Duration::days(1) - Duration::minutes(30))
        );
    }

    #[test]
    fn others_failures_for_an_email_do_not_hold_an_address_that_never_failed() {
        let throttle = Throttle::default();
        let flooded = RecentFailures {
            email: every_minute(200),
            ..RecentFailures::default()
        };
        assert_eq!(throttle.verdict(&flooded, NOW), Verdict::Go);
        // once this address fails for the email too, the email's ceiling holds it
        let failed_once = RecentFailures {
            pair: every_minute(1),
            ..flooded
        };
        assert!(matches!(
            throttle.verdict(&failed_once, NOW),
            Verdict::Wait(_)
        ));
    }

    #[test]
    fn one_network_spraying_many_emails_is_held() {
        let throttle = Throttle::default();
        let every_ten_seconds = |count: i64| {
            (1..=count)
                .map(|s| NOW - Duration::seconds(10 * s))
                .collect::<Vec<_>>()
        };
        let spray = RecentFailures {
            network: every_ten_seconds(30),
            ..RecentFailures::default()
        };
        assert!(matches!(throttle.verdict(&spray, NOW), Verdict::Wait(_)));
        let fewer = RecentFailures {
            network: every_ten_seconds(29),
            ..RecentFailures::default()
        };
        assert_eq!(throttle.verdict(&fewer, NOW), Verdict::Go);
    }

    #[test]
    fn old_failures_no_longer_count() {
        let throttle = Throttle::default();
        let old = RecentFailures {
            pair: (0..40).map(|_| NOW - Duration::days(2)).collect(),
            ..RecentFailures::default()
        };
        assert_eq!(throttle.verdict(&old, NOW), Verdict::Go);
        assert_eq!(throttle.horizon(), Duration::days(1));
        assert_eq!(throttle.most_counted(), 200);
    }

    #[test]
    fn ipv6_addresses_of_one_slash_64_share_a_network() {
        let a = AttemptSource::of("2001:db8::1".parse().unwrap());
        let b = AttemptSource::of("2001:db8::ffff:2".parse().unwrap());
        let c = AttemptSource::of("2001:db8:0:1::1".parse().unwrap());
        assert_eq!(a.network(), b.network());
        assert_ne!(a.address(), b.address());
        assert_ne!(a.network(), c.network());
        assert_eq!(email_key(" Ada@Example.org "), email_key("ada@example.org"));
    }
}
