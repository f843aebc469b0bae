-- Asynchronous transaction documents (POST /estimates/transaction-documents/async):
-- one durable job per request, claimed under a lease; `estimate_id` is the id
-- the estimate is stored under when the job is done.
CREATE TABLE transaction_document_jobs (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts (id),
    estimate_id TEXT NOT NULL UNIQUE,
    body TEXT NOT NULL,
    tolerance TEXT NOT NULL,
    correlation_id TEXT NULL,
    status TEXT NOT NULL CHECK (status IN ('queued', 'processing', 'done', 'failed')),
    lease_owner TEXT NULL,
    lease_until TIMESTAMP NULL,
    error TEXT NULL,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL
);
CREATE INDEX transaction_document_jobs_waiting ON transaction_document_jobs (status, id);
