CREATE TABLE jobs_rebuilt (
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
INSERT INTO jobs_rebuilt (id, kind, account_id, subject, status, attempts, due_at,
                          lease_owner, lease_until, last_error, created_at, updated_at)
    SELECT id, kind, account_id, subject, status, attempts, due_at,
           lease_owner, lease_until, last_error, created_at, updated_at
    FROM jobs WHERE account_id IS NOT NULL;
DROP TABLE jobs;
ALTER TABLE jobs_rebuilt RENAME TO jobs;
CREATE INDEX jobs_due ON jobs (due_at) WHERE status = 'ready';
CREATE INDEX jobs_leased ON jobs (lease_until) WHERE status = 'running';
CREATE INDEX jobs_account ON jobs (account_id, status);
