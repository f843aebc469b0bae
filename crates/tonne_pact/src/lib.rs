//! Tonne's PACT front end: an account's logistics footprints served over
//! the PACT Data Exchange Protocol v2.3 (WBCSD, *PACT Technical
//! Specifications*) with the iLEAP extension (SINE Foundation and Smart
//! Freight Centre), under `/pact`:
//!
//! - `POST /pact/auth/token`: OAuth 2 client credentials (HTTP Basic) for an
//!   access token of an hour ([`tonne_accounts::pact`]);
//! - `GET /pact/2/footprints` (ListFootprints: `limit`, `$filter`, a `Link`
//!   header to the next page) and `GET /pact/2/footprints/{id}`
//!   (GetFootprint): one ProductFootprint per calculated shipment, whose
//!   `extensions` carry iLEAP's ShipmentFootprint, one TCE per leg (hubs
//!   included) with `co2eWTW` and `co2eTTW`;
//! - `GET /pact/2/ileap/tad`: iLEAP's transport activity data, one TAD per
//!   transport leg whose ends can be named (`limit`, `mode`, a `Link` to the
//!   next page);
//! - `POST /pact/2/events`: the asynchronous events, checked and
//!   acknowledged; a footprint request from a partner the account
//!   registered is answered by a job ([`PactAnswers`]) with
//!   `…Fulfilled.v1` or `…Rejected.v1` posted to the partner's events
//!   endpoint.
//!
//! Errors are PACT's (`{"code", "message"}`), the token endpoint's OAuth's
//! (`{"error"}`). The binary registers [`configure`] with a [`PactState`];
//! the middleware stack around it (rate limits per client address,
//! request ids, the deadline) is the one every front end shares.

use actix_web::web;

mod answers;
mod auth;
mod error;
mod events;
mod filter;
mod footprints;
mod state;
mod tad;
mod token;
mod wire;

pub use answers::{MAX_FOOTPRINTS, PactAnswers, SCAN_CAP};
pub use state::PactState;
pub use wire::footprint::{ILEAP_SCHEMA, SPEC_VERSION};

/// Registers `/pact` over its state.
pub fn configure(cfg: &mut web::ServiceConfig, state: PactState) {
    cfg.service(
        web::scope("/pact")
            .app_data(web::Data::new(state))
            .route("/auth/token", web::post().to(token::issue))
            .route("/2/footprints", web::get().to(footprints::list))
            .route("/2/footprints/{id}", web::get().to(footprints::get))
            .route("/2/ileap/tad", web::get().to(tad::list))
            .route("/2/events", web::post().to(events::receive)),
    );
}
