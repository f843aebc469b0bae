//! Activity quantities of the contract: distances, areas, counts, money.

use rust_decimal::Decimal;
use tonne_kernel::Currency;

use crate::errors::EstimateError;
use crate::factors::{Factor, authored};

/// Parses the contract's `^[0-9]+(\.[0-9]+)?$` amounts (at most 12 digits
/// either side of the point, so that arithmetic on them cannot overflow);
/// `field` names the amount in errors.
pub fn parse_amount(field: &str, amount: &str) -> Result<Decimal, EstimateError> {
    let (whole, fraction) = tonne_kernel::split_plain_decimal(amount).ok_or_else(|| {
        EstimateError::invalid(
            field,
            "must be a non-negative decimal string such as \"12.5\"",
        )
    })?;
    if whole.trim_start_matches('0').len() > 12 || fraction.len() > 12 {
        return Err(EstimateError::invalid(field, "is out of range"));
    }
    amount
        .parse()
        .map_err(|_| EstimateError::invalid(field, "is out of range"))
}

/// The contract's distance units.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DistanceUnit {
    Km,
    /// International mile (1.609344 km).
    Mi,
    /// Nautical mile (1.852 km).
    Nm,
}

impl DistanceUnit {
    fn km(self) -> Decimal {
        match self {
            DistanceUnit::Km => Decimal::ONE,
            DistanceUnit::Mi => Decimal::new(1_609_344, 6),
            DistanceUnit::Nm => Decimal::new(1_852, 3),
        }
    }
}

/// A distance, held in kilometres.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Distance {
    km: Decimal,
}

impl Distance {
    /// The most any single distance may be: 1,000,000 km.
    const MAX_KM: i64 = 1_000_000;

    /// Parses an amount in a unit; `field` names it in errors.
    ///
    /// ```
    /// use tonne_estimation::{Distance, DistanceUnit};
    /// let d = Distance::parse("route.amount", "100", DistanceUnit::Mi).unwrap();
    /// assert_eq!(d.km().normalize().to_string(), "160.9344");
    /// ```
    pub fn parse(field: &str, amount: &str, unit: DistanceUnit) -> Result<Self, EstimateError> {
        let km = parse_amount(field, amount)?
            .checked_mul(unit.km())
            .ok_or_else(|| EstimateError::invalid(field, "is out of range"))?;
        if km > Decimal::from(Self::MAX_KM) {
            return Err(EstimateError::invalid(
                field,
                "must be at most 1,000,000 km",
            ));
        }
        Ok(Self { km })
    }

    /// A distance of `km` kilometres (negative values become zero).
    pub fn from_km(km: Decimal) -> Self {
        Self {
            km: km.max(Decimal::ZERO),
        }
    }

    pub fn km(&self) -> Decimal {
        self.km
    }

    /// Kilometres rounded to three decimals, as the responses show them.
    pub fn to_km_string(&self) -> String {
        self.km
            .round_dp_with_strategy(3, rust_decimal::RoundingStrategy::MidpointAwayFromZero)
            .normalize()
            .to_string()
    }
}

/// The contract's area units.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AreaUnit {
    /// m².
    SquareMeters,
    /// ft² (0.09290304 m²).
    SquareFeet,
}

/// An area, held in square metres.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Area {
    m2: Decimal,
}

impl Area {
    /// Parses an amount in a unit.
    pub fn parse(field: &str, amount: &str, unit: AreaUnit) -> Result<Self, EstimateError> {
        let value = parse_amount(field, amount)?;
        let m2 = match unit {
            AreaUnit::SquareMeters => value,
            AreaUnit::SquareFeet => value
                .checked_mul(Decimal::new(9_290_304, 8))
                .ok_or_else(|| EstimateError::invalid(field, "is out of range"))?,
        };
        Ok(Self { m2 })
    }

    /// Square metres.
    pub fn m2(&self) -> Decimal {
        self.m2
    }
}

/// A spend: a decimal amount of a currency.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Spend {
    /// Amount in major units.
    pub amount: Decimal,
    pub currency: Currency,
}

impl Spend {
    /// Parses the contract's `MonetaryAmount.value`.
    pub fn parse(field: &str, value: &str, currency: Currency) -> Result<Self, EstimateError> {
        Ok(Self {
            amount: parse_amount(field, value)?,
            currency,
        })
    }

    /// The amount in 2022 US dollars (ECB 2022 annual averages).
    pub fn usd_2022(&self) -> Result<Decimal, EstimateError> {
        let per_eur = usd_rate(self.currency)
            .ok_or_else(|| EstimateError::ExchangeRateNotFound(self.currency.code().to_owned()))?;
        Ok(self.amount / per_eur.value() * authored::USD_PER_EUR.value())
    }
}

/// Units of `currency` per euro, if Tonne has a rate for it.
pub(crate) fn usd_rate(currency: Currency) -> Option<Factor> {
    match currency {
        Currency::Eur => Some(Factor::new(1, 0, "identity", "EUR/EUR")),
        Currency::Usd => Some(authored::USD_PER_EUR),
        Currency::Gbp => Some(authored::GBP_PER_EUR),
        Currency::Chf => Some(authored::CHF_PER_EUR),
        Currency::Sek => Some(authored::SEK_PER_EUR),
        Currency::Dkk => Some(authored::DKK_PER_EUR),
        Currency::Nok => Some(authored::NOK_PER_EUR),
        Currency::Pln => Some(authored::PLN_PER_EUR),
    }
}

/// Kilograms → grams, rounded half away from zero; the engines' one exit to [`tonne_kernel::Mass`].
pub(crate) fn kg_to_mass(field: &str, kg: Decimal) -> Result<tonne_kernel::Mass, EstimateError> {
    kg.checked_mul(Decimal::from(1000))
        .map(|g| g.round_dp_with_strategy(0, rust_decimal::RoundingStrategy::MidpointAwayFromZero))
        .and_then(|g| i64::try_from(g).ok())
        .filter(|g| *g <= 1_000_000_000_000_000)
        .map(|g| tonne_kernel::Mass::from_grams(g.max(0)))
        .ok_or_else(|| EstimateError::invalid(field, "gives an estimate out of range"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distance_units_agree() {
        let km = Distance::parse("d", "1852", DistanceUnit::Km).unwrap();
        let nm = Distance::parse("d", "1000", DistanceUnit::Nm).unwrap();
        assert_eq!(km, nm);
        let mi = Distance::parse("d", "1", DistanceUnit::Mi).unwrap();
        assert_eq!(mi.km(), Decimal::new(1_609_344, 6));
        assert!(Distance::parse("d", "1000001", DistanceUnit::Km).is_err());
        assert!(Distance::parse("d", "-1", DistanceUnit::Km).is_err());
        assert!(Distance::parse("d", "1e3", DistanceUnit::Km).is_err());
    }

    #[test]
    fn area_units_agree() {
        let ft = Area::parse("a", "1000", AreaUnit::SquareFeet).unwrap();
        assert_eq!(ft.m2(), Decimal::new(9_290_304, 5));
    }

    #[test]
    fn currencies_convert_through_the_euro() {
        let eur = Spend::parse("v", "100", Currency::Eur).unwrap();
        assert_eq!(eur.usd_2022().unwrap(), Decimal::new(10530, 2));
        let usd = Spend::parse("v", "100", Currency::Usd).unwrap();
        assert_eq!(usd.usd_2022().unwrap(), Decimal::from(100));
    }
}
