DROP INDEX estimates_idempotency;
ALTER TABLE estimates DROP COLUMN occurred_at;
ALTER TABLE estimates DROP COLUMN actual;
ALTER TABLE estimates DROP COLUMN metadata;
ALTER TABLE estimates DROP COLUMN idempotency_key;
