//! The report's summary, folded from its lines.

use std::collections::BTreeMap;

use rust_decimal::Decimal;
use tonne_kernel::Mass;

use super::lines::{DataKind, ReportLine};
use crate::emissions::Totals;
use crate::ids::ShipmentId;
use crate::vocabulary::Carriage;

/// Sums over some lines: emissions, tonne-km, tonnes handled and how many.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Bucket {
    /// Emissions and tonne-km.
    pub totals: Totals,
    /// Tonnes handled (hubs) where known.
    pub tonnes: Decimal,
    /// Lines counted.
    pub lines: u64,
}

impl Bucket {
    fn add(&mut self, line: &ReportLine) {
        self.totals.wtt = add(self.totals.wtt, line.wtt);
        self.totals.ttw = add(self.totals.ttw, line.ttw);
        self.totals.activity += line.activity_tkm;
        if line.hub {
            self.tonnes += line.tonnes.unwrap_or_default();
        }
        self.lines += 1;
    }
}

fn add(a: Mass, b: Mass) -> Mass {
    Mass::from_grams(a.grams().saturating_add(b.grams()))
}

/// The report's summary: totals and their breakdowns, data shares, sources,
/// fallbacks and exclusions.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ReportSummary {
    /// Shipments reported.
    pub shipments: u64,
    /// Every line's emissions and tonne-km.
    pub total: Totals,
    /// By mode of transport (transport legs only).
    pub by_mode: BTreeMap<String, Bucket>,
    /// By carriage phase (pre, main, on), hubs included.
    pub by_phase: [Bucket; 3],
    /// By hub type (the logistics site method).
    pub by_hub: BTreeMap<String, Bucket>,
    /// Whole-shipment lines (the client sent only the shipment's totals):
    /// counted in the total, in no mode, phase or hub.
    pub unallocated: Bucket,
    /// Well-to-wheel emissions by the kind of data they rest on.
    pub by_data: [Mass; 3],
    /// Lines by the factor's publication.
    pub sources: BTreeMap<String, u64>,
    /// Lines by fallback or stand-in taken.
    pub fallbacks: BTreeMap<String, u64>,
    /// Lines left out (no emissions), by reason.
    pub exclusions: BTreeMap<String, u64>,
    /// The shipment of the last line counted (lines come a shipment at a time).
    last_shipment: Option<ShipmentId>,
}

impl ReportSummary {
    /// Counts one line (lines come a shipment at a time).
    pub fn add(&mut self, line: &ReportLine) {
        if self.last_shipment != Some(line.shipment_id) {
            self.shipments += 1;
            self.last_shipment = Some(line.shipment_id);
        }
        self.total.wtt = add(self.total.wtt, line.wtt);
        self.total.ttw = add(self.total.ttw, line.ttw);
        self.total.activity += line.activity_tkm;
        if let Some(reason) = &line.excluded {
            *self.exclusions.entry(reason.clone()).or_default() += 1;
            return;
        }
        match line.carriage {
            Some(carriage) => {
                if let Some(b) = self.by_phase.get_mut(carriage.index()) {
                    b.add(line);
                }
                let group = if line.hub {
                    &mut self.by_hub
                } else {
                    &mut self.by_mode
                };
                group.entry(line.category.clone()).or_default().add(line);
            }
            None => self.unallocated.add(line),
        }
        if let Some(kind) = line.data
            && let Some(m) = self.by_data.get_mut(kind.index())
        {
            *m = add(*m, line.total());
        }
        if !line.factor_source.is_empty() {
            *self.sources.entry(line.factor_source.clone()).or_default() += 1;
        }
        for note in &line.notes {
            *self.fallbacks.entry(note.clone()).or_default() += 1;
        }
    }

    /// The phase's bucket.
    pub fn phase(&self, carriage: Carriage) -> Bucket {
        self.by_phase
            .get(carriage.index())
            .copied()
            .unwrap_or_default()
    }

    /// The well-to-wheel emissions resting on `kind`.
    pub fn data_mass(&self, kind: DataKind) -> Mass {
        self.by_data.get(kind.index()).copied().unwrap_or_default()
    }

    /// The share (0 to 1) of the well-to-wheel total resting on `kind`;
    /// `None` when the total is zero.
    pub fn data_share(&self, kind: DataKind) -> Option<Decimal> {
        let total = self.total.total().grams();
        let part = self.data_mass(kind).grams();
        (total != 0).then(|| {
            (Decimal::from(part) / Decimal::from(total))
                .round_dp(4)
                .normalize()
        })
    }
}
