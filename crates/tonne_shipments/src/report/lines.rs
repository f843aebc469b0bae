//! A shipment's lines in the report: one per leg, with its carriage phase,
//! mode (or hub type), activity, emissions, factor and data type; one for the
//! whole shipment when the client sent only its totals; one saying why when
//! the shipment has no emissions.

use rust_decimal::Decimal;
use time::Date;
use tonne_kernel::Mass;

use crate::ids::ShipmentId;
use crate::model::{LegMethod, Shipment, ShipmentDraft};
use crate::vocabulary::{Carriage, EmissionsSource};

/// The note of a leg whose figures the client sent.
const CLIENT_PROVIDED: &str = "client_provided";

/// The kind of data a figure rests on (ISO 14083:2023, 3.1.2 ff.).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DataKind {
    /// Figures the client measured and sent (its own emissions).
    Primary,
    /// Calculated from a model of the specific vehicle (an aircraft type's
    /// fuel burn over the leg's distance).
    Modelled,
    /// A published default intensity (DESNZ, GLEC) times the leg's activity.
    Default,
}

impl DataKind {
    /// Every kind, in the report's order.
    pub const ALL: [DataKind; 3] = [DataKind::Primary, DataKind::Modelled, DataKind::Default];

    /// The name the report shows.
    pub fn as_str(self) -> &'static str {
        match self {
            DataKind::Primary => "primary",
            DataKind::Modelled => "modelled",
            DataKind::Default => "default",
        }
    }

    pub(super) fn index(self) -> usize {
        match self {
            DataKind::Primary => 0,
            DataKind::Modelled => 1,
            DataKind::Default => 2,
        }
    }
}

/// One line of the report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReportLine {
    pub shipment_id: ShipmentId,
    /// The client's `shipment_id` (empty when none was sent).
    pub reference: String,
    pub shipment_date: Option<Date>,
    /// The leg's 1-based position; `None` for a line that stands for the
    /// whole shipment.
    pub leg: Option<u32>,
    /// The leg's carriage phase; `None` for a whole-shipment line.
    pub carriage: Option<Carriage>,
    /// The mode's wire name (`road`, `sea`, …), the hub's method name
    /// (`warehouse_ambient`, …), or `shipment` for a whole-shipment line.
    pub category: String,
    /// Whether the leg is a hub (a logistics site).
    pub hub: bool,
    /// Distance in km (zero for a hub).
    pub distance_km: Decimal,
    /// Whether the client gave the distance (else Tonne derived it from
    /// the leg's places).
    pub distance_given: bool,
    /// Tonnes carried or handled, when known.
    pub tonnes: Option<Decimal>,
    /// Tonne-kilometres moved (zero for a hub).
    pub activity_tkm: Decimal,
    pub wtt: Mass,
    pub ttw: Mass,
    /// What the figures rest on; `None` when the line has none.
    pub data: Option<DataKind>,
    /// Tonne's name of the factor (empty when none).
    pub factor_id: String,
    /// The factor's publication (empty when none).
    pub factor_source: String,
    /// The data-quality grade (empty when none).
    pub grade: String,
    pub flagged: bool,
    /// Fallbacks and stand-ins taken, as the shipment's legs name them.
    pub notes: Vec<String>,
    /// Why the line counts no emissions, when it is left out.
    pub excluded: Option<String>,
}

impl ReportLine {
    /// Well-to-wheel: `wtt + ttw`.
    pub fn total(&self) -> Mass {
        Mass::from_grams(self.wtt.grams().saturating_add(self.ttw.grams()))
    }
}

/// The mode's or hub's name of a leg.
fn category(method: &LegMethod) -> (String, bool) {
    match (method, method.mode()) {
        (LegMethod::LogisticsSite(name), _) => (name.clone(), true),
        (_, Some(mode)) => (mode.as_str().to_owned(), false),
        (_, None) => ("unknown".to_owned(), false),
    }
}

