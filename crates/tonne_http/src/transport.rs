//! `Strict-Transport-Security` on every response when the installation is
//! reached over https (`TONNE_PUBLIC_URL` starts with `https://`): browsers
//! then never speak plain http to it for a year, so a session cookie cannot
//! be taken on a downgraded connection. No `includeSubDomains` and no
//! `preload`: they bind every other site of the domain, which is the domain
//! owner's decision, not this service's.

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{self, HeaderValue};
use actix_web::middleware::Next;
use actix_web::web;

use crate::state::AppState;

/// One year, OWASP's recommended minimum.
const HSTS: &str = "max-age=31536000";

/// Adds `Strict-Transport-Security` when the public URL is https.
pub async fn strict_transport_security(
    req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let https = req
        .app_data::<web::Data<AppState>>()
        .is_some_and(|state| state.pages.is_https());
    let mut response = next.call(req).await?;
    if https {
        response.headers_mut().insert(
            header::STRICT_TRANSPORT_SECURITY,
            HeaderValue::from_static(HSTS),
        );
    }
    Ok(response)
}
