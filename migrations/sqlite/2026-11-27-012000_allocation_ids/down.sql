DROP INDEX order_projects_id;
ALTER TABLE order_projects DROP COLUMN allocated_at;
ALTER TABLE order_projects DROP COLUMN id;
