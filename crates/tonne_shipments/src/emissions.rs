//! A shipment's emissions: each leg's well-to-tank and tank-to-wheel CO2e,
//! and their sums per carriage phase and in total. Every total is
//! well-to-wheel (`wtt + ttw`), so the parts always add up to it.

use rust_decimal::Decimal;
use tonne_kernel::Mass;

use crate::vocabulary::{Carriage, EmissionsSource};

/// The factor a leg was calculated with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FactorInfo {
    /// Tonne's stable name of the factor (`SEA_CONTAINER_AVERAGE`, …).
    pub id: String,
    /// What it is (the publication's row, or Tonne's stated assumption).
    pub description: String,
    /// The publication.
    pub source: String,
    /// Where its figures describe (`GBR` for DESNZ, `GLO` otherwise).
    pub region: String,
    /// Year of the data.
    pub year: Option<u16>,
    /// Well-to-wheel kg CO2e per tonne-km (per tonne for a logistics site).
    pub intensity: Decimal,
    /// `kg CO2e`.
    pub numerator: String,
    /// `t*km` or `t`.
    pub denominator: String,
}

/// One leg's emissions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LegEmissions {
    /// Well-to-tank CO2e.
    pub wtt: Mass,
    /// Tank-to-wheel CO2e.
    pub ttw: Mass,
    /// Distance in km (zero for a logistics site).
    pub distance_km: Decimal,
    /// Tonne-km moved (tonnes handled for a logistics site).
    pub activity: Decimal,
    /// The factor, when Tonne calculated the leg.
    pub factor: Option<FactorInfo>,
    /// The data-quality grade (`A_plus` … `D`), when Tonne calculated the leg.
    pub grade: Option<String>,
    /// Whether the leg's intensity stands in for one Tonne could not know
    /// (an unknown vessel or flight, a stand-in factor, no factor at all).
    pub flagged: bool,
    /// How it was obtained: fallbacks and stand-ins, in words.
    pub notes: Vec<String>,
}

impl LegEmissions {
    /// Well-to-wheel: `wtt + ttw`.
    pub fn total(&self) -> Mass {
        Mass::from_grams(self.wtt.grams().saturating_add(self.ttw.grams()))
    }
}

/// Sums over some legs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Totals {
    pub wtt: Mass,
    pub ttw: Mass,
    /// Tonne-km.
    pub activity: Decimal,
}

impl Totals {
    /// Well-to-wheel: `wtt + ttw`.
    pub fn total(&self) -> Mass {
        Mass::from_grams(self.wtt.grams().saturating_add(self.ttw.grams()))
    }

    /// Grams CO2e per tonne-km, when any activity was moved.
    pub fn intensity_g_per_tkm(&self, part: fn(&Totals) -> Mass) -> Option<Decimal> {
        (!self.activity.is_zero())
            .then(|| Decimal::from(part(self).grams()) / self.activity)
            .map(|d| d.round_dp(6).normalize())
    }

    fn add(&mut self, leg: &LegEmissions) {
        self.wtt = Mass::from_grams(self.wtt.grams().saturating_add(leg.wtt.grams()));
        self.ttw = Mass::from_grams(self.ttw.grams().saturating_add(leg.ttw.grams()));
        self.activity += leg.activity;
    }
}

/// A shipment's emissions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShipmentEmissions {
    /// Who produced them.
    pub source: EmissionsSource,
    /// Per leg, in the shipment's leg order (`None` where a leg has none).
    pub legs: Vec<Option<LegEmissions>>,
    /// Per carriage phase (pre, main, on); `None` when the client sent only
    /// the shipment's totals.
    pub phases: Option<[Totals; 3]>,
    /// The whole shipment.
    pub total: Totals,
    /// Total distance, km.
    pub distance_km: Decimal,
    /// Whether any leg is flagged.
    pub flagged: bool,
}

impl ShipmentEmissions {
    /// The sums of legs, each with its carriage phase.
    ///
    /// ```
    /// use rust_decimal::Decimal;
    /// use tonne_kernel::Mass;
    /// use tonne_shipments::{Carriage, EmissionsSource, LegEmissions, ShipmentEmissions};
    ///
    /// let leg = |wtt, ttw, tkm| LegEmissions {
    ///     wtt: Mass::from_grams(wtt), ttw: Mass::from_grams(ttw),
    ///     distance_km: Decimal::from(100), activity: Decimal::from(tkm),
    ///     factor: None, grade: None, flagged: false, notes: vec![],
    /// };
    /// let e = ShipmentEmissions::of_legs(
    ///     EmissionsSource::Calculated,
    ///     vec![(Carriage::Pre, Some(leg(20, 80, 10))), (Carriage::Main, Some(leg(100, 400, 100)))],
    /// );
    /// assert_eq!(e.total.total(), Mass::from_grams(600));
    /// assert_eq!(e.phases.unwrap()[1].total(), Mass::from_grams(500));
    /// // 600 g over 110 t·km
    /// assert_eq!(e.total.intensity_g_per_tkm(|t| t.total()).unwrap().round_dp(3).to_string(), "5.455");
    /// ```
    pub fn of_legs(source: EmissionsSource, legs: Vec<(Carriage, Option<LegEmissions>)>) -> Self {
        let mut phases = [Totals::default(); 3];
        let mut total = Totals::default();
        let mut distance_km = Decimal::ZERO;
        let mut flagged = false;
        let mut out = Vec::with_capacity(legs.len());
        for (carriage, leg) in legs {
            if let Some(l) = &leg {
                if let Some(phase) = phases.get_mut(carriage.index()) {
                    phase.add(l);
                }
                total.add(l);
                distance_km += l.distance_km;
                flagged |= l.flagged;
            } else {
                flagged = true;
            }
            out.push(leg);
        }
        Self {
            source,
            legs: out,
            phases: Some(phases),
            total,
            distance_km,
            flagged,
        }
    }
}
