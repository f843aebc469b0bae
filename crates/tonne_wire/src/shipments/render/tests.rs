//! Stored shipments rendered as the client's `Shipment`: fields as sent,
//! Tonne's figures and their units.

#![allow(clippy::unwrap_used, clippy::indexing_slicing)]
use rust_decimal::Decimal;
use serde_json::{Value, json};
use time::macros::datetime;
use tonne_kernel::AccountId;
use tonne_shipments::{
    CounterpartyId, Party, RowDecoder, Shipment, ShipmentBatchId, ShipmentId, emissions,
};

use super::*;
use crate::shipments::JsonRowDecoder;

fn row() -> Value {
    json!({
        "shipment_id": "S-1", "target_internal_id": "c-1", "incoterm": "fob",
        "metadata": {"team": "eu"}, "freight_cost": {"value": "10", "currency": "EUR"},
        "legs": [
            {"order": 2, "carriage": "main", "method": {"train_type": "diesel_freight_train"},
             "distance": {"amount": "200", "unit": "km"},
             "destination": {"locode": "NLRTM"}},
            {"order": 1, "carriage": "pre", "leg_id": "first",
             "method": {"vehicle_type": "truck", "fuel": "diesel", "emission_standard": "euro6-de"},
             "origin": {"street_line1": "1 Main St", "city": "Hamburg", "country_code": "DEU"},
             "distance": {"amount": "50", "unit": "km"},
             "load": {"mass": {"amount": "10", "unit": "t"}, "containers": {"type": "20gp"}},
             "dates": {"etd": "2026-01-02"}}
        ]
    })
}

fn shipment(row: &Value, calculated: bool) -> Shipment {
    let text = row.to_string();
    let mut draft = JsonRowDecoder.decode(&text).unwrap();
    draft.check().unwrap();
    let e = emissions(&draft).unwrap();
    Shipment {
        id: ShipmentId::from_uuid(uuid::Uuid::from_u128(1)),
        account_id: AccountId::from_uuid(uuid::Uuid::from_u128(2)),
        batch_id: ShipmentBatchId::from_uuid(uuid::Uuid::from_u128(3)),
        shipper: Party {
            id: "acc-1".into(),
            name: "Acme".into(),
        },
        supplier: Party {
            id: CounterpartyId::from_uuid(uuid::Uuid::from_u128(4)).to_string(),
            name: "Carrier".into(),
        },
        facets: draft.facets(),
        row: text,
        emissions: (calculated || e.source == EmissionsSource::Manual).then_some(e),
        created_at: datetime!(2026-11-26 12:00 UTC),
    }
}

fn dec(v: &Value) -> Decimal {
    v.as_str().unwrap().parse().unwrap()
}

#[test]
fn legs_follow_their_order_and_every_total_adds_up() {
    let body = serde_json::to_value(render(&shipment(&row(), true))).unwrap();
    let legs = body["legs"].as_array().unwrap();
    assert_eq!(legs[0]["leg_id"], "first");
    assert_eq!(legs[0]["order"], 1);
    let mut sum = Decimal::ZERO;
    for l in legs {
        let e = &l["emissions"];
        assert_eq!(dec(&e["total_emissions"]), dec(&e["wtt"]) + dec(&e["ttw"]));
        assert!(e["emission_factor_source"].is_string());
        assert_eq!(e["emission_factor_denominator"], "t*km");
        sum += dec(&e["total_emissions"]);
    }
    assert_eq!(sum, dec(&body["total_emissions"]));
    assert_eq!(
        dec(&body["total_emissions"]),
        dec(&body["wtt"]) + dec(&body["ttw"])
    );
    assert_eq!(
        dec(&body["pre_carriage_total"]),
        dec(&legs[0]["emissions"]["total_emissions"])
    );
    assert_eq!(
        dec(&body["main_carriage_total"]),
        dec(&legs[1]["emissions"]["total_emissions"])
    );
    assert_eq!(dec(&body["on_carriage_total"]), Decimal::ZERO);
    assert!(body["on_carriage_intensity"].is_null());
    assert_eq!(legs[1]["emissions"]["transport_activity"], "2000");
    assert_eq!(body["distance_km"], "250");
    assert_eq!(body["emissions_source"], "lune");
}

