//! Emission factors: each one carries its value, its source (publication,
//! table/row, year) and its unit, so an estimate can always say what it used.

use rust_decimal::Decimal;

pub mod authored;
#[rustfmt::skip]
pub mod desnz_2025;
#[rustfmt::skip]
mod desnz_2025_gases;
pub mod glec_hubs;

/// One emission factor (or conversion constant) with its provenance.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Factor {
    /// Tonne's stable name of the factor, e.g. `FLIGHT_LONG_HAUL_ECONOMY`
    /// (empty for ad-hoc constants such as the identity rate).
    pub id: &'static str,
    mantissa: i64,
    scale: u32,
    /// Publication, year and row, e.g. `DESNZ 2025 21_316_3170_11_1: Business travel- air / …`.
    pub source: &'static str,
    /// Unit of the value, e.g. `kg CO2e/passenger.km`.
    pub unit: &'static str,
}

impl Factor {
    /// A factor of `mantissa × 10^-scale` (scale at most 20).
    pub const fn new(mantissa: i64, scale: u32, source: &'static str, unit: &'static str) -> Self {
        Self::named("", mantissa, scale, source, unit)
    }

    /// [`Factor::new`] with Tonne's stable name for it.
    pub const fn named(
        id: &'static str,
        mantissa: i64,
        scale: u32,
        source: &'static str,
        unit: &'static str,
    ) -> Self {
        Self {
            id,
            mantissa,
            scale,
            source,
            unit,
        }
    }

    /// The value.
    pub fn value(&self) -> Decimal {
        Decimal::new(self.mantissa, self.scale.min(20))
    }

    /// The year of the data: the first four-digit year (19xx or 20xx) its source names.
    ///
    /// ```
    /// use tonne_estimation::factors::desnz_2025::RAIL_NATIONAL;
    /// assert_eq!(RAIL_NATIONAL.year(), Some(2025));
    /// assert_eq!(RAIL_NATIONAL.row(), Some("25_315_3147_11_1: Business travel- land / Rail / National rail"));
    /// ```
    pub fn year(&self) -> Option<u16> {
        let bytes = self.source.as_bytes();
        let alnum = |i: Option<usize>| {
            i.and_then(|i| bytes.get(i))
                .is_some_and(u8::is_ascii_alphanumeric)
        };
        bytes
            .windows(4)
            .enumerate()
            .find(|(i, w)| {
                w.iter().all(u8::is_ascii_digit)
                    && (w.starts_with(b"19") || w.starts_with(b"20"))
                    && !alnum(i.checked_sub(1))
                    && !alnum(Some(i + 4))
            })
            .and_then(|(_, w)| std::str::from_utf8(w).ok()?.parse().ok())
    }

    /// The table row of a factor from a published table (DESNZ: its id and
    /// category path); `None` for figures Tonne states itself.
    pub fn row(&self) -> Option<&'static str> {
        self.source.strip_prefix("DESNZ 2025 ")
    }

    /// The publication: the source without its row.
    pub fn publication(&self) -> &'static str {
        match self.row() {
            Some(_) => {
                "UK Government GHG Conversion Factors for Company Reporting 2025 (DESNZ), OGL v3.0"
            }
            None => self.source,
        }
    }
}

/// A number of a generated table: `mantissa × 10^-scale`.
type Cell = (i64, u32);

fn cell((mantissa, scale): Cell) -> Decimal {
    Decimal::new(mantissa, scale.min(20))
}

/// One row of the generated per-gas table (see `desnz_2025_gases`).
#[derive(Debug, Clone, Copy)]
pub(crate) struct GasRow {
    id: &'static str,
    /// kg CO2e of CO2, CH4 and N2O per unit.
    gases: [Cell; 3],
    wtt_row: &'static str,
    /// kg CO2e per unit, well-to-tank.
    wtt: Cell,
}

impl GasRow {
    pub(crate) const fn new(
        id: &'static str,
        gases: [Cell; 3],
        wtt_row: &'static str,
        wtt: Cell,
    ) -> Self {
        Self {
            id,
            gases,
            wtt_row,
            wtt,
        }
    }
}

/// The 100-year global warming potentials of the IPCC Fifth Assessment Report
/// (AR5), on which the DESNZ 2025 factors express CH4 and N2O as CO2e.
pub const GWP100_AR5_CH4: i64 = 28;
/// See [`GWP100_AR5_CH4`].
pub const GWP100_AR5_N2O: i64 = 265;

/// What DESNZ publishes beside a factor's total: its per-gas parts and the
/// well-to-tank factor of the same activity. Values in kg CO2e per the
/// factor's unit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GasSplit {
    /// kg CO2e of CO2.
    pub co2: Decimal,
    /// kg CO2e of CH4 (the gas's mass × [`GWP100_AR5_CH4`]).
    pub ch4: Decimal,
    /// kg CO2e of N2O (the gas's mass × [`GWP100_AR5_N2O`]).
    pub n2o: Decimal,
    /// The well-to-tank row, e.g. `28_916_3235_14_1: …` (DESNZ id).
    pub wtt_row: String,
    /// kg CO2e per unit upstream of the tank (not part of the factor).
    pub wtt: Decimal,
}

