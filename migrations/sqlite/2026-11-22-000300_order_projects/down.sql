DROP TABLE order_projects;
