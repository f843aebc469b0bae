-- The first bytes of each answer a receiver gave (at most 256), shown in the
-- console's delivery log.
ALTER TABLE webhook_attempts ADD COLUMN response TEXT;
