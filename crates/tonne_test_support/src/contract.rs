//! The reference OpenAPI documents (`../shared/contract`) as JSON Schema: a
//! response body checked against the schema a route declares in either contract.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

use serde_json::{Map, Value, json};

use crate::db::require_postgres;

/// The seed's contract (January 2023) and the same API as published in December 2024.
const FILE_2023: &str = "lune-openapi-2023-01.yml";
const FILE_2024: &str = "lune-openapi-2024-12.yml";

/// Where the contracts are looked for when `TONNE_CONTRACT` is not set:
/// `shared/contract/` beside the checkout, as CI lays it out.
fn default_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("..")
        .join("..")
        .join("shared")
        .join("contract")
}

/// Why the contract could not be used.
#[derive(Debug)]
pub struct ContractError(pub String);

/// Which published document a check ran against.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Edition {
    /// `lune-openapi-2023-01.yml`, the seed's contract (the 2.2.7 client's).
    Jan2023,
    /// `lune-openapi-2024-12.yml`, version `2024-08-08` (today's 3.x client's).
    Dec2024,
}

impl Edition {
    /// The name this edition gives to a schema named as in the 2023 document
    /// (the 2024 document calls `Errors` `ErrorResponse`).
    fn schema_name(self, name: &str) -> &str {
        match (self, name) {
            (Self::Dec2024, "Errors") => "ErrorResponse",
            _ => name,
        }
    }
}

/// One OpenAPI document with its component schemas as JSON Schema.
struct Document {
    edition: Edition,
    document: Value,
    components: Value,
    validators: Mutex<HashMap<String, Arc<jsonschema::Validator>>>,
}

/// The reference OpenAPI contracts: every check runs against the 2023 document
/// and the 2024 one (where it still has the schema), so a response that pleases
/// one client generation but not the other fails.
pub struct Contract {
    documents: Vec<Document>,
}

fn read(path: &Path) -> Option<String> {
    match std::fs::read_to_string(path) {
        Ok(text) => Some(text),
        Err(_) => {
            assert!(
                !require_postgres(),
                "CI=true but the contract is missing at {}: contract checks are mandatory in CI",
                path.display()
            );
            eprintln!(
                "note: contract not found at {}; skipping its schema checks",
                path.display()
            );
            None
        }
    }
}

impl Document {
    fn parse(edition: Edition, text: &str) -> Self {
        let document: Value = serde_yaml::from_str(text).expect("the contract is valid YAML");
        let mut schemas = document
            .pointer("/components/schemas")
            .cloned()
            .expect("the contract has components.schemas");
        openapi_to_json_schema(&mut schemas);
        Self {
            edition,
            document,
            components: json!({ "schemas": schemas }),
            validators: Mutex::new(HashMap::new()),
        }
    }

    fn has(&self, name: &str) -> bool {
        self.components
            .pointer(&format!("/schemas/{name}"))
            .is_some()
    }

    fn validator(&self, name: &str) -> Result<Arc<jsonschema::Validator>, ContractError> {
        let mut cache = self
            .validators
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if let Some(v) = cache.get(name) {
            return Ok(Arc::clone(v));
        }
        let schema = json!({
            "$ref": format!("#/components/schemas/{name}"),
            "components": self.components,
        });
        let validator = Arc::new(jsonschema::validator_for(&schema).map_err(|e| {
            ContractError(format!(
                "schema {name} ({:?}) does not compile: {e}",
                self.edition
            ))
        })?);
        cache.insert(name.to_owned(), Arc::clone(&validator));
        Ok(validator)
    }

    fn validate(&self, name: &str, instance: &Value) -> Result<(), ContractError> {
        let validator = self.validator(name)?;
        let errors: Vec<String> = validator
            .iter_errors(instance)
            .map(|e| format!("{} at {}", e, e.instance_path))
            .collect();
        if errors.is_empty() {
            Ok(())
        } else {
            Err(ContractError(format!(
                "{name} ({:?}): {}\nbody: {instance}",
                self.edition,
                errors.join("; ")
            )))
        }
    }
}

impl Contract {
    /// Loads both contracts, or returns `None` (with a note) when neither is
    /// present. Under `CI=true` a missing document panics: the checks are
    /// mandatory there. `TONNE_CONTRACT` may name the 2023 file; the 2024 file is
    /// looked for beside it.
    pub fn load() -> Option<Self> {
        let first = std::env::var_os("TONNE_CONTRACT")
            .map_or_else(|| default_dir().join(FILE_2023), PathBuf::from);
        let second = first
            .parent()
            .map_or_else(|| PathBuf::from(FILE_2024), |dir| dir.join(FILE_2024));
        let documents: Vec<Document> = [(Edition::Jan2023, first), (Edition::Dec2024, second)]
            .into_iter()
            .filter_map(|(edition, path)| read(&path).map(|t| Document::parse(edition, &t)))
            .collect();
        let mut contract = Self { documents };
        contract.widen_error_codes();
        (!contract.documents.is_empty()).then_some(contract)
    }

