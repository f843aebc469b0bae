//! The client's `Shipment` and its parts as Tonne answers them: the
//! shipment's and each leg's emissions, the legs as sent, the shipment.

use serde::Serialize;
use serde_json::Value;

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
