//! How the store writes a shipment's emissions (`shipments.emissions`) and a
//! calculation's filter (`shipment_calculations.filter_json`) as JSON text,
//! and reads them back: serde mirrors of the domain's types (the domain has
//! no serde), versioned by `"v"`.

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use time::Date;
use tonne_kernel::Mass;
use tonne_shipments::{
    EmissionsFilter, EmissionsSource, FactorInfo, LegEmissions, ModeSet, ShipmentEmissions,
    ShipmentFilter, Totals,
};

/// What a shipment's `emissions` column holds.
#[derive(Debug, Serialize, Deserialize)]
struct EmissionsV1 {
    v: u8,
    source: String,
    legs: Vec<Option<LegV1>>,
    phases: Option<[TotalsV1; 3]>,
    total: TotalsV1,
    distance_km: Decimal,
    flagged: bool,
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
struct TotalsV1 {
    wtt_g: i64,
    ttw_g: i64,
    activity: Decimal,
}

#[derive(Debug, Serialize, Deserialize)]
struct LegV1 {
    wtt_g: i64,
    ttw_g: i64,
    distance_km: Decimal,
    activity: Decimal,
    factor: Option<FactorV1>,
    grade: Option<String>,
    flagged: bool,
    notes: Vec<String>,
}

#[derive(Debug, Serialize, Deserialize)]
struct FactorV1 {
    id: String,
    description: String,
    source: String,
    region: String,
    year: Option<u16>,
    intensity: Decimal,
    numerator: String,
    denominator: String,
}

impl TotalsV1 {
    fn of(t: &Totals) -> Self {
        Self {
            wtt_g: t.wtt.grams(),
            ttw_g: t.ttw.grams(),
            activity: t.activity,
        }
    }

