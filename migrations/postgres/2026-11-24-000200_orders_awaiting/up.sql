-- The console's operator queue: live orders waiting for action, newest first
-- (AwaitingFilter); a partial index, so the queue costs nothing for final orders.
CREATE INDEX orders_awaiting ON orders (created_at, id) WHERE mode = 'live' AND status IN ('received', 'placed', 'paid', 'retiring');
