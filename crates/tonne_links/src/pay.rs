//! Lune Pay: a platform sends its buyer to `/pay/{account_id}` with the
//! tonnes and bundle to buy and the address to come back to; the hosted page
//! takes the card, places the order on the account and sends the buyer back
//! with a temporary id, by which the platform reads the payment for 15
//! minutes (`GET /v1/payments/by-temporary-id/{id}`). The address to come back
//! to must be on one of the account's allowed origins.
//!
//! ```
//! use tonne_links::pay::{parse_origin, return_address};
//!
//! assert_eq!(parse_origin("https://Shop.example/"), Ok("https://shop.example".to_owned()));
//! assert!(parse_origin("https://shop.example/checkout").is_err()); // an origin, not a page
//! assert!(parse_origin("http://shop.example").is_err()); // https, except to this machine
//! assert_eq!(parse_origin("http://localhost:3000"), Ok("http://localhost:3000".to_owned()));
//! assert!(parse_origin("https://shop*.example").is_err()); // not a host name
//!
//! let back = return_address(
//!     "https://shop.example/done?cart=7",
//!     Some("ord-42"),
//!     uuid::Uuid::nil(),
//! ).unwrap();
//! assert_eq!(
//!     back,
//!     "https://shop.example/done?cart=7&external_id=ord-42&temporary_id=00000000-0000-0000-0000-000000000000"
//! );
//! ```

use time::Duration;
use tonne_kernel::AccountId;
use tonne_ordering::{BundleView, Order, Quote};

use crate::models::AccountProfile;

/// How long a temporary id answers.
pub const TEMPORARY_ID_VALIDITY: Duration = Duration::minutes(15);

/// Most allowed origins per account.
pub const MAX_PAY_ORIGINS: usize = 20;

/// Longest `external_id` and `redirect_label`.
pub const MAX_EXTERNAL_ID: usize = 255;
/// Longest `redirect_label`.
pub const MAX_REDIRECT_LABEL: usize = 100;

/// What the platform's link asks for, as given (`/pay/{id}?quantity=…`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PayRequest {
    /// Tonnes of CO₂e, e.g. `"1.5"`.
    pub quantity: String,
    /// The bundle's id.
    pub bundle_id: String,
    /// Where the buyer goes back to (on one of the account's allowed origins).
    pub redirect_url: String,
    /// The back link's words, if the platform gave them.
    pub redirect_label: Option<String>,
    /// The platform's own reference, handed back on return (and kept as the
    /// order's `external_id` metadata).
    pub external_id: Option<String>,
}

/// A checked, priced request awaiting the card.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PayCheckout {
    /// The account the order goes to.
    pub account_id: AccountId,
    /// Its name, logo, currency and mode.
    pub account: AccountProfile,
    /// The bundle.
    pub bundle: BundleView,
    /// The price.
    pub quote: Quote,
    /// The request, checked.
    pub request: PayRequest,
}

/// A paid order and where the buyer goes next.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Paid {
    /// The order.
    pub order: Order,
    /// The platform's address with `external_id` and `temporary_id` added.
    pub redirect: String,
}

/// An allowed origin as stored: `https://host[:port]` (lower case, no path),
/// or `http://` to `localhost` or a loopback address (development).
pub fn parse_origin(raw: &str) -> Result<String, String> {
    let url = url::Url::parse(raw.trim()).map_err(|e| format!("`{raw}` is not an address: {e}"))?;
    if !matches!(url.path(), "" | "/") || url.query().is_some() || url.fragment().is_some() {
        return Err(format!(
            "`{raw}` must be an origin (scheme, host and port) with no path"
        ));
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err(format!("`{raw}` must not hold credentials"));
    }
    let loopback = match url.host() {
        Some(url::Host::Domain(d)) => {
            let labels_ok = d.split('.').all(|label| {
                !label.is_empty()
                    && !label.starts_with('-')
                    && !label.ends_with('-')
                    && label
                        .bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b == b'-')
            });
            let named = d
                .rsplit('.')
                .next()
                .is_some_and(|last| last.starts_with(|c: char| c.is_ascii_alphabetic()));
            if !labels_ok || !named {
                return Err(format!(
                    "`{raw}` does not name a host (letters, digits and hyphens between dots)"
                ));
            }
            d == "localhost"
        }
        // an address, not a name: only this machine's, for development
        Some(url::Host::Ipv4(ip)) if ip.is_loopback() => true,
        Some(url::Host::Ipv6(ip)) if ip.is_loopback() => true,
        Some(_) => {
            return Err(format!(
                "`{raw}` must name its host (an IP address only for this machine)"
            ));
        }
        None => return Err(format!("`{raw}` has no host")),
    };
    match url.scheme() {
        "https" => {}
        "http" if loopback => {}
        _ => return Err(format!("`{raw}` must be https (http only to this machine)")),
    }
    Ok(url.origin().ascii_serialization())
}

/// The origin of a return address, or why it has none.
pub fn origin_of(address: &str) -> Result<String, String> {
    let url = url::Url::parse(address.trim()).map_err(|_| "is not an address".to_owned())?;
    if !matches!(url.scheme(), "https" | "http") || url.host().is_none() {
        return Err("must be an http(s) address".into());
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err("must not hold credentials".into());
    }
    Ok(url.origin().ascii_serialization())
}

/// `redirect_url` with `external_id` (when given) and `temporary_id` added to
/// its query (any fragment dropped).
pub fn return_address(
    redirect_url: &str,
    external_id: Option<&str>,
    temporary_id: uuid::Uuid,
) -> Result<String, String> {
    let mut url = url::Url::parse(redirect_url.trim()).map_err(|e| e.to_string())?;
    url.set_fragment(None);
    {
        let mut query = url.query_pairs_mut();
        if let Some(id) = external_id {
            query.append_pair("external_id", id);
        }
        query.append_pair("temporary_id", &temporary_id.to_string());
    }
    Ok(url.into())
}
