-- Every console form acts once (docs/console.md): a form carries a one-time
-- key; the first POST with it claims the key here, a repeat finds it taken.
-- Claims older than a day are deleted by later claims.
CREATE TABLE console_form_claims (
    form_key TEXT PRIMARY KEY NOT NULL,
    claimed_at TIMESTAMP NOT NULL
);
CREATE INDEX console_form_claims_claimed_at ON console_form_claims (claimed_at);
