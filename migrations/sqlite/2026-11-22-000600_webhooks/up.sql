-- Webhook endpoints, their account filters, delivery streams and attempts.
CREATE TABLE webhooks (
    id TEXT PRIMARY KEY,
    organisation_id TEXT NOT NULL REFERENCES organisations (id),
    mode TEXT NOT NULL CHECK (mode IN ('live', 'test')),
    url TEXT NOT NULL,
    enabled BOOLEAN NOT NULL,
    filtered BOOLEAN NOT NULL,          -- true: only the accounts in webhook_accounts
    secret_sealed TEXT NOT NULL,        -- XChaCha20-Poly1305: base64(nonce || ciphertext), AAD = id
    secret_last4 TEXT NOT NULL,
    disabled_reason TEXT NULL,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL
);
CREATE INDEX webhooks_by_owner ON webhooks (organisation_id, mode, id);

CREATE TABLE webhook_accounts (
    webhook_id TEXT NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
    account_id TEXT NOT NULL REFERENCES accounts (id),
    PRIMARY KEY (webhook_id, account_id)
);

-- One row per (webhook, account): where delivery stands, and who holds it.
CREATE TABLE webhook_streams (
    webhook_id TEXT NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
    account_id TEXT NOT NULL REFERENCES accounts (id),
    acked_sequence BIGINT NOT NULL,     -- last acknowledged (or skipped) event sequence
    failures INTEGER NOT NULL,          -- failed attempts of the batch at the head
    next_attempt_at TIMESTAMP NOT NULL,
    lease_owner TEXT NULL,
    lease_until TIMESTAMP NULL,
    PRIMARY KEY (webhook_id, account_id)
);
CREATE INDEX webhook_streams_due ON webhook_streams (next_attempt_at);

CREATE TABLE webhook_attempts (
    id TEXT PRIMARY KEY,              -- UUIDv7: time-ordered
    webhook_id TEXT NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
    account_id TEXT NOT NULL,
    first_sequence BIGINT NOT NULL,
    last_sequence BIGINT NOT NULL,
    event_count INTEGER NOT NULL,
    attempted_at TIMESTAMP NOT NULL,
    status_code INTEGER NULL,
    error TEXT NULL,
    latency_ms BIGINT NOT NULL,
    outcome TEXT NOT NULL CHECK (outcome IN ('delivered', 'failed', 'disabled')),
    next_attempt_at TIMESTAMP NULL
);
CREATE INDEX webhook_attempts_by_webhook ON webhook_attempts (webhook_id, id);
