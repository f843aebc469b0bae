ALTER TABLE webhooks DROP COLUMN event_types;
