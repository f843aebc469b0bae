-- PACT partners: the data recipients an account answers asynchronously,
-- each with its base URL (the `source` of its events), its token endpoint
-- and the client credentials it gave the account (the secret sealed with
-- TONNE_SECRETS_KEY, bound to the row's id). Their footprint requests, one
-- per partner and event id, each answered once by its job.
CREATE TABLE pact_partners (
    id TEXT PRIMARY KEY NOT NULL,
    account_id TEXT NOT NULL REFERENCES accounts (id),
    url TEXT NOT NULL,
    token_url TEXT NOT NULL,
    client_id TEXT NOT NULL,
    secret TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    removed_at TIMESTAMP
);
CREATE INDEX pact_partners_account ON pact_partners (account_id, url);

CREATE TABLE pact_requests (
    id TEXT PRIMARY KEY NOT NULL,
    account_id TEXT NOT NULL REFERENCES accounts (id),
    partner_id TEXT NOT NULL REFERENCES pact_partners (id),
    event_id TEXT NOT NULL,
    product_ids TEXT NOT NULL,
    status TEXT NOT NULL,
    received_at TIMESTAMP NOT NULL,
    answered_at TIMESTAMP,
    error TEXT,
    UNIQUE (partner_id, event_id)
);
CREATE INDEX pact_requests_account ON pact_requests (account_id, status, received_at);
