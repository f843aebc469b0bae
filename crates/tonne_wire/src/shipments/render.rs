//! A stored shipment as the client 3.9.2 `Shipment`: every client field
//! from the row as sent (references, parties, freight cost, metadata, legs
//! with their method, places, load and dates), Tonne's figures from the
//! domain's `ShipmentEmissions`.
//!
//! Units: every emission is kg CO2e as a decimal string (well-to-wheel:
//! `total = wtt + ttw`, per leg, per carriage phase and in total); every
//! `intensity*` field is **grams CO2e per tonne-kilometre** (null when no
//! activity was moved, e.g. client-provided totals); a leg's
//! `emission_factor_intensity` is in the factor's own units
//! (`emission_factor_numerator` per `emission_factor_denominator`, kg CO2e
//! per t*km). Pollutant fields (particles, CO2 alone, NOx, SO2, NMHC) are
//! always null: no openly licensed pollutant factor is wired. `origin_*`
//! come from the first leg's origin, `destination_*` from the last leg's
//! destination, as sent.

use rust_decimal::Decimal;
use serde::Serialize;
use serde_json::{Map, Value};
use time::format_description::well_known::Rfc3339;
use tonne_kernel::Mass;
use tonne_shipments::{EmissionsSource, LegEmissions, Shipment, ShipmentEmissions, Totals};

