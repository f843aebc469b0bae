//! What one offset link lets its hosted page take: per order, per UTC day
//! and per visitor address per day ([`LinkLimits`]), the owner's raw form of
//! them ([`LimitsDraft`]), the server's defaults ([`DefaultLimits`]), and the
//! day's claim a hosted-page order makes before it is placed ([`Claim`]).
//!
//! ```
//! use rust_decimal::Decimal;
//! use tonne_kernel::{Currency, Mass, Money};
//! use tonne_links::{DefaultLimits, LimitReached, LinkLimits};
//!
//! let limits = LinkLimits::defaults(&DefaultLimits::default(), Currency::Gbp);
//! assert_eq!(limits.order_mass, Mass::from_grams(10_000_000));
//! // 250 t in one order is refused, whatever the stock
//! let big = Mass::from_grams(250_000_000);
//! assert!(matches!(
//!     limits.check_order(big, Money::from_minor(100, Currency::Gbp)),
//!     Err(LimitReached::OrderMass { .. })
//! ));
//! assert!(limits.check_order(Mass::from_grams(1_000_000), Money::from_minor(2_000, Currency::Gbp)).is_ok());
//! ```

use rust_decimal::Decimal;
use tonne_kernel::{Currency, Mass, Money};

/// Most orders (per day, per link or per visitor) a limit may name.
pub const MAX_DAILY_ORDERS: u32 = 100_000;

/// The limits of one link, set by its owner (the console) or the server's
/// defaults (links made over the API, and links made before limits existed).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LinkLimits {
    /// Most CO₂e one order may fund.
    pub order_mass: Mass,
    /// Most one order may cost (commission included), in the link's currency.
    pub order_value: Money,
    /// Most orders the link takes per UTC day.
    pub daily_orders: u32,
    /// Most CO₂e the link's orders of one UTC day may fund together.
    pub daily_mass: Mass,
    /// Most orders one visitor address may place through the link per UTC day.
    pub visitor_daily_orders: u32,
}

/// The server's default limits (`TONNE_OFFSET_LINK_DEFAULT_*`), in tonnes and
/// major units of a link's currency.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DefaultLimits {
    /// Tonnes per order.
    pub order_tonnes: Decimal,
    /// Money per order.
    pub order_value: Decimal,
    /// Orders per link and day.
    pub daily_orders: u32,
    /// Tonnes per link and day.
    pub daily_tonnes: Decimal,
    /// Orders per visitor address, link and day.
    pub visitor_daily_orders: u32,
}

impl Default for DefaultLimits {
    /// 10 t or 1,000 (of the currency) per order; 50 orders and 100 t per day;
    /// 3 orders per visitor address per day.
    fn default() -> Self {
        Self {
            order_tonnes: Decimal::from(10),
            order_value: Decimal::from(1_000),
            daily_orders: 50,
            daily_tonnes: Decimal::from(100),
            visitor_daily_orders: 3,
        }
    }
}

/// A limit the owner typed (the console's form): `None` or blank keeps the default.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct LimitsDraft {
    /// Tonnes per order, e.g. `"2.5"`.
    pub order_tonnes: Option<String>,
    /// Money per order, e.g. `"250.00"`.
    pub order_value: Option<String>,
    /// Orders per day, e.g. `"20"`.
    pub daily_orders: Option<String>,
    /// Tonnes per day.
    pub daily_tonnes: Option<String>,
    /// Orders per visitor address per day.
    pub visitor_daily_orders: Option<String>,
}

/// Which limit refused an order; the text is what the customer reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum LimitReached {
    /// The order funds more than the link allows in one order.
    #[error("this offset link takes at most {} t per order", .max.to_tonnes_string())]
    OrderMass {
        /// The link's limit.
        max: Mass,
    },
    /// The order costs more than the link allows in one order.
    #[error("this offset link takes at most {} {} per order", .max.to_decimal_string(), .max.currency().code())]
    OrderValue {
        /// The link's limit.
        max: Money,
    },
    /// The link took as many orders today as its owner allows.
    #[error(
        "this offset link has taken all the orders it accepts today; please come back tomorrow"
    )]
    DailyOrders,
    /// Today's orders of the link reached the mass its owner allows.
    #[error("this offset link has reached today's limit of CO₂e; please come back tomorrow")]
    DailyMass,
    /// This visitor address placed as many orders through the link today as allowed.
    #[error(
        "you have placed as many orders through this offset link today as it allows; please come back tomorrow"
    )]
    VisitorOrders,
}

