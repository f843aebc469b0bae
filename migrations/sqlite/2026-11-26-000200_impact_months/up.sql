-- Monthly rollups beside the daily ones: the same figures per account, UTC
-- month (YYYY-MM, of the order's creation) and bundle or project, kept by the
-- same writes in the same transaction. Long ranges and public pages read
-- whole months here and only the partial months' days from the daily tables,
-- so their cost follows the number of months.
CREATE TABLE order_monthly_bundles (
    account_id TEXT NOT NULL,
    month TEXT NOT NULL,      -- YYYY-MM, UTC
    bundle_id TEXT NOT NULL,
    bundle_name TEXT NOT NULL,            -- the name on the newest order's line
    placed_grams BIGINT NOT NULL,
    placed_minor BIGINT NOT NULL,
    completed_grams BIGINT NOT NULL,
    completed_minor BIGINT NOT NULL,
    PRIMARY KEY (account_id, month, bundle_id)
);

CREATE TABLE order_monthly_projects (
    account_id TEXT NOT NULL,
    month TEXT NOT NULL,
    project_id TEXT NOT NULL,
    placed_grams BIGINT NOT NULL,
    placed_minor BIGINT NOT NULL,
    completed_grams BIGINT NOT NULL,
    completed_minor BIGINT NOT NULL,
    PRIMARY KEY (account_id, month, project_id)
);

-- Backfill from the daily rows (the name of each month's newest day).
INSERT INTO order_monthly_bundles (account_id, month, bundle_id, bundle_name, placed_grams,
                                   placed_minor, completed_grams, completed_minor)
SELECT account_id, month, bundle_id, MAX(CASE WHEN newest = 1 THEN bundle_name END),
       SUM(placed_grams), SUM(placed_minor), SUM(completed_grams), SUM(completed_minor)
FROM (
    SELECT account_id, substr(day, 1, 7) AS month, bundle_id, bundle_name, placed_grams,
           placed_minor, completed_grams, completed_minor,
           ROW_NUMBER() OVER (
               PARTITION BY account_id, substr(day, 1, 7), bundle_id ORDER BY day DESC
           ) AS newest
    FROM order_daily_bundles
) AS days
GROUP BY account_id, month, bundle_id;

INSERT INTO order_monthly_projects (account_id, month, project_id, placed_grams, placed_minor,
                                    completed_grams, completed_minor)
SELECT account_id, substr(day, 1, 7), project_id, SUM(placed_grams), SUM(placed_minor),
       SUM(completed_grams), SUM(completed_minor)
FROM order_daily_projects
GROUP BY account_id, substr(day, 1, 7), project_id;
