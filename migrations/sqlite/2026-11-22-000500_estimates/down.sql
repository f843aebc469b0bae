DROP INDEX orders_estimate;
ALTER TABLE orders DROP COLUMN estimate_id;
DROP TABLE estimates;
