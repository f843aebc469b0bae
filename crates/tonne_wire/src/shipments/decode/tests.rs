//! Uploaded rows decoded into the domain's draft, and their refusals by
//! field path.

#![allow(clippy::unwrap_used, clippy::indexing_slicing)]
use serde_json::{Value, json};
use tonne_shipments::{LegMethod, Location, SeaVessel};

use super::*;

fn leg_json() -> Value {
    json!({
        "carriage": "main",
        "method": {"vehicle_type": "truck", "fuel": "diesel"},
        "distance": {"amount": "100", "unit": "km"},
        "load": {"mass": {"amount": "2000", "unit": "kg"}}
    })
}

fn row_with(leg: Value) -> Value {
    json!({"shipment_id": "S-1", "target_internal_id": "c-1", "legs": [leg]})
}

fn decode(v: &Value) -> Result<ShipmentDraft, RowError> {
    JsonRowDecoder.decode(&v.to_string())
}

fn err(v: &Value) -> RowError {
    decode(v).unwrap_err()
}

#[test]
fn a_full_row_decodes_every_field() {
    let row = json!({
        "shipment_id": "S-1", "target_internal_id": "carrier-9", "target_internal_name": "Carrier Nine",
        "metadata": {"team": "eu"}, "service_level": "express", "incoterm": "fob",
        "contract_type": "spot", "hazardous_cargo": false, "booking_reference": "B1",
        "house_waybill": "H1", "reference_id_po": "PO1", "consignee_id": "c1", "consignee_name": "C",
        "consignor_id": "o1", "consignor_name": "O", "freight_paying_party": "F", "legal_entity": "L",
        "freight_cost": {"value": "1200.50", "currency": "EUR"},
        "shipper_contract_emission_scope": "scope 3",
        "legs": [
            {"leg_id": "a", "order": 2, "carriage": "main", "method": {"vessel_type": "container_ship"},
             "origin": {"locode": "CNSHA"}, "destination": {"locode": "NLRTM"},
             "load": {"containers": {"type": "40hc", "load_type": "fcl"}, "piece_count": 3,
                      "volume": {"amount": "60", "unit": "m3"}},
             "transit_corridor": "suez", "load_factor": "0.8", "empty_run_factor": null,
             "dates": {"etd": "2026-01-05", "atd": "2026-01-06T10:00:00Z"},
             "carrier_name": "MSC", "scac_code": "MSCU", "master_waybill": "M1"},
            {"order": 1, "carriage": "pre", "method": "diesel_freight_train",
             "distance": {"amount": "100", "unit": "mi"},
             "load": {"mass": {"amount": "12", "unit": "t"}}}
        ]
    });
    let d = decode(&row).unwrap();
    assert_eq!(d.reference.as_deref(), Some("S-1"));
    assert_eq!(d.target_internal_name.as_deref(), Some("Carrier Nine"));
    let sea = &d.legs[0];
    assert_eq!(sea.order, Some(2));
    assert_eq!(sea.carriage, Carriage::Main);
    assert!(matches!(
        sea.method,
        LegMethod::Sea(SeaVessel::Container { .. })
    ));
    assert_eq!(sea.origin, Some(Location::Locode("CNSHA".into())));
    assert_eq!(sea.load.teu, Some(Decimal::TWO));
    assert_eq!(sea.date.unwrap().to_string(), "2026-01-06");
    let rail = &d.legs[1];
    assert_eq!(
        rail.distance_km.unwrap().normalize().to_string(),
        "160.9344"
    );
    assert_eq!(rail.load.tonnes, Some(Decimal::from(12)));
    assert_eq!(
        rail.method,
        LegMethod::Simple("diesel_freight_train".into())
    );
}

#[test]
fn masses_convert_to_tonnes() {
    for (amount, unit, tonnes) in [
        ("2000", "kg", "2"),
        ("1500000", "g", "1.5"),
        ("3", "t", "3"),
    ] {
        let mut leg = leg_json();
        leg["load"] = json!({"mass": {"amount": amount, "unit": unit}});
        let d = decode(&row_with(leg)).unwrap();
        assert_eq!(
            d.legs[0].load.tonnes.unwrap().normalize().to_string(),
            tonnes
        );
    }
}

#[test]
fn distances_convert_to_km() {
    let mut leg = leg_json();
    leg["distance"] = json!({"amount": "10", "unit": "nm"});
    let d = decode(&row_with(leg)).unwrap();
    assert_eq!(
        d.legs[0].distance_km.unwrap().normalize().to_string(),
        "18.52"
    );
}

