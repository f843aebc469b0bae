-- Organisations, live/test account pairs, client accounts and API keys (hashes only).
-- Ids are 32-hex-character strings; SQLite compares TEXT byte-wise (BINARY), so keyset order is the ids' order.
CREATE TABLE organisations (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL
);

CREATE TABLE accounts (
    id TEXT PRIMARY KEY,
    organisation_id TEXT NOT NULL REFERENCES organisations (id),
    mode TEXT NOT NULL CHECK (mode IN ('live', 'test')),
    scope TEXT NOT NULL CHECK (scope IN ('account', 'client_account')),
    sibling_id TEXT NULL REFERENCES accounts (id) DEFERRABLE INITIALLY DEFERRED,
    name TEXT NOT NULL,
    currency TEXT NOT NULL CHECK (currency IN ('GBP', 'EUR', 'USD', 'SEK', 'CHF', 'PLN', 'DKK', 'NOK')),
    balance_minor BIGINT NOT NULL DEFAULT 0,
    balance_outstanding_minor BIGINT NOT NULL DEFAULT 0,
    logo TEXT NULL,
    beneficiary TEXT NULL,
    bundle_portfolio_id TEXT NULL,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    -- a regular account has a sibling, a client account never does
    CHECK ((scope = 'account') = (sibling_id IS NOT NULL))
);

CREATE INDEX accounts_keyset ON accounts (organisation_id, mode, scope, id);

CREATE TABLE api_keys (
    id TEXT PRIMARY KEY,
    organisation_id TEXT NOT NULL REFERENCES organisations (id),
    mode TEXT NOT NULL CHECK (mode IN ('live', 'test')),
    account_id TEXT NOT NULL REFERENCES accounts (id),
    key_hash TEXT NOT NULL UNIQUE,
    display_prefix TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    revoked_at TIMESTAMP NULL
);

CREATE INDEX api_keys_by_organisation ON api_keys (organisation_id, id);
