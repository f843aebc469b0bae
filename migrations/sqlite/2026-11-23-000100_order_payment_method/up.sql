-- How an order is paid (the contract's `payment_method`): `card` when the
-- hosted checkout authorised a card, `invoice` when payment is collected
-- outside Tonne and confirmed by the operator.
ALTER TABLE orders ADD COLUMN payment_method TEXT NOT NULL DEFAULT 'invoice'
    CHECK (payment_method IN ('invoice', 'card'));
-- Orders placed before: a card was taken exactly for test-mode offset-link
-- orders of links requiring payment (live ones wait for the operator).
UPDATE orders SET payment_method = 'card'
WHERE mode = 'test'
  AND offset_link_id IN (SELECT id FROM offset_links WHERE require_payment);
