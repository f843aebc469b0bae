-- Offset links, the bundles they offer, and their visitors (hashed, per day).
CREATE TABLE offset_links (
    id TEXT COLLATE "C" PRIMARY KEY,
    account_id TEXT COLLATE "C" NOT NULL REFERENCES accounts (id),
    mode TEXT NOT NULL CHECK (mode IN ('live', 'test')),
    name TEXT NOT NULL,
    title TEXT NULL,
    description TEXT NULL,
    currency TEXT NOT NULL,
    value_minor BIGINT NULL,              -- fixed amount per order, in the currency's minor unit
    emails TEXT NOT NULL,                 -- the allow-list, one address per line ('' = anyone)
    expires_at TIMESTAMP NULL,
    use_logo BOOLEAN NOT NULL,
    require_payment BOOLEAN NOT NULL,
    switched_off BOOLEAN NOT NULL,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    UNIQUE (account_id, name)
);
CREATE INDEX offset_links_by_account ON offset_links (account_id, created_at, id);

CREATE TABLE offset_link_bundles (
    link_id TEXT COLLATE "C" NOT NULL REFERENCES offset_links (id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    bundle_id TEXT COLLATE "C" NOT NULL REFERENCES bundles (id),
    PRIMARY KEY (link_id, position)
);

-- A visitor is a keyed hash of (client IP, user agent) under a salt that changes
-- every day: the raw address is never stored.
CREATE TABLE offset_link_visits (
    link_id TEXT COLLATE "C" NOT NULL REFERENCES offset_links (id) ON DELETE CASCADE,
    day TEXT NOT NULL,                    -- YYYY-MM-DD, UTC
    visitor TEXT NOT NULL,
    PRIMARY KEY (link_id, day, visitor)
);

CREATE INDEX orders_by_offset_link ON orders (offset_link_id, created_at);