/// The client's `ShipmentEmissions` (flattened into `Shipment`).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = ShipmentEmissionsBody))]
pub struct ShipmentEmissionsResponse {
    /// Unique identifier of the emission estimate associated with this shipment.
    pub estimate_id: Option<String>,
    /// Origin street address line 1.
    pub origin_street_line1: Option<String>,
    /// Origin street address line 2.
    pub origin_street_line2: Option<String>,
    /// Origin postcode.
    pub origin_postcode: Option<String>,
    /// Origin city.
    pub origin_city: Option<String>,
    /// Origin country code (ISO 3166-1 alpha-3).
    pub origin_country_code: Option<String>,
    /// Origin UN/LOCODE.
    pub origin_locode: Option<String>,
    /// Origin airport code.
    pub origin_code: Option<String>,
    /// Origin latitude.
    pub origin_latitude: Option<String>,
    /// Origin longitude.
    pub origin_longitude: Option<String>,
    /// Destination street address line 1.
    pub destination_street_line1: Option<String>,
    /// Destination street address line 2.
    pub destination_street_line2: Option<String>,
    /// Destination postcode.
    pub destination_postcode: Option<String>,
    /// Destination city.
    pub destination_city: Option<String>,
    /// Destination country code (ISO 3166-1 alpha-3).
    pub destination_country_code: Option<String>,
    /// Destination UN/LOCODE.
    pub destination_locode: Option<String>,
    /// Destination airport code.
    pub destination_code: Option<String>,
    /// Destination latitude.
    pub destination_latitude: Option<String>,
    /// Destination longitude.
    pub destination_longitude: Option<String>,
    /// Total distance in kilometres.
    pub distance_km: Option<String>,
    /// Total emissions (kg CO2e).
    pub total_emissions: Option<String>,
    /// Well-to-tank emissions (kg CO2e).
    pub wtt: Option<String>,
    /// Tank-to-wheel emissions (kg CO2e).
    pub ttw: Option<String>,
    /// kg CO2e (pre carriage total), well-to-wheel parts.
    pub pre_carriage_total: Option<String>,
    /// kg CO2e (pre carriage wtt), well-to-wheel parts.
    pub pre_carriage_wtt: Option<String>,
    /// kg CO2e (pre carriage ttw), well-to-wheel parts.
    pub pre_carriage_ttw: Option<String>,
    /// kg CO2e (main carriage total), well-to-wheel parts.
    pub main_carriage_total: Option<String>,
    /// kg CO2e (main carriage wtt), well-to-wheel parts.
    pub main_carriage_wtt: Option<String>,
    /// kg CO2e (main carriage ttw), well-to-wheel parts.
    pub main_carriage_ttw: Option<String>,
    /// kg CO2e (on carriage total), well-to-wheel parts.
    pub on_carriage_total: Option<String>,
    /// kg CO2e (on carriage wtt), well-to-wheel parts.
    pub on_carriage_wtt: Option<String>,
    /// kg CO2e (on carriage ttw), well-to-wheel parts.
    pub on_carriage_ttw: Option<String>,
    /// Grams CO2e per tonne-kilometre (intensity); null without activity.
    pub intensity: Option<String>,
    /// Grams CO2e per tonne-kilometre (pre carriage intensity); null without activity.
    pub pre_carriage_intensity: Option<String>,
    /// Grams CO2e per tonne-kilometre (main carriage intensity); null without activity.
    pub main_carriage_intensity: Option<String>,
    /// Grams CO2e per tonne-kilometre (on carriage intensity); null without activity.
    pub on_carriage_intensity: Option<String>,
    /// Grams CO2e per tonne-kilometre (intensity wtt); null without activity.
    pub intensity_wtt: Option<String>,
    /// Grams CO2e per tonne-kilometre (intensity ttw); null without activity.
    pub intensity_ttw: Option<String>,
    /// Grams CO2e per tonne-kilometre (intensity pre carriage wtt); null without activity.
    pub intensity_pre_carriage_wtt: Option<String>,
    /// Grams CO2e per tonne-kilometre (intensity pre carriage ttw); null without activity.
    pub intensity_pre_carriage_ttw: Option<String>,
    /// Grams CO2e per tonne-kilometre (intensity main carriage wtt); null without activity.
    pub intensity_main_carriage_wtt: Option<String>,
    /// Grams CO2e per tonne-kilometre (intensity main carriage ttw); null without activity.
    pub intensity_main_carriage_ttw: Option<String>,
    /// Grams CO2e per tonne-kilometre (intensity on carriage wtt); null without activity.
    pub intensity_on_carriage_wtt: Option<String>,
    /// Grams CO2e per tonne-kilometre (intensity on carriage ttw); null without activity.
    pub intensity_on_carriage_ttw: Option<String>,
    /// kg; always null (no openly licensed pollutant factor is wired).
    pub particles_total: Option<String>,
    /// kg; always null (no openly licensed pollutant factor is wired).
    pub particles_wtt: Option<String>,
    /// kg; always null (no openly licensed pollutant factor is wired).
    pub particles_ttw: Option<String>,
    /// kg; always null (no openly licensed pollutant factor is wired).
    pub particles_pre_carriage_total: Option<String>,
    /// kg; always null (no openly licensed pollutant factor is wired).
    pub particles_pre_carriage_wtt: Option<String>,
    /// kg; always null (no openly licensed pollutant factor is wired).
    pub particles_pre_carriage_ttw: Option<String>,
    /// kg; always null (no openly licensed pollutant factor is wired).
    pub particles_main_carriage_total: Option<String>,
    /// kg; always null (no openly licensed pollutant factor is wired).
    pub particles_main_carriage_wtt: Option<String>,
    /// kg; always null (no openly licensed pollutant factor is wired).
    pub particles_main_carriage_ttw: Option<String>,
    /// kg; always null (no openly licensed pollutant factor is wired).
    pub particles_on_carriage_total: Option<String>,
    /// kg; always null (no openly licensed pollutant factor is wired).
    pub particles_on_carriage_wtt: Option<String>,
    /// kg; always null (no openly licensed pollutant factor is wired).
    pub particles_on_carriage_ttw: Option<String>,
    /// kg; always null (no openly licensed pollutant factor is wired).
    pub carbon_dioxide_total: Option<String>,
    /// kg; always null (no openly licensed pollutant factor is wired).
    pub carbon_dioxide_wtt: Option<String>,
    /// kg; always null (no openly licensed pollutant factor is wired).
    pub carbon_dioxide_ttw: Option<String>,
    /// kg; always null (no openly licensed pollutant factor is wired).
    pub carbon_dioxide_pre_carriage_total: Option<String>,
    /// kg; always null (no openly licensed pollutant factor is wired).
    pub carbon_dioxide_pre_carriage_wtt: Option<String>,
    /// kg; always null (no openly licensed pollutant factor is wired).
    pub carbon_dioxide_pre_carriage_ttw: Option<String>,
    /// kg; always null (no openly licensed pollutant factor is wired).
    pub carbon_dioxide_main_carriage_total: Option<String>,
    /// kg; always null (no openly licensed pollutant factor is wired).
    pub carbon_dioxide_main_carriage_wtt: Option<String>,
    /// kg; always null (no openly licensed pollutant factor is wired).
    pub carbon_dioxide_main_carriage_ttw: Option<String>,
    /// kg; always null (no openly licensed pollutant factor is wired).
    pub carbon_dioxide_on_carriage_total: Option<String>,
    /// kg; always null (no openly licensed pollutant factor is wired).
    pub carbon_dioxide_on_carriage_wtt: Option<String>,
    /// kg; always null (no openly licensed pollutant factor is wired).
    pub carbon_dioxide_on_carriage_ttw: Option<String>,
    /// kg; always null (no openly licensed pollutant factor is wired).
    pub nitrogen_oxides_total: Option<String>,
    /// kg; always null (no openly licensed pollutant factor is wired).
    pub nitrogen_oxides_wtt: Option<String>,
    /// kg; always null (no openly licensed pollutant factor is wired).
    pub nitrogen_oxides_ttw: Option<String>,
    /// kg; always null (no openly licensed pollutant factor is wired).
    pub nitrogen_oxides_pre_carriage_total: Option<String>,
    /// kg; always null (no openly licensed pollutant factor is wired).
    pub nitrogen_oxides_pre_carriage_wtt: Option<String>,
    /// kg; always null (no openly licensed pollutant factor is wired).
    pub nitrogen_oxides_pre_carriage_ttw: Option<String>,
    /// kg; always null (no openly licensed pollutant factor is wired).
    pub nitrogen_oxides_main_carriage_total: Option<String>,
    /// kg; always null (no openly licensed pollutant factor is wired).
    pub nitrogen_oxides_main_carriage_wtt: Option<String>,
    /// kg; always null (no openly licensed pollutant factor is wired).
    pub nitrogen_oxides_main_carriage_ttw: Option<String>,
    /// kg; always null (no openly licensed pollutant factor is wired).
    pub nitrogen_oxides_on_carriage_total: Option<String>,
    /// kg; always null (no openly licensed pollutant factor is wired).
    pub nitrogen_oxides_on_carriage_wtt: Option<String>,
    /// kg; always null (no openly licensed pollutant factor is wired).
    pub nitrogen_oxides_on_carriage_ttw: Option<String>,
    /// kg; always null (no openly licensed pollutant factor is wired).
    pub sulfur_dioxides_total: Option<String>,
    /// kg; always null (no openly licensed pollutant factor is wired).
    pub sulfur_dioxides_wtt: Option<String>,
    /// kg; always null (no openly licensed pollutant factor is wired).
    pub sulfur_dioxides_ttw: Option<String>,
    /// kg; always null (no openly licensed pollutant factor is wired).
    pub sulfur_dioxides_pre_carriage_total: Option<String>,
    /// kg; always null (no openly licensed pollutant factor is wired).
    pub sulfur_dioxides_pre_carriage_wtt: Option<String>,
    /// kg; always null (no openly licensed pollutant factor is wired).
    pub sulfur_dioxides_pre_carriage_ttw: Option<String>,
    /// kg; always null (no openly licensed pollutant factor is wired).
    pub sulfur_dioxides_main_carriage_total: Option<String>,
    /// kg; always null (no openly licensed pollutant factor is wired).
    pub sulfur_dioxides_main_carriage_wtt: Option<String>,
    /// kg; always null (no openly licensed pollutant factor is wired).
    pub sulfur_dioxides_main_carriage_ttw: Option<String>,
    /// kg; always null (no openly licensed pollutant factor is wired).
    pub sulfur_dioxides_on_carriage_total: Option<String>,
    /// kg; always null (no openly licensed pollutant factor is wired).
    pub sulfur_dioxides_on_carriage_wtt: Option<String>,
    /// kg; always null (no openly licensed pollutant factor is wired).
    pub sulfur_dioxides_on_carriage_ttw: Option<String>,
    /// kg; always null (no openly licensed pollutant factor is wired).
    pub non_methane_hydro_carbons_total: Option<String>,
    /// kg; always null (no openly licensed pollutant factor is wired).
    pub non_methane_hydro_carbons_wtt: Option<String>,
    /// kg; always null (no openly licensed pollutant factor is wired).
    pub non_methane_hydro_carbons_ttw: Option<String>,
    /// kg; always null (no openly licensed pollutant factor is wired).
    pub non_methane_hydro_carbons_pre_carriage_total: Option<String>,
    /// kg; always null (no openly licensed pollutant factor is wired).
    pub non_methane_hydro_carbons_pre_carriage_wtt: Option<String>,
    /// kg; always null (no openly licensed pollutant factor is wired).
    pub non_methane_hydro_carbons_pre_carriage_ttw: Option<String>,
    /// kg; always null (no openly licensed pollutant factor is wired).
    pub non_methane_hydro_carbons_main_carriage_total: Option<String>,
    /// kg; always null (no openly licensed pollutant factor is wired).
    pub non_methane_hydro_carbons_main_carriage_wtt: Option<String>,
    /// kg; always null (no openly licensed pollutant factor is wired).
    pub non_methane_hydro_carbons_main_carriage_ttw: Option<String>,
    /// kg; always null (no openly licensed pollutant factor is wired).
    pub non_methane_hydro_carbons_on_carriage_total: Option<String>,
    /// kg; always null (no openly licensed pollutant factor is wired).
    pub non_methane_hydro_carbons_on_carriage_wtt: Option<String>,
    /// kg; always null (no openly licensed pollutant factor is wired).
    pub non_methane_hydro_carbons_on_carriage_ttw: Option<String>,
}

