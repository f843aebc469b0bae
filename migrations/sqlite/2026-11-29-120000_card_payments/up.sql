-- Card payments: the card processor's reference on an order whose card was
-- authorised on a hosted page (a Stripe PaymentIntent id), captured when the
-- order becomes paid; why an order is on hold (a disputed card payment); and
-- each Stripe event id once, so that an event Stripe delivers twice acts once.
ALTER TABLE orders ADD COLUMN payment_reference TEXT;
ALTER TABLE orders ADD COLUMN held_reason TEXT;
CREATE INDEX orders_payment_reference ON orders (payment_reference);

CREATE TABLE stripe_events (
    id TEXT PRIMARY KEY NOT NULL,
    event_type TEXT NOT NULL,
    received_at TIMESTAMP NOT NULL
);
