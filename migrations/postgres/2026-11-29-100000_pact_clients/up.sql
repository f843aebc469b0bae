-- PACT clients: OAuth 2 client credentials an account gives another system
-- to read its logistics footprints over /pact; the secret only as a SHA-256
-- hash. Their access tokens, also as hashes, each with its expiry; a
-- client's tokens go when it is revoked.
CREATE TABLE pact_clients (
    id TEXT PRIMARY KEY NOT NULL,
    account_id TEXT NOT NULL REFERENCES accounts (id),
    label TEXT NOT NULL,
    secret_hash TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    revoked_at TIMESTAMP
);
CREATE INDEX pact_clients_account ON pact_clients (account_id, created_at);

CREATE TABLE pact_tokens (
    token_hash TEXT PRIMARY KEY NOT NULL,
    client_id TEXT NOT NULL REFERENCES pact_clients (id) ON DELETE CASCADE,
    issued_at TIMESTAMP NOT NULL,
    expires_at TIMESTAMP NOT NULL
);
CREATE INDEX pact_tokens_client ON pact_tokens (client_id, issued_at);