/// The client's `LegEmissionsResponse`: a leg's figures.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = LegEmissionsBody))]
pub struct LegEmissionsResponse {
    /// Total emissions (kg CO2e).
    pub total_emissions: Option<String>,
    /// Well-to-tank emissions (kg CO2e).
    pub wtt: Option<String>,
    /// Tank-to-wheel emissions (kg CO2e).
    pub ttw: Option<String>,
    /// Emission intensity: grams CO2e per tonne-kilometre (well-to-wheel).
    pub intensity: Option<String>,
    /// Total particulate matter emissions (kg).
    pub particles_total: Option<String>,
    /// Well-to-tank particulate matter emissions (kg).
    pub particles_wtt: Option<String>,
    /// Tank-to-wheel particulate matter emissions (kg).
    pub particles_ttw: Option<String>,
    /// Total carbon dioxide emissions (kg).
    pub carbon_dioxide_total: Option<String>,
    /// Well-to-tank carbon dioxide emissions (kg).
    pub carbon_dioxide_wtt: Option<String>,
    /// Tank-to-wheel carbon dioxide emissions (kg).
    pub carbon_dioxide_ttw: Option<String>,
    /// Total nitrogen oxides emissions (kg).
    pub nitrogen_oxides_total: Option<String>,
    /// Well-to-tank nitrogen oxides emissions (kg).
    pub nitrogen_oxides_wtt: Option<String>,
    /// Tank-to-wheel nitrogen oxides emissions (kg).
    pub nitrogen_oxides_ttw: Option<String>,
    /// Total sulfur dioxides emissions (kg).
    pub sulfur_dioxides_total: Option<String>,
    /// Well-to-tank sulfur dioxides emissions (kg).
    pub sulfur_dioxides_wtt: Option<String>,
    /// Tank-to-wheel sulfur dioxides emissions (kg).
    pub sulfur_dioxides_ttw: Option<String>,
    /// Total non-methane hydrocarbons emissions (kg).
    pub non_methane_hydro_carbons_total: Option<String>,
    /// Well-to-tank non-methane hydrocarbons emissions (kg).
    pub non_methane_hydro_carbons_wtt: Option<String>,
    /// Tank-to-wheel non-methane hydrocarbons emissions (kg).
    pub non_methane_hydro_carbons_ttw: Option<String>,
    /// Primary energy consumption (MJ).
    pub primary_energy_mj: Option<String>,
    /// Fuel consumption (litres).
    pub fuel_consumption_l: Option<String>,
    /// Distance (km).
    pub distance_km: Option<String>,
    /// Transport activity (tonne-kilometres).
    pub transport_activity: Option<String>,
    /// Description of the emission factor used.
    pub emission_factor_description: Option<String>,
    /// Region of the emission factor.
    pub emission_factor_region: Option<String>,
    /// Source of the emission factor.
    pub emission_factor_source: Option<String>,
    /// Intensity value of the emission factor.
    pub emission_factor_intensity: Option<String>,
    /// Numerator unit of the emission factor.
    pub emission_factor_numerator: Option<String>,
    /// Denominator unit of the emission factor.
    pub emission_factor_denominator: Option<String>,
    /// Year of the emission factor.
    pub emission_factor_year: Option<u16>,
}

