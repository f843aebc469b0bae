DROP TABLE bundle_projects;
DROP TABLE bundle_prices;
DROP TABLE bundles;
DROP TABLE projects;
