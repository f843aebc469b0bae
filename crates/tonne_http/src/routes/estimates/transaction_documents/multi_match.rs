//! `POST /v1/estimates/transactions/multi-match`: up to five transaction
//! estimates for one transaction, one per candidate merchant category, best
//! first (`tonne_estimation::multi_match`). Each is stored as an ordinary
//! transaction estimate (`GET /v1/estimates/transactions/{id}` reads it);
//! this answer adds each candidate's match, score and reason.

use actix_web::{HttpResponse, web};
use serde_json::Value;
use tonne_estimation::estimate::EstimateRequest;
use tonne_estimation::multi_match::{MAX_CANDIDATES, candidates};
use tonne_estimation::transaction::Merchant;
use tonne_estimation::transaction_document::MATCHING_MODEL;

use super::wire::{MultiMatchQuery, MultiMatchResponse};
use crate::error::ApiError;
use crate::extract::{Authenticated, JsonBody};
use crate::routes::estimates::conversion;
use crate::routes::estimates::quoting::answer;
use crate::routes::estimates::requests::TransactionEstimateRequest;
use crate::state::AppState;
use crate::wire::{BodyErrors, ErrorsResponse, KeyErrors};

/// Estimates one transaction under each candidate category.
#[utoipa::path(post, path = "/v1/estimates/transactions/multi-match", tag = "Emission estimates", operation_id = "createMultiMatchTransactionEstimate",
    security(("BearerAuth" = [])), params(MultiMatchQuery), request_body = TransactionEstimateRequest,
    responses((status = 200, description = "OK", body = MultiMatchResponse), (status = 400, description = "Invalid request, or no category matches", body = ErrorsResponse), (status = 409, description = "The idempotency key is taken", body = ErrorsResponse), KeyErrors, BodyErrors))]
pub async fn create_multi_match(
    state: web::Data<AppState>,
    who: Authenticated,
    query: web::Query<MultiMatchQuery>,
    body: JsonBody<TransactionEstimateRequest>,
) -> Result<HttpResponse, ApiError> {
    let limit = match &query.limit {
        None => MAX_CANDIDATES,
        Some(raw) => raw
            .parse::<usize>()
            .ok()
            .filter(|l| (1..=MAX_CANDIDATES).contains(l))
            .ok_or_else(|| ApiError::validation("limit", "must be an integer from 1 to 5"))?,
    };
    if body.0.idempotency_key.is_some() {
        return Err(ApiError::validation(
            "idempotency_key",
            "one key cannot name several estimates: send none to multi-match",
        ));
    }
    let base = conversion::transaction(&body.0)?;
    let EstimateRequest::Transaction(request) = &base.request else {
        return Err(ApiError::internal(&anyhow::anyhow!(
            "not a transaction request"
        )));
    };
    let m = &body.0.merchant;
    let found = candidates(
        &request.merchant,
        m.name.as_deref(),
        m.category.as_deref(),
        limit,
    );
    if found.is_empty() {
        return Err(ApiError::validation(
            "merchant",
            "matches no merchant category Tonne can estimate; send a category_code",
        ));
    }
    let batch = found
        .iter()
        .map(|c| {
            let mut new = base.clone();
            let mut r = request.clone();
            r.merchant = Merchant::CategoryCode(c.mcc.to_owned());
            new.request = EstimateRequest::Transaction(r);
            new
        })
        .collect();
    let results = state.quoted.create_many(who.account_id(), batch).await?;
    let mut estimates = Vec::with_capacity(found.len());
    for (c, result) in found.iter().zip(results) {
        // an entry the engine refused, or money movement, is left out
        let Ok(Some(quoted)) = result else { continue };
        let Some(rendered) = answer(quoted)? else {
            continue;
        };
        let mut v =
            serde_json::to_value(rendered).map_err(|e| ApiError::internal(&anyhow::anyhow!(e)))?;
        if let Some(o) = v.as_object_mut() {
            o.insert("search_term_match".into(), Value::String(c.matched.clone()));
            o.insert(
                "search_term_match_score".into(),
                c.score
                    .and_then(|s| serde_json::from_str(&s.normalize().to_string()).ok())
                    .unwrap_or(Value::Null),
            );
            o.insert(
                "semantic_matching_model".into(),
                c.score
                    .map_or(Value::Null, |_| Value::String(MATCHING_MODEL.into())),
            );
            o.insert("match_reason".into(), Value::String(c.reason.clone()));
        }
        estimates.push(v);
    }
    Ok(HttpResponse::Ok().json(MultiMatchResponse { estimates }))
}
