-- What a client attaches to an estimate (API version 2024-08-08): an idempotency
-- key, once per account (the constraint, not a read-then-write check), metadata, and
-- whether the estimate is of an actual shipment/transaction and when it happened.
ALTER TABLE estimates ADD COLUMN idempotency_key TEXT NULL;
ALTER TABLE estimates ADD COLUMN metadata TEXT NOT NULL DEFAULT '{}';  -- JSON object of strings
ALTER TABLE estimates ADD COLUMN actual BOOLEAN NULL;               -- is_shipment / is_transaction
ALTER TABLE estimates ADD COLUMN occurred_at TIMESTAMP NULL;          -- shipped_at / transaction_processed_at
CREATE UNIQUE INDEX estimates_idempotency ON estimates (account_id, idempotency_key);
