//! Where a webhook may point: URL rules and the address policy (SSRF protection).
//!
//! A URL is checked twice: at registration ([`WebhookUrl::parse`], then every
//! address its host resolves to through [`TargetPolicy::check_address`]) and again
//! by the dispatcher at delivery, on the addresses it actually connects to (so a
//! DNS answer that changes after registration cannot point a webhook inside).

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
use std::sync::OnceLock;

use ipnet::{IpNet, Ipv4Net, Ipv6Net};
use regex::Regex;

use crate::errors::InvalidField;

/// The longest URL accepted.
pub const MAX_URL_LEN: usize = 2048;

/// The contract's `Url` pattern (an HTTPS URL on a domain name).
const CONTRACT_URL_PATTERN: &str =
    r"^https://[-a-zA-Z0-9@:%._\+~#=]{2,256}\.[a-z]{2,6}\b([-a-zA-Z0-9@:%_\+.~#?&//=]*)$";

fn contract_pattern() -> Option<&'static Regex> {
    static PATTERN: OnceLock<Option<Regex>> = OnceLock::new();
    PATTERN
        .get_or_init(|| Regex::new(CONTRACT_URL_PATTERN).ok())
        .as_ref()
}

/// Why an address may not receive webhooks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BlockedReason {
    /// 127.0.0.0/8, ::1.
    Loopback,
    /// 10/8, 172.16/12, 192.168/16, fc00::/7.
    Private,
    /// 169.254/16, fe80::/10 (cloud metadata services live here).
    LinkLocal,
    /// 100.64/10, the carrier-grade NAT range.
    SharedAddressSpace,
    /// 224/4, ff00::/8.
    Multicast,
    /// 0.0.0.0, ::, 0/8.
    Unspecified,
    /// 192.0.2/24, 198.51.100/24, 203.0.113/24, 2001:db8::/32.
    Documentation,
    /// Known cloud metadata addresses outside the ranges above.
    CloudMetadata,
    /// Benchmarking, reserved, broadcast, IETF protocol and discard-only ranges.
    Reserved,
}

impl BlockedReason {
    /// A phrase for error messages.
    pub fn describe(self) -> &'static str {
        match self {
            BlockedReason::Loopback => "a loopback address",
            BlockedReason::Private => "a private address",
            BlockedReason::LinkLocal => "a link-local address (where cloud metadata services live)",
            BlockedReason::SharedAddressSpace => "a carrier-grade NAT address (100.64.0.0/10)",
            BlockedReason::Multicast => "a multicast address",
            BlockedReason::Unspecified => "an unspecified address",
            BlockedReason::Documentation => "a documentation address",
            BlockedReason::CloudMetadata => "a cloud metadata address",
            BlockedReason::Reserved => "a reserved address",
        }
    }

    /// Whether `TONNE_WEBHOOKS_ALLOW_PRIVATE` lifts this block (it never lifts
    /// multicast or unspecified addresses, which cannot be a receiver).
    fn lifted_by_allow_private(self) -> bool {
        !matches!(self, BlockedReason::Multicast | BlockedReason::Unspecified)
    }
}

fn v4(a: u8, b: u8, c: u8, d: u8, len: u8) -> IpNet {
    IpNet::V4(Ipv4Net::new(Ipv4Addr::new(a, b, c, d), len).unwrap_or_default())
}

fn v6(segments: [u16; 8], len: u8) -> IpNet {
    let [a, b, c, d, e, f, g, h] = segments;
    IpNet::V6(Ipv6Net::new(Ipv6Addr::new(a, b, c, d, e, f, g, h), len).unwrap_or_default())
}

