//! Keyed hashes for the hosted pages: visitor hashes with a daily salt, CSRF
//! tokens bound to a browser cookie and a link, and signed, expiring analytics
//! URLs. One 32-byte server key feeds them all, each under its own label.

use hmac::{Hmac, Mac};
use sha2::Sha256;
use subtle::ConstantTimeEq;
use time::{Date, OffsetDateTime};

use crate::models::{OffsetLinkId, VisitorHash};

type HmacSha256 = Hmac<Sha256>;

/// The longest an analytics URL may be valid: 31 days.
pub const MAX_ANALYTICS_VALIDITY_SECS: i64 = 31 * 24 * 3600;

/// The server key behind every hosted-page token.
///
/// ```
/// use time::macros::{date, datetime};
/// use tonne_links::PageKey;
///
/// let key = PageKey::new([7; 32]);
/// let id = "0190c6f1a7b27c3e9f2d4b1a2c3d4e5f".parse().unwrap();
/// // Visitors: the same browser hashes alike within a day, differently the next.
/// let a = key.visitor(date!(2026-11-22), "203.0.113.9", "Firefox");
/// assert_eq!(a, key.visitor(date!(2026-11-22), "203.0.113.9", "Firefox"));
/// assert_ne!(a, key.visitor(date!(2026-11-23), "203.0.113.9", "Firefox"));
/// // Analytics URLs: valid until they expire, and only for their link.
/// let expires = datetime!(2026-11-23 0:00 UTC).unix_timestamp();
/// let sig = key.analytics_signature(id, expires);
/// assert!(key.analytics_allowed(id, expires, &sig, datetime!(2026-11-22 12:00 UTC)));
/// assert!(!key.analytics_allowed(id, expires, &sig, datetime!(2026-11-23 0:00 UTC)));
/// // … and never for longer than 31 days ahead, whoever signed them.
/// let years = datetime!(2036-11-22 0:00 UTC).unix_timestamp();
/// let long = key.analytics_signature(id, years);
/// assert!(!key.analytics_allowed(id, years, &long, datetime!(2026-11-22 12:00 UTC)));
/// ```
#[derive(Clone)]
pub struct PageKey([u8; 32]);

impl std::fmt::Debug for PageKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("PageKey(..)")
    }
}

fn mac(key: &[u8], parts: &[&[u8]]) -> [u8; 32] {
    // HMAC accepts keys of any length.
    let Ok(mut m) = HmacSha256::new_from_slice(key) else {
        return [0; 32];
    };
    for (i, part) in parts.iter().enumerate() {
        if i > 0 {
            m.update(&[0]);
        }
        m.update(part);
    }
    m.finalize().into_bytes().into()
}

fn same(a: &str, b: &str) -> bool {
    a.len() == b.len() && bool::from(a.as_bytes().ct_eq(b.as_bytes()))
}

impl PageKey {
    /// Wraps 32 key bytes.
    pub fn new(bytes: [u8; 32]) -> Self {
        Self(bytes)
    }

    fn sign(&self, label: &str, parts: &[&[u8]]) -> String {
        let sub = mac(&self.0, &[label.as_bytes()]);
        hex::encode(mac(&sub, parts))
    }

    /// The visitor's hash for `day`: HMAC under a salt derived from the key and
    /// the day, over the client address and user agent.
    pub fn visitor(&self, day: Date, client_ip: &str, user_agent: &str) -> VisitorHash {
        let salt = mac(&self.0, &[b"visitor-salt", day.to_string().as_bytes()]);
        VisitorHash::from_stored(hex::encode(mac(
            &salt,
            &[client_ip.as_bytes(), user_agent.as_bytes()],
        )))
    }

    /// The hash an order's visitor is counted by for the per-visitor limit:
    /// the client address alone (a browser can change its user agent), under
    /// the day's salt and a label of its own.
    ///
    /// ```
    /// use time::macros::date;
    /// let key = tonne_links::PageKey::new([7; 32]);
    /// let a = key.orderer(date!(2026-11-22), "203.0.113.9");
    /// assert_eq!(a, key.orderer(date!(2026-11-22), "203.0.113.9"));
    /// assert_ne!(a, key.orderer(date!(2026-11-23), "203.0.113.9"));
    /// assert_ne!(a, key.visitor(date!(2026-11-22), "203.0.113.9", ""));
    /// ```
    pub fn orderer(&self, day: Date, client_ip: &str) -> VisitorHash {
        let salt = mac(&self.0, &[b"orderer-salt", day.to_string().as_bytes()]);
        VisitorHash::from_stored(hex::encode(mac(&salt, &[client_ip.as_bytes()])))
    }

    /// The CSRF token a form of `link` carries for the browser holding `cookie`.
    pub fn csrf_token(&self, cookie: &str, link: OffsetLinkId) -> String {
        self.sign("csrf", &[cookie.as_bytes(), link.to_string().as_bytes()])
    }

    /// Whether a submitted form's token matches the browser's cookie and the link.
    pub fn csrf_valid(&self, cookie: &str, link: OffsetLinkId, token: &str) -> bool {
        !cookie.is_empty() && same(&self.csrf_token(cookie, link), token)
    }

    /// The token Lune Pay's form for `account` carries for the browser
    /// holding `cookie` (bound to both, like a link's).
    pub fn pay_token(&self, cookie: &str, account: tonne_kernel::AccountId) -> String {
        self.sign("pay", &[cookie.as_bytes(), account.to_string().as_bytes()])
    }

    /// Whether a submitted Lune Pay form's token matches its cookie and account.
    pub fn pay_valid(&self, cookie: &str, account: tonne_kernel::AccountId, token: &str) -> bool {
        !cookie.is_empty() && same(&self.pay_token(cookie, account), token)
    }

    /// The token the console's sign-in form carries for the browser holding
    /// `cookie` (a random value): signed, so a token is only good with the
    /// cookie it was made for and only this installation can make one.
    pub fn sign_in_token(&self, cookie: &str) -> String {
        self.sign("sign-in", &[cookie.as_bytes()])
    }

    /// Whether a submitted sign-in form's token was made for the cookie.
    pub fn sign_in_valid(&self, cookie: &str, token: &str) -> bool {
        !cookie.is_empty() && same(&self.sign_in_token(cookie), token)
    }

    /// The signature of an analytics URL for `link` valid until `expires` (unix seconds).
    pub fn analytics_signature(&self, link: OffsetLinkId, expires: i64) -> String {
        self.sign(
            "analytics",
            &[link.to_string().as_bytes(), expires.to_string().as_bytes()],
        )
    }

    /// Whether an analytics URL's signature is genuine, not expired at `now`,
    /// and not valid for longer than [`MAX_ANALYTICS_VALIDITY_SECS`] from `now`
    /// (the page lists customers' emails to whoever holds the URL: a URL
    /// signed for years is refused, whoever signed it).
    pub fn analytics_allowed(
        &self,
        link: OffsetLinkId,
        expires: i64,
        signature: &str,
        now: OffsetDateTime,
    ) -> bool {
        let now = now.unix_timestamp();
        now < expires
            && expires.saturating_sub(now) <= MAX_ANALYTICS_VALIDITY_SECS
            && same(&self.analytics_signature(link, expires), signature)
    }
}
