-- Failed console sign-ins (docs/console.md, "Sign-in"): what the sign-in
-- budgets count, shared by every server process. The email is kept only as
-- the SHA-256 of what was typed; the address is the client's (through a
-- trusted proxy), the network the address for IPv4 and its /64 for IPv6.
-- Rows older than the longest window are deleted as failures are recorded.
CREATE TABLE sign_in_failures (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    email_hash TEXT NOT NULL,
    address TEXT NOT NULL,
    network TEXT NOT NULL,
    at TIMESTAMP NOT NULL
);
CREATE INDEX sign_in_failures_pair ON sign_in_failures (email_hash, address, at);
CREATE INDEX sign_in_failures_email ON sign_in_failures (email_hash, at);
CREATE INDEX sign_in_failures_network ON sign_in_failures (network, at);
CREATE INDEX sign_in_failures_at ON sign_in_failures (at);