    /// Each document's error-code enum becomes the union of both. A code only
    /// the 2024 document has (`api_version_invalid`, …) can only come from what
    /// 2023 had no word for (a `Lune-Version` header, a logo upload); one only
    /// the 2023 document has (`offset_link_bundles_size_invalid`, …) only from
    /// what the 2024 document dropped (offset links). The shape of an error body
    /// is still checked against both documents.
    fn widen_error_codes(&mut self) {
        const ENUM: &str = "/schemas/Error/properties/error_code/enum";
        let mut union: Vec<Value> = Vec::new();
        for document in &self.documents {
            for code in document
                .components
                .pointer(ENUM)
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                if !union.contains(code) {
                    union.push(code.clone());
                }
            }
        }
        for document in &mut self.documents {
            if let Some(codes) = document.components.pointer_mut(ENUM) {
                *codes = Value::Array(union.clone());
            }
        }
    }

    fn edition(&self, edition: Edition) -> Option<&Document> {
        self.documents.iter().find(|d| d.edition == edition)
    }

    /// The seed's (2023) document, or the 2024 one when only it is present.
    pub fn document(&self) -> &Value {
        self.edition(Edition::Jan2023)
            .or_else(|| self.documents.first())
            .map(|d| &d.document)
            .expect("at least one document is loaded")
    }

    /// One edition's whole document, when it is present.
    pub fn document_of(&self, edition: Edition) -> Option<&Value> {
        self.edition(edition).map(|d| &d.document)
    }

    /// Every error code either document's `Error` schema allows.
    pub fn error_codes(&self) -> Vec<String> {
        let mut codes: Vec<String> = self
            .documents
            .iter()
            .filter_map(|d| {
                d.document
                    .pointer("/components/schemas/Error/properties/error_code/enum")
                    .and_then(Value::as_array)
            })
            .flatten()
            .filter_map(|c| c.as_str().map(str::to_owned))
            .collect();
        codes.sort();
        codes.dedup();
        codes
    }

    /// Validates a value against `#/components/schemas/<name>` of the 2023
    /// document and of the 2024 one (which calls `Errors` `ErrorResponse`, and
    /// no longer has the offset-link schemas: those are checked against 2023 only).
    pub fn validate(&self, name: &str, instance: &Value) -> Result<(), ContractError> {
        let mut checked = 0;
        for document in &self.documents {
            let own = document.edition.schema_name(name);
            if document.edition == Edition::Dec2024 && !document.has(own) {
                continue;
            }
            document.validate(own, instance)?;
            checked += 1;
        }
        if checked == 0 {
            return Err(ContractError(format!("no document has a schema {name}")));
        }
        Ok(())
    }

    /// Validates against one edition only (for shapes only that edition has).
    pub fn validate_in(
        &self,
        edition: Edition,
        name: &str,
        instance: &Value,
    ) -> Result<(), ContractError> {
        match self.edition(edition) {
            Some(document) => document.validate(name, instance),
            None => Ok(()),
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
            "bundle_portfolio_id": null, "scope": "account", "sibling_id": "s",
            "handle": null, "external_pages_visibility": "hidden"
        });
        contract.assert_valid("Account", &good);
        let mut bad = good.clone();
        bad["type"] = json!("prod");
        assert!(contract.validate("Account", &bad).is_err());
        if contract.document_of(Edition::Dec2024).is_some() {
            // The 2023 shape alone lacks what the 2024 document requires.
            let mut old = good.clone();
            old.as_object_mut()
                .map(|o| o.remove("external_pages_visibility"));
            assert!(
                contract
                    .validate_in(Edition::Jan2023, "Account", &old)
                    .is_ok()
            );
            assert!(contract.validate("Account", &old).is_err());
            let error = json!({"error_code": "validation_error", "message": "m"});
            assert!(
                contract
                    .validate("Errors", &json!({"errors": [error]}))
                    .is_err()
            );
            contract.assert_valid("Errors", &json!({"errors": [error], "error": error}));
        }
        assert!(
            contract
                .error_codes()
                .contains(&"validation_error".to_owned())
        );
    }
}
