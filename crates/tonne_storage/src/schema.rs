//! The one schema for both backends: portable SQL types only.
//! Keep in step with `migrations/{postgres,sqlite}`.

diesel::table! {
    organisations (id) {
        id -> Text,
        name -> Text,
        created_at -> Timestamp,
        organisation_type -> Text,
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
        handle -> Nullable<Text>,
        external_pages_visibility -> Text,
        idempotency_key -> Nullable<Text>,
    }
}

diesel::table! {
    account_logos (id) {
        id -> Text,
        account_id -> Text,
        content_type -> Text,
        image -> Binary,
        created_at -> Timestamp,
    }
}

diesel::joinable!(accounts -> organisations (organisation_id));
diesel::joinable!(account_logos -> accounts (account_id));

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
        last_used_at -> Nullable<Timestamp>,
    }
}

diesel::joinable!(api_keys -> accounts (account_id));

diesel::table! {
    projects (id) {
        id -> Text,
        slug -> Text,
        name -> Text,
        short_name -> Text,
        description -> Text,
        project_type -> Text,
        registry_name -> Text,
        registry_link -> Nullable<Text>,
        latitude -> Text,
        longitude -> Text,
        country_name -> Text,
        country_code -> Text,
        region -> Nullable<Text>,
        logo -> Nullable<Text>,
        primary_image -> Nullable<Text>,
        thumbnail_image -> Nullable<Text>,
        results -> Text,
        un_sdg -> Text,
        media -> Text,
        disabled -> Bool,
        disabled_at -> Nullable<Timestamp>,
        created_at -> Timestamp,
        updated_at -> Timestamp,
        facts -> Text,
    }
}

diesel::table! {
    project_perimeters (project_id) {
        project_id -> Text,
        rings -> Text,
        points -> Integer,
    }
}

diesel::table! {
    bundles (id) {
        id -> Text,
        name -> Text,
        description -> Nullable<Text>,
        background_colour -> Nullable<Text>,
        primary_image -> Nullable<Text>,
        large_image -> Nullable<Text>,
        primary_image_hires -> Nullable<Text>,
        small_thumbnail -> Nullable<Text>,
        available_grams -> Nullable<BigInt>,
        offset_type -> Nullable<Text>,
        carbon_permanence -> Nullable<Text>,
        disabled -> Bool,
        disabled_at -> Nullable<Timestamp>,
        default_share -> Nullable<Integer>,
        created_at -> Timestamp,
        updated_at -> Timestamp,
        approach -> Nullable<Text>,
    }
}

diesel::table! {
    bundle_prices (bundle_id, currency) {
        bundle_id -> Text,
        currency -> Text,
        unit_price_minor -> BigInt,
    }
}

diesel::table! {
    bundle_projects (bundle_id, project_id) {
        bundle_id -> Text,
        project_id -> Text,
        position -> Integer,
    }
}

diesel::table! {
    bundle_portfolios (id) {
        id -> Text,
        identifier -> Text,
        label -> Text,
        created_at -> Timestamp,
        updated_at -> Timestamp,
    }
}

diesel::table! {
    bundle_portfolio_bundles (portfolio_id, bundle_id) {
        portfolio_id -> Text,
        bundle_id -> Text,
        position -> Integer,
        share -> Integer,
    }
}

diesel::table! {
    account_bundle_selections (account_id, bundle_id) {
        account_id -> Text,
        bundle_id -> Text,
        position -> Integer,
        share -> Integer,
    }
}

diesel::table! {
    orders (id) {
        id -> Text,
        account_id -> Text,
        mode -> Text,
        idempotency_key -> Nullable<Text>,
        kind -> Text,
        status -> Text,
        currency -> Text,
        quantity_grams -> BigInt,
        offset_cost_minor -> BigInt,
        commission_minor -> BigInt,
        total_cost_minor -> BigInt,
        requested_quantity_grams -> Nullable<BigInt>,
        requested_value_minor -> Nullable<BigInt>,
        metadata -> Text,
        offset_link_id -> Nullable<Text>,
        email -> Nullable<Text>,
        created_at -> Timestamp,
        updated_at -> Timestamp,
        estimate_id -> Nullable<Text>,
        payment_method -> Text,
        payment_reference -> Nullable<Text>,
        held_reason -> Nullable<Text>,
    }
}

diesel::table! {
    account_pay_origins (account_id, origin) {
        account_id -> Text,
        origin -> Text,
    }
}

