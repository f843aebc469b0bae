//! Quotes: the lines a request allocates across bundles, priced now (fixed
//! quantities, shares of a total, or the most a value buys).

use tonne_kernel::{Currency, Mass, MassUnit, Money};

use crate::allocation::split;
use crate::catalogue::{Bundle, BundleId};
use crate::errors::QuoteError;
use crate::pricing::{CommissionRate, Line, gross_unit_price, quote_lines};

/// One bundle's part of a quote or order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QuoteLine {
    pub bundle_id: BundleId,
    /// Bundle name.
    pub bundle_name: String,
    /// Tonnes allocated to it.
    pub quantity: Mass,
    /// Its price per tonne in the order's currency.
    pub unit_price: Money,
    /// Price per tonne with commission.
    pub gross_unit_price: Money,
    /// `quantity × unit_price`, rounded by the pricing rule.
    pub offset_cost: Money,
    /// The bundle's inventory cannot cover this line.
    pub insufficient_available_quantity: bool,
}

/// A priced allocation: what an order of this request would cost now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Quote {
    /// The account's currency.
    pub currency: Currency,
    /// Σ line quantities.
    pub quantity: Mass,
    /// Σ line offset costs.
    pub offset_cost: Money,
    /// Commission on the offset cost.
    pub commission: Money,
    /// Offset cost + commission.
    pub total_cost: Money,
    /// Per bundle, in selection order.
    pub lines: Vec<QuoteLine>,
    /// The mass asked for (orders by mass).
    pub requested_quantity: Option<Mass>,
    /// The value asked for (orders by value).
    pub requested_value: Option<Money>,
}

#[cfg(test)]
impl Quote {
    /// Each line's tonnes, in order (what the pricing tests compare).
    pub(crate) fn line_tonnes(&self) -> Vec<String> {
        self.lines
            .iter()
            .map(|l| l.quantity.to_tonnes_string())
            .collect()
    }
}

fn overflow() -> QuoteError {
    QuoteError::QuantityInvalid("the amount is too large to price".into())
}

/// Prices fixed quantities per bundle.
pub(crate) fn price(
    bundles: &[&Bundle],
    quantities: &[Mass],
    currency: Currency,
    rate: CommissionRate,
) -> Result<Quote, QuoteError> {
    let mut lines = Vec::with_capacity(bundles.len());
    for bundle in bundles {
        let unit_price = bundle.price_in(currency).ok_or_else(|| {
            QuoteError::BundleInvalid(format!("bundle {} is not sold in {currency}", bundle.id))
        })?;
        lines.push(unit_price);
    }
    let priced_lines: Vec<Line> = quantities
        .iter()
        .zip(&lines)
        .map(|(q, p)| Line {
            quantity: *q,
            unit_price: *p,
        })
        .collect();
    let priced = quote_lines(&priced_lines, currency, rate).map_err(|_| overflow())?;
    let mut out = Vec::with_capacity(bundles.len());
    for ((bundle, line), cost) in bundles.iter().zip(&priced_lines).zip(&priced.line_costs) {
        out.push(QuoteLine {
            bundle_id: bundle.id,
            bundle_name: bundle.name.clone(),
            quantity: line.quantity,
            unit_price: line.unit_price,
            gross_unit_price: gross_unit_price(line.unit_price, rate).map_err(|_| overflow())?,
            offset_cost: *cost,
            insufficient_available_quantity: bundle.available.is_some_and(|a| a < line.quantity),
        });
    }
    let quantity = Mass::from_grams(quantities.iter().map(Mass::grams).sum());
    Ok(Quote {
        currency,
        quantity,
        offset_cost: priced.offset_cost,
        commission: priced.commission,
        total_cost: priced.total_cost,
        lines: out,
        requested_quantity: None,
        requested_value: None,
    })
}

/// Splits a total mass across bundles by shares (hundredths), each part a whole
/// number of `trunc`, the parts summing to the total truncated to `trunc`.
pub(crate) fn by_shares(
    bundles: &[(&Bundle, u32)],
    total: Mass,
    trunc: MassUnit,
    currency: Currency,
    rate: CommissionRate,
) -> Result<Quote, QuoteError> {
    let units = total.grams() / trunc.grams();
    let weights: Vec<u32> = bundles.iter().map(|(_, share)| *share).collect();
    let quantities: Vec<Mass> = split(units, &weights)
        .into_iter()
        .map(|u| Mass::from_grams(u.saturating_mul(trunc.grams())))
        .collect();
    let refs: Vec<&Bundle> = bundles.iter().map(|(b, _)| *b).collect();
    price(&refs, &quantities, currency, rate)
}

