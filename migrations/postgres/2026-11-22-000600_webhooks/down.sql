DROP TABLE webhook_attempts;
DROP TABLE webhook_streams;
DROP TABLE webhook_accounts;
DROP TABLE webhooks;