impl LimitReached {
    /// Whether the refusal is about this order's size (a smaller order may pass)
    /// rather than about today's count (nothing passes until tomorrow).
    pub fn is_per_order(self) -> bool {
        matches!(self, Self::OrderMass { .. } | Self::OrderValue { .. })
    }
}

impl LinkLimits {
    /// The server's defaults in a link's currency (a value that does not fit
    /// the currency's minor units is rounded down).
    pub fn defaults(defaults: &DefaultLimits, currency: Currency) -> Self {
        Self {
            order_mass: tonnes(defaults.order_tonnes),
            order_value: money(defaults.order_value, currency),
            daily_orders: defaults.daily_orders,
            daily_mass: tonnes(defaults.daily_tonnes),
            visitor_daily_orders: defaults.visitor_daily_orders,
        }
    }

    /// The rule of one order: within both per-order limits.
    pub fn check_order(&self, mass: Mass, cost: Money) -> Result<(), LimitReached> {
        if mass.grams() > self.order_mass.grams() {
            return Err(LimitReached::OrderMass {
                max: self.order_mass,
            });
        }
        if cost.minor() > self.order_value.minor() {
            return Err(LimitReached::OrderValue {
                max: self.order_value,
            });
        }
        Ok(())
    }
}

fn tonnes(t: Decimal) -> Mass {
    let grams = t
        .checked_mul(Decimal::from(1_000_000))
        .map(|g| g.trunc())
        .and_then(|g| i64::try_from(g).ok())
        .unwrap_or(i64::MAX);
    Mass::from_grams(grams)
}

fn money(value: Decimal, currency: Currency) -> Money {
    Money::from_decimal(value, currency, rust_decimal::RoundingStrategy::ToZero)
        .unwrap_or_else(|_| Money::from_minor(i64::MAX, currency))
}

