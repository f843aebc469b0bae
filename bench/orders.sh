#!/usr/bin/env bash
# Ordering benchmark on PostgreSQL, in one run on this machine:
#  1. pgbench baseline: the inserts and updates one order creation does, in one
#     transaction (conditional inventory updates, order + 5 lines, sequence bump,
#     outbox event);
#  2. POST /v1/orders/by-mass with unique idempotency keys (wrk);
#  3. POST /v1/orders/by-mass/quote (wrk);
#  4. GET /v1/orders?limit=100 at the first page and deep in 1,000,000 orders;
#  5. the console's operator queue (GET /console/orders, 25 a page), first page and deep.
#
#   bash bench/orders.sh          (DURATION=15s CONNECTIONS=4 by default)
#   ORDERS_ONLY=1 bash bench/orders.sh   (steps 1-3 only, for A/B runs)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
bench_init orders
SECONDS_PG=${SECONDS_PG:-15}
PORT=18190
command -v pgbench >/dev/null || { echo "pgbench is needed (postgresql-contrib / postgresql-client)"; exit 1; }
bench_build
DB_URL=$(fresh_database tonne_bench_orders)
seed_database "$DB_URL"
mapfile -t BUNDLES < <(psql "$DB_URL" -Atc "SELECT id FROM bundles WHERE default_share IS NOT NULL ORDER BY id")

# 1. pgbench baseline ---------------------------------------------------------
order_sql "'$ACCOUNT'" > "$WORK/order.sql"
PGB=$(pgbench -n -c "$CONNECTIONS" -j 2 -T "$SECONDS_PG" -f "$WORK/order.sql" "$DB_URL" 2>&1)
BASE_TPS=$(grep -oE 'tps = [0-9.]+' <<<"$PGB" | head -1 | awk '{print $3}')
BASE_LAT=$(grep -oE 'latency average = [0-9.]+ ms' <<<"$PGB" | awk '{print $4}')

# 2-4. the server ----------------------------------------------------------------
serve_unlimited "$DB_URL" "$PORT"

cat > "$WORK/create.lua" <<LUA
local counter = 0
local prefix = tostring(math.random(1, 1e9))
function setup(thread) thread:set("tid", tostring(math.random(1, 1e9))) end
request = function()
  counter = counter + 1
  local body = '{"mass":{"amount":"1","unit":"kg"},"idempotency_key":"' .. (tid or prefix) .. '-' .. counter .. '"}'
  return wrk.format("POST", "/v1/orders/by-mass", {["Authorization"] = "Bearer $KEY", ["Content-Type"] = "application/json"}, body)
end
LUA
result_lua >> "$WORK/create.lua"

post_lua '{"mass":{"amount":"1","unit":"kg"}}' > "$WORK/quote.lua"
get_lua > "$WORK/list.lua"

report_header "Ordering on PostgreSQL" "$CONNECTIONS connections; wrk -t$THREADS -d$DURATION and pgbench -T$SECONDS_PG on the same machine; release build; rate limit raised.

pgbench baseline (the same writes in one transaction): **$BASE_TPS tps**, average latency $BASE_LAT ms"

run_wrk create-by-mass "$WORK/create.lua" "http://127.0.0.1:$PORT/v1/orders/by-mass" >> "$REPORT"
run_wrk quote-by-mass "$WORK/quote.lua" "http://127.0.0.1:$PORT/v1/orders/by-mass/quote" >> "$REPORT"
if [ -n "${ORDERS_ONLY:-}" ]; then # creation and quotes only (A/B runs): no 1,000,000-order seed
  cat "$REPORT"
  bench_cleanup
  drop_database tonne_bench_orders
  exit 0
fi

# Seed 1,000,000 orders (one line each) in bulk for the pagination test.
psql "$DB_URL" -q <<SQL
INSERT INTO orders (id, account_id, mode, kind, status, currency, quantity_grams, offset_cost_minor, commission_minor, total_cost_minor, metadata, created_at, updated_at)
SELECT 'f' || lpad(to_hex(g), 31, '0'), '$ACCOUNT', 'live', 'quantity', 'paid', 'GBP', 1000, 2, 0, 2, '{}',
       timestamp '2025-01-01' + g * interval '1 second', timestamp '2025-01-01' + g * interval '1 second'
FROM generate_series(1, 1000000) AS g;
INSERT INTO order_lines
SELECT 'f' || lpad(to_hex(g), 31, '0'), 0, '${BUNDLES[0]}', 'b', 1000, 12180, 13398, 2, false FROM generate_series(1, 1000000) AS g;
ANALYZE orders; ANALYZE order_lines;
SQL
DEEP=$(psql "$DB_URL" -Atc "SELECT id FROM orders WHERE account_id = '$ACCOUNT' ORDER BY created_at DESC, id DESC OFFSET 900000 LIMIT 1")
run_wrk list-first-page "$WORK/list.lua" "http://127.0.0.1:$PORT/v1/orders?limit=100" >> "$REPORT"
run_wrk list-deep-page "$WORK/list.lua" "http://127.0.0.1:$PORT/v1/orders?limit=100&after=$DEEP" >> "$REPORT"

# 5. the console's operator queue (live orders waiting for action: all 1,000,000 are `paid`),
#    first page and deep, signed in as an operator.
echo "correct horse battery staple" | "$BIN" users create --email bench@example.org --operator --password-stdin --database-url "$DB_URL" >/dev/null
SIGN_IN=$(curl -fs -c "$WORK/jar" "http://127.0.0.1:$PORT/console/sign-in")
CSRF=$(grep -o 'name="csrf" value="[^"]*"' <<<"$SIGN_IN" | sed 's/.*value="//; s/"$//')
curl -fs -o /dev/null -b "$WORK/jar" -c "$WORK/jar" --data-urlencode "csrf=$CSRF" \
  --data-urlencode "email=bench@example.org" --data-urlencode "password=correct horse battery staple" \
  "http://127.0.0.1:$PORT/console/sign-in"
SESSION=$(awk '$6 == "tonne_session" {print $7}' "$WORK/jar")
{ echo "wrk.headers[\"Cookie\"] = \"tonne_session=$SESSION\""; result_lua; } > "$WORK/console.lua"
QDEEP=$(psql "$DB_URL" -Atc "SELECT id FROM orders WHERE mode = 'live' AND status IN ('received', 'placed', 'paid', 'retiring') ORDER BY created_at DESC, id DESC OFFSET 900000 LIMIT 1")
run_wrk console-queue-first "$WORK/console.lua" "http://127.0.0.1:$PORT/console/orders" >> "$REPORT"
run_wrk console-queue-deep "$WORK/console.lua" "http://127.0.0.1:$PORT/console/orders?after=$QDEEP" >> "$REPORT"

{
  echo
  awk -v a="$(cat "$WORK/create-by-mass.rps")" -v b="$BASE_TPS" 'BEGIN{printf "- order creation / pgbench baseline: %.2f\n", a/b}'
  awk -v a="$(cat "$WORK/quote-by-mass.rps")" -v b="$(cat "$WORK/create-by-mass.rps")" 'BEGIN{printf "- quote / order creation: %.2f\n", a/b}'
  echo "- deep page cursor: the 900,001st most recent of $(psql "$DB_URL" -Atc "SELECT count(*) FROM orders") orders"
  echo "- console queue, deep page / first page: $(ratio console-queue-deep console-queue-first)"
} >> "$REPORT"
cat "$REPORT"
bench_cleanup
PIDS=()
sleep 1
drop_database tonne_bench_orders
