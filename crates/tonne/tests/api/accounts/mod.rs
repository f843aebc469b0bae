//! The accounts API, end to end.

mod client_accounts;
mod fixtures;
mod logos;
mod pairs;
mod shape_2024;

use tonne_test_support::on_both_backends;

use client_accounts::*;
use logos::*;
pub(crate) use logos::{logo_form, png};
use pairs::*;
use shape_2024::*;

on_both_backends!(
    with crate::support::TestApp::spawn;
    an_offset_link_with_use_logo_shows_the_uploaded_logo,
    accounts_carry_handle_visibility_and_organisation_type,
    client_me_answers_the_acting_client_account_only,
    patch_changes_only_what_it_sends_under_the_sibling_rules,
    a_client_idempotency_key_creates_one_account_even_under_concurrency,
    client_lists_carry_each_accounts_estimate_activity,
    logos_are_reencoded_stored_and_served_at_an_absolute_url,
    bad_logos_are_refused_and_change_nothing,
    logos_are_deleted_once_idempotently_and_only_by_their_organisation,
    me_answers_the_acting_account_of_each_mode,
    creating_a_pair_links_siblings_both_ways_and_lists_them_per_mode,
    creating_a_pair_needs_a_live_key_and_writes_nothing_otherwise,
    renaming_a_live_account_renames_its_test_sibling,
    a_test_account_keeps_its_name_but_other_fields_change,
    ids_outside_the_organisation_or_mode_are_id_invalid,
    client_accounts_are_created_listed_updated_and_usable_through_lune_account,
    lune_account_outside_the_organisation_or_mode_is_forbidden,
    lists_page_with_cursors,
);