fn ranges() -> &'static [(IpNet, BlockedReason)] {
    static RANGES: OnceLock<Vec<(IpNet, BlockedReason)>> = OnceLock::new();
    RANGES.get_or_init(|| {
        use BlockedReason::*;
        vec![
            (v4(0, 0, 0, 0, 8), Unspecified),
            (v4(10, 0, 0, 0, 8), Private),
            (v4(100, 64, 0, 0, 10), SharedAddressSpace),
            (v4(127, 0, 0, 0, 8), Loopback),
            (v4(169, 254, 0, 0, 16), LinkLocal),
            (v4(172, 16, 0, 0, 12), Private),
            (v4(192, 0, 0, 0, 24), Reserved),
            (v4(192, 0, 2, 0, 24), Documentation),
            (v4(192, 88, 99, 0, 24), Reserved),
            (v4(192, 168, 0, 0, 16), Private),
            (v4(198, 18, 0, 0, 15), Reserved),
            (v4(198, 51, 100, 0, 24), Documentation),
            (v4(203, 0, 113, 0, 24), Documentation),
            (v4(224, 0, 0, 0, 4), Multicast),
            (v4(240, 0, 0, 0, 4), Reserved),
            (v6([0, 0, 0, 0, 0, 0, 0, 0], 128), Unspecified),
            (v6([0, 0, 0, 0, 0, 0, 0, 1], 128), Loopback),
            (v6([0x100, 0, 0, 0, 0, 0, 0, 0], 64), Reserved),
            (v6([0x2001, 0xdb8, 0, 0, 0, 0, 0, 0], 32), Documentation),
            (v6([0x2001, 0, 0, 0, 0, 0, 0, 0], 23), Reserved),
            (v6([0xfc00, 0, 0, 0, 0, 0, 0, 0], 7), Private),
            (v6([0xfe80, 0, 0, 0, 0, 0, 0, 0], 10), LinkLocal),
            (v6([0xfec0, 0, 0, 0, 0, 0, 0, 0], 10), Private),
            (v6([0xff00, 0, 0, 0, 0, 0, 0, 0], 8), Multicast),
        ]
    })
}

/// Why an address may not receive webhooks, or `None` for a public address.
/// IPv4 addresses embedded in IPv6 (mapped `::ffff:a.b.c.d`, NAT64 `64:ff9b::/96`,
/// 6to4 `2002::/16`) are judged by the IPv4 address inside.
///
/// ```
/// use std::net::IpAddr;
/// use tonne_webhooks::target::{blocked_reason, BlockedReason};
/// let ip = |s: &str| s.parse::<IpAddr>().unwrap();
/// assert_eq!(blocked_reason(ip("93.184.216.34")), None);
/// assert_eq!(blocked_reason(ip("127.0.0.1")), Some(BlockedReason::Loopback));
/// assert_eq!(blocked_reason(ip("169.254.10.1")), Some(BlockedReason::LinkLocal));
/// assert_eq!(blocked_reason(ip("169.254.169.254")), Some(BlockedReason::CloudMetadata));
/// assert_eq!(blocked_reason(ip("::ffff:10.0.0.1")), Some(BlockedReason::Private));
/// assert_eq!(blocked_reason(ip("2606:4700::1111")), None);
/// ```
pub fn blocked_reason(ip: IpAddr) -> Option<BlockedReason> {
    let ip = match ip {
        IpAddr::V6(v6) => match embedded_v4(v6) {
            Some(v4) => IpAddr::V4(v4),
            None => ip,
        },
        v4 @ IpAddr::V4(_) => v4,
    };
    if ip == IpAddr::V4(Ipv4Addr::BROADCAST) {
        return Some(BlockedReason::Reserved);
    }
    // Alibaba Cloud's metadata service sits in the shared range, Oracle's in link-local;
    // AWS's IPv6 one (fd00:ec2::254) is in fc00::/7. Named anyway so the message is clear.
    if ip == IpAddr::V4(Ipv4Addr::new(100, 100, 100, 200))
        || ip == IpAddr::V4(Ipv4Addr::new(169, 254, 169, 254))
        || ip == IpAddr::V6(Ipv6Addr::new(0xfd00, 0xec2, 0, 0, 0, 0, 0, 0x254))
    {
        return Some(BlockedReason::CloudMetadata);
    }
    ranges()
        .iter()
        .find(|(net, _)| net.contains(&ip))
        .map(|(_, reason)| *reason)
}

fn embedded_v4(ip: Ipv6Addr) -> Option<Ipv4Addr> {
    if let Some(v4) = ip.to_ipv4_mapped() {
        return Some(v4);
    }
    let s = ip.segments();
    let tail = |hi: u16, lo: u16| {
        let [a, b] = hi.to_be_bytes();
        let [c, d] = lo.to_be_bytes();
        Ipv4Addr::new(a, b, c, d)
    };
    match s {
        // NAT64 well-known prefix 64:ff9b::/96
        [0x64, 0xff9b, 0, 0, 0, 0, hi, lo] => Some(tail(hi, lo)),
        // 6to4 2002:AABB:CCDD::/48
        [0x2002, hi, lo, ..] => Some(tail(hi, lo)),
        // IPv4-compatible ::a.b.c.d (deprecated), but not :: and ::1
        [0, 0, 0, 0, 0, 0, hi, lo] if hi != 0 => Some(tail(hi, lo)),
        _ => None,
    }
}

/// What the operator allows webhooks to point at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TargetPolicy {
    /// `TONNE_WEBHOOKS_ALLOW_PRIVATE=true`: accept `http://` and loopback, private and
    /// link-local targets. **Unsafe**: for local development and tests only.
    pub allow_private: bool,
}

