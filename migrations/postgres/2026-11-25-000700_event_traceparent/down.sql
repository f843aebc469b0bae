ALTER TABLE order_events DROP COLUMN traceparent;