impl GasSplit {
    /// The split of one of Tonne's DESNZ factors by its stable name, if DESNZ
    /// publishes one (every DESNZ factor the engines use except homeworking
    /// and waste), and jet fuel's (the Travel Impact Model's) well-to-tank part.
    ///
    /// ```
    /// use tonne_estimation::factors::GasSplit;
    /// use rust_decimal::Decimal;
    /// let s = GasSplit::of("SEA_CONTAINER_AVERAGE").unwrap();
    /// assert_eq!(s.co2, Decimal::new(1592, 5));
    /// assert_eq!(s.wtt, Decimal::new(365, 5));
    /// assert!(s.wtt_row.starts_with("28_916_3235_14_1"));
    /// ```
    pub fn of(factor_id: &str) -> Option<Self> {
        if factor_id == authored::TIM_JET_FUEL_TTW.id {
            // CORSIA's carbon intensity is CO2e, not split by gas
            return Some(Self {
                co2: authored::TIM_JET_FUEL_TTW.value(),
                ch4: Decimal::ZERO,
                n2o: Decimal::ZERO,
                wtt_row: format!(
                    "{}: {}",
                    authored::TIM_JET_FUEL_WTT.id,
                    authored::TIM_JET_FUEL_WTT.source
                ),
                wtt: authored::TIM_JET_FUEL_WTT.value(),
            });
        }
        let row = desnz_2025_gases::GASES.iter().find(|r| r.id == factor_id)?;
        let [co2, ch4, n2o] = row.gases.map(cell);
        Some(Self {
            co2,
            ch4,
            n2o,
            wtt_row: row.wtt_row.to_owned(),
            wtt: cell(row.wtt),
        })
    }

    /// Methane as a mass of the gas, kg per unit (CO2e ÷ GWP).
    pub fn methane_kg(&self) -> Decimal {
        self.ch4 / Decimal::from(GWP100_AR5_CH4)
    }

    /// Nitrous oxide as a mass of the gas, kg per unit (CO2e ÷ GWP).
    pub fn nitrous_oxide_kg(&self) -> Decimal {
        self.n2o / Decimal::from(GWP100_AR5_N2O)
    }
}

#[cfg(test)]
mod tests {
    use super::desnz_2025::*;
    use super::*;

    #[test]
    fn desnz_values_are_the_published_ones() {
        // spot checks against the DESNZ 2025 flat file
        assert_eq!(FLIGHT_LONG_HAUL_ECONOMY.value(), Decimal::new(11704, 5));
        assert_eq!(RAIL_NATIONAL.value(), Decimal::new(3546, 5));
        assert_eq!(NATURAL_GAS_M3.value(), Decimal::new(206672, 5));
        assert_eq!(HGV_ALL.value(), Decimal::new(10163, 5));
        assert!(FLIGHT_LONG_HAUL_FIRST.source.contains("21_316_3176_11_1"));
        assert_eq!(FREIGHT_TRAIN.unit, "kg CO2e/tonne.km");
    }

    #[test]
    fn gas_parts_add_up_to_the_published_totals() {
        // DESNZ rounds each published figure to five decimals: the parts may
        // miss the total by a few 1e-5 (relatively, at most 1%).
        let all = [
            FLIGHT_LONG_HAUL_ECONOMY,
            RAIL_NATIONAL,
            CAR_AVERAGE_PETROL,
            HGV_ALL,
            HGV_REFRIGERATED_ALL,
            FREIGHT_TRAIN,
            AIR_FREIGHT_LONG_HAUL,
            SEA_CONTAINER_AVERAGE,
            SEA_CRUDE_TANKER_200K,
            NATURAL_GAS_M3,
        ];
        for f in all {
            let s = GasSplit::of(f.id).unwrap();
            let sum = s.co2 + s.ch4 + s.n2o;
            let gap = (sum - f.value()).abs();
            assert!(
                gap <= Decimal::new(3, 5),
                "{}: {sum} vs {}",
                f.id,
                f.value()
            );
            assert!(gap * Decimal::from(100) <= f.value(), "{}", f.id);
            // the gases as masses recombine with the GWPs into the same CO2e
            let back = s.co2
                + s.methane_kg() * Decimal::from(GWP100_AR5_CH4)
                + s.nitrous_oxide_kg() * Decimal::from(GWP100_AR5_N2O);
            assert!((back - sum).abs() < Decimal::new(1, 12), "{}", f.id);
            assert!(s.wtt > Decimal::ZERO && s.wtt < f.value(), "{}", f.id);
        }
        // the refrigerated HGV takes the refrigerated WTT row, not the plain one
        assert!(
            GasSplit::of("HGV_REFRIGERATED_ALL")
                .unwrap()
                .wtt_row
                .starts_with("28_908_")
        );
        assert!(
            GasSplit::of("HGV_ALL")
                .unwrap()
                .wtt_row
                .starts_with("28_907_")
        );
        assert_eq!(GasSplit::of("HOMEWORKING_FTE_HOUR"), None);
        assert_eq!(GasSplit::of("grid:DEU"), None);
    }
}
