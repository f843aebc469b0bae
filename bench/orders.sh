#!/usr/bin/env bash
# Ordering benchmark on PostgreSQL, in one run on this machine:
#  1. pgbench baseline: the inserts and updates one order creation does, in one
#     transaction (conditional inventory updates, order + 5 lines, sequence bump,
#     outbox event);
#  2. POST /v1/orders/by-mass with unique idempotency keys (wrk);
#  3. POST /v1/orders/by-mass/quote (wrk);
#  4. GET /v1/orders?limit=100 at the first page and deep in 1,000,000 orders.
#
#   bash bench/orders.sh          (DURATION=15s CONNECTIONS=4 by default)
set -euo pipefail
cd "$(dirname "$0")/.."

DURATION=${DURATION:-15s}
SECONDS_PG=${SECONDS_PG:-15}
CONNECTIONS=${CONNECTIONS:-4}
ADMIN_URL=${BENCH_POSTGRES_URL:-postgres://postgres@127.0.0.1:5432/test}
DB_URL="${ADMIN_URL%/*}/tonne_bench_orders"
PORT=18190
OUT=bench/results
mkdir -p "$OUT"
STAMP=$(date -u +%Y%m%dT%H%M%SZ)
REPORT="$OUT/orders-$STAMP.md"
command -v wrk >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null; }
command -v pgbench >/dev/null || { echo "pgbench is needed (postgresql-contrib / postgresql-client)"; exit 1; }

cargo build --release -p tonne --bin tonne
BIN=target/release/tonne
WORK=$(mktemp -d)
SERVER=""
cleanup() { [ -n "$SERVER" ] && kill "$SERVER" 2>/dev/null; rm -rf "$WORK"; }
trap cleanup EXIT

psql "$ADMIN_URL" -qc 'DROP DATABASE IF EXISTS tonne_bench_orders WITH (FORCE)' -c 'CREATE DATABASE tonne_bench_orders' >/dev/null
"$BIN" migrate --database-url "$DB_URL" >/dev/null
"$BIN" catalogue import demo --database-url "$DB_URL" >/dev/null
BOOT=$("$BIN" bootstrap --json --database-url "$DB_URL")
KEY=$(sed -E 's/.*"live":\{"account_id":"[0-9a-f]+","api_key":"([^"]+)".*/\1/' <<<"$BOOT")
ACCOUNT=$(sed -E 's/.*"live":\{"account_id":"([0-9a-f]+)".*/\1/' <<<"$BOOT")
mapfile -t BUNDLES < <(psql "$DB_URL" -Atc "SELECT id FROM bundles WHERE default_share IS NOT NULL ORDER BY id")

# 1. pgbench baseline ---------------------------------------------------------
cat > "$WORK/order.sql" <<SQL
\set oid random(1, 9000000000000000)
\set eid random(1, 9000000000000000)
BEGIN;
UPDATE bundles SET available_grams = available_grams - 100 WHERE id = '${BUNDLES[0]}' AND available_grams >= 100;
UPDATE bundles SET available_grams = available_grams - 200 WHERE id = '${BUNDLES[1]}' AND available_grams >= 200;
UPDATE bundles SET available_grams = available_grams - 200 WHERE id = '${BUNDLES[2]}' AND available_grams >= 200;
UPDATE bundles SET available_grams = available_grams - 200 WHERE id = '${BUNDLES[3]}' AND available_grams >= 200;
UPDATE bundles SET available_grams = available_grams - 300 WHERE id = '${BUNDLES[4]}' AND available_grams >= 300;
INSERT INTO orders (id, account_id, mode, idempotency_key, kind, status, currency, quantity_grams, offset_cost_minor, commission_minor, total_cost_minor, requested_quantity_grams, metadata, created_at, updated_at)
  VALUES (lpad(:oid::text, 32, '0'), '$ACCOUNT', 'live', 'pgbench-' || :oid, 'quantity', 'received', 'GBP', 1000, 2, 0, 2, 1000, '{}', now(), now());
INSERT INTO order_lines VALUES
  (lpad(:oid::text, 32, '0'), 0, '${BUNDLES[0]}', 'b', 100, 12180, 13398, 1, false),
  (lpad(:oid::text, 32, '0'), 1, '${BUNDLES[1]}', 'b', 200, 2784, 3062, 1, false),
  (lpad(:oid::text, 32, '0'), 2, '${BUNDLES[2]}', 'b', 200, 827, 910, 0, false),
  (lpad(:oid::text, 32, '0'), 3, '${BUNDLES[3]}', 'b', 200, 418, 460, 0, false),
  (lpad(:oid::text, 32, '0'), 4, '${BUNDLES[4]}', 'b', 300, 1218, 1340, 0, false);
INSERT INTO account_event_sequences VALUES ('$ACCOUNT', 0) ON CONFLICT DO NOTHING;
UPDATE account_event_sequences SET last_sequence = last_sequence + 1 WHERE account_id = '$ACCOUNT';
SELECT last_sequence FROM account_event_sequences WHERE account_id = '$ACCOUNT';
INSERT INTO order_events VALUES (lpad(:eid::text, 32, '0'), 'order.received', '$ACCOUNT',
  (SELECT last_sequence FROM account_event_sequences WHERE account_id = '$ACCOUNT'), lpad(:oid::text, 32, '0'), '{"order":{}}', now());
