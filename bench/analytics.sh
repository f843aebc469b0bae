#!/usr/bin/env bash
# Analytics and public sustainability pages over an account with 1,000,000
# orders (issue 23), on PostgreSQL:
#  - seeds one live account with ORDERS orders (default 1,000,000) spread over
#    three years (two bundle lines each; 90 % complete with their projects, 5 %
#    received, 5 % cancelled) and ESTIMATES estimates, written straight into
#    the tables with generate_series, then fills the daily rollups with the
#    migration's own backfill statements (the rollups the stores keep in each
#    order's transaction: the storage tests prove both give the same rows);
#  - times every analytics route (the default 30 days, and three years) and the
#    public page as JSON and as HTML with wrk, 4 connections (the page also
#    with one).
#
#   bash bench/analytics.sh            (ORDERS=1000000 ESTIMATES=300000 DURATION=10s;
#                                       KEEP_DATABASE=1 keeps the seeded database)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
bench_init analytics
ORDERS=${ORDERS:-1000000}
ESTIMATES=${ESTIMATES:-300000}
DURATION=${DURATION:-10s}
bench_build
DB_URL=$(fresh_database tonne_bench_analytics)
seed_database "$DB_URL"
MIGRATIONS="migrations/postgres/2026-11-26-000100_impact/up.sql migrations/postgres/2026-11-26-000200_impact_months/up.sql"

echo "seeding $ORDERS orders and $ESTIMATES estimates for account $ACCOUNT…"
started=$(date +%s)
psql "$DB_URL" -q -v ON_ERROR_STOP=1 <<SQL
CREATE TEMP TABLE b AS
  SELECT row_number() OVER (ORDER BY b.id) - 1 AS n, b.id, b.name,
         (SELECT project_id FROM bundle_projects p WHERE p.bundle_id = b.id ORDER BY position LIMIT 1) AS project
  FROM bundles b WHERE NOT b.disabled;
CREATE TEMP TABLE seq AS
  SELECT i, lpad(to_hex(i), 32, '0') AS id,
         (timestamp '2026-11-26 00:00' - make_interval(days => (i % 1095)::int, secs => (i % 86400)::int)) AS at,
         CASE WHEN i % 20 = 0 THEN 'cancelled' WHEN i % 20 = 1 THEN 'received' ELSE 'complete' END AS status
  FROM generate_series(1, $ORDERS) AS i;
INSERT INTO orders (id, account_id, mode, idempotency_key, kind, status, currency, quantity_grams,
                    offset_cost_minor, commission_minor, total_cost_minor, requested_quantity_grams,
                    metadata, created_at, updated_at, payment_method)
  SELECT id, '$ACCOUNT', 'live', NULL, 'quantity', status, 'GBP', 1500, 30, 3, 33, 1500, '{}', at, at, 'invoice'
  FROM seq;
INSERT INTO order_lines (order_id, position, bundle_id, bundle_name, quantity_grams, unit_price_minor,
                         gross_unit_price_minor, offset_cost_minor, insufficient_available_quantity)
  SELECT s.id, k, b.id, b.name, CASE WHEN k = 0 THEN 1000 ELSE 500 END, 2000, 2200,
         CASE WHEN k = 0 THEN 20 ELSE 10 END, false
  FROM seq s CROSS JOIN generate_series(0, 1) AS k
  JOIN b ON b.n = (s.i + k) % (SELECT count(*) FROM b);
INSERT INTO order_projects (order_id, position, project_id, project_name, project_type, project_slug,
                            registry_name, quantity_grams, unit_price_minor, offset_cost_minor)
  SELECT s.id, k, b.project, 'p', 't', 's', 'Verra', CASE WHEN k = 0 THEN 1000 ELSE 500 END, 2000,
         CASE WHEN k = 0 THEN 20 ELSE 10 END
  FROM seq s CROSS JOIN generate_series(0, 1) AS k
  JOIN b ON b.n = (s.i + k) % (SELECT count(*) FROM b)
  WHERE s.status = 'complete' AND b.project IS NOT NULL;
INSERT INTO estimates (id, account_id, kind, mass_grams, request, result, created_at, updated_at, metadata)
  SELECT lpad(to_hex(i + 4000000000), 32, '0'), '$ACCOUNT',
         (ARRAY['flight', 'shipping', 'electricity'])[1 + i % 3], 250000, '{}', '{}',
         timestamp '2026-11-26 00:00' - make_interval(days => (i % 1095)::int), timestamp '2026-11-26 00:00', '{}'
  FROM generate_series(1, $ESTIMATES) AS i;
