-- Orders, their bundle lines, and the transactional outbox of order events.
CREATE TABLE orders (
    id TEXT COLLATE "C" PRIMARY KEY,
    account_id TEXT COLLATE "C" NOT NULL REFERENCES accounts (id),
    mode TEXT NOT NULL CHECK (mode IN ('live', 'test')),
    idempotency_key TEXT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('quantity', 'value')),
    status TEXT NOT NULL CHECK (status IN ('received', 'placed', 'paid', 'retiring', 'complete', 'cancelled', 'failed')),
    currency TEXT NOT NULL,
    quantity_grams BIGINT NOT NULL CHECK (quantity_grams >= 0),
    offset_cost_minor BIGINT NOT NULL CHECK (offset_cost_minor >= 0),
    commission_minor BIGINT NOT NULL CHECK (commission_minor >= 0),
    total_cost_minor BIGINT NOT NULL,
    requested_quantity_grams BIGINT NULL,
    requested_value_minor BIGINT NULL,
    metadata TEXT NOT NULL,          -- JSON object of strings
    offset_link_id TEXT NULL,
    email TEXT NULL,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    CHECK (total_cost_minor = offset_cost_minor + commission_minor)
);

-- Idempotency: one order per (account, key); NULL keys do not collide.
CREATE UNIQUE INDEX orders_idempotency ON orders (account_id, idempotency_key);
-- Most recent first, keyset by (created_at, id).
CREATE INDEX orders_by_account ON orders (account_id, created_at DESC, id DESC);
-- The test-mode pipeline looks for stale, unfinished orders.
CREATE INDEX orders_pipeline ON orders (mode, status, updated_at);

CREATE TABLE order_lines (
    order_id TEXT COLLATE "C" NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    bundle_id TEXT COLLATE "C" NOT NULL REFERENCES bundles (id),
    bundle_name TEXT NOT NULL,
    quantity_grams BIGINT NOT NULL CHECK (quantity_grams >= 0),
    unit_price_minor BIGINT NOT NULL,
    gross_unit_price_minor BIGINT NOT NULL,
    offset_cost_minor BIGINT NOT NULL,
    insufficient_available_quantity BOOLEAN NOT NULL,
    PRIMARY KEY (order_id, position)
);

-- Per-account event sequence: the row lock on UPDATE serialises concurrent writers.
CREATE TABLE account_event_sequences (
    account_id TEXT COLLATE "C" PRIMARY KEY REFERENCES accounts (id),
    last_sequence BIGINT NOT NULL
);

-- The outbox: written in the same transaction as the change it announces.
CREATE TABLE order_events (
    event_id TEXT COLLATE "C" PRIMARY KEY,
    event_type TEXT NOT NULL,
    account_id TEXT COLLATE "C" NOT NULL REFERENCES accounts (id),
    sequence BIGINT NOT NULL,
    order_id TEXT COLLATE "C" NOT NULL REFERENCES orders (id),
    payload TEXT NOT NULL,            -- JSON: the contract's WebhookEvent.data
    created_at TIMESTAMP NOT NULL,
    UNIQUE (account_id, sequence)
);

CREATE INDEX order_events_by_order ON order_events (order_id);
