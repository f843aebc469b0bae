-- The address of each project's retirement record at the registry, as an
-- operator records it with the serial number (docs/console.md).
ALTER TABLE order_projects ADD COLUMN registry_record TEXT;
