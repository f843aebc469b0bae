//! The client's models: its generated JSON Schemas (when they exist), its
//! camelCased keys, and every field of its `Shipment` present with its type.

use std::sync::OnceLock;

use serde_json::{Value, json};
use tonne_wire::shipments::{LEG_EMISSION_FIELDS, LEG_FIELDS};

/// The client's generated JSON Schemas, when `node clients/schemas.js` made them.
fn client_schemas() -> Option<&'static Value> {
    static SCHEMAS: OnceLock<Option<Value>> = OnceLock::new();
    SCHEMAS
        .get_or_init(|| {
            let path = concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../../clients/schemas/lune3.json"
            );
            let text = std::fs::read_to_string(path).ok()?;
            serde_json::from_str(&text).ok()
        })
        .as_ref()
}

/// A snake_case key as the client's `camelcase-keys` turns it
/// (`with_co2e` → `withCo2E`: a letter after a digit is upper-cased too).
fn camel(key: &str) -> String {
    let mut out = String::new();
    for (i, part) in key.split('_').enumerate() {
        let mut chars = part.chars();
        if let Some(first) = chars.next() {
            if i == 0 {
                out.push(first);
            } else {
                out.extend(first.to_uppercase());
            }
            out.extend(chars);
        }
    }
    let mut fixed = String::new();
    let mut after_digit = false;
    for c in out.chars() {
        if after_digit && c.is_ascii_alphabetic() {
            fixed.extend(c.to_uppercase());
        } else {
            fixed.push(c);
        }
        after_digit = c.is_ascii_digit();
    }
    fixed
}

/// The body as the client hands it over: every key camelCased, deeply.
fn as_client_sees(v: &Value) -> Value {
    match v {
        Value::Object(o) => Value::Object(
            o.iter()
                .map(|(k, v)| (camel(k), as_client_sees(v)))
                .collect(),
        ),
        Value::Array(a) => Value::Array(a.iter().map(as_client_sees).collect()),
        other => other.clone(),
    }
}

/// `body` is a valid `model` of the client 3.9.2 (when its schemas exist).
pub(super) fn client_model(model: &str, body: &Value) {
    let Some(schemas) = client_schemas() else {
        return;
    };
    let body = &as_client_sees(body);
    let mut root = schemas.clone();
    root["$ref"] = json!(format!("#/definitions/{model}"));
    let validator = jsonschema::validator_for(&root).expect("the client's schemas compile");
    let errors: Vec<String> = validator
        .iter_errors(body)
        .map(|e| format!("{} at {}", e, e.instance_path))
        .take(5)
        .collect();
    assert!(
        errors.is_empty(),
        "not a client {model}: {errors:?}\n{body}"
    );
}

/// `Shipment`'s own fields besides the flattened `ShipmentEmissions`.
const SHIPMENT_FIELDS: [&str; 26] = [
    "id",
    "shipment_id",
    "supplier_id",
    "supplier_name",
    "shipper_id",
    "shipper_name",
    "metadata",
    "tags",
    "service_level",
    "incoterm",
    "contract_type",
    "hazardous_cargo",
    "booking_reference",
    "house_waybill",
    "reference_id_po",
    "consignee_id",
    "consignee_name",
    "consignor_id",
    "consignor_name",
    "freight_paying_party",
    "legal_entity",
    "freight_cost",
    "shipper_contract_emission_scope",
    "emissions_source",
    "legs",
    "created_at",
];

/// Every field of the client's `Shipment` is present (all are required),
/// with its type: the flattened `ShipmentEmissions` strings or null, the
/// legs with their emissions likewise.
pub(super) fn assert_client_shipment(s: &Value) {
    client_model("Shipment", s);
    let o = s.as_object().unwrap();
    assert_eq!(o.len(), 104 + SHIPMENT_FIELDS.len(), "{s}");
    for f in SHIPMENT_FIELDS {
        assert!(o.contains_key(f), "Shipment.{f} missing");
    }
    for f in [
        "id",
        "shipment_id",
        "supplier_id",
        "supplier_name",
        "created_at",
    ] {
        assert!(s[f].is_string(), "Shipment.{f} must be a string: {s}");
    }
    assert!(s["hazardous_cargo"].is_boolean() || s["hazardous_cargo"].is_null());
    assert!(s["tags"].is_array() || s["tags"].is_null());
    assert!(s["metadata"].is_object() || s["metadata"].is_null());
    assert!(s["freight_cost"].is_object() || s["freight_cost"].is_null());
    assert!(matches!(
        s["emissions_source"].as_str(),
        None | Some("lune" | "manual")
    ));
    // the 104 ShipmentEmissions fields: strings or null
    for (k, v) in o {
        if SHIPMENT_FIELDS.contains(&k.as_str()) {
            continue;
        }
        assert!(v.is_string() || v.is_null(), "Shipment.{k}: {v}");
    }
    for leg in s["legs"].as_array().unwrap() {
        let l = leg.as_object().unwrap();
        assert_eq!(l.len(), LEG_FIELDS.len(), "{leg}");
        for f in LEG_FIELDS {
            assert!(l.contains_key(f), "ShipmentLegResponse.{f} missing");
        }
        assert!(!leg["method"].is_null());
        assert!(leg["order"].is_u64() || leg["order"].is_null());
        if let Some(e) = leg["emissions"].as_object() {
            assert_eq!(e.len(), LEG_EMISSION_FIELDS.len());
            for f in LEG_EMISSION_FIELDS {
                let v = &e[f];
                if f == "emission_factor_year" {
                    assert!(v.is_u64() || v.is_null());
                } else {
                    assert!(
                        v.is_string() || v.is_null(),
                        "LegEmissionsResponse.{f}: {v}"
                    );
                }
            }
        }
    }
}
