DROP TABLE stripe_events;
ALTER TABLE orders DROP COLUMN payment_reference;
