-- The 2024 shape of accounts (issue 19).
-- organisation_type: what the organisation is to its supply chain; every account
-- of the organisation answers it. Existing organisations are shippers (they
-- estimate and offset their own freight), the only kind Tonne served before.
ALTER TABLE organisations ADD COLUMN organisation_type TEXT NOT NULL DEFAULT 'shipper'
    CHECK (organisation_type IN ('shipper', 'supplier'));

-- handle: client-defined, URL-friendly, unique per organisation and account type
-- (live/test). NULL until set; NULLs never collide in a unique index.
ALTER TABLE accounts ADD COLUMN handle TEXT NULL;
ALTER TABLE accounts ADD COLUMN external_pages_visibility TEXT NOT NULL DEFAULT 'hidden'
    CHECK (external_pages_visibility IN ('public', 'hidden', 'private'));
-- idempotency_key of a client account's creation: once per organisation and mode.
ALTER TABLE accounts ADD COLUMN idempotency_key TEXT NULL;
CREATE UNIQUE INDEX accounts_handle_unique ON accounts (organisation_id, mode, handle);
CREATE UNIQUE INDEX accounts_idempotency_key_unique ON accounts (organisation_id, mode, idempotency_key);

-- Uploaded logos, re-encoded by Tonne; served at /logos/{id}.
CREATE TABLE account_logos (
    id TEXT COLLATE "C" PRIMARY KEY,
    account_id TEXT COLLATE "C" NOT NULL REFERENCES accounts (id),
    content_type TEXT NOT NULL CHECK (content_type IN ('image/png', 'image/jpeg')),
    image BYTEA NOT NULL,
    created_at TIMESTAMP NOT NULL
);
CREATE INDEX account_logos_by_account ON account_logos (account_id);
