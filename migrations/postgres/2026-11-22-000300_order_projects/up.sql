-- The per-project split of an order, written when it enters `retiring`.
CREATE TABLE order_projects (
    order_id TEXT COLLATE "C" NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    project_id TEXT COLLATE "C" NOT NULL REFERENCES projects (id),
    project_name TEXT NOT NULL,
    project_type TEXT NOT NULL,
    project_slug TEXT NOT NULL,
    registry_name TEXT NOT NULL,
    quantity_grams BIGINT NOT NULL CHECK (quantity_grams > 0),
    unit_price_minor BIGINT NOT NULL,
    offset_cost_minor BIGINT NOT NULL,
    serial TEXT NULL,
    PRIMARY KEY (order_id, position)
);
