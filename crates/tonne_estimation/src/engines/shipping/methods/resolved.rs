//! What a method name resolves to: the factor used, how closely it matches
//! (a [`Grade`] and the document's [`DataQuality`]), and any stand-in with
//! the reason for it.

use crate::factors::Factor;
use crate::shipping::Mode;

/// A data-quality grade, from `A_plus` (excellent) to `D` (unsatisfactory),
/// as the official client 3.x names them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Grade {
    APlus,
    A,
    AMinus,
    BPlus,
    B,
    BMinus,
    CPlus,
    C,
    CMinus,
    D,
}

impl Grade {
    pub(super) const ALL: [Grade; 10] = [
        Grade::APlus,
        Grade::A,
        Grade::AMinus,
        Grade::BPlus,
        Grade::B,
        Grade::BMinus,
        Grade::CPlus,
        Grade::C,
        Grade::CMinus,
        Grade::D,
    ];

    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            Grade::APlus => "A_plus",
            Grade::A => "A",
            Grade::AMinus => "A_minus",
            Grade::BPlus => "B_plus",
            Grade::B => "B",
            Grade::BMinus => "B_minus",
            Grade::CPlus => "C_plus",
            Grade::C => "C",
            Grade::CMinus => "C_minus",
            Grade::D => "D",
        }
    }

    /// From the wire name.
    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|g| g.as_str() == s)
    }
}

/// A leg's data quality: the worst of its factor's, route's and shipment's
/// grades (docs/methodology.md says how each is given).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DataQuality {
    pub score: Grade,
    pub emission_factor: Grade,
    /// `None` where the leg has no route of its own.
    pub route: Option<Grade>,
    pub shipment: Grade,
}

impl DataQuality {
    /// The three components and their worst as the score.
    pub fn of(emission_factor: Grade, route: Option<Grade>, shipment: Grade) -> Self {
        let score = emission_factor
            .max(shipment)
            .max(route.unwrap_or(Grade::APlus));
        Self {
            score,
            emission_factor,
            route,
            shipment,
        }
    }
}

/// A method resolved to its mode, factors (their product is the intensity
/// per tonne·km; air is banded by the engine), grade and stand-in note.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resolved {
    pub mode: Mode,
    pub factors: Vec<Factor>,
    /// How closely the factor matches the method.
    pub grade: Grade,
    /// Where no open factor exists for the method: which one is used, and why.
    pub stand_in: Option<String>,
}

pub(super) fn average(mode: Mode, f: Factor) -> Option<Resolved> {
    Some(Resolved {
        mode,
        factors: vec![f],
        grade: Grade::B,
        stand_in: None,
    })
}

pub(super) fn stand_in(mode: Mode, f: Factor, grade: Grade, why: &str) -> Option<Resolved> {
    Some(Resolved {
        mode,
        factors: vec![f],
        grade,
        stand_in: Some(format!("{why}: {} is used", f.id)),
    })
}
