//! `/v1/orders`: placing orders by mass or by value, reading and listing them.

mod wire;
pub use wire::*;

use std::collections::BTreeMap;

use actix_web::{HttpResponse, web};
use tonne_kernel::MassUnit;
use tonne_ordering::{Order, OrderRequest, Pricing};
use tonne_wire::OrderResponse;

use crate::error::ApiError;
use crate::extract::{Authenticated, JsonBody, MaybeAuthenticated, PageQuery};
use crate::state::AppState;
use crate::wire::{
    BodyErrors, ErrorsResponse, InvalidParameter, KeyErrors, MassQuoteRequest, RateLimited,
    mass_request, paginated, selection, value_request,
};

/// An order as the contract answers it, its addresses on this server.
fn order_body(state: &AppState, order: &Order) -> OrderResponse {
    OrderResponse::from(order).with_base(&state.pages.public_url)
}

/// Places an order for the acting account, paid by invoice, and answers it.
async fn place(
    state: &AppState,
    who: &Authenticated,
    pricing: Pricing,
    idempotency_key: Option<String>,
    metadata: Option<BTreeMap<String, String>>,
) -> Result<HttpResponse, ApiError> {
    let request = OrderRequest {
        pricing,
        idempotency_key,
        metadata: metadata.unwrap_or_default().into_iter().collect(),
        origin: None,
        payment_method: tonne_ordering::PaymentMethod::Invoice,
        payment_reference: None,
    };
    let order = state
        .ordering
        .create_order(who.account_id(), who.0.mode, request)
        .await?;
    Ok(HttpResponse::Ok().json(order_body(state, &order)))
}

/// Places an order for the mass of an estimate (once per estimate).
#[utoipa::path(post, path = "/v1/orders/by-estimate", tag = "Orders", operation_id = "createOrderByEstimate",
    security(("BearerAuth" = [])), request_body = EstimateOrderRequest,
    responses((status = 200, description = "OK", body = OrderResponse), (status = 400, description = "Invalid request; estimate_not_found for an id the account does not have", body = ErrorsResponse), (status = 409, description = "estimate_order_already_placed, or order_idempotency_already_exists", body = ErrorsResponse), KeyErrors, BodyErrors))]
pub async fn create_by_estimate(
    state: web::Data<AppState>,
    who: Authenticated,
    body: JsonBody<EstimateOrderRequest>,
) -> Result<HttpResponse, ApiError> {
    let b = body.0;
    let record = state
        .estimates
        .get(who.account_id(), None, &b.estimate_id)
        .await
        .map_err(|e| match e {
            // the contract has no 404 here: a missing estimate is a bad field
            tonne_estimation::ports::EstimationError::NotFound => ApiError::new(
                actix_web::http::StatusCode::BAD_REQUEST,
                crate::error::codes::ESTIMATE_NOT_FOUND,
                "estimate_id: this account has no estimate with this id",
            ),
            other => other.into(),
        })?;
    let mass = record.mass.ok_or_else(|| {
        ApiError::validation(
            "estimate_id",
            "the estimate is a money movement: it has no emissions to offset",
        )
    })?;
    let pricing = Pricing::Estimate {
        estimate_id: record.id,
        mass,
        selection: selection(b.bundle_selection)?,
        trunc: b.quantity_trunc.map(MassUnit::from),
    };
    place(&state, &who, pricing, b.idempotency_key, b.metadata).await
}

paginated! {
    /// The contract's `PaginatedOrders`, with `next_cursor`.
    PaginatedOrders of OrderResponse
}

/// Places an order by mass.
#[utoipa::path(post, path = "/v1/orders/by-mass", tag = "Orders", operation_id = "createOrderByMass",
    security(("BearerAuth" = [])), request_body = MassOrderRequest,
    responses((status = 200, description = "OK", body = OrderResponse), PlaceErrors, KeyErrors, BodyErrors))]
pub async fn create_by_mass(
    state: web::Data<AppState>,
    who: Authenticated,
    body: JsonBody<MassOrderRequest>,
) -> Result<HttpResponse, ApiError> {
    let b = body.0;
    let pricing = Pricing::Mass(mass_request(MassQuoteRequest {
        mass: b.mass,
        bundle_selection: b.bundle_selection,
        bundle_masses: b.bundle_masses,
        quantity_trunc: b.quantity_trunc,
    })?);
    place(&state, &who, pricing, b.idempotency_key, b.metadata).await
}

/// Places an order by value.
#[utoipa::path(post, path = "/v1/orders/by-value", tag = "Orders", operation_id = "createOrderByValue",
    security(("BearerAuth" = [])), request_body = ValueOrderRequest,
    responses((status = 200, description = "OK", body = OrderResponse), PlaceErrors, KeyErrors, BodyErrors))]
