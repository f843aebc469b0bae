-- Per-link limits of the hosted pages (docs/offset-links.md, "Limits"): per
-- order (grams, minor units), per UTC day (orders, grams) and per visitor
-- address per day (orders). Existing links take the server's default limits.
ALTER TABLE offset_links ADD COLUMN limit_order_grams BIGINT NOT NULL DEFAULT 10000000;
ALTER TABLE offset_links ADD COLUMN limit_order_value_minor BIGINT NOT NULL DEFAULT 100000;
ALTER TABLE offset_links ADD COLUMN limit_daily_orders BIGINT NOT NULL DEFAULT 50;
ALTER TABLE offset_links ADD COLUMN limit_daily_grams BIGINT NOT NULL DEFAULT 100000000;
ALTER TABLE offset_links ADD COLUMN limit_visitor_daily_orders BIGINT NOT NULL DEFAULT 3;

-- What each link's hosted page took per UTC day: counted (checked and
-- incremented in one statement) before an order is placed, given back when it
-- is not placed. Orders cancelled later stay counted.
CREATE TABLE offset_link_days (
    link_id TEXT NOT NULL REFERENCES offset_links (id) ON DELETE CASCADE,
    day TEXT NOT NULL,                    -- YYYY-MM-DD, UTC
    orders BIGINT NOT NULL,
    grams BIGINT NOT NULL,
    PRIMARY KEY (link_id, day)
);

-- The same per visitor address: a keyed hash of the client IP under a salt
-- that changes every day (never the raw address).
CREATE TABLE offset_link_visitor_days (
    link_id TEXT NOT NULL REFERENCES offset_links (id) ON DELETE CASCADE,
    day TEXT NOT NULL,
    visitor TEXT NOT NULL,
    orders BIGINT NOT NULL,
    PRIMARY KEY (link_id, day, visitor)
);

-- The hold's sweep: hosted-page orders nobody confirmed, oldest first.
CREATE INDEX orders_link_unconfirmed ON orders (created_at)
    WHERE offset_link_id IS NOT NULL AND status = 'received';
