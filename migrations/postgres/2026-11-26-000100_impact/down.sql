DROP INDEX orders_by_account_status;
DROP TABLE sustainability_pages;
DROP TABLE estimate_daily_counts;
DROP TABLE order_daily_projects;
DROP TABLE order_daily_bundles;
