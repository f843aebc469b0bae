-- Bounds per account (docs/operations.md, "Quotas").
--
-- An organisation's own limits: NULL keeps the installation's default
-- (TONNE_QUOTAS_*); set by operators in the console or with
-- `tonne organisations limits`.
CREATE TABLE organisation_limits (
    organisation_id TEXT PRIMARY KEY REFERENCES organisations (id),
    max_outstanding_calculations BIGINT NULL CHECK (max_outstanding_calculations >= 0),
    max_pending_batches BIGINT NULL CHECK (max_pending_batches >= 0),
    max_pending_documents BIGINT NULL CHECK (max_pending_documents >= 0),
    max_stored_shipments BIGINT NULL CHECK (max_stored_shipments >= 0),
    max_stored_bytes BIGINT NULL CHECK (max_stored_bytes >= 0),
    updated_at TIMESTAMP NOT NULL
);

-- What each account stores, kept with every batch stored (in the batch's
-- transaction, whose update of this row also makes one account's uploads
-- wait for each other): shipment rows and their bytes as sent. Nothing
-- deletes batches; a deletion must subtract here.
CREATE TABLE account_usage (
    account_id TEXT PRIMARY KEY REFERENCES accounts (id),
    stored_shipments BIGINT NOT NULL DEFAULT 0,
    stored_bytes BIGINT NOT NULL DEFAULT 0
);

INSERT INTO account_usage (account_id, stored_shipments, stored_bytes)
SELECT b.account_id, SUM(b.row_count),
       COALESCE(SUM((SELECT SUM(octet_length(r.body)) FROM shipment_batch_rows r WHERE r.batch_id = b.id)), 0)
FROM shipment_batches b
GROUP BY b.account_id;

-- The counts of what waits, per account.
CREATE INDEX shipment_batches_by_account_status ON shipment_batches (account_id, status);
CREATE INDEX shipment_calculations_by_account_status ON shipment_calculations (account_id, status);
CREATE INDEX transaction_document_jobs_by_account_status ON transaction_document_jobs (account_id, status);
