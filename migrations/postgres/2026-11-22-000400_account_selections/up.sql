-- An account's own default bundle selection (else the catalogue's default applies).
CREATE TABLE account_bundle_selections (
    account_id TEXT COLLATE "C" NOT NULL REFERENCES accounts (id),
    bundle_id TEXT COLLATE "C" NOT NULL REFERENCES bundles (id),
    position INTEGER NOT NULL,
    share INTEGER NOT NULL CHECK (share >= 0 AND share <= 10000),
    PRIMARY KEY (account_id, bundle_id)
);