/// The client's `ShipmentLegResponse`: the leg as sent, with its emissions.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = ShipmentLegBody))]
pub struct ShipmentLegResponse {
    /// Client-side identifier for this leg.
    pub leg_id: Option<String>,
    /// 1-based ordering of this leg within the shipment, as sent.
    pub order: Option<u64>,
    /// `ShipmentMethodResponse`: a method name, or the road, air, sea or rail object.
    #[cfg_attr(feature = "openapi", schema(value_type = Object))]
    pub method: Value,
    /// `pre`, `main` or `on`.
    pub carriage: Option<String>,
    /// `ShipmentLocation` as sent.
    #[cfg_attr(feature = "openapi", schema(value_type = Option<Object>))]
    pub origin: Option<Value>,
    /// `ShipmentLocation` as sent.
    #[cfg_attr(feature = "openapi", schema(value_type = Option<Object>))]
    pub destination: Option<Value>,
    /// `Distance` as sent.
    #[cfg_attr(feature = "openapi", schema(value_type = Option<Object>))]
    pub distance: Option<Value>,
    /// Name of the carrier for this leg.
    pub carrier_name: Option<String>,
    /// Standard Carrier Alpha Code.
    pub scac_code: Option<String>,
    /// Master waybill number.
    pub master_waybill: Option<String>,
    /// Transit corridor (sea legs).
    pub transit_corridor: Option<String>,
    /// Transit corridors avoided (sea legs).
    pub restricted_transit_corridors: Option<Vec<String>>,
    /// `ShipmentLoadResponse`.
    #[cfg_attr(feature = "openapi", schema(value_type = Option<Object>))]
    pub load: Option<Value>,
    /// Load factor (0 to 1).
    pub load_factor: Option<String>,
    /// Empty-run factor (0 to 1).
    pub empty_run_factor: Option<String>,
    /// Passenger utilisation (0 to 1).
    pub passenger_utilisation: Option<String>,
    /// `ShipmentLegDatesResponse`.
    #[cfg_attr(feature = "openapi", schema(value_type = Option<Object>))]
    pub dates: Option<Value>,
    /// The leg's emissions; null when not calculated, or when the leg has
    /// none (a logistics site, or client totals for the whole shipment).
    pub emissions: Option<LegEmissionsResponse>,
}

