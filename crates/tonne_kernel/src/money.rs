//! [`Money`] in a [`Currency`]: exact minor units, parsed from and rendered as
//! plain decimals.

use std::fmt;
use std::str::FromStr;

use rust_decimal::{Decimal, RoundingStrategy};

/// The currencies of the contract's `CurrencyCode` (ISO 4217).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Currency {
    /// Pound sterling.
    Gbp,
    Eur,
    /// US dollar.
    Usd,
    /// Swedish krona.
    Sek,
    /// Swiss franc.
    Chf,
    /// Polish złoty.
    Pln,
    /// Danish krone.
    Dkk,
    /// Norwegian krone.
    Nok,
}

impl Currency {
    /// Every supported currency, in the contract's order.
    pub const ALL: [Currency; 8] = [
        Currency::Gbp,
        Currency::Eur,
        Currency::Usd,
        Currency::Sek,
        Currency::Chf,
        Currency::Pln,
        Currency::Dkk,
        Currency::Nok,
    ];

    /// The ISO 4217 code, e.g. `GBP`.
    pub fn code(self) -> &'static str {
        match self {
            Currency::Gbp => "GBP",
            Currency::Eur => "EUR",
            Currency::Usd => "USD",
            Currency::Sek => "SEK",
            Currency::Chf => "CHF",
            Currency::Pln => "PLN",
            Currency::Dkk => "DKK",
            Currency::Nok => "NOK",
        }
    }

    /// Digits after the decimal point of the minor unit (ISO 4217): 2 for every supported currency.
    pub fn minor_digits(self) -> u32 {
        2
    }
}

impl fmt::Display for Currency {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// Not one of the supported ISO 4217 codes.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unsupported currency: expected one of GBP, EUR, USD, SEK, CHF, PLN, DKK, NOK")]
pub struct ParseCurrencyError;

impl FromStr for Currency {
    type Err = ParseCurrencyError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Currency::ALL
            .into_iter()
            .find(|c| c.code() == s)
            .ok_or(ParseCurrencyError)
    }
}

/// Errors of money arithmetic.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoneyError {
    /// The two amounts are in different currencies.
    #[error("currency mismatch: {0} and {1}")]
    CurrencyMismatch(Currency, Currency),
    /// The result does not fit in the stored range.
    #[error("amount out of range")]
    Overflow,
}

/// Why a wire amount is not a positive amount of a currency.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum AmountError {
    /// Not a plain decimal string.
    #[error("must be a decimal string such as \"12.50\"")]
    NotDecimal,
    /// More fraction digits than the currency's minor unit.
    #[error("has more decimals than the currency's minor unit")]
    TooPrecise,
    /// Beyond the stored range (12 integer digits).
    #[error("is too large")]
    TooLarge,
    /// Zero or negative.
    #[error("must be greater than zero")]
    NotPositive,
}

/// An amount of money in minor units (pence, cents, öre).
///
/// ```
/// use rust_decimal::{Decimal, RoundingStrategy};
/// use tonne_kernel::{Currency, Money};
///
/// let m = Money::from_decimal(Decimal::new(12345, 3), Currency::Eur, RoundingStrategy::MidpointAwayFromZero).unwrap();
/// assert_eq!(m.minor(), 1235);
/// assert_eq!(m.to_decimal_string(), "12.35");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Money {
    minor: i64,
    currency: Currency,
}

impl Money {
    /// An amount of `minor` units.
    pub fn from_minor(minor: i64, currency: Currency) -> Self {
        Self { minor, currency }
    }

    /// Zero in a currency.
    pub fn zero(currency: Currency) -> Self {
        Self::from_minor(0, currency)
    }

    /// Rounds a decimal amount (in major units) to the currency's minor unit with an explicit strategy.
    pub fn from_decimal(
        amount: Decimal,
        currency: Currency,
        strategy: RoundingStrategy,
    ) -> Result<Self, MoneyError> {
        let scaled = amount
            .round_dp_with_strategy(currency.minor_digits(), strategy)
            .checked_mul(Decimal::from(10_i64.pow(currency.minor_digits())))
            .ok_or(MoneyError::Overflow)?;
        let minor = i64::try_from(scaled.trunc()).map_err(|_| MoneyError::Overflow)?;
        Ok(Self { minor, currency })
    }

