ALTER TABLE order_projects DROP COLUMN registry_record;