/// The client's `Shipment`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = ShipmentBody))]
pub struct ShipmentResponse {
    #[serde(flatten)]
    pub emissions: ShipmentEmissionsResponse,
    /// Tonne's identifier.
    pub id: String,
    /// The client's `shipment_id` (empty when the row had none).
    pub shipment_id: String,
    /// The counterparty's id.
    pub supplier_id: String,
    /// The counterparty's name.
    pub supplier_name: String,
    /// The uploading account's id.
    pub shipper_id: Option<String>,
    /// The uploading account's name.
    pub shipper_name: Option<String>,
    /// Metadata as sent.
    #[cfg_attr(feature = "openapi", schema(value_type = Option<Object>))]
    pub metadata: Option<Value>,
    /// Tags (Tonne has none: null).
    pub tags: Option<Vec<String>>,
    pub service_level: Option<String>,
    pub incoterm: Option<String>,
    pub contract_type: Option<String>,
    pub hazardous_cargo: Option<bool>,
    pub booking_reference: Option<String>,
    pub house_waybill: Option<String>,
    pub reference_id_po: Option<String>,
    pub consignee_id: Option<String>,
    pub consignee_name: Option<String>,
    pub consignor_id: Option<String>,
    pub consignor_name: Option<String>,
    pub freight_paying_party: Option<String>,
    pub legal_entity: Option<String>,
    /// `MonetaryAmount` as sent.
    #[cfg_attr(feature = "openapi", schema(value_type = Option<Object>))]
    pub freight_cost: Option<Value>,
    pub shipper_contract_emission_scope: Option<String>,
    /// `lune` (calculated by Tonne), `manual` (sent by the client) or null (none yet).
    pub emissions_source: Option<String>,
    pub legs: Vec<ShipmentLegResponse>,
    /// RFC 3339.
    pub created_at: String,
}

/// kg as a decimal string.
fn kg(m: Mass) -> String {
    Decimal::new(m.grams(), 3).normalize().to_string()
}

fn decimal(d: Decimal) -> String {
    d.normalize().to_string()
}

/// Grams CO2e per t·km of a part of some totals.
fn intensity(t: &Totals, part: fn(&Totals) -> Mass) -> Option<String> {
    t.intensity_g_per_tkm(part).map(|d| d.to_string())
}

fn total(t: &Totals) -> Mass {
    t.total()
}

fn wtt(t: &Totals) -> Mass {
    t.wtt
}

fn ttw(t: &Totals) -> Mass {
    t.ttw
}

fn text(o: &Map<String, Value>, k: &str) -> Option<String> {
    o.get(k).and_then(Value::as_str).map(str::to_owned)
}

fn value(o: &Map<String, Value>, k: &str) -> Option<Value> {
    o.get(k).filter(|v| !v.is_null()).cloned()
}

/// The legs' indices in the shipment's order: by `order` when every leg
/// gives one (as the domain sorts them), else as sent.
fn leg_order(legs: &[Value]) -> Vec<usize> {
    let orders: Option<Vec<u64>> = legs
        .iter()
        .map(|l| l.get("order").and_then(Value::as_u64))
        .collect();
    let mut idx: Vec<usize> = (0..legs.len()).collect();
    if let Some(orders) = orders {
        idx.sort_by_key(|i| orders.get(*i).copied().unwrap_or(u64::MAX));
    }
    idx
}

/// The `origin_*` or `destination_*` fields of a location as sent.
struct Place {
    street_line1: Option<String>,
    street_line2: Option<String>,
    postcode: Option<String>,
    city: Option<String>,
    country_code: Option<String>,
    locode: Option<String>,
    code: Option<String>,
    latitude: Option<String>,
    longitude: Option<String>,
}

fn place(location: Option<&Value>) -> Place {
    let o = location.and_then(Value::as_object);
    let t = |k: &str| o.and_then(|o| text(o, k));
    let n = |k: &str| {
        o.and_then(|o| o.get(k))
            .filter(|v| v.is_number())
            .map(ToString::to_string)
    };
    Place {
        street_line1: t("street_line1"),
        street_line2: t("street_line2"),
        postcode: t("postcode"),
        city: t("city"),
        country_code: t("country_code"),
        locode: t("locode"),
        code: t("code"),
        latitude: n("lat"),
        longitude: n("lon"),
    }
}

