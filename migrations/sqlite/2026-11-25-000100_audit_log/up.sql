-- The audit log (docs/console.md): every change a person makes from the
-- console or the command line, written in the same transaction as the change.
-- Snapshots are JSON arrays of [field, value] pairs (secrets are never kept).
CREATE TABLE audit_log (
    id TEXT PRIMARY KEY,
    at TIMESTAMP NOT NULL,
    actor_kind TEXT NOT NULL CHECK (actor_kind IN ('person', 'cli', 'key')),
    actor TEXT NOT NULL,
    action TEXT NOT NULL,
    object_kind TEXT NOT NULL,
    object_id TEXT NOT NULL,
    organisation_id TEXT,
    before_json TEXT NOT NULL,
    after_json TEXT NOT NULL
);
CREATE INDEX audit_log_organisation ON audit_log (organisation_id, id);
CREATE INDEX audit_log_actor ON audit_log (actor, id);
CREATE INDEX audit_log_object ON audit_log (object_id, id);
