//! `/v1/webhooks`: the contract's six routes, plus `GET /v1/webhooks/{id}/attempts`
//! (an extension, documented in docs/API.md).

use actix_web::{HttpRequest, HttpResponse, web};
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;
use tonne_accounts::{AccountScope, Caller};
use tonne_kernel::{AccountMode, Actor};
use tonne_webhooks::{Attempt, NewWebhook, Owner, Webhook, WebhookChanges};
use utoipa::ToSchema;

use crate::error::{ApiError, codes};
use crate::extract::{Authenticated, JsonBody, JsonBodyWithout415, PageQuery};
use crate::state::AppState;
use crate::wire::{
    AccountType, BodyErrors, BodyTooLarge, ErrorsDoc, KeyErrors, paginated, rfc3339,
};

/// The contract's `WebhookBase` fields.
#[derive(Debug, Serialize, ToSchema)]
pub struct WebhookBaseBody {
    /// The webhook's id.
    pub id: String,
    /// Where events are posted.
    pub url: String,
    /// Whether events are sent (false: paused; the backlog is kept).
    pub enabled: bool,
    /// The mode of the events it receives.
    pub account_type: AccountType,
    /// The account filter; absent when every account of the organisation and mode is covered.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub account_ids: Option<Vec<String>>,
    /// Creation time (RFC 3339).
    pub created_at: String,
}

/// The contract's `Webhook`: the secret's last 4 characters only.
#[derive(Debug, Serialize, ToSchema)]
pub struct WebhookBody {
    #[serde(flatten)]
    base: WebhookBaseBody,
    /// The last 4 characters of the signing secret.
    secret: String,
}

/// The contract's `WebhookFullSecret`: on create and rotate only.
#[derive(Debug, Serialize, ToSchema)]
pub struct WebhookFullSecretBody {
    #[serde(flatten)]
    base: WebhookBaseBody,
    /// The whole signing secret (the HMAC key, as shown).
    secret: String,
}

/// The contract's `CreateWebhookRequest`.
#[tonne_http_macros::request]
#[derive(Debug, Deserialize, ToSchema)]
pub struct CreateWebhookRequest {
    /// An `https://` URL on a public host.
    url: String,
    /// Only these accounts' events (at least one id).
    #[schema(nullable = false, min_items = 1)]
    account_ids: Option<Vec<String>>,
}

/// The contract's `UpdateWebhookRequest`.
#[tonne_http_macros::request]
#[derive(Debug, Deserialize, ToSchema)]
pub struct UpdateWebhookRequest {
    /// An `https://` URL on a public host.
    url: String,
    /// Whether events are sent; absent keeps the current value. `true` on a disabled
    /// webhook resumes delivery from the last acknowledged event.
    #[schema(nullable = false)]
    enabled: Option<bool>,
    /// Replaces the account filter; absent keeps it.
    #[schema(nullable = false, min_items = 1)]
    account_ids: Option<Vec<String>>,
}

/// One delivery attempt (Tonne's extension).
#[derive(Debug, Serialize, ToSchema)]
pub struct AttemptBody {
    /// The attempt's id.
    id: String,
    /// The account whose events were sent.
    account_id: String,
    /// Sequence of the first event of the batch (as in the events).
    first_sequence: String,
    /// Sequence of the last event of the batch.
    last_sequence: String,
    /// Events in the batch.
    events: u32,
    /// When the request was sent (RFC 3339).
    attempted_at: String,
    /// The receiver's HTTP status, if it answered.
    status_code: Option<u16>,
    /// What went wrong without an answer (timeout, network, refused address).
    error: Option<String>,
    /// Milliseconds to the answer or the failure.
    latency_ms: u64,
    /// `delivered`, `failed` (retried at `next_attempt_at`) or `disabled`.
    outcome: String,
    /// When the batch is tried again.
    next_attempt_at: Option<String>,
}

paginated! {
    /// A page of attempts, most recent first.
    PaginatedAttempts of AttemptBody
}

