-- Shipments (docs/ARCHITECTURE.md, tonne_storage): uploaded batches and their
-- rows as sent, the counterparties they name, the shipments the background
-- worker stores from them, and queued calculations. Batches and calculations
-- are durable jobs: a worker claims one under a lease (`lease_owner`,
-- `lease_until`), another takes it over once the lease has run out.
CREATE TABLE shipment_batches (
    id TEXT PRIMARY KEY,                  -- UUIDv7: ordered by time
    account_id TEXT NOT NULL REFERENCES accounts (id),
    account_name TEXT NOT NULL,                       -- shown on the batch, and as the shipper
    source TEXT NOT NULL CHECK (source IN ('api', 'data_sheet')),
    data_sheet_id TEXT NULL,
    data_sheet_filename TEXT NULL,
    data_sheet_uploader TEXT NULL,
    idempotency_key TEXT NULL,
    contact_id TEXT NULL,                             -- as sent: checked by the worker
    calculate BOOLEAN NOT NULL,
    row_count BIGINT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('pending', 'processing', 'processed')),
    lease_owner TEXT NULL,
    lease_until TIMESTAMP NULL,
    success_count BIGINT NULL,                        -- NULL until processed, or with batch_error
    failed_count BIGINT NULL,
    batch_error TEXT NULL,
    created_at TIMESTAMP NOT NULL
);
CREATE UNIQUE INDEX shipment_batches_idempotency ON shipment_batches (account_id, idempotency_key);
CREATE INDEX shipment_batches_by_account ON shipment_batches (account_id, id);
-- the claim: the oldest batch still waiting (or under an expired lease)
CREATE INDEX shipment_batches_waiting ON shipment_batches (id)
    WHERE status IN ('pending', 'processing');

-- Every row of a batch as the client sent it; `outcome` is set once, when
-- the row is processed (exactly once: only where it is still NULL).
CREATE TABLE shipment_batch_rows (
    batch_id TEXT NOT NULL REFERENCES shipment_batches (id),
    row_index BIGINT NOT NULL,
    body TEXT NOT NULL,
    outcome TEXT NULL CHECK (outcome IN ('stored', 'failed')),
    shipment_id TEXT NULL,
    error TEXT NULL,
    PRIMARY KEY (batch_id, row_index)
);
CREATE INDEX shipment_batch_rows_pending ON shipment_batch_rows (batch_id, row_index)
    WHERE outcome IS NULL;

-- The other side of an account's shipments (the contract's contacts).
CREATE TABLE shipment_counterparties (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts (id),
    internal_id TEXT NULL,                            -- the rows' target_internal_id
    name TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL
);
CREATE UNIQUE INDEX shipment_counterparties_internal ON shipment_counterparties (account_id, internal_id);

-- Stored shipments: the row as sent, the list's facets, the emissions (JSON).
CREATE TABLE shipments (
    id TEXT PRIMARY KEY,                  -- UUIDv7: the list's order
    account_id TEXT NOT NULL REFERENCES accounts (id),
    batch_id TEXT NOT NULL REFERENCES shipment_batches (id),
    data_sheet_id TEXT NULL,
    counterparty_id TEXT NOT NULL REFERENCES shipment_counterparties (id),
    reference TEXT NOT NULL,              -- the client's shipment_id ('' when none)
    shipment_date TEXT NULL,              -- YYYY-MM-DD
    pre_modes SMALLINT NOT NULL,                      -- ModeSet bits per carriage phase
    main_modes SMALLINT NOT NULL,
    on_modes SMALLINT NOT NULL,
    has_emissions BOOLEAN NOT NULL,
    total_grams BIGINT NULL,                          -- well-to-wheel
    flagged BOOLEAN NOT NULL,
    emissions TEXT NULL,                              -- JSON
    body TEXT NOT NULL,                               -- the row as sent
    created_at TIMESTAMP NOT NULL
);
-- keyset pages (id DESC) per account, and the selective filters
CREATE INDEX shipments_by_account ON shipments (account_id, id);
CREATE INDEX shipments_by_batch ON shipments (batch_id, id);
CREATE INDEX shipments_by_counterparty ON shipments (counterparty_id, id);
CREATE INDEX shipments_by_data_sheet ON shipments (data_sheet_id, id) WHERE data_sheet_id IS NOT NULL;
CREATE INDEX shipments_by_reference ON shipments (account_id, reference);
CREATE INDEX shipments_by_date ON shipments (account_id, shipment_date);
-- with or without emissions (and the counts of each), and the few flagged
CREATE INDEX shipments_by_emissions ON shipments (account_id, has_emissions, id);
CREATE INDEX shipments_flagged ON shipments (account_id, id) WHERE flagged;

-- Queued calculations of the shipments a filter selects, walked by id.
CREATE TABLE shipment_calculations (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts (id),
    filter_json TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('queued', 'processing', 'done')),
    after_id TEXT NULL,                   -- the last shipment done
    lease_owner TEXT NULL,
    lease_until TIMESTAMP NULL,
    created_at TIMESTAMP NOT NULL
);
CREATE INDEX shipment_calculations_waiting ON shipment_calculations (id)
    WHERE status IN ('queued', 'processing');