impl ShipmentEmissionsResponse {
    /// The figures of `e` (all null when `None`) and the places of the first
    /// and last legs.
    fn of(e: Option<&ShipmentEmissions>, first: Option<&Value>, last: Option<&Value>) -> Self {
        let o = place(first.and_then(|l| l.get("origin")));
        let d = place(last.and_then(|l| l.get("destination")));
        let mut r = Self {
            origin_street_line1: o.street_line1,
            origin_street_line2: o.street_line2,
            origin_postcode: o.postcode,
            origin_city: o.city,
            origin_country_code: o.country_code,
            origin_locode: o.locode,
            origin_code: o.code,
            origin_latitude: o.latitude,
            origin_longitude: o.longitude,
            destination_street_line1: d.street_line1,
            destination_street_line2: d.street_line2,
            destination_postcode: d.postcode,
            destination_city: d.city,
            destination_country_code: d.country_code,
            destination_locode: d.locode,
            destination_code: d.code,
            destination_latitude: d.latitude,
            destination_longitude: d.longitude,
            ..Self::default()
        };
        let Some(e) = e else {
            return r;
        };
        r.distance_km = Some(decimal(e.distance_km));
        r.total_emissions = Some(kg(e.total.total()));
        r.wtt = Some(kg(e.total.wtt));
        r.ttw = Some(kg(e.total.ttw));
        r.intensity = intensity(&e.total, total);
        r.intensity_wtt = intensity(&e.total, wtt);
        r.intensity_ttw = intensity(&e.total, ttw);
        if let Some([pre, main, on]) = &e.phases {
            r.pre_carriage_total = Some(kg(pre.total()));
            r.pre_carriage_wtt = Some(kg(pre.wtt));
            r.pre_carriage_ttw = Some(kg(pre.ttw));
            r.main_carriage_total = Some(kg(main.total()));
            r.main_carriage_wtt = Some(kg(main.wtt));
            r.main_carriage_ttw = Some(kg(main.ttw));
            r.on_carriage_total = Some(kg(on.total()));
            r.on_carriage_wtt = Some(kg(on.wtt));
            r.on_carriage_ttw = Some(kg(on.ttw));
            r.pre_carriage_intensity = intensity(pre, total);
            r.main_carriage_intensity = intensity(main, total);
            r.on_carriage_intensity = intensity(on, total);
            r.intensity_pre_carriage_wtt = intensity(pre, wtt);
            r.intensity_pre_carriage_ttw = intensity(pre, ttw);
            r.intensity_main_carriage_wtt = intensity(main, wtt);
            r.intensity_main_carriage_ttw = intensity(main, ttw);
            r.intensity_on_carriage_wtt = intensity(on, wtt);
            r.intensity_on_carriage_ttw = intensity(on, ttw);
        }
        r
    }
}

impl LegEmissionsResponse {
    /// A leg's figures: Tonne's, or the client's as sent (`sent`) with the
    /// domain's well-to-wheel split.
    fn of(leg: &LegEmissions, sent: Option<&Map<String, Value>>) -> Self {
        let totals = Totals {
            wtt: leg.wtt,
            ttw: leg.ttw,
            activity: leg.activity,
        };
        let mut r = match sent {
            Some(s) => Self::sent(s),
            None => Self {
                intensity: intensity(&totals, total),
                distance_km: Some(decimal(leg.distance_km)),
                transport_activity: Some(decimal(leg.activity)),
                ..Self::default()
            },
        };
        r.total_emissions = Some(kg(leg.total()));
        r.wtt = Some(kg(leg.wtt));
        r.ttw = Some(kg(leg.ttw));
        if let Some(f) = &leg.factor {
            r.emission_factor_description = Some(f.description.clone());
            r.emission_factor_region = Some(f.region.clone());
            r.emission_factor_source = Some(f.source.clone());
            r.emission_factor_intensity = Some(decimal(f.intensity));
            r.emission_factor_numerator = Some(f.numerator.clone());
            r.emission_factor_denominator = Some(f.denominator.clone());
            r.emission_factor_year = f.year;
        }
        r
    }

