//! Freight by the fuel burnt (client 3.9.2's multi-leg estimate by fuel):
//! per leg, `litres × the DESNZ 2025 "Fuels" row` (tank-to-wheel) `+ litres ×
//! its "WTT- fuels" row` (well-to-tank), rounded to the gram each.
//!
//! - `gasoline` and `diesel` are DESNZ's 100 % mineral rows: the blends name
//!   their biodiesel share, so the diesel in them is mineral diesel.
//! - `NN_diesel_MM_biodiesel` is the volume-weighted mix of the mineral diesel
//!   row and DESNZ's *Biodiesel ME* row (Bioenergy; its well-to-tank row from
//!   *WTT- bioenergy*).
//! - `ethanol_from_corn` is DESNZ's *Bioethanol* and `hvo_from_tallow` its
//!   *Biodiesel HVO*: DESNZ does not split them by feedstock (a stand-in,
//!   graded C).
//! - `lpg` is DESNZ's LPG per litre.
//!
//! Energy density (MJ per litre, net calorific value): the per-litre row ÷ the
//! per-energy row of the same fuel — kWh (Net CV) × 3.6 MJ/kWh for fossil
//! fuels, GJ × 1,000 MJ/GJ for bioenergy — volume-weighted for blends.

use rust_decimal::Decimal;
use tonne_kernel::Mass;

use crate::errors::EstimateError;
use crate::factors::desnz_2025 as desnz;
use crate::factors::{Factor, GasSplit};
use crate::units::kg_to_mass;

use super::methods::Grade;

/// A fuel of the contract's by-fuel legs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LegFuel {
    /// `gasoline`: DESNZ's petrol, 100 % mineral.
    Gasoline,
    /// `diesel`: DESNZ's diesel, 100 % mineral.
    Diesel,
    /// `{100 - p}_diesel_{p}_biodiesel`: mineral diesel with `p` % biodiesel by volume.
    DieselBiodiesel {
        /// Biodiesel share in percent (1, 2, 5, 7, 10, 20 or 50).
        biodiesel_percent: u8,
    },
    /// `ethanol_from_corn`: DESNZ's bioethanol (no feedstock split).
    EthanolFromCorn,
    /// `hvo_from_tallow`: DESNZ's HVO (no feedstock split).
    HvoFromTallow,
    /// `lpg`.
    Lpg,
}

const BLENDS: [u8; 7] = [1, 2, 5, 7, 10, 20, 50];

impl LegFuel {
    /// Every fuel, in the contract's order.
    pub fn all() -> Vec<LegFuel> {
        let mut v = vec![LegFuel::Gasoline, LegFuel::Diesel];
        v.extend(BLENDS.map(|p| LegFuel::DieselBiodiesel {
            biodiesel_percent: p,
        }));
        v.extend([
            LegFuel::EthanolFromCorn,
            LegFuel::HvoFromTallow,
            LegFuel::Lpg,
        ]);
        v
    }

    /// The contract's name.
    pub fn name(self) -> String {
        match self {
            LegFuel::Gasoline => "gasoline".into(),
            LegFuel::Diesel => "diesel".into(),
            LegFuel::DieselBiodiesel { biodiesel_percent } => {
                format!(
                    "{}_diesel_{}_biodiesel",
                    100 - biodiesel_percent,
                    biodiesel_percent
                )
            }
            LegFuel::EthanolFromCorn => "ethanol_from_corn".into(),
            LegFuel::HvoFromTallow => "hvo_from_tallow".into(),
            LegFuel::Lpg => "lpg".into(),
        }
    }

    /// Parses the contract's name.
    pub fn parse(s: &str) -> Option<Self> {
        Self::all().into_iter().find(|f| f.name() == s)
    }

