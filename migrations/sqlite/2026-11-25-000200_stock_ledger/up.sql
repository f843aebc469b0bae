-- The stock ledger (docs/console.md): every change an operator makes to a
-- bundle's available quantity, with who, when, how much, why, and what was
-- left after; written in the same transaction as the change.
CREATE TABLE stock_ledger (
    id TEXT PRIMARY KEY,
    bundle_id TEXT NOT NULL REFERENCES bundles (id),
    at TIMESTAMP NOT NULL,
    actor_kind TEXT NOT NULL,
    actor TEXT NOT NULL,
    delta_grams BIGINT NOT NULL CHECK (delta_grams <> 0),
    reason TEXT NOT NULL,
    available_after_grams BIGINT NOT NULL CHECK (available_after_grams >= 0)
);
CREATE INDEX stock_ledger_bundle ON stock_ledger (bundle_id, id);
