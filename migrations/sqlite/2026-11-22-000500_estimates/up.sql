-- Stored emission estimates, and the link from an order to the estimate it bought.
CREATE TABLE estimates (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts (id),
    kind TEXT NOT NULL CHECK (kind IN ('electricity', 'flight', 'passenger_transportation', 'shipping',
                                       'multi_leg_shipping', 'transaction', 'company', 'individual')),
    mass_grams BIGINT NULL CHECK (mass_grams >= 0),   -- NULL: money movement, nothing to estimate
    request TEXT NOT NULL,                            -- JSON: the request as accepted
    result TEXT NOT NULL,                             -- JSON: kind-specific response fields
    order_id TEXT NULL UNIQUE,                        -- set, once, by the order that bought it
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL
);
CREATE INDEX estimates_by_account ON estimates (account_id, created_at);

-- One order per estimate: the constraint, not a read-then-write check. (SQLite cannot
-- drop a column that carries a REFERENCES clause, so the link is checked by the index only.)
ALTER TABLE orders ADD COLUMN estimate_id TEXT NULL;
CREATE UNIQUE INDEX orders_estimate ON orders (estimate_id);
