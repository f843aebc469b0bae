-- The W3C trace context (traceparent) of the span that wrote the event, when
-- traces are exported: the webhook delivery it causes continues that trace.
ALTER TABLE order_events ADD COLUMN traceparent TEXT;
