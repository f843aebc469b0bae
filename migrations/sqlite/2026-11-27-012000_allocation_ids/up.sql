-- Each project's allocation within an order gets a stable id and the time it
-- was made (the contract's OrderAllocation.id and created_at, carried by the
-- allocation.new and allocation.retired webhook events). Existing rows get a
-- fresh random id and the time their order entered `retiring` (its event),
-- else the order's last change.
ALTER TABLE order_projects ADD COLUMN id TEXT NOT NULL DEFAULT '';
ALTER TABLE order_projects ADD COLUMN allocated_at TIMESTAMP NOT NULL DEFAULT '1970-01-01 00:00:00';
UPDATE order_projects SET id = lower(hex(randomblob(16)));
UPDATE order_projects SET allocated_at = COALESCE(
    (SELECT MIN(e.created_at) FROM order_events e
      WHERE e.order_id = order_projects.order_id AND e.event_type = 'order.retiring'),
    (SELECT o.updated_at FROM orders o WHERE o.id = order_projects.order_id));
CREATE UNIQUE INDEX order_projects_id ON order_projects (id);
