//! PACT with the iLEAP extension (`/pact`): credentials made with the CLI
//! buy a token; the account's calculated shipments are its footprints, each
//! valid against the PACT v2.3 and iLEAP schemas, with a TCE per leg (hubs
//! included) adding up to the shipment's emissions to the gram; pages follow
//! their `Link`; `$filter` works or is refused; another account's
//! shipments are never shown; events are checked; revocation works at once.

mod fixtures;
mod footprints;
mod tokens;

use tonne_test_support::on_both_backends;

pub(crate) use fixtures::{DATA, credentials, event, pact_error, pact_get, token, valid_footprint};
use footprints::a_client_reads_its_footprints_over_pact;
use tokens::token_requests_are_refused_as_oauth_says;

on_both_backends!(
    with crate::support::TestApp::spawn;
    a_client_reads_its_footprints_over_pact,
    token_requests_are_refused_as_oauth_says,
);