pub async fn create_by_value(
    state: web::Data<AppState>,
    who: Authenticated,
    body: JsonBody<ValueOrderRequest>,
) -> Result<HttpResponse, ApiError> {
    let b = body.0;
    let pricing = Pricing::Value(value_request(
        b.value,
        b.bundle_selection,
        b.quantity_trunc,
    )?);
    place(&state, &who, pricing, b.idempotency_key, b.metadata).await
}

/// The acting account's orders, most recent first.
#[utoipa::path(get, path = "/v1/orders", tag = "Orders", operation_id = "listOrders",
    security(("BearerAuth" = [])), params(PageQuery, OrderListQuery),
    responses((status = 200, description = "OK", body = PaginatedOrders), InvalidParameter, KeyErrors))]
pub async fn list(
    state: web::Data<AppState>,
    who: Authenticated,
    page: web::Query<PageQuery>,
    query: web::Query<OrderListQuery>,
) -> Result<HttpResponse, ApiError> {
    let link = query.offset_link_id.clone().filter(|l| !l.is_empty());
    let page = state
        .ordering
        .list_orders(who.account_id(), link, page.page()?)
        .await?;
    Ok(PaginatedOrders::answer(
        &page,
        |o| o.id.to_string(),
        |o| order_body(&state, o),
    ))
}

/// An order by id: only for a key of the order's organisation and mode (any
/// other caller, with or without a key, gets 404 as for an unknown id: the
/// contract lists no 401 here).
#[utoipa::path(get, path = "/v1/orders/{id}", tag = "Orders", operation_id = "getOrder",
    params(("id" = String, Path, description = "The order's id")), security(("BearerAuth" = [])),
    responses((status = 200, description = "OK", body = OrderResponse), (status = 404, description = "No such order for this organisation and mode", body = ErrorsResponse), RateLimited))]
pub async fn get(
    state: web::Data<AppState>,
    who: MaybeAuthenticated,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let order = owned_order(&state, &who, &id).await?;
    Ok(HttpResponse::Ok().json(order_body(&state, &order)))
}

/// The order with this id if the caller's key belongs to its organisation and
/// mode; `not_found` for anyone else, exactly as for an unknown id.
async fn owned_order(
    state: &AppState,
    who: &MaybeAuthenticated,
    id: &str,
) -> Result<Order, ApiError> {
    let not_found = || ApiError::not_found("order not found");
    let Some(caller) = &who.0 else {
        return Err(not_found());
    };
    Ok(state
        .ordering
        .key_order(caller.organisation_id, caller.mode, id)
        .await?)
}

/// The acting account's order with this idempotency key (404 without valid credentials).
#[utoipa::path(get, path = "/v1/orders/by-idempotency-key/{idempotencyKey}", tag = "Orders", operation_id = "getOrderByIdempotencyKey",
    params(("idempotencyKey" = String, Path, description = "The order's idempotency key")),
    responses((status = 200, description = "OK", body = OrderResponse), (status = 404, description = "No such order for this account", body = ErrorsResponse), RateLimited))]
pub async fn by_idempotency_key(
    state: web::Data<AppState>,
    who: MaybeAuthenticated,
    key: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let Some(caller) = who.0 else {
        return Err(ApiError::not_found("order not found"));
    };
    let order = state
        .ordering
        .order_by_idempotency_key(caller.account_id, &key)
        .await?;
    Ok(HttpResponse::Ok().json(order_body(&state, &order)))
}

/// Registers the order routes (under `/v1`), before the quote routes.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(web::resource("/orders").route(web::get().to(list)))
        .service(web::resource("/orders/by-mass").route(web::post().to(create_by_mass)))
        .service(web::resource("/orders/by-value").route(web::post().to(create_by_value)))
        .service(web::resource("/orders/by-estimate").route(web::post().to(create_by_estimate)))
        .service(
            web::resource("/orders/by-idempotency-key/{key}")
                .route(web::get().to(by_idempotency_key)),
        );
}

/// The retirement certificate of a completed order, as a PDF: only for a key
/// of the order's organisation and mode, like the order (the public copy is
/// the hosted certificate page's PDF, `/certificates/{id}.pdf`).
#[utoipa::path(get, path = "/v1/orders/{id}/certificate", tag = "Orders", operation_id = "getOrderCertificate",
    params(("id" = String, Path, description = "The order's id")), security(("BearerAuth" = [])),
    responses((status = 200, description = "The certificate", content_type = "application/pdf"), (status = 404, description = "No such order for this organisation and mode, or not complete yet", body = ErrorsResponse), RateLimited))]
pub async fn certificate(
    state: web::Data<AppState>,
    who: MaybeAuthenticated,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let order = owned_order(&state, &who, &id).await?;
    let certificate = state.ordering.certificate(&order.id.to_string()).await?;
    crate::certificate::pdf_answer(&state, &certificate).await
}

/// Registers `/orders/{id}` last, so the fixed paths above win.
pub fn configure_by_id(cfg: &mut web::ServiceConfig) {
    cfg.service(web::resource("/orders/{id}/certificate").route(web::get().to(certificate)))
        .service(web::resource("/orders/{id}").route(web::get().to(get)));
}