#[test]
fn containers_give_teu_sent_or_by_type() {
    for (containers, teu) in [
        (json!({"teu": "1.5"}), "1.5"),
        (json!({"type": "20gp"}), "1"),
        (json!({"type": "40gp"}), "2"),
        (json!({"type": "45hc"}), "2.25"),
    ] {
        let mut leg = leg_json();
        leg["load"] = json!({"containers": containers});
        let d = decode(&row_with(leg)).unwrap();
        assert_eq!(d.legs[0].load.teu.unwrap().normalize().to_string(), teu);
    }
}

#[test]
fn a_negative_mass_names_its_amount() {
    let mut leg = leg_json();
    leg["load"] = json!({"mass": {"amount": "-5", "unit": "t"}});
    let e = err(&row_with(leg));
    assert_eq!(e.field, "legs[0].load.mass.amount");
    assert!(e.message.contains("non-negative"), "{e}");
}

#[test]
fn a_zero_mass_is_the_domain_checks_business() {
    let mut leg = leg_json();
    leg["load"] = json!({"mass": {"amount": "0", "unit": "t"}});
    let mut d = decode(&row_with(leg)).unwrap();
    assert_eq!(d.check().unwrap_err().field, "legs[0].load.mass");
}

#[test]
fn a_bad_mass_unit_names_it() {
    let mut leg = leg_json();
    leg["load"] = json!({"mass": {"amount": "5", "unit": "lb"}});
    assert_eq!(err(&row_with(leg)).field, "legs[0].load.mass.unit");
}

#[test]
fn unknown_fields_are_refused_at_every_level() {
    let mut row = row_with(leg_json());
    row["colour"] = json!("red");
    let e = err(&row);
    assert_eq!(e.field, "colour");
    assert_eq!(e.message, "is not a field of CreateShipmentRequest");
    let mut leg = leg_json();
    leg["speed"] = json!(3);
    assert_eq!(err(&row_with(leg)).field, "legs[0].speed");
    let mut leg = leg_json();
    leg["load"]["mass"]["precision"] = json!(1);
    assert_eq!(err(&row_with(leg)).field, "legs[0].load.mass.precision");
}

#[test]
fn the_bad_enum_of_the_second_leg_is_named() {
    let mut second = leg_json();
    second["method"]["vehicle_type"] = json!("hovercraft");
    let row = json!({"legs": [leg_json(), second]});
    let e = err(&row);
    assert_eq!(e.field, "legs[1].method.vehicle_type");
    assert!(
        e.to_string()
            .starts_with("legs[1].method.vehicle_type: 'hovercraft'")
    );
}

#[test]
fn closed_vocabularies_of_the_row() {
    for (field, value) in [
        ("incoterm", "fob2"),
        ("service_level", "slow"),
        ("contract_type", "forever"),
    ] {
        let mut row = row_with(leg_json());
        row[field] = json!(value);
        assert_eq!(err(&row).field, field);
    }
    let mut row = row_with(leg_json());
    row["freight_cost"] = json!({"value": "10", "currency": "XXX"});
    assert_eq!(err(&row).field, "freight_cost.currency");
    let mut row = row_with(leg_json());
    row["freight_cost"] = json!({"value": "ten", "currency": "EUR"});
    assert_eq!(err(&row).field, "freight_cost.value");
    let mut leg = leg_json();
    leg["carriage"] = json!("during");
    assert_eq!(err(&row_with(leg)).field, "legs[0].carriage");
    let mut leg = leg_json();
    leg["transit_corridor"] = json!("atlantis");
    assert_eq!(err(&row_with(leg)).field, "legs[0].transit_corridor");
    let mut leg = leg_json();
    leg["restricted_transit_corridors"] = json!(["suez", "atlantis"]);
    assert_eq!(
        err(&row_with(leg)).field,
        "legs[0].restricted_transit_corridors[1]"
    );
    let mut leg = leg_json();
    leg["load"] = json!({"containers": {"type": "60ft"}});
    assert_eq!(err(&row_with(leg)).field, "legs[0].load.containers.type");
}

#[test]
fn both_transit_corridor_fields_are_refused() {
    let mut leg = leg_json();
    leg["transit_corridor"] = json!("suez");
    leg["restricted_transit_corridors"] = json!(["panama"]);
    assert_eq!(
        err(&row_with(leg)).field,
        "legs[0].restricted_transit_corridors"
    );
}