/// Why the owner's limits were refused (the field and the reason).
pub type LimitProblem = (&'static str, String);

/// Checks the owner's limits against the server's ceilings (`max_tonnes`,
/// `max_value`): each one above zero, a mass at most `max_tonnes` per order, a
/// value at most `max_value`, counts at most [`MAX_DAILY_ORDERS`]. A blank or
/// absent field takes the default.
pub fn parse_limits(
    draft: &LimitsDraft,
    defaults: &DefaultLimits,
    ceilings: (Decimal, Decimal),
    currency: Currency,
) -> Result<LinkLimits, LimitProblem> {
    let (max_tonnes, max_value) = ceilings;
    let given = |raw: &Option<String>| {
        raw.as_deref()
            .map(str::trim)
            .filter(|v| !v.is_empty())
            .map(str::to_owned)
    };
    let mut limits = LinkLimits::defaults(defaults, currency);
    if let Some(raw) = given(&draft.order_tonnes) {
        limits.order_mass = mass_limit("order_tonnes", &raw, Some(max_tonnes))?;
    }
    if let Some(raw) = given(&draft.order_value) {
        let value = Money::parse_positive(&raw, currency)
            .map_err(|why| ("order_value", format!("`{raw}` {why}")))?;
        if value.to_decimal() > max_value {
            return Err((
                "order_value",
                format!("may be at most {max_value} {}", currency.code()),
            ));
        }
        limits.order_value = value;
    }
    if let Some(raw) = given(&draft.daily_orders) {
        limits.daily_orders = count("daily_orders", &raw)?;
    }
    if let Some(raw) = given(&draft.daily_tonnes) {
        limits.daily_mass = mass_limit("daily_tonnes", &raw, None)?;
    }
    if let Some(raw) = given(&draft.visitor_daily_orders) {
        limits.visitor_daily_orders = count("visitor_daily_orders", &raw)?;
    }
    Ok(limits)
}

fn mass_limit(field: &'static str, raw: &str, max: Option<Decimal>) -> Result<Mass, LimitProblem> {
    let mass = Mass::parse(raw, tonne_kernel::MassUnit::T)
        .map_err(|e| (field, format!("`{raw}` is not a mass in tonnes: {e}")))?;
    if mass.grams() == 0 {
        return Err((field, "must be more than zero".to_owned()));
    }
    if let Some(max) = max.filter(|max| mass.tonnes() > *max) {
        return Err((field, format!("may be at most {max} t")));
    }
    Ok(mass)
}

fn count(field: &'static str, raw: &str) -> Result<u32, LimitProblem> {
    match raw.parse::<u32>() {
        Ok(n) if (1..=MAX_DAILY_ORDERS).contains(&n) => Ok(n),
        _ => Err((
            field,
            format!("must be a whole number from 1 to {MAX_DAILY_ORDERS}"),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn defaults() -> DefaultLimits {
        DefaultLimits::default()
    }

    #[test]
    fn blank_fields_take_the_defaults_and_typed_ones_replace_them() {
        let ceilings = (Decimal::from(1_000), Decimal::from(10_000));
        let all_default = parse_limits(
            &LimitsDraft::default(),
            &defaults(),
            ceilings,
            Currency::Eur,
        )
        .unwrap();
        assert_eq!(
            all_default,
            LinkLimits::defaults(&defaults(), Currency::Eur)
        );
        let draft = LimitsDraft {
            order_tonnes: Some("2.5".into()),
            order_value: Some("99.50".into()),
            daily_orders: Some(" 7 ".into()),
            daily_tonnes: Some("".into()),
            visitor_daily_orders: Some("1".into()),
        };
        let set = parse_limits(&draft, &defaults(), ceilings, Currency::Eur).unwrap();
        assert_eq!(set.order_mass, Mass::from_grams(2_500_000));
        assert_eq!(set.order_value, Money::from_minor(9_950, Currency::Eur));
        assert_eq!(set.daily_orders, 7);
        assert_eq!(set.daily_mass, all_default.daily_mass);
        assert_eq!(set.visitor_daily_orders, 1);
    }

    #[test]
    fn limits_above_the_ceilings_zero_or_junk_are_refused() {
        let ceilings = (Decimal::from(1_000), Decimal::from(10_000));
        let cases = [
            (
                "order_tonnes",
                LimitsDraft {
                    order_tonnes: Some("1000.5".into()),
                    ..Default::default()
                },
            ),
            (
                "order_tonnes",
                LimitsDraft {
                    order_tonnes: Some("0".into()),
                    ..Default::default()
                },
            ),
            (
                "order_value",
                LimitsDraft {
                    order_value: Some("10000.01".into()),
                    ..Default::default()
                },
            ),
            (
                "order_value",
                LimitsDraft {
                    order_value: Some("-1".into()),
                    ..Default::default()
                },
            ),
            (
                "daily_orders",
                LimitsDraft {
                    daily_orders: Some("0".into()),
                    ..Default::default()
                },
            ),
            (
                "daily_orders",
                LimitsDraft {
                    daily_orders: Some("100001".into()),
                    ..Default::default()
                },
            ),
            (
                "daily_tonnes",
                LimitsDraft {
                    daily_tonnes: Some("abc".into()),
                    ..Default::default()
                },
            ),
            (
                "visitor_daily_orders",
                LimitsDraft {
                    visitor_daily_orders: Some("1.5".into()),
                    ..Default::default()
                },
            ),
        ];
        for (field, draft) in cases {
            let refused = parse_limits(&draft, &defaults(), ceilings, Currency::Eur);
            assert_eq!(refused.map_err(|(f, _)| f), Err(field), "{draft:?}");
        }
    }

    #[test]
    fn an_order_is_checked_against_both_per_order_limits() {
        let limits = LinkLimits::defaults(&defaults(), Currency::Gbp);
        let pounds = |p: i64| Money::from_minor(p * 100, Currency::Gbp);
        assert_eq!(
            limits.check_order(Mass::from_grams(10_000_000), pounds(1_000)),
            Ok(())
        );
        assert_eq!(
            limits.check_order(Mass::from_grams(10_000_001), pounds(1)),
            Err(LimitReached::OrderMass {
                max: Mass::from_grams(10_000_000)
            })
        );
        assert_eq!(
            limits.check_order(
                Mass::from_grams(1),
                Money::from_minor(100_001, Currency::Gbp)
            ),
            Err(LimitReached::OrderValue { max: pounds(1_000) })
        );
        assert!(LimitReached::OrderMass { max: Mass::ZERO }.is_per_order());
        assert!(!LimitReached::VisitorOrders.is_per_order());
    }
}
