DROP TABLE stripe_events;
DROP INDEX orders_payment_reference;
ALTER TABLE orders DROP COLUMN held_reason;
ALTER TABLE orders DROP COLUMN payment_reference;
