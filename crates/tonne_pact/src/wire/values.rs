//! Values PACT and iLEAP write alike: decimals as text, times in RFC 3339,
//! a leg's distance as ISO 14083 names how it was found, the tonnes a line
//! carries.

use rust_decimal::Decimal;
use serde::Serialize;
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;
use tonne_kernel::Mass;
use tonne_shipments::ReportLine;

/// ISO 14083's distance: actual (the client's), great-circle (air, from
/// the airports) or shortest feasible (Tonne's routing).
#[derive(Debug, Serialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Distance {
    Actual(String),
    Gcd(String),
    Sfd(String),
}

/// A line's distance as ISO 14083 names how it was found.
pub(crate) fn distance_of(line: &ReportLine) -> Distance {
    let km = text(line.distance_km);
    if line.distance_given || line.hub {
        Distance::Actual(km)
    } else if line.category == "air" {
        Distance::Gcd(km)
    } else {
        Distance::Sfd(km)
    }
}

/// A decimal as PACT writes one: no trailing zeros.
pub(crate) fn text(d: Decimal) -> String {
    d.normalize().to_string()
}

pub(crate) fn kg(mass: Mass) -> Decimal {
    Decimal::new(mass.grams(), 3)
}

pub(crate) fn timestamp(at: OffsetDateTime) -> String {
    at.replace_nanosecond(0)
        .unwrap_or(at)
        .format(&Rfc3339)
        .unwrap_or_default()
}

/// The tonnes a line carries or handles: its load, else its activity over its distance.
pub(crate) fn line_tonnes(line: &ReportLine) -> Option<Decimal> {
    line.tonnes.filter(|t| *t > Decimal::ZERO).or_else(|| {
        (line.distance_km > Decimal::ZERO && line.activity_tkm > Decimal::ZERO)
            .then(|| (line.activity_tkm / line.distance_km).round_dp(3))
    })
}