fn kind(method: &LegMethod, notes: &[String]) -> DataKind {
    if notes.iter().any(|n| n == CLIENT_PROVIDED) {
        DataKind::Primary
    } else if matches!(
        method,
        LegMethod::AircraftType(_) | LegMethod::FlightNumber(_)
    ) {
        DataKind::Modelled
    } else {
        DataKind::Default
    }
}

/// The report's lines of one shipment, given its decoded row (`None` when
/// the row no longer decodes: the shipment's figures then stand as one
/// line).
///
/// Every gram of the shipment's total is on exactly one line.
pub fn report_lines(shipment: &Shipment, draft: Option<&ShipmentDraft>) -> Vec<ReportLine> {
    let base = |leg: Option<u32>, carriage: Option<Carriage>, category: String| ReportLine {
        shipment_id: shipment.id,
        reference: shipment.facets.reference.clone(),
        shipment_date: shipment.facets.shipment_date,
        leg,
        carriage,
        category,
        hub: false,
        distance_km: Decimal::ZERO,
        distance_given: false,
        tonnes: None,
        activity_tkm: Decimal::ZERO,
        wtt: Mass::from_grams(0),
        ttw: Mass::from_grams(0),
        data: None,
        factor_id: String::new(),
        factor_source: String::new(),
        grade: String::new(),
        flagged: false,
        notes: Vec::new(),
        excluded: None,
    };
    let Some(e) = &shipment.emissions else {
        let mut line = base(None, None, "shipment".to_owned());
        line.excluded = Some("not_calculated".to_owned());
        return vec![line];
    };
    let legs_known = draft.filter(|d| d.legs.len() == e.legs.len());
    if e.phases.is_none() || legs_known.is_none() {
        // the client's totals for the whole shipment (or a row that no
        // longer decodes): one line, its phases and modes unknown
        let mut line = base(None, None, "shipment".to_owned());
        line.wtt = e.total.wtt;
        line.ttw = e.total.ttw;
        line.distance_km = e.distance_km;
        line.distance_given = e.source == EmissionsSource::Manual;
        line.activity_tkm = e.total.activity;
        line.flagged = e.flagged;
        line.data = Some(match e.source {
            EmissionsSource::Manual => DataKind::Primary,
            EmissionsSource::Calculated => DataKind::Default,
        });
        if e.source == EmissionsSource::Manual {
            line.notes.push(CLIENT_PROVIDED.to_owned());
        }
        return vec![line];
    }
    let draft = legs_known.unwrap_or_else(|| unreachable!("checked above"));
    let mut tonnes = None;
    let mut lines = Vec::with_capacity(e.legs.len());
    for (i, (leg, figures)) in draft.legs.iter().zip(&e.legs).enumerate() {
        if let Some(t) = leg.load.tonnes {
            tonnes = Some(t);
        }
        let (name, hub) = category(&leg.method);
        let position = leg.order.or_else(|| u32::try_from(i + 1).ok());
        let mut line = base(position, Some(leg.carriage), name);
        line.hub = hub;
        line.tonnes = tonnes;
        match figures {
            Some(f) => {
                line.wtt = f.wtt;
                line.ttw = f.ttw;
                line.distance_km = f.distance_km;
                line.distance_given = leg.distance_km.is_some();
                line.activity_tkm = f.activity;
                line.data = Some(kind(&leg.method, &f.notes));
                if let Some(factor) = &f.factor {
                    line.factor_id = factor.id.clone();
                    line.factor_source = factor.source.clone();
                }
                line.grade = f.grade.clone().unwrap_or_default();
                line.flagged = f.flagged;
                line.notes = f.notes.clone();
            }
            None => {
                line.flagged = true;
                line.excluded = Some("no_factor".to_owned());
            }
        }
        lines.push(line);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::calculate::emissions;
    use crate::model::ClientEmissions;
    use crate::testing::leg;
    use crate::vocabulary::Carriage;

    fn stored(draft: &ShipmentDraft) -> Shipment {
        Shipment {
            id: "0190e0a0a0a070008000000000000001".parse().unwrap(),
            account_id: "0190e0a0a0a070008000000000000002".parse().unwrap(),
            batch_id: "0190e0a0a0a070008000000000000003".parse().unwrap(),
            shipper: crate::model::Party {
                id: "a".into(),
                name: "A".into(),
            },
            supplier: crate::model::Party {
                id: "c".into(),
                name: "C".into(),
            },
            facets: draft.facets(),
            row: String::new(),
            emissions: Some(emissions(draft).unwrap()),
            created_at: time::OffsetDateTime::UNIX_EPOCH,
        }
    }

    fn road() -> LegMethod {
        LegMethod::Road {
            vehicle_type: "truck".into(),
            fuel: "diesel".into(),
            refrigerated: false,
        }
    }

    #[test]
    fn a_line_per_leg_adding_up_to_the_shipment_with_the_hub_and_the_load_carried_on() {
        let draft = ShipmentDraft {
            reference: Some("PO-7".into()),
            target_internal_id: None,
            target_internal_name: None,
            client_emissions: None,
            legs: vec![
                leg(Carriage::Pre, road(), 50, Some(10)),
                leg(
                    Carriage::Main,
                    LegMethod::LogisticsSite("warehouse_ambient".into()),
                    0,
                    None,
                ),
                leg(
                    Carriage::Main,
                    LegMethod::Rail("electric_freight_train".into()),
                    400,
                    None,
                ),
            ],
        };
        let s = stored(&draft);
        let lines = report_lines(&s, Some(&draft));
        assert_eq!(lines.len(), 3);
        let sum: i64 = lines.iter().map(|l| l.total().grams()).sum();
        assert_eq!(sum, s.emissions.as_ref().unwrap().total.total().grams());
        assert_eq!(lines[0].category, "road");
        assert_eq!(lines[0].leg, Some(1));
        assert!(lines[1].hub);
        assert_eq!(lines[1].category, "warehouse_ambient");
        assert_eq!(lines[1].tonnes, Some(Decimal::from(10)));
        assert_eq!(lines[1].activity_tkm, Decimal::ZERO);
        assert_eq!(lines[2].activity_tkm, Decimal::from(4000));
        assert_eq!(lines[2].data, Some(DataKind::Default));
        assert!(
            lines
                .iter()
                .all(|l| l.reference == "PO-7" && l.excluded.is_none())
        );
    }

    #[test]
    fn client_totals_are_one_primary_line_and_a_missing_calculation_is_excluded() {
        let mut draft = ShipmentDraft {
            reference: None,
            target_internal_id: None,
            target_internal_name: None,
            client_emissions: Some(ClientEmissions {
                total_kg: Decimal::from(12),
                wtt_kg: Some(Decimal::from(2)),
                ttw_kg: None,
                distance_km: Decimal::from(80),
            }),
            legs: vec![leg(Carriage::Main, road(), 80, Some(1))],
        };
        let s = stored(&draft);
        let lines = report_lines(&s, Some(&draft));
        assert_eq!(lines.len(), 1);
        assert_eq!(lines[0].leg, None);
        assert_eq!(lines[0].data, Some(DataKind::Primary));
        assert_eq!(lines[0].total(), Mass::from_grams(12_000));
        assert_eq!(lines[0].wtt, Mass::from_grams(2_000));

        draft.client_emissions = None;
        let mut s = stored(&draft);
        s.emissions = None;
        let lines = report_lines(&s, Some(&draft));
        assert_eq!(lines[0].excluded.as_deref(), Some("not_calculated"));
        assert_eq!(lines[0].total(), Mass::from_grams(0));
    }

    #[test]
    fn an_aircraft_type_is_modelled_and_leg_figures_sent_are_primary() {
        assert_eq!(
            kind(&LegMethod::AircraftType("B77L".into()), &[]),
            DataKind::Modelled
        );
        assert_eq!(
            kind(&road(), &[CLIENT_PROVIDED.to_owned()]),
            DataKind::Primary
        );
        assert_eq!(kind(&road(), &[]), DataKind::Default);
    }
}