COMMIT;
SQL
PGB=$(pgbench -n -c "$CONNECTIONS" -j 2 -T "$SECONDS_PG" -f "$WORK/order.sql" "$DB_URL" 2>&1)
BASE_TPS=$(grep -oE 'tps = [0-9.]+' <<<"$PGB" | head -1 | awk '{print $3}')
BASE_LAT=$(grep -oE 'latency average = [0-9.]+ ms' <<<"$PGB" | awk '{print $4}')

# 2-4. the server ----------------------------------------------------------------
TONNE_RATE_LIMIT_PER_SECOND=1000000000 TONNE_RATE_LIMIT_BURST=1000000000 TONNE_LOG=warn \
  "$BIN" serve --no-demo --database-url "$DB_URL" --bind "127.0.0.1:$PORT" >/dev/null 2>&1 &
SERVER=$!
for _ in $(seq 1 100); do curl -fs "http://127.0.0.1:$PORT/ready" >/dev/null && break; sleep 0.1; done

result_lua() {
  cat <<'LUA'
done = function(summary, latency, requests)
  io.write(string.format("RESULT %.0f %.3f %.3f %d %d\n", summary.requests / (summary.duration / 1e6),
    latency:percentile(50) / 1000, latency:percentile(99) / 1000,
    summary.errors.status + summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout,
    summary.requests))
end
LUA
}

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

cat > "$WORK/quote.lua" <<LUA
wrk.method = "POST"
wrk.body = '{"mass":{"amount":"1","unit":"kg"}}'
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer $KEY"
LUA
result_lua >> "$WORK/quote.lua"

cat > "$WORK/list.lua" <<LUA
wrk.headers["Authorization"] = "Bearer $KEY"
LUA
result_lua >> "$WORK/list.lua"

run() { # run LABEL SCRIPT PATH
  local line
  line=$(wrk -t2 -c"$CONNECTIONS" -d"$DURATION" -s "$2" "http://127.0.0.1:$PORT$3" | grep '^RESULT')
  # shellcheck disable=SC2086
  set -- "$1" $line
  printf '| %s | %s | %s | %s | %s | %s |\n' "$1" "$3" "$4" "$5" "$6" "$7"
  echo "$3" > "$WORK/$1.rps"
}

{
  echo "# Ordering on PostgreSQL — $STAMP"
  echo
  echo "Machine: $(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GiB; $CONNECTIONS connections; wrk -t2 -d$DURATION and pgbench -T$SECONDS_PG on the same machine; release build; rate limit raised."
  echo
  echo "pgbench baseline (the same writes in one transaction): **$BASE_TPS tps**, average latency $BASE_LAT ms"
  echo
  echo "| target | requests/s | p50 ms | p99 ms | errors | requests |"
  echo "|---|---|---|---|---|---|"
} > "$REPORT"

run create-by-mass "$WORK/create.lua" /v1/orders/by-mass >> "$REPORT"
run quote-by-mass "$WORK/quote.lua" /v1/orders/by-mass/quote >> "$REPORT"

# Seed 1,000,000 orders (one line each) in bulk for the pagination test.
psql "$DB_URL" -q <<SQL
INSERT INTO orders (id, account_id, mode, kind, status, currency, quantity_grams, offset_cost_minor, commission_minor, total_cost_minor, metadata, created_at, updated_at)
SELECT 'f' || lpad(to_hex(g), 31, '0'), '$ACCOUNT', 'live', 'quantity', 'complete', 'GBP', 1000, 2, 0, 2, '{}',
       timestamp '2025-01-01' + g * interval '1 second', timestamp '2025-01-01' + g * interval '1 second'
FROM generate_series(1, 1000000) AS g;
INSERT INTO order_lines
SELECT 'f' || lpad(to_hex(g), 31, '0'), 0, '${BUNDLES[0]}', 'b', 1000, 12180, 13398, 2, false FROM generate_series(1, 1000000) AS g;
ANALYZE orders; ANALYZE order_lines;
SQL
DEEP=$(psql "$DB_URL" -Atc "SELECT id FROM orders WHERE account_id = '$ACCOUNT' ORDER BY created_at DESC, id DESC OFFSET 900000 LIMIT 1")
run list-first-page "$WORK/list.lua" "/v1/orders?limit=100" >> "$REPORT"
run list-deep-page "$WORK/list.lua" "/v1/orders?limit=100&after=$DEEP" >> "$REPORT"

{
  echo
  awk -v a="$(cat "$WORK/create-by-mass.rps")" -v b="$BASE_TPS" 'BEGIN{printf "- order creation / pgbench baseline: %.2f\n", a/b}'
  awk -v a="$(cat "$WORK/quote-by-mass.rps")" -v b="$(cat "$WORK/create-by-mass.rps")" 'BEGIN{printf "- quote / order creation: %.2f\n", a/b}'
  echo "- deep page cursor: the 900,001st most recent of $(psql "$DB_URL" -Atc "SELECT count(*) FROM orders") orders"
} >> "$REPORT"
cat "$REPORT"
kill "$SERVER"; SERVER=""
sleep 1
psql "$ADMIN_URL" -qc 'DROP DATABASE IF EXISTS tonne_bench_orders WITH (FORCE)' >/dev/null