    fn totals(self) -> Totals {
        Totals {
            wtt: Mass::from_grams(self.wtt_g),
            ttw: Mass::from_grams(self.ttw_g),
            activity: self.activity,
        }
    }
}

fn leg_v1(l: &LegEmissions) -> LegV1 {
    LegV1 {
        wtt_g: l.wtt.grams(),
        ttw_g: l.ttw.grams(),
        distance_km: l.distance_km,
        activity: l.activity,
        factor: l.factor.as_ref().map(|f| FactorV1 {
            id: f.id.clone(),
            description: f.description.clone(),
            source: f.source.clone(),
            region: f.region.clone(),
            year: f.year,
            intensity: f.intensity,
            numerator: f.numerator.clone(),
            denominator: f.denominator.clone(),
        }),
        grade: l.grade.clone(),
        flagged: l.flagged,
        notes: l.notes.clone(),
    }
}

fn leg(l: LegV1) -> LegEmissions {
    LegEmissions {
        wtt: Mass::from_grams(l.wtt_g),
        ttw: Mass::from_grams(l.ttw_g),
        distance_km: l.distance_km,
        activity: l.activity,
        factor: l.factor.map(|f| FactorInfo {
            id: f.id,
            description: f.description,
            source: f.source,
            region: f.region,
            year: f.year,
            intensity: f.intensity,
            numerator: f.numerator,
            denominator: f.denominator,
        }),
        grade: l.grade,
        flagged: l.flagged,
        notes: l.notes,
    }
}

/// The emissions as the column's JSON text.
pub(super) fn encode_emissions(e: &ShipmentEmissions) -> Result<String, serde_json::Error> {
    serde_json::to_string(&EmissionsV1 {
        v: 1,
        source: e.source.as_str().to_owned(),
        legs: e.legs.iter().map(|l| l.as_ref().map(leg_v1)).collect(),
        phases: e.phases.as_ref().map(|p| p.each_ref().map(TotalsV1::of)),
        total: TotalsV1::of(&e.total),
        distance_km: e.distance_km,
        flagged: e.flagged,
    })
}

/// The emissions back; `None` when the text no longer reads.
pub(super) fn decode_emissions(text: &str) -> Option<ShipmentEmissions> {
    let e: EmissionsV1 = serde_json::from_str(text).ok()?;
    if e.v != 1 {
        return None;
    }
    Some(ShipmentEmissions {
        source: EmissionsSource::parse(&e.source)?,
        legs: e.legs.into_iter().map(|l| l.map(leg)).collect(),
        phases: e.phases.map(|p| p.map(TotalsV1::totals)),
        total: e.total.totals(),
        distance_km: e.distance_km,
        flagged: e.flagged,
    })
}

/// What a calculation's `filter_json` column holds.
#[derive(Debug, Serialize, Deserialize)]
struct FilterV1 {
    v: u8,
    search: Option<String>,
    date_from: Option<String>,
    date_to: Option<String>,
    /// ModeSet bits per phase (pre, main, on).
    modes: [u8; 3],
    supplier_ids: Vec<String>,
    shipper_ids: Vec<String>,
    batch_ids: Vec<String>,
    data_sheet_ids: Vec<String>,
    ids: Vec<String>,
    flagged: Option<bool>,
    /// `all`, `with_co2e` or `without_co2e`.
    emissions: String,
}

const DATE: &[time::format_description::BorrowedFormatItem<'static>] =
    time::macros::format_description!("[year]-[month]-[day]");

/// A date as stored (`YYYY-MM-DD`, which sorts as the dates do).
pub(super) fn date_text(d: Date) -> String {
    d.format(DATE).unwrap_or_default()
}

/// A stored date back.
pub(super) fn parse_date(s: &str) -> Option<Date> {
    Date::parse(s, DATE).ok()
}

fn emissions_name(e: EmissionsFilter) -> &'static str {
    match e {
        EmissionsFilter::All => "all",
        EmissionsFilter::WithCo2e => "with_co2e",
        EmissionsFilter::WithoutCo2e => "without_co2e",
    }
}

fn ids<T: ToString>(ids: &[T]) -> Vec<String> {
    ids.iter().map(ToString::to_string).collect()
}

fn parsed<T: std::str::FromStr>(ids: Vec<String>) -> Option<Vec<T>> {
    ids.iter().map(|i| i.parse().ok()).collect()
}

/// The filter as the column's JSON text.
pub(super) fn encode_filter(f: &ShipmentFilter) -> Result<String, serde_json::Error> {
    serde_json::to_string(&FilterV1 {
        v: 1,
        search: f.search.clone(),
        date_from: f.date_from.map(date_text),
        date_to: f.date_to.map(date_text),
        modes: f.modes.map(ModeSet::bits),
        supplier_ids: f.supplier_ids.clone(),
        shipper_ids: f.shipper_ids.clone(),
        batch_ids: ids(&f.batch_ids),
        data_sheet_ids: ids(&f.data_sheet_ids),
        ids: ids(&f.ids),
        flagged: f.flagged,
        emissions: emissions_name(f.emissions).to_owned(),
    })
}

/// The filter back; `None` when the text no longer reads.
pub(super) fn decode_filter(text: &str) -> Option<ShipmentFilter> {
    let f: FilterV1 = serde_json::from_str(text).ok()?;
    if f.v != 1 {
        return None;
    }
    let emissions = [
        EmissionsFilter::All,
        EmissionsFilter::WithCo2e,
        EmissionsFilter::WithoutCo2e,
    ]
    .into_iter()
    .find(|e| emissions_name(*e) == f.emissions)?;
    let date = |d: Option<String>| match d {
        None => Some(None),
        Some(d) => parse_date(&d).map(Some),
    };
    Some(ShipmentFilter {
        search: f.search,
        date_from: date(f.date_from)?,
        date_to: date(f.date_to)?,
        modes: f.modes.map(ModeSet::from_bits),
        supplier_ids: f.supplier_ids,
        shipper_ids: f.shipper_ids,
        batch_ids: parsed(f.batch_ids)?,
        data_sheet_ids: parsed(f.data_sheet_ids)?,
        ids: parsed(f.ids)?,
        flagged: f.flagged,
        emissions,
    })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use tonne_shipments::{Carriage, ShipmentBatchId, TransportMode};

    #[test]
    fn emissions_round_trip() {
        let leg = LegEmissions {
            wtt: Mass::from_grams(20),
            ttw: Mass::from_grams(80),
            distance_km: Decimal::new(12345, 2),
            activity: Decimal::new(5, 1),
            factor: Some(FactorInfo {
                id: "RAIL".into(),
                description: "Freight train".into(),
                source: "DESNZ 2025".into(),
                region: "GBR".into(),
                year: Some(2025),
                intensity: Decimal::new(3470, 5),
                numerator: "kg CO2e".into(),
                denominator: "t*km".into(),
            }),
            grade: Some("B".into()),
            flagged: true,
            notes: vec!["a note".into()],
        };
        let e = ShipmentEmissions::of_legs(
            EmissionsSource::Calculated,
            vec![(Carriage::Pre, Some(leg)), (Carriage::Main, None)],
        );
        let text = encode_emissions(&e).unwrap();
        assert_eq!(decode_emissions(&text).unwrap(), e);
        assert!(decode_emissions("{\"v\":9}").is_none());
    }

    #[test]
    fn filters_round_trip() {
        let f = ShipmentFilter {
            search: Some("PO-".into()),
            date_from: Some(time::macros::date!(2026 - 01 - 02)),
            date_to: None,
            modes: [
                ModeSet::default(),
                ModeSet::of(&[TransportMode::Sea, TransportMode::Rail]),
                ModeSet::default(),
            ],
            supplier_ids: vec!["x".into()],
            shipper_ids: vec![],
            batch_ids: vec![ShipmentBatchId::from_uuid(uuid::Uuid::from_u128(5))],
            data_sheet_ids: vec![],
            ids: vec![],
            flagged: Some(false),
            emissions: EmissionsFilter::WithoutCo2e,
        };
        assert_eq!(decode_filter(&encode_filter(&f).unwrap()).unwrap(), f);
    }
}
