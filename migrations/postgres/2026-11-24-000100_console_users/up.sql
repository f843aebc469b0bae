-- People who use the console (docs/console.md): an operator runs the
-- installation; a member sees one organisation. Passwords are argon2id PHC
-- strings; setup links and sessions are kept only as SHA-256 hashes.
CREATE TABLE users (
    id TEXT PRIMARY KEY,
    email TEXT NOT NULL UNIQUE,
    role TEXT NOT NULL CHECK (role IN ('operator', 'member')),
    organisation_id TEXT REFERENCES organisations (id),
    password_hash TEXT,
    created_at TIMESTAMP NOT NULL,
    disabled_at TIMESTAMP,
    CHECK ((role = 'member') = (organisation_id IS NOT NULL))
);

CREATE TABLE user_setup_tokens (
    token_hash TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users (id),
    expires_at TIMESTAMP NOT NULL
);
CREATE INDEX user_setup_tokens_user ON user_setup_tokens (user_id);

CREATE TABLE user_sessions (
    token_hash TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users (id),
    csrf_token TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    last_seen_at TIMESTAMP NOT NULL
);
CREATE INDEX user_sessions_user ON user_sessions (user_id);