    /// The DESNZ rows mixed, each with its share of the volume.
    pub fn components(self) -> Vec<(FuelRows, Decimal)> {
        match self {
            LegFuel::Gasoline => vec![(FuelRows::PETROL, Decimal::ONE)],
            LegFuel::Diesel => vec![(FuelRows::DIESEL, Decimal::ONE)],
            LegFuel::DieselBiodiesel { biodiesel_percent } => {
                let bio = Decimal::new(i64::from(biodiesel_percent), 2);
                vec![
                    (FuelRows::DIESEL, Decimal::ONE - bio),
                    (FuelRows::BIODIESEL, bio),
                ]
            }
            LegFuel::EthanolFromCorn => vec![(FuelRows::BIOETHANOL, Decimal::ONE)],
            LegFuel::HvoFromTallow => vec![(FuelRows::HVO, Decimal::ONE)],
            LegFuel::Lpg => vec![(FuelRows::LPG, Decimal::ONE)],
        }
    }

    /// How well the DESNZ rows match the fuel: exact (A), or a row without
    /// the named feedstock (C).
    pub fn grade(self) -> Grade {
        match self {
            LegFuel::EthanolFromCorn | LegFuel::HvoFromTallow => Grade::C,
            _ => Grade::A,
        }
    }
}

/// One fuel's DESNZ rows: per litre burnt, its well-to-tank per litre, and
/// the same fuel per unit of energy (for its energy density).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FuelRows {
    /// kg CO2e per litre burnt (tank-to-wheel).
    pub litre: Factor,
    /// kg CO2e per litre, well-to-tank; `None` when the per-gas table carries
    /// it beside [`FuelRows::litre`] (fossil fuels).
    pub wtt_litre: Option<Factor>,
    /// kg CO2e per unit of energy of the same fuel (kWh (Net CV) or GJ).
    pub energy: Factor,
    /// Tenths of a MJ per unit of [`FuelRows::energy`]'s denominator: 36
    /// (3.6 MJ per kWh) or 10,000 (1,000 MJ per GJ).
    pub mj_per_energy_unit: i64,
}

impl FuelRows {
    pub const DIESEL: FuelRows = FuelRows {
        litre: desnz::FUEL_DIESEL_MINERAL_LITRE,
        wtt_litre: None,
        energy: desnz::FUEL_DIESEL_MINERAL_KWH,
        mj_per_energy_unit: 36,
    };
    pub const PETROL: FuelRows = FuelRows {
        litre: desnz::FUEL_PETROL_MINERAL_LITRE,
        wtt_litre: None,
        energy: desnz::FUEL_PETROL_MINERAL_KWH,
        mj_per_energy_unit: 36,
    };
    pub const LPG: FuelRows = FuelRows {
        litre: desnz::FUEL_LPG_LITRE,
        wtt_litre: None,
        energy: desnz::FUEL_LPG_KWH,
        mj_per_energy_unit: 36,
    };
    pub const BIODIESEL: FuelRows = FuelRows {
        litre: desnz::FUEL_BIODIESEL_ME_LITRE,
        wtt_litre: Some(desnz::WTT_BIODIESEL_ME_LITRE),
        energy: desnz::FUEL_BIODIESEL_ME_GJ,
        mj_per_energy_unit: 10_000,
    };
    pub const BIOETHANOL: FuelRows = FuelRows {
        litre: desnz::FUEL_BIOETHANOL_LITRE,
        wtt_litre: Some(desnz::WTT_BIOETHANOL_LITRE),
        energy: desnz::FUEL_BIOETHANOL_GJ,
        mj_per_energy_unit: 10_000,
    };
    pub const HVO: FuelRows = FuelRows {
        litre: desnz::FUEL_HVO_LITRE,
        wtt_litre: Some(desnz::WTT_HVO_LITRE),
        energy: desnz::FUEL_HVO_GJ,
        mj_per_energy_unit: 10_000,
    };

    /// kg CO2e per litre, well-to-tank.
    pub fn wtt(&self) -> Decimal {
        match self.wtt_litre {
            Some(f) => f.value(),
            None => GasSplit::of(self.litre.id).map_or(Decimal::ZERO, |g| g.wtt),
        }
    }