    /// Parses a positive wire amount (`"12.50"`): a plain decimal with at most
    /// the currency's minor digits and 12 integer digits.
    ///
    /// ```
    /// use tonne_kernel::{AmountError, Currency, Money};
    /// assert_eq!(Money::parse_positive("12.5", Currency::Gbp).unwrap().minor(), 1250);
    /// assert_eq!(Money::parse_positive("1.234", Currency::Gbp), Err(AmountError::TooPrecise));
    /// assert_eq!(Money::parse_positive("0", Currency::Gbp), Err(AmountError::NotPositive));
    /// assert_eq!(Money::parse_positive("1e3", Currency::Gbp), Err(AmountError::NotDecimal));
    /// ```
    pub fn parse_positive(raw: &str, currency: Currency) -> Result<Self, AmountError> {
        let (whole, fraction) = crate::split_plain_decimal(raw).ok_or(AmountError::NotDecimal)?;
        if fraction.len() > usize::try_from(currency.minor_digits()).unwrap_or(2) {
            return Err(AmountError::TooPrecise);
        }
        if whole.len() > 12 {
            return Err(AmountError::TooLarge);
        }
        let amount: Decimal = raw.parse().map_err(|_| AmountError::NotDecimal)?;
        let money = Self::from_decimal(amount, currency, RoundingStrategy::ToZero)
            .map_err(|_| AmountError::TooLarge)?;
        if money.minor() <= 0 {
            return Err(AmountError::NotPositive);
        }
        Ok(money)
    }

    /// The amount in minor units.
    pub fn minor(&self) -> i64 {
        self.minor
    }

    /// The currency.
    pub fn currency(&self) -> Currency {
        self.currency
    }

    /// The amount in major units, exactly.
    pub fn to_decimal(&self) -> Decimal {
        Decimal::new(self.minor, self.currency.minor_digits())
    }

    /// The wire form: a decimal string with the currency's minor digits, e.g. `"-132.50"`.
    pub fn to_decimal_string(&self) -> String {
        self.to_decimal().to_string()
    }

    /// Adds two amounts of the same currency.
    pub fn checked_add(self, other: Money) -> Result<Money, MoneyError> {
        if self.currency != other.currency {
            return Err(MoneyError::CurrencyMismatch(self.currency, other.currency));
        }
        self.minor
            .checked_add(other.minor)
            .map(|minor| Money::from_minor(minor, self.currency))
            .ok_or(MoneyError::Overflow)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_round_trips() {
        for c in Currency::ALL {
            assert_eq!(c.code().parse::<Currency>(), Ok(c));
        }
        assert!("gbp".parse::<Currency>().is_err());
        assert!("JPY".parse::<Currency>().is_err());
    }

    #[test]
    fn renders_minor_digits_including_negative_and_zero() {
        assert_eq!(Money::zero(Currency::Gbp).to_decimal_string(), "0.00");
        assert_eq!(
            Money::from_minor(-13250, Currency::Usd).to_decimal_string(),
            "-132.50"
        );
        assert_eq!(
            Money::from_minor(5, Currency::Sek).to_decimal_string(),
            "0.05"
        );
    }

    #[test]
    fn add_refuses_mixed_currencies_and_overflow() {
        let a = Money::from_minor(1, Currency::Gbp);
        assert_eq!(
            a.checked_add(Money::from_minor(1, Currency::Eur)),
            Err(MoneyError::CurrencyMismatch(Currency::Gbp, Currency::Eur))
        );
        assert_eq!(
            Money::from_minor(i64::MAX, Currency::Gbp).checked_add(a),
            Err(MoneyError::Overflow)
        );
        assert_eq!(a.checked_add(a), Ok(Money::from_minor(2, Currency::Gbp)));
    }

    #[test]
    fn from_decimal_rounds_by_the_given_rule() {
        let half = Decimal::new(1005, 3); // 1.005
        let up = Money::from_decimal(half, Currency::Gbp, RoundingStrategy::MidpointAwayFromZero);
        let even = Money::from_decimal(half, Currency::Gbp, RoundingStrategy::MidpointNearestEven);
        assert_eq!(up.map(|m| m.minor()), Ok(101));
        assert_eq!(even.map(|m| m.minor()), Ok(100));
        assert_eq!(
            Money::from_decimal(Decimal::MAX, Currency::Gbp, RoundingStrategy::ToZero),
            Err(MoneyError::Overflow)
        );
    }
}
