use std::path::PathBuf;

use serde_json::{Map, Value, json};

use crate::db::require_postgres;

/// Where the reference contract is looked for when `TONNE_CONTRACT` is not set:
/// `shared/contract/` beside the checkout, as CI lays it out.
fn default_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("..")
        .join("..")
        .join("shared")
        .join("contract")
        .join("lune-openapi-2023-01.yml")
}

/// Why the contract could not be used.
#[derive(Debug)]
pub struct ContractError(pub String);

/// The reference OpenAPI contract, with its component schemas turned into JSON Schema.
pub struct Contract {
    document: Value,
    components: Value,
}

impl Contract {
    /// Loads the contract, or returns `None` (with a note) when it is absent.
    /// Under `CI=true` an absent contract panics: the checks are mandatory there.
    pub fn load() -> Option<Self> {
        let path = std::env::var_os("TONNE_CONTRACT").map_or_else(default_path, PathBuf::from);
        let Ok(text) = std::fs::read_to_string(&path) else {
            assert!(
                !require_postgres(),
                "CI=true but the contract is missing at {}: contract checks are mandatory in CI",
                path.display()
            );
            eprintln!(
                "note: contract not found at {}; skipping schema checks",
                path.display()
            );
            return None;
        };
        let document: Value = serde_yaml::from_str(&text).expect("the contract is valid YAML");
        let mut schemas = document
            .pointer("/components/schemas")
            .cloned()
            .expect("the contract has components.schemas");
        openapi_to_json_schema(&mut schemas);
        Some(Self {
            document,
            components: json!({ "schemas": schemas }),
        })
    }

    /// The whole contract document.
    pub fn document(&self) -> &Value {
        &self.document
    }

    /// Every error code the contract's `Error` schema allows.
    pub fn error_codes(&self) -> Vec<String> {
        self.document
            .pointer("/components/schemas/Error/properties/error_code/enum")
            .and_then(Value::as_array)
            .map(|codes| {
                codes
                    .iter()
                    .filter_map(|c| c.as_str().map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Validates a value against `#/components/schemas/<name>`.
    pub fn validate(&self, name: &str, instance: &Value) -> Result<(), ContractError> {
        let schema = json!({
            "$ref": format!("#/components/schemas/{name}"),
            "components": self.components,
        });
        let validator = jsonschema::validator_for(&schema)
            .map_err(|e| ContractError(format!("schema {name} does not compile: {e}")))?;
        let errors: Vec<String> = validator
            .iter_errors(instance)
            .map(|e| format!("{} at {}", e, e.instance_path))
            .collect();
        if errors.is_empty() {
            Ok(())
        } else {
            Err(ContractError(format!(
                "{name}: {}\nbody: {instance}",
                errors.join("; ")
            )))
        }
    }

    /// Panics with the violations if the value does not match the schema.
    pub fn assert_valid(&self, name: &str, instance: &Value) {
        if let Err(ContractError(msg)) = self.validate(name, instance) {
            panic!("response violates the contract: {msg}");
        }
    }
}

/// OpenAPI 3.0 schemas differ from JSON Schema mainly by `nullable: true`.
fn openapi_to_json_schema(value: &mut Value) {
    match value {
        Value::Object(map) => {
            for child in map.values_mut() {
                openapi_to_json_schema(child);
            }
            if map.remove("nullable") == Some(Value::Bool(true)) {
                make_nullable(map);
            }
        }
        Value::Array(items) => items.iter_mut().for_each(openapi_to_json_schema),
        _ => {}
    }
}

fn make_nullable(map: &mut Map<String, Value>) {
    if let Some(Value::Array(values)) = map.get_mut("enum") {
        values.push(Value::Null);
    }
    match map.get("type").cloned() {
        Some(Value::String(t)) => {
            map.insert("type".into(), json!([t, "null"]));
        }
        _ => {
            let inner = Value::Object(std::mem::take(map));
            map.insert("anyOf".into(), json!([inner, { "type": "null" }]));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nullable_becomes_a_null_alternative() {
        let mut schema = json!({"type": "string", "nullable": true});
        openapi_to_json_schema(&mut schema);
        assert_eq!(schema, json!({"type": ["string", "null"]}));
        let mut refd = json!({"allOf": [{"$ref": "#/x"}], "nullable": true});
        openapi_to_json_schema(&mut refd);
        assert_eq!(
            refd,
            json!({"anyOf": [{"allOf": [{"$ref": "#/x"}]}, {"type": "null"}]})
        );
    }

    #[test]
    fn validates_the_account_shape_when_the_contract_is_present() {
        let Some(contract) = Contract::load() else {
            return;
        };
        let good = json!({
            "id": "a", "name": "n", "organisation_id": "o", "currency": "GBP", "balance": "0.00",
            "balance_outstanding": "0.00", "type": "live", "logo": null, "beneficiary": null,
            "bundle_portfolio_id": null, "scope": "account", "sibling_id": "s"
        });
        contract.assert_valid("Account", &good);
        let mut bad = good.clone();
        bad["type"] = json!("prod");
        assert!(contract.validate("Account", &bad).is_err());
        assert!(
            contract
                .error_codes()
                .contains(&"validation_error".to_owned())
        );
    }
}
