-- The impact domain (analytics and sustainability pages).
--
-- Daily rollups: what an account's orders and estimates add up to per UTC day
-- (of the order's, or the estimate's, creation), kept by the order and
-- estimate stores in the transaction of each change, so that analytics read
-- one row per day instead of scanning orders. `placed_*` counts every order
-- not cancelled or failed; `completed_*` the complete ones. A row may hold
-- zeros (every order of the day cancelled): readers skip it.
CREATE TABLE order_daily_bundles (
    account_id TEXT COLLATE "C" NOT NULL,
    day TEXT COLLATE "C" NOT NULL,        -- YYYY-MM-DD, UTC
    bundle_id TEXT COLLATE "C" NOT NULL,
    bundle_name TEXT NOT NULL,            -- the name on the newest order's line
    placed_grams BIGINT NOT NULL,
    placed_minor BIGINT NOT NULL,         -- the lines' offset cost, without commission
    completed_grams BIGINT NOT NULL,
    completed_minor BIGINT NOT NULL,
    PRIMARY KEY (account_id, day, bundle_id)
);

-- The orders' per-project allocation (written on entering `retiring`).
CREATE TABLE order_daily_projects (
    account_id TEXT COLLATE "C" NOT NULL,
    day TEXT COLLATE "C" NOT NULL,        -- YYYY-MM-DD, UTC, of the order's creation
    project_id TEXT COLLATE "C" NOT NULL,
    placed_grams BIGINT NOT NULL,
    placed_minor BIGINT NOT NULL,
    completed_grams BIGINT NOT NULL,
    completed_minor BIGINT NOT NULL,
    PRIMARY KEY (account_id, day, project_id)
);

CREATE TABLE estimate_daily_counts (
    account_id TEXT COLLATE "C" NOT NULL,
    day TEXT COLLATE "C" NOT NULL,        -- YYYY-MM-DD, UTC
    kind TEXT NOT NULL,
    estimates BIGINT NOT NULL,
    mass_grams BIGINT NOT NULL,           -- estimates without a mass count 0
    PRIMARY KEY (account_id, day, kind)
);

-- One sustainability page per account; its slug is unique per mode.
CREATE TABLE sustainability_pages (
    account_id TEXT COLLATE "C" PRIMARY KEY REFERENCES accounts (id),
    organisation_id TEXT COLLATE "C" NOT NULL,
    mode TEXT NOT NULL CHECK (mode IN ('live', 'test')),
    status TEXT NOT NULL,
    slug TEXT COLLATE "C" NOT NULL,
    title TEXT NOT NULL,
    description TEXT NULL,
    custom_description TEXT NULL,
    sections TEXT NOT NULL,               -- comma-joined contract spellings, '' for none
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    CONSTRAINT sustainability_pages_slug UNIQUE (mode, slug)
);

-- A public page's certificates: an account's newest complete orders.
CREATE INDEX orders_by_account_status ON orders (account_id, status, created_at DESC, id DESC);

-- Backfill, so that an upgraded database answers as a fresh one would.
INSERT INTO order_daily_bundles (account_id, day, bundle_id, bundle_name, placed_grams,
                                 placed_minor, completed_grams, completed_minor)
SELECT account_id, day, bundle_id,
       MAX(CASE WHEN newest = 1 THEN bundle_name END),
       SUM(CASE WHEN status IN ('cancelled', 'failed') THEN 0 ELSE quantity_grams END),
       SUM(CASE WHEN status IN ('cancelled', 'failed') THEN 0 ELSE offset_cost_minor END),
       SUM(CASE WHEN status = 'complete' THEN quantity_grams ELSE 0 END),
       SUM(CASE WHEN status = 'complete' THEN offset_cost_minor ELSE 0 END)
FROM (
    SELECT o.account_id, to_char(o.created_at, 'YYYY-MM-DD') AS day, o.status,
           l.bundle_id, l.bundle_name, l.quantity_grams, l.offset_cost_minor,
           ROW_NUMBER() OVER (
               PARTITION BY o.account_id, to_char(o.created_at, 'YYYY-MM-DD'), l.bundle_id
               ORDER BY o.created_at DESC, o.id DESC, l.position DESC
           ) AS newest
    FROM orders o JOIN order_lines l ON l.order_id = o.id
) AS lines
GROUP BY account_id, day, bundle_id;

INSERT INTO order_daily_projects (account_id, day, project_id, placed_grams, placed_minor,
                                  completed_grams, completed_minor)
SELECT o.account_id, to_char(o.created_at, 'YYYY-MM-DD'), p.project_id,
       SUM(CASE WHEN o.status IN ('cancelled', 'failed') THEN 0 ELSE p.quantity_grams END),
       SUM(CASE WHEN o.status IN ('cancelled', 'failed') THEN 0 ELSE p.offset_cost_minor END),
       SUM(CASE WHEN o.status = 'complete' THEN p.quantity_grams ELSE 0 END),
       SUM(CASE WHEN o.status = 'complete' THEN p.offset_cost_minor ELSE 0 END)
FROM orders o JOIN order_projects p ON p.order_id = o.id
GROUP BY o.account_id, to_char(o.created_at, 'YYYY-MM-DD'), p.project_id;

INSERT INTO estimate_daily_counts (account_id, day, kind, estimates, mass_grams)
SELECT account_id, to_char(created_at, 'YYYY-MM-DD'), kind, COUNT(*), COALESCE(SUM(mass_grams), 0)
FROM estimates
GROUP BY account_id, to_char(created_at, 'YYYY-MM-DD'), kind;
