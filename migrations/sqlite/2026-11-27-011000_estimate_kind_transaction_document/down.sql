-- Back to ten kinds: document estimates nobody ordered are dropped; an
-- ordered one makes the rebuild fail (as on PostgreSQL) rather than lose its link.
DELETE FROM estimates WHERE kind = 'transaction_document' AND order_id IS NULL;
-- SQLite cannot change a CHECK constraint: the table is rebuilt with the
-- same columns, rows and indexes (nothing references it by a foreign key:
-- orders.estimate_id is checked by its unique index only).
CREATE TABLE estimates_rebuilt (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts (id),
    kind TEXT NOT NULL CHECK (kind IN ('electricity', 'flight', 'passenger_transportation', 'shipping',
                                       'multi_leg_shipping', 'transaction', 'company', 'individual',
                                       'emission_factor', 'multi_leg_shipping_by_fuel')),
    mass_grams BIGINT NULL CHECK (mass_grams >= 0),
    request TEXT NOT NULL,
    result TEXT NOT NULL,
    order_id TEXT NULL UNIQUE,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    idempotency_key TEXT NULL,
    metadata TEXT NOT NULL DEFAULT '{}',
    actual BOOLEAN NULL,
    occurred_at TIMESTAMP NULL
);
INSERT INTO estimates_rebuilt (id, account_id, kind, mass_grams, request, result, order_id,
                               created_at, updated_at, idempotency_key, metadata, actual, occurred_at)
    SELECT id, account_id, kind, mass_grams, request, result, order_id,
           created_at, updated_at, idempotency_key, metadata, actual, occurred_at
    FROM estimates;
DROP TABLE estimates;
ALTER TABLE estimates_rebuilt RENAME TO estimates;
CREATE INDEX estimates_by_account ON estimates (account_id, created_at);
CREATE UNIQUE INDEX estimates_idempotency ON estimates (account_id, idempotency_key) WHERE idempotency_key IS NOT NULL;
