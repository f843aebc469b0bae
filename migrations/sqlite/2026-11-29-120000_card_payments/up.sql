-- Card payments: the card processor's reference on an order whose card was
-- authorised on a hosted page (a Stripe PaymentIntent id), captured when the
-- order becomes paid; and each Stripe event id once, so that an event Stripe
-- delivers twice acts once.
ALTER TABLE orders ADD COLUMN payment_reference TEXT;

CREATE TABLE stripe_events (
    id TEXT PRIMARY KEY NOT NULL,
    event_type TEXT NOT NULL,
    received_at TIMESTAMP NOT NULL
);
