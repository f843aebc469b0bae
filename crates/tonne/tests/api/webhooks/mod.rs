//! Webhooks end to end: the API against the contract, and delivery to a real
//! receiver on loopback — signatures, per-account order, rotation, filters,
//! live/test separation, deletion, 410, exhaustion and re-enabling, chaos, and
//! two dispatchers with one killed (PostgreSQL).

use std::collections::HashSet;
use std::time::Duration;

use serde_json::{Value, json};

use crate::support::{TestApp, assert_error, conforms};
use tonne_test_support::on_both_backends;

mod api;
mod fixtures;
mod receiver;

use api::*;
use fixtures::*;
pub(crate) use fixtures::{conforms_request, post_webhook, verify_all, wait_for};
pub use receiver::{Behaviour, Received, Receiver};

on_both_backends!(
    with crate::support::TestApp::spawn;
    crud_follows_the_contract,
    bad_input_is_refused_and_nothing_written,
    private_targets_are_refused_unless_allowed,
);

// ---------------------------------------------------------------- delivery

mod delivery;

// ---------------------------------------------------------------- event types

mod event_types;
