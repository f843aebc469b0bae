DROP TABLE bundle_portfolio_bundles;
DROP TABLE bundle_portfolios;
ALTER TABLE bundles DROP COLUMN approach;
ALTER TABLE projects DROP COLUMN facts;
