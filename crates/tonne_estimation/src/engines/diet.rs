//! Diets (Scarborough et al. 2014).

use rust_decimal::Decimal;

use crate::factors::{Factor, authored};

/// The contract's diets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Diet {
    HighMeatEater,
    MediumMeatEater,
    LowMeatEater,
    FishEater,
    Vegetarian,
    Vegan,
}

impl Diet {
    /// kg CO2e per day at 2,000 kcal.
    pub fn per_day(self) -> Factor {
        match self {
            Diet::HighMeatEater => authored::DIET_HIGH_MEAT,
            Diet::MediumMeatEater => authored::DIET_MEDIUM_MEAT,
            Diet::LowMeatEater => authored::DIET_LOW_MEAT,
            Diet::FishEater => authored::DIET_FISH,
            Diet::Vegetarian => authored::DIET_VEGETARIAN,
            Diet::Vegan => authored::DIET_VEGAN,
        }
    }

    /// This diet's footprint over a medium meat-eater's (the average purchase
    /// a spend factor describes).
    pub fn relative_to_medium(self) -> Decimal {
        self.per_day().value() / authored::DIET_MEDIUM_MEAT.value()
    }
}