#[test]
fn intensities_are_grams_per_tonne_km() {
    let s = shipment(&row(), true);
    let body = serde_json::to_value(render(&s)).unwrap();
    let e = s.emissions.unwrap();
    let grams = Decimal::from(e.total.total().grams());
    let expected = (grams / e.total.activity).round_dp(6).normalize();
    assert_eq!(dec(&body["intensity"]), expected);
    let main = &body["legs"][1]["emissions"];
    let expected = (dec(&main["total_emissions"]) * Decimal::from(1000) / Decimal::from(2000))
        .round_dp(6)
        .normalize();
    assert_eq!(dec(&main["intensity"]), expected);
}

#[test]
fn places_come_from_the_first_origin_and_the_last_destination() {
    let body = serde_json::to_value(render(&shipment(&row(), true))).unwrap();
    assert_eq!(body["origin_street_line1"], "1 Main St");
    assert_eq!(body["origin_city"], "Hamburg");
    assert_eq!(body["origin_country_code"], "DEU");
    assert!(body["origin_locode"].is_null());
    assert_eq!(body["destination_locode"], "NLRTM");
    assert!(body["destination_city"].is_null());
}

#[test]
fn pollutants_are_null_and_every_client_field_is_present() {
    let body = serde_json::to_value(render(&shipment(&row(), true))).unwrap();
    let o = body.as_object().unwrap();
    // 104 ShipmentEmissions fields + 26 of Shipment's own
    assert_eq!(o.len(), 104 + 26);
    for (k, v) in o {
        if [
            "particles",
            "carbon_dioxide",
            "nitrogen",
            "sulfur",
            "non_methane",
        ]
        .iter()
        .any(|p| k.starts_with(p))
        {
            assert!(v.is_null(), "{k}");
        }
    }
    assert!(body["estimate_id"].is_null());
    assert!(body["tags"].is_null());
    assert_eq!(body["incoterm"], "fob");
    assert_eq!(body["metadata"]["team"], "eu");
    assert_eq!(body["freight_cost"]["currency"], "EUR");
    assert!(body["service_level"].is_null());
    assert_eq!(body["shipper_id"], "acc-1");
    assert_eq!(body["supplier_name"], "Carrier");
    assert_eq!(body["created_at"], "2026-11-26T12:00:00Z");
    assert_eq!(body["legs"][0].as_object().unwrap().len(), 18);
    assert_eq!(body["legs"][0]["emissions"].as_object().unwrap().len(), 30);
}

#[test]
fn methods_loads_and_dates_answer_in_the_response_shapes() {
    let body = serde_json::to_value(render(&shipment(&row(), true))).unwrap();
    let road = &body["legs"][0]["method"];
    assert_eq!(road["vehicle_type"], "truck");
    assert_eq!(road["emission_standard"], "euro6");
    assert!(road["gross_vehicle_mass_rating"].is_null());
    assert_eq!(road.as_object().unwrap().len(), 16);
    let rail = &body["legs"][1]["method"];
    assert_eq!(rail.as_object().unwrap().len(), 5);
    let load = &body["legs"][0]["load"];
    assert_eq!(load["containers"][0]["type"], "20gp");
    assert!(load["containers"][0]["cargo_type"].is_null());
    assert!(load["volume"].is_null());
    assert_eq!(body["legs"][0]["dates"]["etd"], "2026-01-02");
    assert!(body["legs"][0]["dates"]["ata"].is_null());
    assert!(body["legs"][1]["load"].is_null());
    assert!(body["legs"][1]["dates"].is_null());
}

#[test]
fn sea_methods_keep_the_vessel_and_drop_tracking() {
    let m = method(Some(&json!({
        "vessel_type": "container_ship",
        "vessel_tracking": {"departure_on": "2026-01-01", "arrival_on": "2026-01-09"}
    })));
    assert_eq!(m["vessel_type"], "container_ship");
    assert!(m["vessel_imo_number"].is_null());
    assert!(m.get("vessel_tracking").is_none());
    assert_eq!(m.as_object().unwrap().len(), 10);
    assert_eq!(method(Some(&json!("plane"))), json!("plane"));
    assert_eq!(
        method(Some(&json!({"aircraft_type": "B744"}))),
        json!({"aircraft_type": "B744"})
    );
    let f = method(Some(
        &json!({"flight_number": "BA1", "departure_on": "2026-01-01"}),
    ));
    assert!(f["aircraft_configuration"].is_null());
    assert_eq!(emission_standard(Some("jp2016")), Value::Null);
}