TRUNCATE order_daily_bundles, order_daily_projects, estimate_daily_counts, order_monthly_bundles, order_monthly_projects;
SQL
# The migrations' backfills, verbatim: everything after each one's "-- Backfill" line.
for m in $MIGRATIONS; do sed -n '/^-- Backfill/,$p' "$m" | psql "$DB_URL" -q -v ON_ERROR_STOP=1; done
psql "$DB_URL" -q -c "VACUUM ANALYZE"
seeded=$(( $(date +%s) - started ))
rows=$(psql "$DB_URL" -At -c "SELECT (SELECT count(*) FROM orders) || ' orders, ' || (SELECT count(*) FROM order_lines) || ' lines, ' || (SELECT count(*) FROM order_daily_bundles) || ' daily bundle rows, ' || (SELECT count(*) FROM order_daily_projects) || ' daily project rows, ' || (SELECT count(*) FROM order_monthly_bundles) || ' monthly bundle rows, ' || (SELECT count(*) FROM estimate_daily_counts) || ' daily estimate rows'")
echo "seeded in ${seeded}s: $rows"

PORT=18291
serve_unlimited "$DB_URL" "$PORT"
BASE="http://127.0.0.1:$PORT"
curl -fsS -X PATCH "$BASE/v1/accounts/$ACCOUNT" -H "Authorization: Bearer $KEY" -H 'Content-Type: application/json' \
  -d '{"external_pages_visibility": "public"}' >/dev/null
curl -fsS -X POST "$BASE/v1/sustainability-pages" -H "Authorization: Bearer $KEY" -H 'Content-Type: application/json' \
  -d '{"status": "enabled", "slug": "bench", "title": "by_volume", "description": "by_supported_goals", "sections": ["bundles_breakdown", "certificates", "unsdg"]}' >/dev/null
# The answers the timings are of, checked once.
curl -fsS "$BASE/v1/sustainability-pages/public/live/bench" | grep -q '"quantity":"' || { echo "public page has no figures" >&2; exit 1; }
total=$(curl -fsS "$BASE/v1/analytics/aggregated-by-property?from=2023-11-27&through=2026-11-26" -H "Authorization: Bearer $KEY" \
  | python3 -c 'import json,sys; d=json.load(sys.stdin); print(sum(float(b["quantity"]) for b in d["bundle"]))')
echo "three years by bundle: $total t"

report_header "Analytics over $ORDERS orders" "release build; PostgreSQL; wrk -t$THREADS -c$CONNECTIONS -d$DURATION; seeded in ${seeded}s: $rows; three years add up to $total t."
get_lua > "$WORK/get.lua"
result_lua > "$WORK/public.lua"
THREE_YEARS="from=2023-11-27&through=2026-11-26"
for route in cumulative-per-bundle metrics aggregated-by-property emission-calculations; do
  run_wrk "$route (30 days)" "$WORK/get.lua" "$BASE/v1/analytics/$route" | tee -a "$REPORT"
  run_wrk "$route (3 years)" "$WORK/get.lua" "$BASE/v1/analytics/$route?$THREE_YEARS" | tee -a "$REPORT"
done
run_wrk "emission-calculations (3 years, by month)" "$WORK/get.lua" "$BASE/v1/analytics/emission-calculations?$THREE_YEARS&interval=month" | tee -a "$REPORT"
run_wrk "public page (JSON)" "$WORK/public.lua" "$BASE/v1/sustainability-pages/public/live/bench" | tee -a "$REPORT"
run_wrk "public page (HTML)" "$WORK/public.lua" "$BASE/sustainability/live/bench" | tee -a "$REPORT"
THREADS=1 CONNECTIONS=1 run_wrk "public page (JSON), one client" "$WORK/public.lua" "$BASE/v1/sustainability-pages/public/live/bench" | tee -a "$REPORT"
THREADS=1 CONNECTIONS=1 run_wrk "public page (HTML), one client" "$WORK/public.lua" "$BASE/sustainability/live/bench" | tee -a "$REPORT"
echo
echo "report: $REPORT"
[ -n "${KEEP_DATABASE:-}" ] && echo "kept: $DB_URL (account $ACCOUNT, key $KEY)" || drop_database tonne_bench_analytics
