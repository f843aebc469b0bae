//! The road fuels of the contract and their kg CO2e per MJ (net CV), by
//! which a fuel other than diesel scales the DESNZ rows.

use rust_decimal::Decimal;

use crate::factors::desnz_2025 as desnz;
use crate::factors::{Factor, GasSplit};
use crate::shipping::fuel::LegFuel;

/// The contract's road fuels (`RoadFuel`; client 3.9.2 adds `lng` and `auto_detect`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RoadFuel {
    /// A liquid fuel of the by-fuel legs (gasoline, diesel, blends, ethanol, HVO, LPG).
    Liquid(LegFuel),
    Cng,
    Lng,
    /// Not said: diesel, the DESNZ rows' fuel.
    AutoDetect,
}

impl RoadFuel {
    /// Parses the contract's name.
    pub fn parse(name: &str) -> Option<Self> {
        match name {
            "cng" => Some(RoadFuel::Cng),
            "lng" => Some(RoadFuel::Lng),
            "auto_detect" => Some(RoadFuel::AutoDetect),
            other => LegFuel::parse(other).map(RoadFuel::Liquid),
        }
    }

    /// The contract's name.
    pub fn name(self) -> String {
        match self {
            RoadFuel::Liquid(f) => f.name(),
            RoadFuel::Cng => "cng".into(),
            RoadFuel::Lng => "lng".into(),
            RoadFuel::AutoDetect => "auto_detect".into(),
        }
    }

    pub(super) fn is_diesel(self) -> bool {
        matches!(
            self,
            RoadFuel::Liquid(LegFuel::Diesel) | RoadFuel::AutoDetect
        )
    }

    /// kg CO2e per MJ (net CV), tank-to-wheel and well-to-tank, and the rows.
    pub(super) fn per_mj(self) -> (Decimal, Decimal, Vec<Factor>) {
        let mj_per_kwh = Decimal::new(36, 1);
        let gas = |f: Factor| {
            let wtt = GasSplit::of(f.id).map_or(Decimal::ZERO, |g| g.wtt);
            (f.value() / mj_per_kwh, wtt / mj_per_kwh, vec![f])
        };
        match self {
            RoadFuel::Cng => gas(desnz::FUEL_CNG_KWH),
            RoadFuel::Lng => gas(desnz::FUEL_LNG_KWH),
            RoadFuel::AutoDetect => gas(desnz::FUEL_DIESEL_BLEND_KWH),
            RoadFuel::Liquid(f) => {
                let parts = f.components();
                let mj: Decimal = parts.iter().map(|(r, s)| *s * r.mj_per_litre()).sum();
                let ttw: Decimal = parts.iter().map(|(r, s)| *s * r.litre.value()).sum();
                let wtt: Decimal = parts.iter().map(|(r, s)| *s * r.wtt()).sum();
                let rows = parts
                    .iter()
                    .flat_map(|(r, _)| [r.litre, r.energy])
                    .collect();
                (ttw / mj, wtt / mj, rows)
            }
        }
    }
}
