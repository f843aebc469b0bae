//! Public shipping analytics (the 2024 document's `GET
//! /analytics/shipping/public/{account_id}`): an account's actual shipments'
//! emissions per mode and their mean carbon intensity, per day or month.
//!
//! The caller hands in the account's shipping estimates marked as actual
//! shipments ([`Shipped`]: the day, each leg's mode and mass, the tonne·km
//! moved); [`series`] adds them up over a [`DateRange`], every bucket present
//! (zeros included). Intensity is the mean, over the bucket's estimates that
//! moved something, of each estimate's grams CO2e per tonne·km; a bucket
//! without any is 0.
//!
//! ```
//! use rust_decimal::Decimal;
//! use time::macros::date;
//! use tonne_impact::shipping::{Shipped, ShippingMode, series};
//! use tonne_impact::{DateRange, Interval};
//! use tonne_kernel::Mass;
//!
//! let range = DateRange::new(date!(2026 - 01 - 01), date!(2026 - 01 - 02)).unwrap();
//! let sea = Shipped {
//!     day: date!(2026 - 01 - 02),
//!     legs: vec![(ShippingMode::Sea, Mass::from_grams(322_400))],
//!     tonne_km: Some(Decimal::from(20_000)),
//! };
//! let s = series(&[sea], range, Interval::Day);
//! assert_eq!(s.points.len(), 2);
//! assert_eq!(s.points[1].sea, Mass::from_grams(322_400));
//! // 322,400 g over 20,000 t·km
//! assert_eq!(s.points[1].intensity, Decimal::new(1612, 2));
//! assert_eq!(s.intensity, Decimal::new(1612, 2));
//! ```

use std::collections::BTreeMap;

use rust_decimal::Decimal;
use time::Date;
use tonne_kernel::Mass;

use crate::range::{DateRange, Interval};

/// The contract's six series of `ShippingEmissionTimeseries`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ShippingMode {
    Air,
    Sea,
    Road,
    Rail,
    InlandWaterway,
    /// Warehouses and hubs (legs given a logistics site method).
    LogisticSite,
}

/// One shipping estimate of an actual shipment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shipped {
    /// The UTC day it counts on.
    pub day: Date,
    /// Each leg's mode and mass (a leg whose mode is unknown is left out).
    pub legs: Vec<(ShippingMode, Mass)>,
    /// Tonnes × kilometres moved, where known and not zero.
    pub tonne_km: Option<Decimal>,
}

/// One bucket: the emissions per mode and the mean intensity.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShippingPoint {
    /// The bucket's first day.
    pub date: Date,
    pub air: Mass,
    pub sea: Mass,
    pub road: Mass,
    pub rail: Mass,
    pub inland_waterway: Mass,
    pub logistic_site: Mass,
    /// Mean g CO2e per tonne·km of the bucket's estimates (0 without any).
    pub intensity: Decimal,
}

/// The series and the range's mean intensity.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShippingSeries {
    pub points: Vec<ShippingPoint>,
    /// Mean g CO2e per tonne·km of every estimate in the range (0 without any).
    pub intensity: Decimal,
}

fn add(m: &mut Mass, grams: i64) {
    *m = Mass::from_grams(m.grams().saturating_add(grams));
}

fn mean(sum: Decimal, count: u32) -> Decimal {
    if count == 0 {
        Decimal::ZERO
    } else {
        (sum / Decimal::from(count)).round_dp(3).normalize()
    }
}

