//! The one schema for both backends: portable SQL types only.
//! Keep in step with `migrations/{postgres,sqlite}`.

diesel::table! {
    organisations (id) {
        id -> Text,
        name -> Text,
        created_at -> Timestamp,
    }
}

diesel::table! {
    accounts (id) {
        id -> Text,
        organisation_id -> Text,
        mode -> Text,
        scope -> Text,
        sibling_id -> Nullable<Text>,
        name -> Text,
        currency -> Text,
        balance_minor -> BigInt,
        balance_outstanding_minor -> BigInt,
        logo -> Nullable<Text>,
        beneficiary -> Nullable<Text>,
        bundle_portfolio_id -> Nullable<Text>,
        created_at -> Timestamp,
        updated_at -> Timestamp,
    }
}

diesel::table! {
    api_keys (id) {
        id -> Text,
        organisation_id -> Text,
        mode -> Text,
        account_id -> Text,
        key_hash -> Text,
        display_prefix -> Text,
        created_at -> Timestamp,
        revoked_at -> Nullable<Timestamp>,
    }
}

diesel::joinable!(api_keys -> accounts (account_id));
diesel::allow_tables_to_appear_in_same_query!(organisations, accounts, api_keys);
