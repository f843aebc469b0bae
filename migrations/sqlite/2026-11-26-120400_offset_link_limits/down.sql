DROP INDEX orders_link_unconfirmed;
DROP TABLE offset_link_visitor_days;
DROP TABLE offset_link_days;
ALTER TABLE offset_links DROP COLUMN limit_visitor_daily_orders;
ALTER TABLE offset_links DROP COLUMN limit_daily_grams;
ALTER TABLE offset_links DROP COLUMN limit_daily_orders;
ALTER TABLE offset_links DROP COLUMN limit_order_value_minor;
ALTER TABLE offset_links DROP COLUMN limit_order_grams;
