//! Tonne's figures in the client's units, for the shipment and for each leg:
//! emissions as kg CO2e decimal strings (well-to-tank, tank-to-wheel, total)
//! and intensities in grams per tonne-kilometre, or the client's own as sent.

use rust_decimal::Decimal;
use serde_json::{Map, Value};
use tonne_kernel::Mass;
use tonne_shipments::{LegEmissions, ShipmentEmissions, Totals};

use super::responses::{LegEmissionsResponse, ShipmentEmissionsResponse};
use super::sent::{place, text};

/// kg as a decimal string.
pub(super) fn kg(m: Mass) -> String {
    Decimal::new(m.grams(), 3).normalize().to_string()
}

pub(super) fn decimal(d: Decimal) -> String {
    d.normalize().to_string()
}

/// Grams CO2e per t·km of a part of some totals.
pub(super) fn intensity(t: &Totals, part: fn(&Totals) -> Mass) -> Option<String> {
    t.intensity_g_per_tkm(part).map(|d| d.to_string())
}

pub(super) fn total(t: &Totals) -> Mass {
    t.total()
}

pub(super) fn wtt(t: &Totals) -> Mass {
    t.wtt
}

pub(super) fn ttw(t: &Totals) -> Mass {
    t.ttw
}

impl ShipmentEmissionsResponse {
    /// The figures of `e` (all null when `None`) and the places of the first
    /// and last legs.
    pub(super) fn of(
        e: Option<&ShipmentEmissions>,
        first: Option<&Value>,
        last: Option<&Value>,
    ) -> Self {
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
    pub(super) fn of(leg: &LegEmissions, sent: Option<&Map<String, Value>>) -> Self {
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
    pub(super) fn sent(s: &Map<String, Value>) -> Self {
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
