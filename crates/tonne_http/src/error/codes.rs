//! Error codes of the contract's `Error.error_code` enum that Tonne uses, plus the
//! few it adds for statuses whose contract response has no body schema (404 of an
//! unknown route, 405, 413, 415, 429, 5xx).

/// 400: a field is invalid (the message names it).
pub const VALIDATION_ERROR: &str = "validation_error";
/// 400: `Lune-Version` names no version of the API.
pub const API_VERSION_INVALID: &str = "api_version_invalid";
/// 400: a time range whose start follows its end, or given by half.
pub const TIME_RANGE_INVALID: &str = "time_range_invalid";
/// 409: another sustainability page of the mode has this slug.
pub const SUSTAINABILITY_PAGE_SLUG_NOT_UNIQUE: &str = "sustainability_page_slug_not_unique";
/// 409: the account already has a sustainability page.
pub const SUSTAINABILITY_PAGE_EXISTS: &str = "sustainability_page_exists";
/// 400: `limit` is not an integer between 1 and 100.
pub const PAGINATION_LIMIT_INVALID: &str = "pagination_limit_invalid";
/// 400: an id outside the caller's organisation and mode.
pub const ID_INVALID: &str = "id_invalid";
/// 400: a mass or value that is zero, too precise, too large, or buys nothing.
pub const ORDER_QUANTITY_INVALID: &str = "order_quantity_invalid";
/// 400: selection percentages do not sum to 100.
pub const BUNDLE_SELECTION_RATIOS_INVALID: &str = "bundle_selection_ratios_invalid";
/// 400: percentages malformed, or given for some bundles only.
pub const BUNDLE_SELECTION_RATIOS_INVALID_FORMAT: &str = "bundle_selection_ratios_invalid_format";
/// 400: a bundle is unknown, disabled, repeated, or not sold in the account's currency.
pub const BUNDLE_ID_INVALID: &str = "bundle_id_invalid";
/// 409: the account already uploaded a shipment batch with this idempotency key.
pub const SHIPMENT_BATCH_IDEMPOTENCY_ALREADY_EXISTS: &str =
    "shipment_batch_idempotency_already_exists";
/// 409: the account already has an order with this idempotency key.
pub const ORDER_IDEMPOTENCY_ALREADY_EXISTS: &str = "order_idempotency_already_exists";
/// 400: a test account's name cannot change.
pub const TEST_ACCOUNT_NAME_UPDATE_DISALLOWED: &str = "test_account_name_update_disallowed";
/// 403: a live key is required.
pub const LIVE_ACCOUNT_REQUIRED: &str = "live_account_required";
/// 401/403: bad key, or a key not allowed to do this.
pub const UNAUTHORISED: &str = "unauthorised";
/// 404 on an estimate id (400 where the contract has no 404, as for orders by estimate).
pub const ESTIMATE_NOT_FOUND: &str = "estimate_not_found";
/// 409: the estimate has an order (it cannot be ordered again or updated).
pub const ESTIMATE_ORDER_ALREADY_PLACED: &str = "estimate_order_already_placed";
/// 409: the account has an estimate with this idempotency key.
pub const ESTIMATE_IDEMPOTENCY_ALREADY_EXISTS: &str = "estimate_idempotency_already_exists";
/// 400: a well-formed airport code Tonne does not know.
pub const AIRPORT_INVALID: &str = "airport_invalid";
/// 400: a well-formed UN/LOCODE that is not a known seaport.
pub const PORT_NOT_FOUND: &str = "port_not_found";
/// 400: an address (Tonne cannot geocode offline).
pub const ADDRESS_NOT_FOUND: &str = "address_not_found";
/// 400: no exchange rate for the currency.
pub const EXCHANGE_RATE_NOT_FOUND: &str = "exchange_rate_not_found";
pub const EMISSION_FACTOR_ID_INVALID: &str = "emission_factor_id_invalid";
pub const EMISSION_FACTOR_UNIT_MISMATCH: &str = "emission_factor_unit_mismatch";
/// 400: the organisation has the most webhooks allowed in this mode.
pub const WEBHOOK_LIMIT_REACHED: &str = "webhook_limit_reached";
/// An offset link names fewer than 1 or more than 24 bundles.
pub const OFFSET_LINK_BUNDLES_SIZE_INVALID: &str = "offset_link_bundles_size_invalid";
/// 400: another account of the organisation and type has this handle.
pub const HANDLE_NOT_UNIQUE: &str = "handle_not_unique";
/// 409: a client account was already created with this idempotency key (3.9.2's code).
pub const ACCOUNT_IDEMPOTENCY_ALREADY_EXISTS: &str = "account_idempotency_already_exists";
/// 400: a client-account route called by a key that does not act as a client account.
pub const ACCOUNT_SCOPE_INCORRECT: &str = "account_scope_incorrect";
/// 400: an uploaded logo that is not a PNG or JPEG that decodes.
pub const UNSUPPORTED_IMAGE_FORMAT: &str = "unsupported_image_format";
/// 404 (outside the contract's enum).
pub const NOT_FOUND: &str = "not_found";
/// 405 (outside the contract's enum).
pub const METHOD_NOT_ALLOWED: &str = "method_not_allowed";
/// 501: a method the server does not know (outside the contract's enum).
pub const NOT_IMPLEMENTED: &str = "not_implemented";
/// 413 (outside the contract's enum).
pub const PAYLOAD_TOO_LARGE: &str = "payload_too_large";
/// 415 (outside the contract's enum).
pub const UNSUPPORTED_MEDIA_TYPE: &str = "unsupported_media_type";
/// 429 (outside the contract's enum).
pub const RATE_LIMITED: &str = "rate_limit_exceeded";
/// A bound per account (outside the contract's enum; the message names the
/// limit and its value): 429 with `Retry-After` for what waits to be
/// processed (calculations, batches, documents), 422 for what is stored
/// (shipments, bytes) until an operator raises the limit.
pub const ACCOUNT_LIMIT_REACHED: &str = "account_limit_reached";
/// 500 (outside the contract's enum).
pub const INTERNAL_ERROR: &str = "internal_error";
/// 503 (outside the contract's enum).
pub const SERVICE_UNAVAILABLE: &str = "service_unavailable";