    /// The well-to-tank row's citation.
    pub fn wtt_row(&self) -> String {
        match self.wtt_litre {
            Some(f) => f.source.to_owned(),
            None => GasSplit::of(self.litre.id)
                .map(|g| format!("DESNZ 2025 {}", g.wtt_row))
                .unwrap_or_default(),
        }
    }

    /// MJ per litre (net CV): the per-litre row ÷ the per-energy row × MJ per
    /// energy unit (3.6 MJ/kWh, written as 36 tenths; 1,000 MJ/GJ as 10,000 tenths).
    pub fn mj_per_litre(&self) -> Decimal {
        self.litre.value() / self.energy.value() * Decimal::new(self.mj_per_energy_unit, 1)
    }
}

/// One leg: a fuel and the litres of it burnt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FuelLeg {
    pub fuel: LegFuel,
    /// Litres burnt (positive).
    pub litres: Decimal,
}

/// One by-fuel leg's result: well-to-wheel, `mass == ttw + wtt`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FuelLegEstimate {
    pub mass: Mass,
    /// Litres × the per-litre rows (volume-weighted), to the gram.
    pub ttw: Mass,
    /// Litres × the well-to-tank rows (volume-weighted), to the gram.
    pub wtt: Mass,
    /// kg CO2e per litre, tank-to-wheel (volume-weighted).
    pub ttw_per_litre: Decimal,
    /// kg CO2e per litre, well-to-tank (volume-weighted).
    pub wtt_per_litre: Decimal,
    /// MJ per litre, net calorific value (volume-weighted), to four decimals.
    pub energy_density: Decimal,
}

/// Estimates one by-fuel leg; `field` names it in errors (`legs[0]`).
///
/// ```
/// use tonne_estimation::shipping::fuel::{self, FuelLeg, LegFuel};
/// use rust_decimal::Decimal;
/// // 100 l of mineral diesel: 100 × 2.66155 = 266.155 kg + 100 × 0.62409 = 62.409 kg
/// let e = fuel::leg("legs[0]", &FuelLeg { fuel: LegFuel::Diesel, litres: Decimal::from(100) }).unwrap();
/// assert_eq!((e.ttw.grams(), e.wtt.grams(), e.mass.grams()), (266_155, 62_409, 328_564));
/// ```
pub fn leg(field: &str, leg: &FuelLeg) -> Result<FuelLegEstimate, EstimateError> {
    if leg.litres <= Decimal::ZERO {
        return Err(EstimateError::invalid(
            &format!("{field}.fuel_consumed_litres"),
            "must be greater than 0",
        ));
    }
    let parts = leg.fuel.components();
    let sum = |f: &dyn Fn(&FuelRows) -> Decimal| -> Decimal {
        parts.iter().map(|(rows, share)| *share * f(rows)).sum()
    };
    let ttw_per_litre = sum(&|r| r.litre.value());
    let wtt_per_litre = sum(&|r| r.wtt());
    let energy_density = sum(&|r| r.mj_per_litre()).round_dp(4);
    let at = format!("{field}.fuel_consumed_litres");
    let ttw = kg_to_mass(&at, leg.litres * ttw_per_litre)?;
    let wtt = kg_to_mass(&at, leg.litres * wtt_per_litre)?;
    Ok(FuelLegEstimate {
        mass: Mass::from_grams(ttw.grams().saturating_add(wtt.grams())),
        ttw,
        wtt,
        ttw_per_litre,
        wtt_per_litre,
        energy_density,
    })
}

/// A by-fuel estimate: its legs and their sum.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FuelEstimate {
    /// Σ legs.
    pub mass: Mass,
    pub legs: Vec<FuelLegEstimate>,
}

