-- Lune Pay: the origins an account's /pay page may send its buyers back to
-- (exact scheme://host[:port]), and the temporary ids of its payments, each
-- answering GET /v1/payments/by-temporary-id for 15 minutes.
CREATE TABLE account_pay_origins (
    account_id TEXT NOT NULL REFERENCES accounts (id),
    origin TEXT NOT NULL,
    PRIMARY KEY (account_id, origin)
);

CREATE TABLE pay_temporary_ids (
    id TEXT PRIMARY KEY NOT NULL,
    order_id TEXT NOT NULL REFERENCES orders (id),
    created_at TIMESTAMP NOT NULL
);
