-- The 2024 contract's catalogue: project registry/methodology facts, a bundle's
-- approach, and bundle portfolios (curated default mixes an account can follow).
-- A bundle's carbon_permanence stays NULL for "no_storage" (the 2024 spelling of
-- the 2023 null), so the existing CHECK holds on both backends.
-- Registry and methodology facts of a project, one JSON object:
-- {"crediting_start_date": "YYYY-MM-DD" | null, "crediting_end_date": …,
--  "registration_date": …, "protocol": [text], "methodology": text | null,
--  "durability": …, "additional_standards_met": [text], "verifying_body": …,
--  "risk_of_reversal": …, "risk_of_predicted_emissions": …,
--  "avg_annual_emission_reductions": "decimal tonnes per year" | null}
-- (one column: they are read and written together, never queried).
ALTER TABLE projects ADD COLUMN facts TEXT NOT NULL DEFAULT '{}';

ALTER TABLE bundles ADD COLUMN approach TEXT NULL CHECK (approach IN ('traditional', 'innovative'));

CREATE TABLE bundle_portfolios (
    id TEXT COLLATE "C" PRIMARY KEY,
    identifier TEXT NOT NULL UNIQUE,
    label TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL
);

CREATE TABLE bundle_portfolio_bundles (
    portfolio_id TEXT COLLATE "C" NOT NULL REFERENCES bundle_portfolios (id) ON DELETE CASCADE,
    bundle_id TEXT COLLATE "C" NOT NULL REFERENCES bundles (id),
    position INTEGER NOT NULL,
    -- share of the portfolio in hundredths of a percent
    share INTEGER NOT NULL CHECK (share > 0 AND share <= 10000),
    PRIMARY KEY (portfolio_id, bundle_id)
);
