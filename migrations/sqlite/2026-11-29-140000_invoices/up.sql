-- Invoices: one number sequence per installation (a single row, taken in the
-- transaction that issues, so numbers have no gaps and concurrent issuers
-- queue), the invoices and credit notes (never edited after issue but for
-- paid_at and credited_by), a line per order, and each organisation's
-- billing details.
CREATE TABLE invoice_sequence (
    id INTEGER PRIMARY KEY NOT NULL CHECK (id = 1),
    last_number BIGINT NOT NULL
);
INSERT INTO invoice_sequence (id, last_number) VALUES (1, 0);

CREATE TABLE invoices (
    id TEXT PRIMARY KEY NOT NULL,
    number BIGINT NOT NULL UNIQUE,
    kind TEXT NOT NULL,
    corrects TEXT REFERENCES invoices (id),
    corrects_number BIGINT,
    organisation_id TEXT NOT NULL REFERENCES organisations (id),
    currency TEXT NOT NULL,
    period_from TEXT NOT NULL,
    period_to TEXT NOT NULL,
    issued_at TIMESTAMP NOT NULL,
    seller TEXT NOT NULL,
    buyer TEXT NOT NULL,
    offset_cost_minor BIGINT NOT NULL,
    commission_minor BIGINT NOT NULL,
    subtotal_minor BIGINT NOT NULL,
    tax_rate TEXT NOT NULL,
    tax_minor BIGINT NOT NULL,
    total_minor BIGINT NOT NULL,
    paid_at TIMESTAMP,
    credited_by TEXT REFERENCES invoices (id)
);
CREATE INDEX invoices_by_organisation ON invoices (organisation_id, number);

CREATE TABLE invoice_lines (
    invoice_id TEXT NOT NULL REFERENCES invoices (id),
    position INTEGER NOT NULL,
    order_id TEXT NOT NULL REFERENCES orders (id),
    account_id TEXT NOT NULL,
    ordered_at TIMESTAMP NOT NULL,
    quantity_grams BIGINT NOT NULL,
    offset_cost_minor BIGINT NOT NULL,
    commission_minor BIGINT NOT NULL,
    total_minor BIGINT NOT NULL,
    PRIMARY KEY (invoice_id, position)
);
CREATE INDEX invoice_lines_by_order ON invoice_lines (order_id);

CREATE TABLE organisation_billing (
    organisation_id TEXT PRIMARY KEY NOT NULL REFERENCES organisations (id),
    name TEXT NOT NULL,
    address TEXT NOT NULL,
    tax_id TEXT,
    email TEXT,
    updated_at TIMESTAMP NOT NULL
);
