DROP TABLE order_monthly_projects;
DROP TABLE order_monthly_bundles;
