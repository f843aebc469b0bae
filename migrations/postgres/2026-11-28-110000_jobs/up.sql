-- The job engine (tonne_jobs): every background task is a row here, written
-- in the transaction of the write that needs it, claimed under a lease,
-- fair across accounts (job_turns: when each account was last served),
-- retried with back-off and ended failed after a number of attempts. A job
-- that is done is deleted (its subject keeps the outcome); a failed one is
-- kept with its reason for operators.
CREATE TABLE jobs (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    account_id TEXT NOT NULL REFERENCES accounts (id),
    subject TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('ready', 'running', 'failed')),
    attempts BIGINT NOT NULL DEFAULT 0,
    due_at TIMESTAMP NOT NULL,
    lease_owner TEXT NULL,
    lease_until TIMESTAMP NULL,
    last_error TEXT NULL,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    UNIQUE (kind, subject)
);
CREATE INDEX jobs_due ON jobs (due_at) WHERE status = 'ready';
CREATE INDEX jobs_leased ON jobs (lease_until) WHERE status = 'running';
CREATE INDEX jobs_account ON jobs (account_id, status);

CREATE TABLE job_turns (
    account_id TEXT PRIMARY KEY REFERENCES accounts (id),
    served_at TIMESTAMP NOT NULL
);

-- Work in flight moves onto the engine (the subject's id is its job's id).
INSERT INTO jobs (id, kind, account_id, subject, status, due_at, created_at, updated_at)
SELECT id, 'shipment_batch', account_id, id, 'ready', created_at, created_at, created_at
FROM shipment_batches WHERE status IN ('pending', 'processing');
INSERT INTO jobs (id, kind, account_id, subject, status, due_at, created_at, updated_at)
SELECT id, 'shipment_calculation', account_id, id, 'ready', created_at, created_at, created_at
FROM shipment_calculations WHERE status IN ('queued', 'processing');
INSERT INTO jobs (id, kind, account_id, subject, status, due_at, created_at, updated_at)
SELECT id, 'transaction_document', account_id, id, 'ready', created_at, created_at, created_at
FROM transaction_document_jobs WHERE status IN ('queued', 'processing');