fn base(w: &Webhook) -> WebhookBaseBody {
    WebhookBaseBody {
        id: w.id.to_string(),
        url: w.url.as_str().to_owned(),
        enabled: w.enabled,
        account_type: match w.mode {
            AccountMode::Live => AccountType::Live,
            AccountMode::Test => AccountType::Test,
        },
        account_ids: w
            .account_ids
            .as_ref()
            .map(|ids| ids.iter().map(ToString::to_string).collect()),
        created_at: rfc3339(w.created_at),
    }
}

fn body(w: &Webhook) -> WebhookBody {
    WebhookBody {
        base: base(w),
        secret: w.secret.last4(),
    }
}

fn full(w: &Webhook) -> WebhookFullSecretBody {
    WebhookFullSecretBody {
        base: base(w),
        secret: w.secret.expose().to_owned(),
    }
}

fn attempt_body(a: &Attempt) -> AttemptBody {
    AttemptBody {
        id: a.id.to_string(),
        account_id: a.account_id.to_string(),
        first_sequence: tonne_webhooks::sequence_string(a.first_sequence),
        last_sequence: tonne_webhooks::sequence_string(a.last_sequence),
        events: a.events,
        attempted_at: rfc3339(a.attempted_at),
        status_code: a.status,
        error: a.error.clone(),
        latency_ms: a.latency_ms,
        outcome: a.outcome.as_str().to_owned(),
        next_attempt_at: a.next_attempt_at.map(rfc3339),
    }
}

/// Webhooks belong to the organisation; a key acting as a client account may not manage them.
fn owner(caller: &Caller) -> Result<Owner, ApiError> {
    match caller.scope {
        AccountScope::Account => Ok(Owner {
            organisation_id: caller.organisation_id,
            mode: caller.mode,
        }),
        AccountScope::ClientAccount => Err(ApiError::new(
            actix_web::http::StatusCode::FORBIDDEN,
            codes::UNAUTHORISED,
            "a key acting as a client account may not manage the organisation's webhooks",
        )),
    }
}

/// `?account_id=A&account_id=B` (also `account_id[]=`, and comma-separated values).
fn account_filter(req: &HttpRequest) -> Result<Vec<String>, ApiError> {
    let pairs: Vec<(String, String)> = serde_urlencoded::from_str(req.query_string())
        .map_err(|e| ApiError::validation("query", e))?;
    Ok(pairs
        .into_iter()
        .filter(|(k, _)| k == "account_id" || k == "account_id[]")
        .flat_map(|(_, v)| {
            v.split(',')
                .filter(|s| !s.is_empty())
                .map(str::to_owned)
                .collect::<Vec<_>>()
        })
        .collect())
}

/// The organisation's webhooks of the key's mode, oldest first (an array, as the contract says).
#[utoipa::path(get, path = "/v1/webhooks", tag = "Webhooks", operation_id = "listAllWebhooks",
    security(("BearerAuth" = [])),
    params(("account_id" = Option<Vec<String>>, Query, description = "Only webhooks that push events for any of these accounts")),
    responses(
        (status = 200, description = "OK", body = Vec<WebhookBody>),
        (status = 400, description = "An account id of another organisation or mode", body = ErrorsDoc),
        KeyErrors,
    ))]
pub async fn list(
    state: web::Data<AppState>,
    who: Authenticated,
    req: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let owner = owner(&who.0)?;
    let filter = account_filter(&req)?;
    let webhooks = state.webhooks.list(owner, filter).await?;
    Ok(HttpResponse::Ok().json(webhooks.iter().map(body).collect::<Vec<_>>()))
}

/// Registers a webhook; the answer is the only time (with rotation) the whole secret is shown.
#[utoipa::path(post, path = "/v1/webhooks", tag = "Webhooks", operation_id = "createWebhook",
    security(("BearerAuth" = [])),
    request_body = CreateWebhookRequest,
    responses(
        (status = 200, description = "OK", body = WebhookFullSecretBody),
        (status = 400, description = "Invalid URL or target, unknown or foreign account id, or webhook_limit_reached", body = ErrorsDoc),
        KeyErrors,
        BodyErrors,
    ))]
