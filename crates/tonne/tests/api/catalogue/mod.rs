//! The catalogue and quotes, end to end.

mod bundle_selections;
mod listing;
mod quotes;

use bundle_selections::bundle_selections_and_portfolios_follow_the_2024_contract;
use listing::the_catalogue_is_listed_and_readable_with_and_without_a_key;
use quotes::{
    bad_quotes_are_refused_with_the_contract_codes_and_store_nothing,
    quotes_by_mass_and_value_follow_the_contract_and_add_up,
};
use tonne_test_support::on_both_backends;

on_both_backends!(
    with crate::support::TestApp::spawn;
    the_catalogue_is_listed_and_readable_with_and_without_a_key,
    quotes_by_mass_and_value_follow_the_contract_and_add_up,
    bad_quotes_are_refused_with_the_contract_codes_and_store_nothing,
    bundle_selections_and_portfolios_follow_the_2024_contract,
);
