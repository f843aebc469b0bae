DROP TABLE account_logos;
DROP INDEX accounts_idempotency_key_unique;
DROP INDEX accounts_handle_unique;
ALTER TABLE accounts DROP COLUMN idempotency_key;
ALTER TABLE accounts DROP COLUMN external_pages_visibility;
ALTER TABLE accounts DROP COLUMN handle;
ALTER TABLE organisations DROP COLUMN organisation_type;