pub async fn create(
    state: web::Data<AppState>,
    who: Authenticated,
    body: JsonBody<CreateWebhookRequest>,
) -> Result<HttpResponse, ApiError> {
    let owner = owner(&who.0)?;
    let body = body.0;
    let webhook = state
        .webhooks
        .create(
            owner,
            NewWebhook {
                url: body.url,
                account_ids: body.account_ids,
            },
            &Actor::ApiKey(who.0.key_id),
        )
        .await?;
    Ok(HttpResponse::Ok().json(full(&webhook)))
}

/// One webhook (the secret's last 4 characters).
#[utoipa::path(get, path = "/v1/webhooks/{id}", tag = "Webhooks", operation_id = "getWebhook",
    security(("BearerAuth" = [])),
    params(("id" = String, Path, description = "The webhook's id")),
    responses(
        (status = 200, description = "OK", body = WebhookBody),
        (status = 404, description = "No webhook of this organisation and mode has this id", body = ErrorsDoc),
        KeyErrors,
    ))]
pub async fn get(
    state: web::Data<AppState>,
    who: Authenticated,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let webhook = state.webhooks.get(owner(&who.0)?, &id).await?;
    Ok(HttpResponse::Ok().json(body(&webhook)))
}

/// Changes URL, `enabled` and the account filter.
#[utoipa::path(put, path = "/v1/webhooks/{id}", tag = "Webhooks", operation_id = "updateWebhook",
    security(("BearerAuth" = [])),
    params(("id" = String, Path, description = "The webhook's id")),
    request_body = UpdateWebhookRequest,
    responses(
        (status = 200, description = "OK", body = WebhookBody),
        (status = 400, description = "Invalid body", body = ErrorsDoc),
        (status = 404, description = "No webhook of this organisation and mode has this id", body = ErrorsDoc),
        KeyErrors,
        BodyTooLarge,
    ))]
pub async fn update(
    state: web::Data<AppState>,
    who: Authenticated,
    id: web::Path<String>,
    body: JsonBodyWithout415<UpdateWebhookRequest>,
) -> Result<HttpResponse, ApiError> {
    let owner = owner(&who.0)?;
    let body = body.0;
    let webhook = state
        .webhooks
        .update(
            owner,
            &id,
            WebhookChanges {
                url: body.url,
                enabled: body.enabled,
                account_ids: body.account_ids,
            },
            &Actor::ApiKey(who.0.key_id),
        )
        .await?;
    Ok(HttpResponse::Ok().json(self::body(&webhook)))
}

/// Deletes a webhook: nothing is sent to it from now on.
#[utoipa::path(delete, path = "/v1/webhooks/{id}", tag = "Webhooks", operation_id = "deleteWebhook",
    security(("BearerAuth" = [])),
    params(("id" = String, Path, description = "The webhook's id")),
    responses(
        (status = 200, description = "OK (empty body)"),
        (status = 404, description = "No webhook of this organisation and mode has this id", body = ErrorsDoc),
        KeyErrors,
    ))]
pub async fn delete(
    state: web::Data<AppState>,
    who: Authenticated,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let by = Actor::ApiKey(who.0.key_id);
    state.webhooks.delete(owner(&who.0)?, &id, &by).await?;
    Ok(HttpResponse::Ok().finish())
}

/// A new secret, shown whole; the old one signs nothing from now on.
#[utoipa::path(put, path = "/v1/webhooks/{id}/rotate-secret", tag = "Webhooks", operation_id = "rotateWebhookSecret",
    security(("BearerAuth" = [])),
    params(("id" = String, Path, description = "The webhook's id")),
    responses(
        (status = 200, description = "OK", body = WebhookFullSecretBody),
        (status = 404, description = "No webhook of this organisation and mode has this id", body = ErrorsDoc),
        KeyErrors,
    ))]
pub async fn rotate_secret(
    state: web::Data<AppState>,
    who: Authenticated,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let by = Actor::ApiKey(who.0.key_id);
    let webhook = state
        .webhooks
        .rotate_secret(owner(&who.0)?, &id, &by)
        .await?;
    Ok(HttpResponse::Ok().json(full(&webhook)))
}