impl TargetPolicy {
    /// `Err` with the reason when webhooks may not be sent to this address.
    pub fn check_address(self, ip: IpAddr) -> Result<(), BlockedReason> {
        match blocked_reason(ip) {
            Some(reason) if !(self.allow_private && reason.lifted_by_allow_private()) => {
                Err(reason)
            }
            _ => Ok(()),
        }
    }
}

/// The host a webhook URL names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TargetHost {
    /// A DNS name, to be resolved (and its addresses checked).
    Domain(String),
    /// An address literal.
    Ip(IpAddr),
}

/// A webhook URL that passed the URL rules (its host's addresses are checked separately).
///
/// ```
/// use tonne_webhooks::{TargetPolicy, WebhookUrl};
/// let strict = TargetPolicy::default();
/// assert!(WebhookUrl::parse("https://hooks.example.com/tonne", strict).is_ok());
/// assert!(WebhookUrl::parse("http://hooks.example.com/tonne", strict).is_err());
/// assert!(WebhookUrl::parse("https://127.0.0.1/hook", strict).is_err());
/// let unsafe_dev = TargetPolicy { allow_private: true };
/// assert!(WebhookUrl::parse("http://127.0.0.1:9000/hook", unsafe_dev).is_ok());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WebhookUrl {
    raw: String,
    host: TargetHost,
    port: u16,
}

impl WebhookUrl {
    /// Checks a URL: at most 2,048 characters, `https` (or `http` when private targets
    /// are allowed), no credentials, a host; a domain name must match the contract's
    /// `Url` pattern and not be `localhost`, and an address literal must be allowed by
    /// the policy. The URL is kept exactly as given.
    pub fn parse(raw: &str, policy: TargetPolicy) -> Result<Self, InvalidField> {
        let bad = |reason: &str| InvalidField::new("url", reason);
        if raw.len() > MAX_URL_LEN {
            return Err(bad("must be at most 2048 characters"));
        }
        let url = url::Url::parse(raw).map_err(|e| bad(&format!("not a valid URL ({e})")))?;
        match url.scheme() {
            "https" => {}
            "http" if policy.allow_private => {}
            "http" => return Err(bad("must use https://")),
            _ => return Err(bad("must be an https:// URL")),
        }
        if !url.username().is_empty() || url.password().is_some() {
            return Err(bad("must not carry credentials (user:password@)"));
        }
        let port = url
            .port_or_known_default()
            .ok_or_else(|| bad("has no port"))?;
        let host = match url.host() {
            None => return Err(bad("has no host")),
            Some(url::Host::Ipv4(ip)) => TargetHost::Ip(IpAddr::V4(ip)),
            Some(url::Host::Ipv6(ip)) => TargetHost::Ip(IpAddr::V6(ip)),
            Some(url::Host::Domain(name)) => TargetHost::Domain(name.to_owned()),
        };
        match &host {
            TargetHost::Ip(ip) => policy
                .check_address(*ip)
                .map_err(|r| bad(&format!("points at {}", r.describe())))?,
            TargetHost::Domain(name) => {
                let lower = name.to_ascii_lowercase();
                let local = lower == "localhost"
                    || lower.ends_with(".localhost")
                    || lower.ends_with(".local")
                    || lower.ends_with(".internal");
                if local && !policy.allow_private {
                    return Err(bad("names a local host"));
                }
                if !policy.allow_private && !contract_pattern().is_some_and(|p| p.is_match(raw)) {
                    return Err(bad(
                        "must be an https:// URL on a domain name (the contract's Url pattern)",
                    ));
                }
            }
        }
        Ok(Self {
            raw: raw.to_owned(),
            host,
            port,
        })
    }

    /// The URL as registered.
    pub fn as_str(&self) -> &str {
        &self.raw
    }

    /// Its host.
    pub fn host(&self) -> &TargetHost {
        &self.host
    }

    /// Its port (443 or 80 unless given).
    pub fn port(&self) -> u16 {
        self.port
    }