/// Adds up `shipped` over `range` per `interval` (estimates outside the range
/// are ignored).
pub fn series(shipped: &[Shipped], range: DateRange, interval: Interval) -> ShippingSeries {
    let zero = Mass::from_grams(0);
    let mut buckets: BTreeMap<Date, (ShippingPoint, Decimal, u32)> = range
        .buckets(interval)
        .into_iter()
        .map(|date| {
            let point = ShippingPoint {
                date,
                air: zero,
                sea: zero,
                road: zero,
                rail: zero,
                inland_waterway: zero,
                logistic_site: zero,
                intensity: Decimal::ZERO,
            };
            (date, (point, Decimal::ZERO, 0))
        })
        .collect();
    let (mut sum, mut count) = (Decimal::ZERO, 0_u32);
    for s in shipped.iter().filter(|s| range.contains(s.day)) {
        let Some((point, bucket_sum, bucket_count)) = buckets.get_mut(&interval.bucket_of(s.day))
        else {
            continue;
        };
        let mut grams = 0_i64;
        for (mode, mass) in &s.legs {
            grams = grams.saturating_add(mass.grams());
            let slot = match mode {
                ShippingMode::Air => &mut point.air,
                ShippingMode::Sea => &mut point.sea,
                ShippingMode::Road => &mut point.road,
                ShippingMode::Rail => &mut point.rail,
                ShippingMode::InlandWaterway => &mut point.inland_waterway,
                ShippingMode::LogisticSite => &mut point.logistic_site,
            };
            add(slot, mass.grams());
        }
        if let Some(tkm) = s.tonne_km.filter(|t| *t > Decimal::ZERO) {
            let g_per_tkm = Decimal::from(grams) / tkm;
            *bucket_sum += g_per_tkm;
            *bucket_count += 1;
            sum += g_per_tkm;
            count += 1;
        }
    }
    ShippingSeries {
        points: buckets
            .into_values()
            .map(|(mut point, s, n)| {
                point.intensity = mean(s, n);
                point
            })
            .collect(),
        intensity: mean(sum, count),
    }
}

#[cfg(test)]
mod tests {
    use time::macros::date;

    use super::*;

    fn shipped(day: Date, legs: &[(ShippingMode, i64)], tkm: Option<i64>) -> Shipped {
        Shipped {
            day,
            legs: legs
                .iter()
                .map(|(m, g)| (*m, Mass::from_grams(*g)))
                .collect(),
            tonne_km: tkm.map(Decimal::from),
        }
    }

    /// By month: every month of the range, modes apart, intensities the mean
    /// of each estimate's (not the ratio of the sums), outside the range left out.
    #[test]
    fn months_add_modes_and_average_intensities() {
        let range = DateRange::new(date!(2026 - 01 - 15), date!(2026 - 03 - 02)).unwrap();
        let all = [
            // 100 kg by road + 300 kg by sea over 10,000 t·km: 40 g/t·km
            shipped(
                date!(2026 - 01 - 20),
                &[(ShippingMode::Road, 100_000), (ShippingMode::Sea, 300_000)],
                Some(10_000),
            ),
            // 50 kg by air over 100 t·km: 500 g/t·km
            shipped(
                date!(2026 - 01 - 31),
                &[(ShippingMode::Air, 50_000)],
                Some(100),
            ),
            // no tonne·km: counted in the emissions, not in the intensity
            shipped(date!(2026 - 03 - 02), &[(ShippingMode::Rail, 7_000)], None),
            // outside
            shipped(date!(2026 - 01 - 14), &[(ShippingMode::Air, 1)], Some(1)),
            shipped(date!(2026 - 03 - 03), &[(ShippingMode::Air, 1)], Some(1)),
        ];
        let s = series(&all, range, Interval::Month);
        let dates: Vec<Date> = s.points.iter().map(|p| p.date).collect();
        assert_eq!(
            dates,
            [
                date!(2026 - 01 - 01),
                date!(2026 - 02 - 01),
                date!(2026 - 03 - 01)
            ]
        );
        let jan = &s.points[0];
        assert_eq!(
            (
                jan.road.grams(),
                jan.sea.grams(),
                jan.air.grams(),
                jan.rail.grams()
            ),
            (100_000, 300_000, 50_000, 0)
        );
        // (40 + 500) ÷ 2
        assert_eq!(jan.intensity, Decimal::from(270));
        assert_eq!(s.points[1].intensity, Decimal::ZERO);
        assert_eq!(s.points[1].air, Mass::from_grams(0));
        assert_eq!(s.points[2].rail, Mass::from_grams(7_000));
        assert_eq!(s.points[2].intensity, Decimal::ZERO);
        assert_eq!(s.intensity, Decimal::from(270));
        assert_eq!(s.points[0].logistic_site, Mass::from_grams(0));
    }

    #[test]
    fn nothing_shipped_is_all_zeros() {
        let range = DateRange::new(date!(2026 - 01 - 01), date!(2026 - 01 - 03)).unwrap();
        let s = series(&[], range, Interval::Day);
        assert_eq!(s.points.len(), 3);
        assert!(
            s.points
                .iter()
                .all(|p| p.sea.grams() == 0 && p.intensity.is_zero())
        );
        assert_eq!(s.intensity, Decimal::ZERO);
    }
}
