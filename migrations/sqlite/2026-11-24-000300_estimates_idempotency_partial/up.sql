-- Only estimates that carry an idempotency key are in its unique index: most
-- carry none, and an insert then maintains no entry for it.
DROP INDEX estimates_idempotency;
CREATE UNIQUE INDEX estimates_idempotency ON estimates (account_id, idempotency_key) WHERE idempotency_key IS NOT NULL;
