ALTER TABLE webhook_attempts DROP COLUMN response;
