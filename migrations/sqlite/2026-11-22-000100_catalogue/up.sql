-- The catalogue: projects, the bundles orders are placed against, their prices and members.
CREATE TABLE projects (
    id TEXT PRIMARY KEY,
    slug TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    short_name TEXT NOT NULL,
    description TEXT NOT NULL,
    project_type TEXT NOT NULL,
    registry_name TEXT NOT NULL,
    registry_link TEXT NULL,
    latitude TEXT NOT NULL,
    longitude TEXT NOT NULL,
    country_name TEXT NOT NULL,
    country_code TEXT NOT NULL,
    region TEXT NULL,
    logo TEXT NULL,
    primary_image TEXT NULL,
    thumbnail_image TEXT NULL,
    results TEXT NOT NULL,   -- JSON array of strings
    un_sdg TEXT NOT NULL,    -- JSON array of integers
    media TEXT NOT NULL,     -- JSON array of media objects
    disabled BOOLEAN NOT NULL,
    disabled_at TIMESTAMP NULL,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL
);

CREATE TABLE bundles (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    description TEXT NULL,
    background_colour TEXT NULL,
    primary_image TEXT NULL,
    large_image TEXT NULL,
    primary_image_hires TEXT NULL,
    small_thumbnail TEXT NULL,
    -- inventory in grams; NULL is unlimited; never negative
    available_grams BIGINT NULL CHECK (available_grams IS NULL OR available_grams >= 0),
    offset_type TEXT NULL CHECK (offset_type IN ('emissions_reduction', 'carbon_removal')),
    carbon_permanence TEXT NULL CHECK (carbon_permanence IN ('long_term', 'short_term')),
    disabled BOOLEAN NOT NULL,
    disabled_at TIMESTAMP NULL,
    -- share of the default selection in hundredths of a percent
    default_share INTEGER NULL CHECK (default_share IS NULL OR (default_share > 0 AND default_share <= 10000)),
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL
);

CREATE TABLE bundle_prices (
    bundle_id TEXT NOT NULL REFERENCES bundles (id) ON DELETE CASCADE,
    currency TEXT NOT NULL CHECK (currency IN ('GBP', 'EUR', 'USD', 'SEK', 'CHF', 'PLN', 'DKK', 'NOK')),
    unit_price_minor BIGINT NOT NULL CHECK (unit_price_minor >= 0),
    PRIMARY KEY (bundle_id, currency)
);

CREATE TABLE bundle_projects (
    bundle_id TEXT NOT NULL REFERENCES bundles (id) ON DELETE CASCADE,
    project_id TEXT NOT NULL REFERENCES projects (id),
    position INTEGER NOT NULL,
    PRIMARY KEY (bundle_id, project_id)
);

CREATE INDEX bundle_projects_by_project ON bundle_projects (project_id);