/// The webhook's delivery attempts, most recent first (Tonne's extension).
#[utoipa::path(get, path = "/v1/webhooks/{id}/attempts", tag = "Webhooks", operation_id = "listWebhookAttempts",
    security(("BearerAuth" = [])),
    params(
        ("id" = String, Path, description = "The webhook's id"),
        PageQuery,
    ),
    responses(
        (status = 200, description = "OK", body = PaginatedAttempts),
        (status = 400, description = "Invalid parameter", body = ErrorsDoc),
        (status = 404, description = "No webhook of this organisation and mode has this id", body = ErrorsDoc),
        KeyErrors,
    ))]
pub async fn attempts(
    state: web::Data<AppState>,
    who: Authenticated,
    id: web::Path<String>,
    query: web::Query<PageQuery>,
) -> Result<HttpResponse, ApiError> {
    let page = state
        .webhooks
        .attempts(owner(&who.0)?, &id, query.page()?)
        .await?;
    Ok(HttpResponse::Ok().json(PaginatedAttempts::of(
        &page,
        |a| a.id.to_string(),
        attempt_body,
    )))
}

/// `POST /v1/webhooks/{id}/recover`: which events to send again.
#[tonne_http_macros::request]
#[derive(Debug, Deserialize, ToSchema)]
pub struct RecoverWebhookRequest {
    /// RFC 3339: re-send every event created at or after this time.
    since: String,
    /// Only this account's events (one the webhook delivers for).
    account_id: Option<String>,
}

/// What a recovery re-queued.
#[derive(Debug, Serialize, ToSchema)]
pub struct WebhookRecoveryResponse {
    webhook_id: String,
    /// As sent, normalised to RFC 3339 UTC.
    since: String,
    /// Accounts whose delivery moved back.
    accounts: u64,
    /// Events already delivered that will be delivered again.
    events: u64,
}

/// Re-sends, in order per account, every event of the webhook's accounts since a
/// time (Tonne's extension, in the spirit of Svix's recover). The dispatcher
/// delivers them as usual (signed, retried); answers once they are queued.
#[utoipa::path(post, path = "/v1/webhooks/{id}/recover", tag = "Webhooks", operation_id = "recoverWebhook",
    security(("BearerAuth" = [])),
    params(("id" = String, Path, description = "The webhook's id")),
    request_body = RecoverWebhookRequest,
    responses(
        (status = 202, description = "Queued", body = WebhookRecoveryResponse),
        (status = 400, description = "since not RFC 3339 or in the future, or an account the webhook does not deliver for", body = ErrorsDoc),
        (status = 404, description = "No webhook of this organisation and mode has this id", body = ErrorsDoc),
        KeyErrors,
        BodyErrors,
    ))]
pub async fn recover(
    state: web::Data<AppState>,
    who: Authenticated,
    id: web::Path<String>,
    body: JsonBodyWithout415<RecoverWebhookRequest>,
) -> Result<HttpResponse, ApiError> {
    let since = OffsetDateTime::parse(&body.0.since, &Rfc3339)
        .map_err(|e| ApiError::validation("since", format!("not an RFC 3339 time: {e}")))?;
    let account = body
        .0
        .account_id
        .as_deref()
        .map(|a| {
            a.parse::<tonne_kernel::AccountId>()
                .map_err(|_| ApiError::validation("account_id", "not an account id"))
        })
        .transpose()?;
    let done = state
        .webhooks
        .recover(
            owner(&who.0)?,
            &id,
            since,
            account,
            &Actor::ApiKey(who.0.key_id),
        )
        .await?;
    Ok(HttpResponse::Accepted().json(WebhookRecoveryResponse {
        webhook_id: id.into_inner(),
        since: rfc3339(since.to_offset(time::UtcOffset::UTC)),
        accounts: done.streams,
        events: done.events,
    }))
}

/// Registers the webhook routes (under `/v1`).
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(
        web::resource("/webhooks")
            .route(web::get().to(list))
            .route(web::post().to(create)),
    )
    .service(web::resource("/webhooks/{id}/rotate-secret").route(web::put().to(rotate_secret)))
    .service(web::resource("/webhooks/{id}/attempts").route(web::get().to(attempts)))
    .service(web::resource("/webhooks/{id}/recover").route(web::post().to(recover)))
    .service(
        web::resource("/webhooks/{id}")
            .route(web::get().to(get))
            .route(web::put().to(update))
            .route(web::delete().to(delete)),
    );
}