/// Estimates 1 to 10 by-fuel legs; any failing leg fails the whole.
pub fn multi_leg(legs: &[FuelLeg]) -> Result<FuelEstimate, EstimateError> {
    if legs.is_empty() || legs.len() > 10 {
        return Err(EstimateError::invalid("legs", "must have 1 to 10 legs"));
    }
    let mut out = Vec::with_capacity(legs.len());
    let mut grams = 0_i64;
    for (i, l) in legs.iter().enumerate() {
        let e = leg(&format!("legs[{i}]"), l)?;
        grams = grams.saturating_add(e.mass.grams());
        out.push(e);
    }
    Ok(FuelEstimate {
        mass: Mass::from_grams(grams),
        legs: out,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn on(fuel: LegFuel, litres: i64) -> FuelLegEstimate {
        leg(
            "legs[0]",
            &FuelLeg {
                fuel,
                litres: Decimal::from(litres),
            },
        )
        .unwrap()
    }

    #[test]
    fn names_round_trip() {
        for f in LegFuel::all() {
            assert_eq!(LegFuel::parse(&f.name()), Some(f));
        }
        assert_eq!(LegFuel::all().len(), 12);
        assert_eq!(
            LegFuel::parse("95_diesel_5_biodiesel"),
            Some(LegFuel::DieselBiodiesel {
                biodiesel_percent: 5
            })
        );
        assert_eq!(LegFuel::parse("cng"), None);
    }

    /// By hand from the DESNZ 2025 rows:
    /// - diesel (100 % mineral, 1_101_1012_8_1) 2.66155 kg/l, WTT (11_101_1012_8_1) 0.62409 kg/l;
    ///   1,000 l → 2,661.550 kg + 624.090 kg = 3,285.640 kg; energy 2.66155 ÷ 0.26808 kg/kWh
    ///   = 9.928193 kWh/l × 3.6 = 35.7415 MJ/l;
    /// - 95 % diesel + 5 % biodiesel ME (2_103_1032_8_1 0.16751 kg/l, WTT 12_900_1032_8_1
    ///   0.39508 kg/l): 0.95 × 2.66155 + 0.05 × 0.16751 = 2.5368480 kg/l → 2,536.848 kg;
    ///   0.95 × 0.62409 + 0.05 × 0.39508 = 0.6126395 kg/l → 612.640 kg (612.6395 rounded);
    ///   energy 0.95 × 35.741495 + 0.05 × (0.16751 ÷ 5.05961 × 1000 = 33.107295) = 35.6098 MJ/l;
    /// - LPG (1_100_1003_8_1) 1.55713 kg/l, WTT 0.18551 kg/l; 10 l → 15.571 kg + 1.855 kg.
    #[test]
    fn by_hand_from_the_desnz_rows() {
        let d = on(LegFuel::Diesel, 1000);
        assert_eq!(
            (d.ttw.grams(), d.wtt.grams(), d.mass.grams()),
            (2_661_550, 624_090, 3_285_640)
        );
        assert_eq!(d.energy_density, Decimal::new(357415, 4));
        let b = on(
            LegFuel::DieselBiodiesel {
                biodiesel_percent: 5,
            },
            1000,
        );
        assert_eq!((b.ttw.grams(), b.wtt.grams()), (2_536_848, 612_640));
        assert_eq!(b.mass.grams(), 2_536_848 + 612_640);
        assert_eq!(b.energy_density, Decimal::new(356098, 4));
        let l = on(LegFuel::Lpg, 10);
        assert_eq!((l.ttw.grams(), l.wtt.grams()), (15_571, 1_855));
        // the sum of the legs
        let all = multi_leg(&[
            FuelLeg {
                fuel: LegFuel::Diesel,
                litres: Decimal::from(1000),
            },
            FuelLeg {
                fuel: LegFuel::Lpg,
                litres: Decimal::from(10),
            },
        ])
        .unwrap();
        assert_eq!(all.mass.grams(), 3_285_640 + 15_571 + 1_855);
    }

    #[test]
    fn refuses_what_it_cannot_estimate() {
        let bad = leg(
            "legs[1]",
            &FuelLeg {
                fuel: LegFuel::Diesel,
                litres: Decimal::ZERO,
            },
        )
        .unwrap_err();
        assert!(format!("{bad:?}").contains("legs[1].fuel_consumed_litres"));
        assert!(multi_leg(&[]).is_err());
    }
}