#[test]
fn metadata_values_are_strings() {
    let mut row = row_with(leg_json());
    row["metadata"] = json!({"n": 3});
    assert_eq!(err(&row).field, "metadata.n");
}

#[test]
fn null_only_where_the_model_allows_it() {
    let mut row = row_with(leg_json());
    row["shipment_id"] = Value::Null;
    assert_eq!(err(&row).field, "shipment_id");
    let mut leg = leg_json();
    leg["load_factor"] = Value::Null;
    leg["passenger_utilisation"] = Value::Null;
    decode(&row_with(leg)).unwrap();
    let mut leg = leg_json();
    leg["load_factor"] = json!("1.2");
    assert_eq!(err(&row_with(leg)).field, "legs[0].load_factor");
}

#[test]
fn legs_are_required() {
    let e = err(&json!({"shipment_id": "x"}));
    assert_eq!(
        (e.field.as_str(), e.message.as_str()),
        ("legs", "is required")
    );
    assert_eq!(err(&json!({"legs": {}})).field, "legs");
    assert_eq!(err(&json!([])).field, "row");
    assert_eq!(JsonRowDecoder.decode("{").unwrap_err().field, "row");
}

#[test]
fn client_emissions_of_the_shipment_and_of_a_leg() {
    let mut row = row_with(leg_json());
    row["emissions"] =
        json!({"total_emissions": "100.5", "wtt": "20.5", "ttw": null, "distance_km": "100"});
    let d = decode(&row).unwrap();
    let e = d.client_emissions.unwrap();
    assert_eq!(
        (e.total_kg, e.wtt_kg, e.ttw_kg),
        (Decimal::new(1005, 1), Some(Decimal::new(205, 1)), None)
    );
    let mut leg = leg_json();
    leg["emissions"] = json!({
        "total_emissions": "10", "wtt": "2", "ttw": "8", "distance_km": "100",
        "particles_total": null, "transport_activity": "200", "emission_factor_year": 2024,
        "emission_factor_description": "own", "emission_factor_numerator": "kg CO2e"
    });
    let d = decode(&row_with(leg)).unwrap();
    assert_eq!(
        d.legs[0].client_emissions.unwrap().ttw_kg,
        Some(Decimal::from(8))
    );
    let mut leg = leg_json();
    leg["emissions"] = json!({"total_emissions": "10", "wtt": null, "distance_km": "1"});
    assert_eq!(err(&row_with(leg)).field, "legs[0].emissions.wtt");
    let mut leg = leg_json();
    leg["emissions"] = json!({"total_emissions": "10"});
    assert_eq!(err(&row_with(leg)).field, "legs[0].emissions.distance_km");
}

#[test]
fn dates_pick_actual_departure_first() {
    for (dates, expected) in [
        (json!({"eta": "2026-02-01"}), "2026-02-01"),
        (
            json!({"eta": "2026-02-01", "ata": "2026-02-03"}),
            "2026-02-03",
        ),
        (
            json!({"eta": "2026-02-01", "etd": "2026-01-20"}),
            "2026-01-20",
        ),
    ] {
        let mut leg = leg_json();
        leg["dates"] = dates;
        let d = decode(&row_with(leg)).unwrap();
        assert_eq!(d.legs[0].date.unwrap().to_string(), expected);
    }
    let mut leg = leg_json();
    leg["dates"] = json!({"etd": "tomorrow"});
    assert_eq!(err(&row_with(leg)).field, "legs[0].dates.etd");
}

#[test]
fn an_unknown_locode_becomes_unknown_and_fails_only_at_calculation() {
    let mut leg = leg_json();
    leg.as_object_mut().unwrap().remove("distance");
    leg["method"] = json!({"vessel_type": "container_ship"});
    leg["origin"] = json!({"locode": "ZZZZZ"});
    leg["destination"] = json!({"locode": "NLRTM"});
    let mut d = decode(&row_with(leg)).unwrap();
    assert_eq!(d.legs[0].origin, Some(Location::Unknown("ZZZZZ".into())));
    d.check().unwrap();
    assert_eq!(
        tonne_shipments::emissions(&d).unwrap_err().field,
        "legs[0].origin"
    );
}

#[test]
fn a_decoded_row_calculates_well_to_wheel() {
    let mut d = decode(&row_with(leg_json())).unwrap();
    d.check().unwrap();
    let e = tonne_shipments::emissions(&d).unwrap();
    assert!(e.total.total().grams() > 0);
    assert_eq!(e.total.activity, Decimal::from(200));
}
