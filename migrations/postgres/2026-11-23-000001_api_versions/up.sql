-- Each organisation's pinned API version (Lune-Version policy): pinned on the
-- organisation's first API request, changed with `tonne organisations set-version`.
CREATE TABLE organisation_api_versions (
    organisation_id TEXT PRIMARY KEY REFERENCES organisations (id),
    version TEXT NOT NULL,
    pinned_at TIMESTAMP NOT NULL
);
