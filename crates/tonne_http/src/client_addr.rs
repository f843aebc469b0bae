//! The client's address: the one place a request's origin is decided.
//!
//! The peer of the TCP connection is the client, unless it is one of the
//! configured trusted proxies (`TONNE_TRUSTED_PROXIES`, CIDRs; empty by
//! default: no proxy is trusted and `X-Forwarded-For` is ignored). From a
//! trusted proxy, `X-Forwarded-For` is read from the right — the entries the
//! proxies appended — skipping trusted proxies; the first address that is not
//! one is the client. Entries left of it were written by the client and are
//! never believed. An entry that is not an address stops the walk at the hop
//! before it.

use std::net::IpAddr;
use std::str::FromStr;

use actix_web::HttpRequest;
use ipnet::IpNet;

/// The proxies whose `X-Forwarded-For` is believed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TrustedProxies(Vec<IpNet>);

/// A trusted-proxy list that does not parse.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not an address or a CIDR range (like 10.0.0.0/8 or fd00::/8)")]
pub struct InvalidProxy(String);

impl FromStr for TrustedProxies {
    type Err = InvalidProxy;

    /// A comma-separated list of CIDRs or single addresses; empty is none.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        s.split(',')
            .map(str::trim)
            .filter(|entry| !entry.is_empty())
            .map(|entry| {
                entry
                    .parse::<IpNet>()
                    .or_else(|_| entry.parse::<IpAddr>().map(IpNet::from))
                    .map_err(|_| InvalidProxy(entry.to_owned()))
            })
            .collect::<Result<Vec<_>, _>>()
            .map(Self)
    }
}

impl std::fmt::Display for TrustedProxies {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let list: Vec<String> = self.0.iter().map(ToString::to_string).collect();
        f.write_str(&list.join(","))
    }
}

impl TrustedProxies {
    /// Whether `ip` is a trusted proxy.
    pub fn trusts(&self, ip: IpAddr) -> bool {
        let ip = canonical(ip);
        self.0.iter().any(|net| net.contains(&ip))
    }

    /// Whether no proxy is trusted.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// An IPv4-mapped IPv6 address as its IPv4 address.
fn canonical(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(ip, IpAddr::V4),
        IpAddr::V4(_) => ip,
    }
}

/// The client's address of a request (see the module's documentation); the
/// unspecified address when the connection has no peer address (tests).
pub fn client_addr(req: &HttpRequest, trusted: &TrustedProxies) -> IpAddr {
    let peer = req
        .peer_addr()
        .map_or(IpAddr::from([0, 0, 0, 0]), |a| canonical(a.ip()));
    if !trusted.trusts(peer) {
        return peer;
    }
    let forwarded: Vec<&str> = req
        .headers()
        .get_all("x-forwarded-for")
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(str::trim)
        .collect();
    let mut client = peer;
    for entry in forwarded.iter().rev() {
        let Ok(ip) = entry.parse::<IpAddr>().map(canonical) else {
            break;
        };
        client = ip;
        if !trusted.trusts(ip) {
            break;
        }
    }
    client
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::test::TestRequest;

    fn from(peer: &str, forwarded: &[&str]) -> TestRequest {
        forwarded.iter().fold(
            TestRequest::default().peer_addr(format!("{peer}:4000").parse().unwrap()),
            |req, value| req.append_header(("X-Forwarded-For", *value)),
        )
    }

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    #[test]
    fn forwarded_for_is_ignored_unless_the_peer_is_trusted() {
        let none = TrustedProxies::default();
        let req = from("198.51.100.7", &["203.0.113.1"]).to_http_request();
        assert_eq!(client_addr(&req, &none), ip("198.51.100.7"));
        let other: TrustedProxies = "10.0.0.0/8".parse().unwrap();
        assert_eq!(client_addr(&req, &other), ip("198.51.100.7"));
    }

    #[test]
    fn from_a_trusted_proxy_the_rightmost_untrusted_entry_is_the_client() {
        let trusted: TrustedProxies = "10.0.0.0/8, 192.0.2.10".parse().unwrap();
        // the client forged the first entry; the proxies appended the rest
        let req = from("10.0.0.2", &["1.2.3.4, 203.0.113.9", "192.0.2.10"]).to_http_request();
        assert_eq!(client_addr(&req, &trusted), ip("203.0.113.9"));
        // nothing forwarded: the proxy itself
        let bare = from("10.0.0.2", &[]).to_http_request();
        assert_eq!(client_addr(&bare, &trusted), ip("10.0.0.2"));
        // garbage stops the walk at the hop before it
        let junk = from("10.0.0.2", &["203.0.113.9, nonsense"]).to_http_request();
        assert_eq!(client_addr(&junk, &trusted), ip("10.0.0.2"));
        // IPv4-mapped peers are their IPv4 address
        let mapped = from("[::ffff:10.0.0.2]", &["2001:db8::5"]).to_http_request();
        assert_eq!(client_addr(&mapped, &trusted), ip("2001:db8::5"));
    }

    #[test]
    fn lists_parse_and_print() {
        let list: TrustedProxies = " 127.0.0.1 , fd00::/8,".parse().unwrap();
        assert_eq!(list.to_string(), "127.0.0.1/32,fd00::/8");
        assert!(list.trusts(ip("::ffff:127.0.0.1")));
        assert!("".parse::<TrustedProxies>().unwrap().is_empty());
        assert!("10.0.0.0/33".parse::<TrustedProxies>().is_err());
    }
}