#[test]
fn without_emissions_every_figure_is_null() {
    let body = serde_json::to_value(render(&shipment(&row(), false))).unwrap();
    assert!(body["emissions_source"].is_null());
    assert!(body["total_emissions"].is_null());
    assert!(body["distance_km"].is_null());
    assert!(body["legs"][0]["emissions"].is_null());
    assert_eq!(body["origin_city"], "Hamburg");
}

#[test]
fn client_totals_are_manual_without_phases() {
    let mut r = row();
    r["emissions"] = json!({"total_emissions": "100", "wtt": "25", "distance_km": "250"});
    let body = serde_json::to_value(render(&shipment(&r, false))).unwrap();
    assert_eq!(body["emissions_source"], "manual");
    assert_eq!(body["total_emissions"], "100");
    assert_eq!(body["wtt"], "25");
    assert_eq!(body["ttw"], "75");
    assert!(body["pre_carriage_total"].is_null());
    assert!(body["intensity"].is_null());
    assert!(body["legs"][0]["emissions"].is_null());
}

#[test]
fn client_leg_figures_are_answered_as_sent() {
    let mut r = row();
    r["legs"][0]["emissions"] = json!({
        "total_emissions": "10", "wtt": "2", "distance_km": "200",
        "transport_activity": "2000", "emission_factor_year": 2023, "emission_factor_source": "own"
    });
    let body = serde_json::to_value(render(&shipment(&r, true))).unwrap();
    let main = &body["legs"][1]["emissions"];
    assert_eq!(main["total_emissions"], "10");
    assert_eq!(main["ttw"], "8");
    assert_eq!(main["emission_factor_year"], 2023);
    assert_eq!(main["emission_factor_source"], "own");
    assert!(main["particles_total"].is_null());
}

#[test]
fn a_hub_leg_has_its_figures_per_tonne_and_counts_in_the_total() {
    // 10 t by road, then through an ambient warehouse: GLEC Framework v3.0
    // default 17.5 kg CO2e/t → 175 kg, all well-to-tank [A]
    let mut r = row();
    r["legs"].as_array_mut().unwrap().push(json!({
        "order": 3, "carriage": "on", "method": "warehouse_ambient"
    }));
    let body = serde_json::to_value(render(&shipment(&r, true))).unwrap();
    let hub = &body["legs"][2];
    assert_eq!(hub["order"], 3);
    assert_eq!(hub["method"], "warehouse_ambient");
    let e = &hub["emissions"];
    assert_eq!(e["total_emissions"], "175");
    assert_eq!(e["wtt"], "175");
    assert_eq!(e["ttw"], "0");
    assert_eq!(e["emission_factor_intensity"], "17.5");
    assert_eq!(e["emission_factor_denominator"], "t");
    assert_eq!(e["distance_km"], "0");
    assert_eq!(e["transport_activity"], "0");
    assert!(e["intensity"].is_null(), "no t·km at a hub: {e}");
    assert_eq!(dec(&body["on_carriage_total"]), Decimal::from(175));
    let legs: Decimal = body["legs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| dec(&l["emissions"]["total_emissions"]))
        .sum();
    assert_eq!(dec(&body["total_emissions"]), legs);
}

#[test]
fn a_road_leg_given_by_fuel_answers_its_litres() {
    let mut r = row();
    r["legs"][1]["method"]["fuel_consumption"] = json!({"amount": "85", "unit": "l"});
    r["legs"][0]["method"]["fuel_consumption"] = json!({"amount": "100", "unit": "kwh"});
    let body = serde_json::to_value(render(&shipment(&r, true))).unwrap();
    assert_eq!(body["legs"][0]["emissions"]["fuel_consumption_l"], "85");
    assert_eq!(
        body["legs"][0]["method"]["fuel_consumption"]["amount"],
        "85"
    );
    // the train's electricity: its energy, no litres
    assert!(body["legs"][1]["emissions"]["fuel_consumption_l"].is_null());
    assert_eq!(body["legs"][1]["emissions"]["primary_energy_mj"], "360");
}
