-- When each key was last used, to the hour (docs/console.md): written at most
-- once an hour per key, not on every request.
ALTER TABLE api_keys ADD COLUMN last_used_at TIMESTAMP;
