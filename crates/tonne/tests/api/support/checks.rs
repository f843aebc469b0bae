//! The reference contract's checks of bodies, and assertions of error
//! answers.

use std::sync::OnceLock;

use serde_json::Value;
use tonne_test_support::Contract;

use super::Reply;

pub fn contract() -> Option<&'static Contract> {
    static CONTRACT: OnceLock<Option<Contract>> = OnceLock::new();
    CONTRACT.get_or_init(Contract::load).as_ref()
}

/// Validates a body against a contract schema when the contract is present.
pub fn conforms(schema: &str, body: &Value) {
    if let Some(contract) = contract() {
        contract.assert_valid(schema, body);
    }
}

/// Validates against the 2024 document only: for schemas the 2023 one lacks
/// (`UploadLogoResponse`, `PaginatedAnyShippingEmissionEstimates`, …) and answers
/// that echo a request field only the 2024 document has (`metadata`, …).
pub fn conforms_2024(schema: &str, body: &Value) {
    if let Some(Err(e)) =
        contract().map(|c| c.validate_in(tonne_test_support::Edition::Dec2024, schema, body))
    {
        panic!("response violates the 2024 contract: {}", e.0);
    }
}

/// An error whose code the 2023 enum predates: the status, the code, the 2024
/// shape (`error` repeated in `errors`), and the 2024 `ErrorResponse` schema
/// when its enum lists the code (`account_idempotency_already_exists` comes
/// from 3.9.2's models).
pub fn assert_error_2024(res: &Reply, status: u16, code: &str) {
    assert_eq!(res.status.as_u16(), status, "body: {}", res.body);
    assert_eq!(
        res.body["errors"][0]["error_code"], code,
        "body: {}",
        res.body
    );
    assert!(
        res.body["errors"][0]["message"].is_string(),
        "body: {}",
        res.body
    );
    assert_eq!(
        res.body["error"], res.body["errors"][0],
        "body: {}",
        res.body
    );
    assert_eq!(res.body["errors"].as_array().map(Vec::len), Some(1));
    let listed = contract()
        .and_then(|c| c.document_of(tonne_test_support::Edition::Dec2024))
        .and_then(|d| d.pointer("/components/schemas/Error/properties/error_code/enum"))
        .and_then(Value::as_array)
        .is_some_and(|codes| codes.iter().any(|c| c == code));
    if listed {
        conforms_2024("ErrorResponse", &res.body);
    }
}

/// A transaction estimate's `request` echo spells the merchant's search term as
/// the client did: `fuzzy_search_term` (2023; the 2024 merchant schemas forbid
/// any other property) or `search_term` (2024; the 2023 schema does not know it).
/// No echo can please both, so the answer is checked as is against the
/// document of the spelling used, and against the other document with the echo
/// respelled — everything else must hold in both (docs/API.md).
pub fn conforms_transaction(body: &Value) {
    use tonne_test_support::Edition;
    let Some(contract) = contract() else {
        return;
    };
    let merchant = &body["request"]["merchant"];
    let (own, other, from, to) = if merchant.get("fuzzy_search_term").is_some() {
        (
            Edition::Jan2023,
            Edition::Dec2024,
            "fuzzy_search_term",
            "search_term",
        )
    } else if merchant.get("search_term").is_some() {
        (
            Edition::Dec2024,
            Edition::Jan2023,
            "search_term",
            "fuzzy_search_term",
        )
    } else {
        return conforms("TransactionEmissionEstimate", body);
    };
    let schema = "TransactionEmissionEstimate";
    if let Err(e) = contract.validate_in(own, schema, body) {
        panic!("response violates the contract: {}", e.0);
    }
    let mut respelled = body.clone();
    if let Some(m) = respelled["request"]["merchant"].as_object_mut()
        && let Some(term) = m.remove(from)
    {
        m.insert(to.to_owned(), term);
    }
    if let Err(e) = contract.validate_in(other, schema, &respelled) {
        panic!("response violates the contract: {}", e.0);
    }
}

/// Checks an error body. Every status carries the 2024 `ErrorResponse` shape:
/// `error`, and the same element alone in `errors`. For the statuses whose
/// contract response carries the schema (400, 401, 403, 409) the schemas of both
/// documents, error-code enums included; for the others (404 of unknown routes,
/// 405, 413, 415, 429, 503) the same shape with Tonne's own codes, which the
/// enums do not list.
pub fn conforms_error(status: u16, body: &Value) {
    let errors = body["errors"]
        .as_array()
        .unwrap_or_else(|| panic!("not an Errors body: {body}"));
    assert_eq!(errors.len(), 1, "{body}");
    assert!(
        errors[0]["error_code"].is_string() && errors[0]["message"].is_string(),
        "{body}"
    );
    assert_eq!(
        body["error"], errors[0],
        "`error` repeats `errors[0]`: {body}"
    );
    if matches!(status, 400 | 401 | 403 | 409) {
        conforms("Errors", body);
    }
}

/// Asserts a `validation_error` (400) that names `field`.
pub fn assert_invalid_field(res: &Reply, field: &str) {
    assert_error(res, 400, "validation_error");
    assert!(
        res.body.to_string().contains(field),
        "{field}: {}",
        res.body
    );
}

/// Asserts a `validation_error` (400) whose message starts with `start`
/// (the field).
pub fn assert_invalid_message_starting(res: &Reply, start: &str) {
    assert_error(res, 400, "validation_error");
    assert!(
        res.body["error"]["message"]
            .as_str()
            .unwrap()
            .starts_with(start)
    );
}

/// The message of an error answer's first error.
pub fn first_error_message(res: &Reply) -> &str {
    res.body["errors"][0]["message"].as_str().unwrap()
}

/// Asserts an error answer: the status, the contract's `Errors` shape, and the code.
pub fn assert_error(res: &Reply, status: u16, code: &str) {
    assert_eq!(res.status.as_u16(), status, "body: {}", res.body);
    conforms_error(status, &res.body);
    assert_eq!(
        res.body["errors"][0]["error_code"], code,
        "body: {}",
        res.body
    );
}
