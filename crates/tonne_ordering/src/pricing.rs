//! Pricing: one rounding rule, applied per bundle line, so lines add up to the order.
//!
//! - line `offset_cost` = quantity (t) × unit price, rounded half away from zero
//!   to the currency's minor unit;
//! - order `offset_cost` = Σ line offset costs (exactly);
//! - `commission` = order offset cost × commission rate, rounded the same way;
//! - `total_cost` = offset cost + commission (exactly);
//! - a bundle's `gross_unit_price` = unit price × (1 + rate), rounded the same way
//!   (informative; totals are never computed from it).

use rust_decimal::{Decimal, RoundingStrategy};
use tonne_kernel::{Currency, Mass, Money, MoneyError};

const ROUNDING: RoundingStrategy = RoundingStrategy::MidpointAwayFromZero;

/// The commission rate: a fraction in [0, 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CommissionRate(Decimal);

impl CommissionRate {
    /// 10 %, the default.
    pub const TEN_PERCENT: CommissionRate = CommissionRate(Decimal::from_parts(10, 0, 0, false, 2));

    /// A rate, if 0 ≤ rate < 1.
    pub fn new(rate: Decimal) -> Option<Self> {
        (rate >= Decimal::ZERO && rate < Decimal::ONE).then_some(Self(rate))
    }

    /// The fraction.
    pub fn get(self) -> Decimal {
        self.0
    }
}

/// A quantity at a unit price.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Line {
    pub quantity: Mass,
    /// Price per tonne.
    pub unit_price: Money,
}

/// Priced lines and totals.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Priced {
    /// Each line's offset cost, in input order.
    pub line_costs: Vec<Money>,
    /// Σ line costs.
    pub offset_cost: Money,
    pub commission: Money,
    /// Offset cost + commission.
    pub total_cost: Money,
}

/// Rounds a decimal amount into money by the one rule.
pub fn round(amount: Decimal, currency: Currency) -> Result<Money, MoneyError> {
    Money::from_decimal(amount, currency, ROUNDING)
}

/// The price per tonne including commission.
pub fn gross_unit_price(unit_price: Money, rate: CommissionRate) -> Result<Money, MoneyError> {
    let gross = unit_price
        .to_decimal()
        .checked_mul(Decimal::ONE + rate.get())
        .ok_or(MoneyError::Overflow)?;
    round(gross, unit_price.currency())
}

/// Prices lines in one currency.
pub fn quote_lines(
    lines: &[Line],
    currency: Currency,
    rate: CommissionRate,
) -> Result<Priced, MoneyError> {
    let mut line_costs = Vec::with_capacity(lines.len());
    let mut offset_cost = Money::zero(currency);
    for line in lines {
        if line.unit_price.currency() != currency {
            return Err(MoneyError::CurrencyMismatch(
                line.unit_price.currency(),
                currency,
            ));
        }
        let exact = line
            .quantity
            .tonnes()
            .checked_mul(line.unit_price.to_decimal())
            .ok_or(MoneyError::Overflow)?;
        let cost = round(exact, currency)?;
        offset_cost = offset_cost.checked_add(cost)?;
        line_costs.push(cost);
    }
    let commission_exact = offset_cost
        .to_decimal()
        .checked_mul(rate.get())
        .ok_or(MoneyError::Overflow)?;
    let commission = round(commission_exact, currency)?;
    let total_cost = offset_cost.checked_add(commission)?;
    Ok(Priced {
        line_costs,
        offset_cost,
        commission,
        total_cost,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use tonne_kernel::MassUnit;

    fn rate(pct: i64) -> CommissionRate {
        CommissionRate::new(Decimal::new(pct, 2)).unwrap()
    }

    #[test]
    fn lines_round_half_up_and_add_up_exactly() {
        // 0.333 t at 10.05 = 3.34665 → 3.35; 0.667 t at 10.05 = 6.70335 → 6.70
        let lines = [
            Line {
                quantity: Mass::parse("0.333", MassUnit::T).unwrap(),
                unit_price: Money::from_minor(1005, Currency::Eur),
            },
            Line {
                quantity: Mass::parse("0.667", MassUnit::T).unwrap(),
                unit_price: Money::from_minor(1005, Currency::Eur),
            },
        ];
        let p = quote_lines(&lines, Currency::Eur, rate(10)).unwrap();
        assert_eq!(
            p.line_costs.iter().map(|m| m.minor()).collect::<Vec<_>>(),
            vec![335, 670]
        );
        assert_eq!(p.offset_cost.minor(), 1005);
        assert_eq!(p.commission.minor(), 101); // 100.5 → 101
        assert_eq!(p.total_cost.minor(), 1106);
    }

    #[test]
    fn gross_price_and_rate_bounds() {
        assert_eq!(
            gross_unit_price(Money::from_minor(609, Currency::Gbp), rate(10))
                .unwrap()
                .minor(),
            670
        ); // 6.699
        assert!(CommissionRate::new(Decimal::ONE).is_none());
        assert!(CommissionRate::new(Decimal::new(-1, 2)).is_none());
    }

    #[test]
    fn mixed_currencies_are_refused() {
        let lines = [Line {
            quantity: Mass::from_grams(1),
            unit_price: Money::from_minor(1, Currency::Usd),
        }];
        assert!(quote_lines(&lines, Currency::Gbp, rate(0)).is_err());
    }
}
