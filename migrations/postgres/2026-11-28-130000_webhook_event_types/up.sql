-- The event types a webhook receives: NULL is every type (including types
-- added later); else the chosen names, comma-separated, in the order Tonne
-- lists them (checked by the domain: no name holds a comma).
ALTER TABLE webhooks ADD COLUMN event_types TEXT;