/// The largest quantity (a whole number of `trunc`) whose total cost, commission
/// included, does not exceed `value`. Binary search over the number of units.
pub(crate) fn by_value(
    bundles: &[(&Bundle, u32)],
    value: Money,
    trunc: MassUnit,
    rate: CommissionRate,
) -> Result<Quote, QuoteError> {
    let currency = value.currency();
    let unit = trunc.grams();
    let max_units = 1_000_000_000_000_000 / unit;
    let cost = |units: i64| -> Result<Quote, QuoteError> {
        by_shares(
            bundles,
            Mass::from_grams(units * unit),
            trunc,
            currency,
            rate,
        )
    };
    let affordable = |q: &Quote| q.total_cost.minor() <= value.minor();
    // Grow an upper bound that is not affordable, then search between.
    let mut lo = 0_i64;
    let mut hi = 1_i64;
    while hi <= max_units && affordable(&cost(hi)?) {
        lo = hi;
        hi = hi.saturating_mul(2);
    }
    let mut hi = hi.min(max_units + 1);
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if affordable(&cost(mid)?) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    if lo == 0 {
        return Err(QuoteError::QuantityInvalid(format!(
            "value: {} {currency} does not buy one {} of the selected bundles",
            value.to_decimal_string(),
            trunc.as_str()
        )));
    }
    let mut quote = cost(lo)?;
    quote.requested_value = Some(value);
    Ok(quote)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rust_decimal::Decimal;

    fn bundle(n: u128, minor: i64, available: Option<&str>) -> Bundle {
        Bundle {
            available: available.map(|a| Mass::parse(a, MassUnit::T).unwrap()),
            ..Bundle::sample(n, minor)
        }
    }

    fn rate() -> CommissionRate {
        CommissionRate::new(Decimal::new(10, 2)).unwrap()
    }

    #[test]
    fn a_split_sums_to_the_whole_and_costs_add_up() {
        let (a, b, c) = (
            bundle(1, 1000, None),
            bundle(2, 2550, Some("0.5")),
            bundle(3, 999, None),
        );
        let total = Mass::parse("1", MassUnit::T).unwrap();
        let q = by_shares(
            &[(&a, 3333), (&b, 3333), (&c, 3334)],
            total,
            MassUnit::G,
            Currency::Gbp,
            rate(),
        )
        .unwrap();
        assert_eq!(q.quantity, total);
        assert_eq!(
            q.lines.iter().map(|l| l.quantity.grams()).sum::<i64>(),
            1_000_000
        );
        assert_eq!(
            q.lines.iter().map(|l| l.offset_cost.minor()).sum::<i64>(),
            q.offset_cost.minor()
        );
        assert_eq!(
            q.total_cost.minor(),
            q.offset_cost.minor() + q.commission.minor()
        );
        assert!(!q.lines[0].insufficient_available_quantity);
        assert!(
            !q.lines[1].insufficient_available_quantity,
            "0.3333 t of 0.5 t is covered"
        );
        let big = by_shares(&[(&b, 10_000)], total, MassUnit::G, Currency::Gbp, rate()).unwrap();
        assert!(big.lines[0].insufficient_available_quantity);
    }

    #[test]
    fn truncation_drops_what_does_not_fill_a_whole_unit() {
        let a = bundle(1, 1000, None);
        let b = bundle(2, 1000, None);
        let q = by_shares(
            &[(&a, 5000), (&b, 5000)],
            Mass::parse("3.7", MassUnit::T).unwrap(),
            MassUnit::T,
            Currency::Gbp,
            rate(),
        )
        .unwrap();
        assert_eq!(q.line_tonnes(), vec!["2", "1"]);
        assert_eq!(q.quantity.to_tonnes_string(), "3");
    }

    #[test]
    fn by_value_buys_the_most_that_fits() {
        let a = bundle(1, 1000, None); // 10.00/t, 11.00 with commission
        let value = Money::from_minor(10_000, Currency::Gbp); // 100.00
        let q = by_value(&[(&a, 10_000)], value, MassUnit::Kg, rate()).unwrap();
        assert!(q.total_cost.minor() <= 10_000);
        // one more kilogram would cost too much
        let next = by_shares(
            &[(&a, 10_000)],
            Mass::from_grams(q.quantity.grams() + 1000),
            MassUnit::Kg,
            Currency::Gbp,
            rate(),
        )
        .unwrap();
        assert!(next.total_cost.minor() > 10_000);
        assert_eq!(q.quantity.to_tonnes_string(), "9.091"); // 90.91 + 9.09 commission = 100.00
        assert_eq!(q.requested_value, Some(value));
        assert!(
            by_value(
                &[(&a, 10_000)],
                Money::from_minor(1, Currency::Gbp),
                MassUnit::T,
                rate()
            )
            .is_err()
        );
    }

    #[test]
    fn a_bundle_not_priced_in_the_currency_is_refused() {
        let a = bundle(1, 1000, None);
        let err = by_shares(
            &[(&a, 10_000)],
            Mass::from_grams(1),
            MassUnit::G,
            Currency::Eur,
            rate(),
        )
        .unwrap_err();
        assert!(matches!(err, QuoteError::BundleInvalid(_)));
    }
}
