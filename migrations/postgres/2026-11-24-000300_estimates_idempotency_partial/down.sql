DROP INDEX estimates_idempotency;
CREATE UNIQUE INDEX estimates_idempotency ON estimates (account_id, idempotency_key);