    /// The client's `ClientProvidedLegEmissions` as sent.
    fn sent(s: &Map<String, Value>) -> Self {
        let t = |k: &str| text(s, k);
        Self {
            total_emissions: t("total_emissions"),
            wtt: t("wtt"),
            ttw: t("ttw"),
            intensity: t("intensity"),
            particles_total: t("particles_total"),
            particles_wtt: t("particles_wtt"),
            particles_ttw: t("particles_ttw"),
            carbon_dioxide_total: t("carbon_dioxide_total"),
            carbon_dioxide_wtt: t("carbon_dioxide_wtt"),
            carbon_dioxide_ttw: t("carbon_dioxide_ttw"),
            nitrogen_oxides_total: t("nitrogen_oxides_total"),
            nitrogen_oxides_wtt: t("nitrogen_oxides_wtt"),
            nitrogen_oxides_ttw: t("nitrogen_oxides_ttw"),
            sulfur_dioxides_total: t("sulfur_dioxides_total"),
            sulfur_dioxides_wtt: t("sulfur_dioxides_wtt"),
            sulfur_dioxides_ttw: t("sulfur_dioxides_ttw"),
            non_methane_hydro_carbons_total: t("non_methane_hydro_carbons_total"),
            non_methane_hydro_carbons_wtt: t("non_methane_hydro_carbons_wtt"),
            non_methane_hydro_carbons_ttw: t("non_methane_hydro_carbons_ttw"),
            primary_energy_mj: t("primary_energy_mj"),
            fuel_consumption_l: t("fuel_consumption_l"),
            distance_km: t("distance_km"),
            transport_activity: t("transport_activity"),
            emission_factor_description: t("emission_factor_description"),
            emission_factor_region: t("emission_factor_region"),
            emission_factor_source: t("emission_factor_source"),
            emission_factor_intensity: t("emission_factor_intensity"),
            emission_factor_numerator: t("emission_factor_numerator"),
            emission_factor_denominator: t("emission_factor_denominator"),
            emission_factor_year: s
                .get("emission_factor_year")
                .and_then(Value::as_u64)
                .and_then(|y| u16::try_from(y).ok()),
        }
    }
}

/// The road method's emission standard in the answer's vocabulary
/// (`RoadEmissionStandard`: `euro1`…`euro6`): the Euro 6 steps become
/// `euro6`, the Japanese standards have no counterpart (null).
fn emission_standard(sent: Option<&str>) -> Value {
    match sent {
        Some(s @ ("euro1" | "euro2" | "euro3" | "euro4" | "euro5")) => Value::from(s),
        Some("euro6-ac" | "euro6-de") => Value::from("euro6"),
        _ => Value::Null,
    }
}

/// `ShipmentMethodResponse` from the method as sent.
fn method(sent: Option<&Value>) -> Value {
    let Some(o) = sent.and_then(Value::as_object) else {
        // a method name (simple, or a logistics site) answers as sent
        return sent.cloned().unwrap_or(Value::Null);
    };
    let v = |k: &str| o.get(k).cloned().unwrap_or(Value::Null);
    let mut out = Map::new();
    let mut put = |k: &str, val: Value| {
        out.insert(k.to_owned(), val);
    };
    if o.contains_key("vehicle_type") {
        for k in [
            "vehicle_type",
            "fuel",
            "gradient",
            "situation",
            "refrigerated",
            "truck_license_plate",
            "trailer_license_plate",
            "vin",
            "fuel_consumption",
            "biofuel_share",
        ] {
            put(k, v(k));
        }
        put(
            "emission_standard",
            emission_standard(o.get("emission_standard").and_then(Value::as_str)),
        );
        for k in [
            "road_type",
            "gross_vehicle_mass_rating",
            "secondary_fuel_consumption",
            "biofuel_type",
            "feedstock_type",
        ] {
            put(k, Value::Null);
        }
    } else if o.contains_key("aircraft_type") {
        put("aircraft_type", v("aircraft_type"));
    } else if o.contains_key("flight_number") {
        for k in ["flight_number", "departure_on", "aircraft_configuration"] {
            put(k, v(k));
        }
    } else if o.contains_key("train_type") {
        for k in ["train_type", "fuel_consumption", "biofuel_share"] {
            put(k, v(k));
        }
        put("biofuel_type", Value::Null);
        put("feedstock_type", Value::Null);
    } else {
        for k in [
            "vessel_imo_number",
            "vessel_type",
            "refrigerated",
            "vessel_name",
            "voyage_number",
            "fuel_consumption",
            "biofuel_share",
        ] {
            put(k, v(k));
        }
        for k in [
            "secondary_fuel_consumption",
            "biofuel_type",
            "feedstock_type",
        ] {
            put(k, Value::Null);
        }
    }
    Value::Object(out)
}