    /// Wraps a URL read back from storage, where it was checked when registered.
    /// Falls back to the permissive rules so that a URL stored under
    /// `TONNE_WEBHOOKS_ALLOW_PRIVATE` still loads (delivery checks addresses again).
    pub fn from_stored(raw: &str) -> Result<Self, InvalidField> {
        Self::parse(
            raw,
            TargetPolicy {
                allow_private: true,
            },
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    #[test]
    fn every_non_public_range_is_named() {
        use BlockedReason::*;
        for (addr, reason) in [
            ("127.0.0.1", Loopback),
            ("127.255.255.254", Loopback),
            ("::1", Loopback),
            ("10.1.2.3", Private),
            ("172.16.0.1", Private),
            ("172.31.255.255", Private),
            ("192.168.1.1", Private),
            ("fd12:3456::1", Private),
            ("169.254.1.1", LinkLocal),
            ("fe80::1", LinkLocal),
            ("100.64.0.1", SharedAddressSpace),
            ("100.127.255.255", SharedAddressSpace),
            ("224.0.0.1", Multicast),
            ("ff02::1", Multicast),
            ("0.0.0.0", Unspecified),
            ("::", Unspecified),
            ("192.0.2.10", Documentation),
            ("198.51.100.1", Documentation),
            ("203.0.113.9", Documentation),
            ("2001:db8::1", Documentation),
            ("169.254.169.254", CloudMetadata),
            ("100.100.100.200", CloudMetadata),
            ("fd00:ec2::254", CloudMetadata),
            ("255.255.255.255", Reserved),
            ("198.18.0.1", Reserved),
            ("240.0.0.1", Reserved),
            ("::ffff:127.0.0.1", Loopback),
            ("::ffff:169.254.169.254", CloudMetadata),
            ("64:ff9b::a00:1", Private),
            ("2002:c0a8:0101::1", Private),
        ] {
            assert_eq!(blocked_reason(ip(addr)), Some(reason), "{addr}");
        }
    }

    #[test]
    fn public_addresses_pass() {
        for addr in [
            "1.1.1.1",
            "8.8.8.8",
            "93.184.216.34",
            "172.32.0.1",
            "100.128.0.1",
            "2606:4700::1111",
            "2a00:1450:4009::200e",
        ] {
            assert_eq!(blocked_reason(ip(addr)), None, "{addr}");
        }
    }

    #[test]
    fn allow_private_lifts_all_but_multicast_and_unspecified() {
        let p = TargetPolicy {
            allow_private: true,
        };
        assert_eq!(p.check_address(ip("127.0.0.1")), Ok(()));
        assert_eq!(p.check_address(ip("10.0.0.1")), Ok(()));
        assert_eq!(
            p.check_address(ip("224.0.0.1")),
            Err(BlockedReason::Multicast)
        );
        assert_eq!(
            p.check_address(ip("0.0.0.0")),
            Err(BlockedReason::Unspecified)
        );
        assert_eq!(
            TargetPolicy::default().check_address(ip("10.0.0.1")),
            Err(BlockedReason::Private)
        );
    }

    #[test]
    fn url_rules_name_the_reason() {
        let strict = TargetPolicy::default();
        for (raw, why) in [
            ("not a url", "not a valid URL"),
            ("ftp://example.com/x", "must be an https:// URL"),
            ("http://example.com/x", "must use https://"),
            (
                "https://user:pw@example.com/x",
                "must not carry credentials",
            ),
            ("https://127.0.0.1/x", "loopback"),
            ("https://[::1]/x", "loopback"),
            ("https://10.0.0.8/x", "private"),
            ("https://169.254.169.254/latest/meta-data", "cloud metadata"),
            ("https://localhost/x", "local host"),
            ("https://db.internal/x", "local host"),
            ("https://example/x", "contract's Url pattern"),
        ] {
            let err = WebhookUrl::parse(raw, strict).unwrap_err();
            assert_eq!(err.field, "url");
            assert!(err.reason.contains(why), "{raw}: {}", err.reason);
        }
        let long = format!("https://example.com/{}", "a".repeat(MAX_URL_LEN));
        assert!(WebhookUrl::parse(&long, strict).is_err());
        let ok = WebhookUrl::parse("https://hooks.example.com:8443/tonne?x=1", strict).unwrap();
        assert_eq!(ok.port(), 8443);
        assert_eq!(ok.host(), &TargetHost::Domain("hooks.example.com".into()));
        assert_eq!(ok.as_str(), "https://hooks.example.com:8443/tonne?x=1");
    }

    #[test]
    fn allow_private_accepts_loopback_http() {
        let p = TargetPolicy {
            allow_private: true,
        };
        let url = WebhookUrl::parse("http://127.0.0.1:9000/hook", p).unwrap();
        assert_eq!(url.host(), &TargetHost::Ip(ip("127.0.0.1")));
        assert_eq!(url.port(), 9000);
        assert!(WebhookUrl::parse("http://localhost:9000/hook", p).is_ok());
        assert!(WebhookUrl::parse("http://224.0.0.1/hook", p).is_err());
    }
}
