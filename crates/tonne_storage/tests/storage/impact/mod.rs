//! The impact domain's storage on SQLite and PostgreSQL: the daily figures the
//! order and estimate stores keep in each change's transaction agree with the
//! raw orders and estimates (and with the migration's backfill), an account's
//! completed orders, sustainability pages and the accounts they speak for.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

mod backfill;
mod completed_orders;
mod daily_figures;
mod fixtures;
mod pages;
mod raw_sums;

use tonne_test_support::on_both_backends;

use backfill::the_migration_backfills_what_the_stores_keep;
use completed_orders::completed_orders_are_the_newest_complete_ones_of_the_account;
use daily_figures::{
    bundle_and_month_totals_sum_the_daily_figures,
    daily_figures_equal_the_raw_orders_per_account_and_basis,
    estimates_are_counted_per_day_and_kind_over_accounts,
};
use pages::{
    page_holders_are_accounts_with_their_logo_handle_and_visibility,
    pages_are_one_per_account_with_a_slug_unique_per_mode,
};

on_both_backends!(
    daily_figures_equal_the_raw_orders_per_account_and_basis,
    bundle_and_month_totals_sum_the_daily_figures,
    estimates_are_counted_per_day_and_kind_over_accounts,
    the_migration_backfills_what_the_stores_keep,
    completed_orders_are_the_newest_complete_ones_of_the_account,
    pages_are_one_per_account_with_a_slug_unique_per_mode,
    page_holders_are_accounts_with_their_logo_handle_and_visibility,
);