/// `ShipmentLoadResponse` from the load as sent (the one container sent
/// becomes a list of one).
fn load(sent: Option<&Value>) -> Option<Value> {
    let o = sent?.as_object()?;
    let v = |k: &str| o.get(k).cloned().unwrap_or(Value::Null);
    let containers = o.get("containers").and_then(Value::as_object).map(|c| {
        let cv = |k: &str| c.get(k).cloned().unwrap_or(Value::Null);
        serde_json::json!([{
            "number": null,
            "type": cv("type"),
            "teu": cv("teu"),
            "load_type": cv("load_type"),
            "cargo_type": null,
        }])
    });
    Some(serde_json::json!({
        "mass": v("mass"),
        "volume": v("volume"),
        "piece_count": v("piece_count"),
        "chargeable_mass": v("chargeable_mass"),
        "containers": containers.unwrap_or(Value::Null),
    }))
}

/// `ShipmentLegDatesResponse` from the dates as sent.
fn dates(sent: Option<&Value>) -> Option<Value> {
    let o = sent?.as_object()?;
    let v = |k: &str| o.get(k).cloned().unwrap_or(Value::Null);
    Some(serde_json::json!({"etd": v("etd"), "eta": v("eta"), "atd": v("atd"), "ata": v("ata")}))
}

fn leg(sent: &Value, emissions: Option<&LegEmissions>) -> ShipmentLegResponse {
    let empty = Map::new();
    let o = sent.as_object().unwrap_or(&empty);
    let client = o.get("emissions").and_then(Value::as_object);
    ShipmentLegResponse {
        leg_id: text(o, "leg_id"),
        order: o.get("order").and_then(Value::as_u64),
        method: method(o.get("method")),
        carriage: text(o, "carriage"),
        origin: value(o, "origin"),
        destination: value(o, "destination"),
        distance: value(o, "distance"),
        carrier_name: text(o, "carrier_name"),
        scac_code: text(o, "scac_code"),
        master_waybill: text(o, "master_waybill"),
        transit_corridor: text(o, "transit_corridor"),
        restricted_transit_corridors: o
            .get("restricted_transit_corridors")
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(Value::as_str)
                    .map(str::to_owned)
                    .collect()
            }),
        load: load(o.get("load")),
        load_factor: text(o, "load_factor"),
        empty_run_factor: text(o, "empty_run_factor"),
        passenger_utilisation: text(o, "passenger_utilisation"),
        dates: dates(o.get("dates")),
        emissions: emissions.map(|e| LegEmissionsResponse::of(e, client)),
    }
}

/// A stored shipment as the client's `Shipment`.
pub fn render(s: &Shipment) -> ShipmentResponse {
    let row: Value = serde_json::from_str(&s.row).unwrap_or(Value::Null);
    let empty = Map::new();
    let o = row.as_object().unwrap_or(&empty);
    let sent_legs: &[Value] = o
        .get("legs")
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice);
    let ordered: Vec<&Value> = leg_order(sent_legs)
        .into_iter()
        .filter_map(|i| sent_legs.get(i))
        .collect();
    let e = s.emissions.as_ref();
    let legs = ordered
        .iter()
        .enumerate()
        .map(|(i, l)| {
            let figures = e.and_then(|e| e.legs.get(i)).and_then(Option::as_ref);
            leg(l, figures)
        })
        .collect();
    ShipmentResponse {
        emissions: ShipmentEmissionsResponse::of(
            e,
            ordered.first().copied(),
            ordered.last().copied(),
        ),
        id: s.id.to_string(),
        shipment_id: text(o, "shipment_id").unwrap_or_default(),
        supplier_id: s.supplier.id.clone(),
        supplier_name: s.supplier.name.clone(),
        shipper_id: Some(s.shipper.id.clone()),
        shipper_name: Some(s.shipper.name.clone()),
        metadata: value(o, "metadata"),
        tags: None,
        service_level: text(o, "service_level"),
        incoterm: text(o, "incoterm"),
        contract_type: text(o, "contract_type"),
        hazardous_cargo: o.get("hazardous_cargo").and_then(Value::as_bool),
        booking_reference: text(o, "booking_reference"),
        house_waybill: text(o, "house_waybill"),
        reference_id_po: text(o, "reference_id_po"),
        consignee_id: text(o, "consignee_id"),
        consignee_name: text(o, "consignee_name"),
        consignor_id: text(o, "consignor_id"),
        consignor_name: text(o, "consignor_name"),
        freight_paying_party: text(o, "freight_paying_party"),
        legal_entity: text(o, "legal_entity"),
        freight_cost: value(o, "freight_cost"),
        shipper_contract_emission_scope: text(o, "shipper_contract_emission_scope"),
        emissions_source: e.map(|e| {
            match e.source {
                EmissionsSource::Calculated => "lune",
                EmissionsSource::Manual => "manual",
            }
            .to_owned()
        }),
        legs,
        created_at: s.created_at.format(&Rfc3339).unwrap_or_default(),
    }
}

#[cfg(test)]
mod tests;
