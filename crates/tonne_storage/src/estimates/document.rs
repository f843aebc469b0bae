//! A transaction document's result in the `result` column (inside the
//! `"v": 2` encoding): its line items or fallback, each with how it matched.

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use tonne_estimation::route::CabinClass;
use tonne_estimation::transaction_document::{
    DocumentResult, LineItem, LineKind, LineValue, TravelLine, TravelMode, TravelRoute,
};
use tonne_kernel::{Currency, Mass};

#[derive(Debug, Serialize, Deserialize)]
pub(super) struct DocumentV2 {
    lines: Vec<LineV2>,
    fallback: Option<LineV2>,
}

#[derive(Debug, Serialize, Deserialize)]
struct LineV2 {
    item: String,
    amount: Decimal,
    currency: String,
    mass_g: i64,
    country_code: String,
    kind: KindV2,
    matched: String,
    score: Option<u8>,
    reason: String,
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum KindV2 {
    Transaction {
        mcc: String,
    },
    Passenger {
        /// `flight` or `rail`.
        mode: String,
        /// `airports`, `cities` or `distance`.
        route: String,
        source: Option<String>,
        destination: Option<String>,
        distance_km: Decimal,
        passengers: Decimal,
        /// `economy`, `business` or `first`.
        cabin: String,
    },
    Activity {
        amount: Decimal,
        unit: String,
    },
}

fn line_v2(l: &LineItem) -> LineV2 {
    LineV2 {
        item: l.item.clone(),
        amount: l.value.amount,
        currency: l.value.currency.code().to_owned(),
        mass_g: l.mass.grams(),
        country_code: l.country_code.clone(),
        kind: match &l.kind {
            LineKind::Transaction { mcc } => KindV2::Transaction { mcc: mcc.clone() },
            LineKind::Activity { amount, unit } => KindV2::Activity {
                amount: *amount,
                unit: unit.clone(),
            },
            LineKind::PassengerTransportation(t) => {
                let (route, source, destination) = match &t.route {
                    TravelRoute::Airports {
                        source,
                        destination,
                    } => ("airports", Some(source.clone()), Some(destination.clone())),
                    TravelRoute::Cities {
                        source,
                        destination,
                    } => ("cities", Some(source.clone()), Some(destination.clone())),
                    TravelRoute::Distance => ("distance", None, None),
                };
                KindV2::Passenger {
                    mode: match t.mode {
                        TravelMode::Flight => "flight",
                        TravelMode::Rail => "rail",
                    }
                    .into(),
                    route: route.into(),
                    source,
                    destination,
                    distance_km: t.distance_km,
                    passengers: t.passengers,
                    cabin: match t.cabin {
                        CabinClass::Economy => "economy",
                        CabinClass::Business => "business",
                        CabinClass::First => "first",
                    }
                    .into(),
                }
            }
        },
        matched: l.matched.clone(),
        score: l.score,
        reason: l.reason.clone(),
    }
}

fn line(l: LineV2) -> Option<LineItem> {
    let kind = match l.kind {
        KindV2::Transaction { mcc } => LineKind::Transaction { mcc },
        KindV2::Activity { amount, unit } => LineKind::Activity { amount, unit },
        KindV2::Passenger {
            mode,
            route,
            source,
            destination,
            distance_km,
            passengers,
            cabin,
        } => LineKind::PassengerTransportation(TravelLine {
            mode: match mode.as_str() {
                "flight" => TravelMode::Flight,
                "rail" => TravelMode::Rail,
                _ => return None,
            },
            route: match route.as_str() {
                "airports" => TravelRoute::Airports {
                    source: source?,
                    destination: destination?,
                },
                "cities" => TravelRoute::Cities {
                    source: source?,
                    destination: destination?,
                },
                "distance" => TravelRoute::Distance,
                _ => return None,
            },
            distance_km,
            passengers,
            cabin: match cabin.as_str() {
                "economy" => CabinClass::Economy,
                "business" => CabinClass::Business,
                "first" => CabinClass::First,
                _ => return None,
            },
        }),
    };
    Some(LineItem {
        item: l.item,
        value: LineValue {
            amount: l.amount,
            currency: l.currency.parse::<Currency>().ok()?,
        },
        mass: Mass::from_grams(l.mass_g),
        country_code: l.country_code,
        kind,
        matched: l.matched,
        score: l.score,
        reason: l.reason,
    })
}

impl DocumentV2 {
    pub(super) fn of(d: &DocumentResult) -> Self {
        Self {
            lines: d.line_items.iter().map(line_v2).collect(),
            fallback: d.fallback.as_ref().map(line_v2),
        }
    }

    pub(super) fn result(self) -> Option<DocumentResult> {
        Some(DocumentResult {
            line_items: self.lines.into_iter().map(line).collect::<Option<_>>()?,
            fallback: match self.fallback {
                Some(f) => Some(line(f)?),
                None => None,
            },
        })
    }
}