diesel::table! {
    pay_temporary_ids (id) {
        id -> Text,
        order_id -> Text,
        created_at -> Timestamp,
    }
}

diesel::table! {
    stripe_events (id) {
        id -> Text,
        event_type -> Text,
        received_at -> Timestamp,
    }
}

diesel::table! {
    estimates (id) {
        id -> Text,
        account_id -> Text,
        kind -> Text,
        mass_grams -> Nullable<BigInt>,
        request -> Text,
        result -> Text,
        order_id -> Nullable<Text>,
        created_at -> Timestamp,
        updated_at -> Timestamp,
        idempotency_key -> Nullable<Text>,
        metadata -> Text,
        actual -> Nullable<Bool>,
        occurred_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    order_lines (order_id, position) {
        order_id -> Text,
        position -> Integer,
        bundle_id -> Text,
        bundle_name -> Text,
        quantity_grams -> BigInt,
        unit_price_minor -> BigInt,
        gross_unit_price_minor -> BigInt,
        offset_cost_minor -> BigInt,
        insufficient_available_quantity -> Bool,
    }
}

diesel::table! {
    order_projects (order_id, position) {
        order_id -> Text,
        position -> Integer,
        project_id -> Text,
        project_name -> Text,
        project_type -> Text,
        project_slug -> Text,
        registry_name -> Text,
        quantity_grams -> BigInt,
        unit_price_minor -> BigInt,
        offset_cost_minor -> BigInt,
        serial -> Nullable<Text>,
        registry_record -> Nullable<Text>,
        id -> Text,
        allocated_at -> Timestamp,
    }
}

diesel::table! {
    account_event_sequences (account_id) {
        account_id -> Text,
        last_sequence -> BigInt,
    }
}

diesel::table! {
    order_events (event_id) {
        event_id -> Text,
        event_type -> Text,
        account_id -> Text,
        sequence -> BigInt,
        order_id -> Text,
        payload -> Text,
        created_at -> Timestamp,
        traceparent -> Nullable<Text>,
    }
}

diesel::joinable!(bundle_prices -> bundles (bundle_id));
diesel::joinable!(bundle_projects -> bundles (bundle_id));
diesel::joinable!(bundle_projects -> projects (project_id));
diesel::table! {
    transaction_document_jobs (id) {
        id -> Text,
        account_id -> Text,
        estimate_id -> Text,
        body -> Text,
        tolerance -> Text,
        correlation_id -> Nullable<Text>,
        status -> Text,
        lease_owner -> Nullable<Text>,
        lease_until -> Nullable<Timestamp>,
        error -> Nullable<Text>,
        created_at -> Timestamp,
        updated_at -> Timestamp,
    }
}

// The pairs of tables that meet in one statement (a join, a subquery, a
// filter on another table's rows), and only those: diesel's macro over a list
// of N tables implements its traits for all N² pairs, and checking those
// impls was most of this crate's compile time (diesel-rs/diesel#4333). A
// statement over a pair not listed here fails to compile; add the pair.
diesel::allow_tables_to_appear_in_same_query!(account_bundle_selections, accounts);
diesel::allow_tables_to_appear_in_same_query!(account_event_sequences, webhook_streams);
diesel::allow_tables_to_appear_in_same_query!(account_logos, accounts);
diesel::allow_tables_to_appear_in_same_query!(accounts, api_keys);
diesel::allow_tables_to_appear_in_same_query!(accounts, orders);
diesel::allow_tables_to_appear_in_same_query!(accounts, organisations);
diesel::allow_tables_to_appear_in_same_query!(bundle_prices, bundle_projects);
diesel::allow_tables_to_appear_in_same_query!(bundle_prices, bundles);
diesel::allow_tables_to_appear_in_same_query!(bundle_prices, projects);
diesel::allow_tables_to_appear_in_same_query!(bundle_projects, bundles);
diesel::allow_tables_to_appear_in_same_query!(bundle_projects, projects);
diesel::allow_tables_to_appear_in_same_query!(bundles, projects);
diesel::allow_tables_to_appear_in_same_query!(order_daily_bundles, order_monthly_bundles);
diesel::allow_tables_to_appear_in_same_query!(order_daily_projects, order_monthly_projects);
diesel::allow_tables_to_appear_in_same_query!(order_events, webhook_attempts);
diesel::allow_tables_to_appear_in_same_query!(order_events, webhook_streams);
diesel::allow_tables_to_appear_in_same_query!(order_lines, order_projects);
diesel::allow_tables_to_appear_in_same_query!(order_lines, orders);
diesel::allow_tables_to_appear_in_same_query!(order_projects, orders);
diesel::allow_tables_to_appear_in_same_query!(webhook_accounts, webhook_attempts);
diesel::allow_tables_to_appear_in_same_query!(webhook_accounts, webhook_streams);
diesel::allow_tables_to_appear_in_same_query!(webhook_accounts, webhooks);
diesel::allow_tables_to_appear_in_same_query!(webhook_attempts, webhook_streams);
diesel::allow_tables_to_appear_in_same_query!(webhook_attempts, webhooks);
diesel::allow_tables_to_appear_in_same_query!(webhook_streams, webhooks);

diesel::table! {
    webhooks (id) {
        id -> Text,
        organisation_id -> Text,
        mode -> Text,
        url -> Text,
        enabled -> Bool,
        filtered -> Bool,
        secret_sealed -> Text,
        secret_last4 -> Text,
        disabled_reason -> Nullable<Text>,
        created_at -> Timestamp,
        updated_at -> Timestamp,
        event_types -> Nullable<Text>,
    }
}

diesel::table! {
    webhook_accounts (webhook_id, account_id) {
        webhook_id -> Text,
        account_id -> Text,
    }
}

diesel::table! {
    webhook_streams (webhook_id, account_id) {
        webhook_id -> Text,
        account_id -> Text,
        acked_sequence -> BigInt,
        failures -> Integer,
        next_attempt_at -> Timestamp,
        lease_owner -> Nullable<Text>,
        lease_until -> Nullable<Timestamp>,
    }
}

diesel::table! {
    webhook_attempts (id) {
        id -> Text,
        webhook_id -> Text,
        account_id -> Text,
        first_sequence -> BigInt,
        last_sequence -> BigInt,
        event_count -> Integer,
        attempted_at -> Timestamp,
        status_code -> Nullable<Integer>,
        error -> Nullable<Text>,
        latency_ms -> BigInt,
        outcome -> Text,
        next_attempt_at -> Nullable<Timestamp>,
        response -> Nullable<Text>,
    }
}

diesel::table! {
    offset_links (id) {
        id -> Text,
        account_id -> Text,
        mode -> Text,
        name -> Text,
        title -> Nullable<Text>,
        description -> Nullable<Text>,
        currency -> Text,
        value_minor -> Nullable<BigInt>,
        emails -> Text,
        expires_at -> Nullable<Timestamp>,
        use_logo -> Bool,
        require_payment -> Bool,
        switched_off -> Bool,
        created_at -> Timestamp,
        updated_at -> Timestamp,
        limit_order_grams -> BigInt,
        limit_order_value_minor -> BigInt,
        limit_daily_orders -> BigInt,
        limit_daily_grams -> BigInt,
        limit_visitor_daily_orders -> BigInt,
    }
}

diesel::table! {
    offset_link_bundles (link_id, position) {
        link_id -> Text,
        position -> Integer,
        bundle_id -> Text,
    }
}

diesel::table! {
    offset_link_visits (link_id, day, visitor) {
        link_id -> Text,
        day -> Text,
        visitor -> Text,
    }
}

diesel::table! {
    offset_link_days (link_id, day) {
        link_id -> Text,
        day -> Text,
        orders -> BigInt,
        grams -> BigInt,
    }
}

diesel::table! {
    offset_link_visitor_days (link_id, day, visitor) {
        link_id -> Text,
        day -> Text,
        visitor -> Text,
        orders -> BigInt,
    }
}

diesel::table! {
    organisation_api_versions (organisation_id) {
        organisation_id -> Text,
        version -> Text,
        pinned_at -> Timestamp,
    }
}

diesel::table! {
    users (id) {
        id -> Text,
        email -> Text,
        role -> Text,
        organisation_id -> Nullable<Text>,
        password_hash -> Nullable<Text>,
        created_at -> Timestamp,
        disabled_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    user_setup_tokens (token_hash) {
        token_hash -> Text,
        user_id -> Text,
        expires_at -> Timestamp,
    }
}

diesel::table! {
    console_form_claims (form_key) {
        form_key -> Text,
        claimed_at -> Timestamp,
    }
}

diesel::table! {
    user_sessions (token_hash) {
        token_hash -> Text,
        user_id -> Text,
        csrf_token -> Text,
        created_at -> Timestamp,
        last_seen_at -> Timestamp,
    }
}

diesel::table! {
    sign_in_failures (id) {
        id -> BigInt,
        email_hash -> Text,
        address -> Text,
        network -> Text,
        at -> Timestamp,
    }
}

diesel::joinable!(user_sessions -> users (user_id));
diesel::allow_tables_to_appear_in_same_query!(users, user_sessions, user_setup_tokens);
diesel::allow_tables_to_appear_in_same_query!(accounts, bundle_portfolio_bundles);

diesel::table! {
    audit_log (id) {
        id -> Text,
        at -> Timestamp,
        actor_kind -> Text,
        actor -> Text,
        action -> Text,
        object_kind -> Text,
        object_id -> Text,
        organisation_id -> Nullable<Text>,
        before_json -> Text,
        after_json -> Text,
    }
}

diesel::table! {
    stock_ledger (id) {
        id -> Text,
        bundle_id -> Text,
        at -> Timestamp,
        actor_kind -> Text,
        actor -> Text,
        delta_grams -> BigInt,
        reason -> Text,
        available_after_grams -> BigInt,
    }
}

diesel::table! {
    order_daily_bundles (account_id, day, bundle_id) {
        account_id -> Text,
        day -> Text,
        bundle_id -> Text,
        bundle_name -> Text,
        placed_grams -> BigInt,
        placed_minor -> BigInt,
        completed_grams -> BigInt,
        completed_minor -> BigInt,
    }
}

diesel::table! {
    order_daily_projects (account_id, day, project_id) {
        account_id -> Text,
        day -> Text,
        project_id -> Text,
        placed_grams -> BigInt,
        placed_minor -> BigInt,
        completed_grams -> BigInt,
        completed_minor -> BigInt,
    }
}

diesel::table! {
    estimate_daily_counts (account_id, day, kind) {
        account_id -> Text,
        day -> Text,
        kind -> Text,
        estimates -> BigInt,
        mass_grams -> BigInt,
    }
}

diesel::table! {
    sustainability_pages (account_id) {
        account_id -> Text,
        organisation_id -> Text,
        mode -> Text,
        status -> Text,
        slug -> Text,
        title -> Text,
        description -> Nullable<Text>,
        custom_description -> Nullable<Text>,
        sections -> Text,
        created_at -> Timestamp,
        updated_at -> Timestamp,
    }
}

diesel::table! {
    order_monthly_bundles (account_id, month, bundle_id) {
        account_id -> Text,
        month -> Text,
        bundle_id -> Text,
        bundle_name -> Text,
        placed_grams -> BigInt,
        placed_minor -> BigInt,
        completed_grams -> BigInt,
        completed_minor -> BigInt,
    }
}

diesel::table! {
    order_monthly_projects (account_id, month, project_id) {
        account_id -> Text,
        month -> Text,
        project_id -> Text,
        placed_grams -> BigInt,
        placed_minor -> BigInt,
        completed_grams -> BigInt,
        completed_minor -> BigInt,
    }
}

diesel::table! {
    shipment_batches (id) {
        id -> Text,
        account_id -> Text,
        account_name -> Text,
        source -> Text,
        data_sheet_id -> Nullable<Text>,
        data_sheet_filename -> Nullable<Text>,
        data_sheet_uploader -> Nullable<Text>,
        idempotency_key -> Nullable<Text>,
        contact_id -> Nullable<Text>,
        calculate -> Bool,
        row_count -> BigInt,
        status -> Text,
        lease_owner -> Nullable<Text>,
        lease_until -> Nullable<Timestamp>,
        success_count -> Nullable<BigInt>,
        failed_count -> Nullable<BigInt>,
        batch_error -> Nullable<Text>,
        created_at -> Timestamp,
    }
}

diesel::table! {
    shipment_batch_rows (batch_id, row_index) {
        batch_id -> Text,
        row_index -> BigInt,
        body -> Text,
        outcome -> Nullable<Text>,
        shipment_id -> Nullable<Text>,
        error -> Nullable<Text>,
    }
}

diesel::table! {
    shipment_counterparties (id) {
        id -> Text,
        account_id -> Text,
        internal_id -> Nullable<Text>,
        name -> Text,
        created_at -> Timestamp,
    }
}

diesel::table! {
    shipments (id) {
        id -> Text,
        account_id -> Text,
        batch_id -> Text,
        data_sheet_id -> Nullable<Text>,
        counterparty_id -> Text,
        reference -> Text,
        shipment_date -> Nullable<Text>,
        pre_modes -> SmallInt,
        main_modes -> SmallInt,
        on_modes -> SmallInt,
        has_emissions -> Bool,
        total_grams -> Nullable<BigInt>,
        flagged -> Bool,
        emissions -> Nullable<Text>,
        body -> Text,
        created_at -> Timestamp,
    }
}

diesel::table! {
    shipment_calculations (id) {
        id -> Text,
        account_id -> Text,
        filter_json -> Text,
        status -> Text,
        after_id -> Nullable<Text>,
        lease_owner -> Nullable<Text>,
        lease_until -> Nullable<Timestamp>,
        created_at -> Timestamp,
    }
}

diesel::table! {
    organisation_limits (organisation_id) {
        organisation_id -> Text,
        max_outstanding_calculations -> Nullable<BigInt>,
        max_pending_batches -> Nullable<BigInt>,
        max_pending_documents -> Nullable<BigInt>,
        max_stored_shipments -> Nullable<BigInt>,
        max_stored_bytes -> Nullable<BigInt>,
        updated_at -> Timestamp,
    }
}

diesel::table! {
    account_usage (account_id) {
        account_id -> Text,
        stored_shipments -> BigInt,
        stored_bytes -> BigInt,
    }
}

diesel::table! {
    pact_clients (id) {
        id -> Text,
        account_id -> Text,
        label -> Text,
        secret_hash -> Text,
        created_at -> Timestamp,
        revoked_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    pact_tokens (token_hash) {
        token_hash -> Text,
        client_id -> Text,
        issued_at -> Timestamp,
        expires_at -> Timestamp,
    }
}

diesel::joinable!(pact_tokens -> pact_clients (client_id));
diesel::allow_tables_to_appear_in_same_query!(pact_clients, pact_tokens);

diesel::table! {
    pact_partners (id) {
        id -> Text,
        account_id -> Text,
        url -> Text,
        token_url -> Text,
        client_id -> Text,
        secret -> Text,
        created_at -> Timestamp,
        removed_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    pact_requests (id) {
        id -> Text,
        account_id -> Text,
        partner_id -> Text,
        event_id -> Text,
        product_ids -> Text,
        status -> Text,
        received_at -> Timestamp,
        answered_at -> Nullable<Timestamp>,
        error -> Nullable<Text>,
    }
}

diesel::joinable!(pact_requests -> pact_partners (partner_id));
diesel::allow_tables_to_appear_in_same_query!(pact_partners, pact_requests);
diesel::allow_tables_to_appear_in_same_query!(accounts, pact_partners);
diesel::allow_tables_to_appear_in_same_query!(accounts, pact_requests);

diesel::table! {
    invoice_sequence (id) {
        id -> Integer,
        last_number -> BigInt,
    }
}

diesel::table! {
    invoices (id) {
        id -> Text,
        number -> BigInt,
        kind -> Text,
        corrects -> Nullable<Text>,
        corrects_number -> Nullable<BigInt>,
        organisation_id -> Text,
        currency -> Text,
        period_from -> Text,
        period_to -> Text,
        issued_at -> Timestamp,
        seller -> Text,
        buyer -> Text,
        offset_cost_minor -> BigInt,
        commission_minor -> BigInt,
        subtotal_minor -> BigInt,
        tax_rate -> Text,
        tax_minor -> BigInt,
        total_minor -> BigInt,
        paid_at -> Nullable<Timestamp>,
        credited_by -> Nullable<Text>,
    }
}

diesel::table! {
    invoice_lines (invoice_id, position) {
        invoice_id -> Text,
        position -> Integer,
        order_id -> Text,
        account_id -> Text,
        ordered_at -> Timestamp,
        quantity_grams -> BigInt,
        offset_cost_minor -> BigInt,
        commission_minor -> BigInt,
        total_minor -> BigInt,
    }
}

diesel::table! {
    organisation_billing (organisation_id) {
        organisation_id -> Text,
        name -> Text,
        address -> Text,
        tax_id -> Nullable<Text>,
        email -> Nullable<Text>,
        updated_at -> Timestamp,
    }
}

diesel::joinable!(invoice_lines -> invoices (invoice_id));
diesel::allow_tables_to_appear_in_same_query!(
    invoices,
    invoice_lines,
    orders,
    organisation_billing
);
diesel::allow_tables_to_appear_in_same_query!(accounts, invoices);
diesel::allow_tables_to_appear_in_same_query!(accounts, invoice_lines);
