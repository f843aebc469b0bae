//! Every console POST from another site is refused (403), before its handler
//! runs: defence in depth beside the forms' CSRF tokens and `SameSite`
//! cookies. A POST is cross-site when its `Sec-Fetch-Site` is `cross-site`,
//! or its `Origin` is neither the public URL's origin nor this request's own
//! `Host` (over http or https); `Origin: null` (a sandboxed or privacy-
//! stripped context) is refused too. Requests that send neither header
//! (command-line clients, old browsers) are let through to the CSRF check.

use crate::ConsoleState;
use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::{Method, header};
use actix_web::middleware::Next;
use actix_web::web;

use crate::answers::forbidden;

/// The origin (`scheme://host[:port]`) of an absolute URL.
fn origin_of(url: &str) -> &str {
    let after_scheme = url.find("://").map_or(0, |at| at.saturating_add(3));
    let end = url
        .get(after_scheme..)
        .and_then(|rest| rest.find('/'))
        .map_or(url.len(), |at| at.saturating_add(after_scheme));
    url.get(..end).unwrap_or(url)
}

fn cross_site(req: &ServiceRequest, public_url: &str) -> bool {
    let headers = req.headers();
    if headers
        .get("sec-fetch-site")
        .is_some_and(|v| v.as_bytes().eq_ignore_ascii_case(b"cross-site"))
    {
        return true;
    }
    let Some(origin) = headers.get(header::ORIGIN) else {
        return false;
    };
    let Ok(origin) = origin.to_str() else {
        return true;
    };
    let origin = origin.trim_end_matches('/');
    if origin.eq_ignore_ascii_case(origin_of(public_url)) {
        return false;
    }
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or_default();
    let own = !host.is_empty()
        && ["http://", "https://"].iter().any(|scheme| {
            origin
                .strip_prefix(scheme)
                .is_some_and(|rest| rest.eq_ignore_ascii_case(host))
        });
    !own
}

/// Refuses cross-site POSTs to `/console/…` (see the module's documentation).
pub async fn same_origin_posts(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    let console_post = req.method() == Method::POST && req.path().starts_with("/console");
    if console_post {
        let public_url = req
            .app_data::<web::Data<ConsoleState>>()
            .map(|state| state.pages.public_url.clone())
            .unwrap_or_default();
        if cross_site(&req, &public_url) {
            return Ok(req.into_response(forbidden()));
        }
    }
    Ok(next.call(req).await?.map_into_boxed_body())
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::test::TestRequest;

    fn post(headers: &[(&str, &str)]) -> ServiceRequest {
        headers
            .iter()
            .fold(
                TestRequest::post()
                    .uri("/console/sign-in")
                    .insert_header(("Host", "tonne.example:8080")),
                |req, h| req.insert_header(*h),
            )
            .to_srv_request()
    }

    #[test]
    fn same_origin_and_absent_headers_pass_and_other_sites_do_not() {
        let public = "https://console.example.org/";
        assert!(!cross_site(&post(&[]), public));
        assert!(!cross_site(
            &post(&[("Origin", "https://console.example.org")]),
            public
        ));
        assert!(!cross_site(
            &post(&[("Origin", "http://tonne.example:8080")]),
            public
        ));
        assert!(!cross_site(
            &post(&[("Sec-Fetch-Site", "same-origin")]),
            public
        ));
        assert!(cross_site(
            &post(&[("Origin", "https://evil.example")]),
            public
        ));
        assert!(cross_site(&post(&[("Origin", "null")]), public));
        assert!(cross_site(
            &post(&[("Sec-Fetch-Site", "cross-site")]),
            public
        ));
        assert_eq!(
            origin_of("https://a.example:8443/x/y"),
            "https://a.example:8443"
        );
        assert_eq!(origin_of("http://a.example"), "http://a.example");
    }
}
