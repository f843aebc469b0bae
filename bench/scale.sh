#!/usr/bin/env bash
# Scale-out on this machine, in one run (docs/performance.md, `just bench-scale`):
#  1. pgbench ceiling: the writes one order creation does, in one transaction,
#     spread over 20 accounts;
#  2. POST /v1/orders/by-mass over 20 accounts (unique idempotency keys) through
#     HAProxy to 1, 2 and 3 `tonne serve` processes — requests/s as a ratio of
#     the ceiling, p99 and errors;
#  3. the Redis rate limiter's cost: GET /v1/accounts/me on one server without
#     and with TONNE_REDIS_URL.
#
#   bash bench/scale.sh             (DURATION=15s CONNECTIONS=8 by default)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
CONNECTIONS=${CONNECTIONS:-8}
bench_init scale
SECONDS_PG=${SECONDS_PG:-15}
REDIS_URL=${BENCH_REDIS_URL:-redis://127.0.0.1:6379}
LB=18500
command -v pgbench >/dev/null || { echo "pgbench is needed"; exit 1; }
command -v haproxy >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq haproxy >/dev/null; }
bench_build
DB_URL=$(fresh_database tonne_bench_scale)
seed_database "$DB_URL"
KEYS=() ACCOUNTS=()
for i in $(seq 1 20); do
  boot=$("$BIN" bootstrap --json --name "Scale $i" --database-url "$DB_URL")
  KEYS+=("$(sed -E 's/.*"live":\{"account_id":"[0-9a-f]+","api_key":"([^"]+)".*/\1/' <<<"$boot")")
  ACCOUNTS+=("$(sed -E 's/.*"live":\{"account_id":"([0-9a-f]+)".*/\1/' <<<"$boot")")
done
mapfile -t BUNDLES < <(psql "$DB_URL" -Atc "SELECT id FROM bundles WHERE default_share IS NOT NULL ORDER BY id")

# 1. pgbench ceiling over the 20 accounts ------------------------------------
psql "$DB_URL" -qc "CREATE TABLE bench_accounts (n INT PRIMARY KEY, id TEXT NOT NULL)"
for i in "${!ACCOUNTS[@]}"; do psql "$DB_URL" -qc "INSERT INTO bench_accounts VALUES ($i, '${ACCOUNTS[$i]}')"; done
{
  echo '\set a random(0, 19)'
  order_sql "(SELECT id FROM bench_accounts WHERE n = :a)"
} > "$WORK/order.sql"
PGB=$(pgbench -n -c "$CONNECTIONS" -j 2 -T "$SECONDS_PG" -f "$WORK/order.sql" "$DB_URL" 2>&1)
CEILING=$(grep -oE 'tps = [0-9.]+' <<<"$PGB" | head -1 | awk '{print $3}')
PG_LAT=$(grep -oE 'latency average = [0-9.]+ ms' <<<"$PGB" | awk '{print $4}')

# 2. 1, 2, 3 servers behind HAProxy ---------------------------------------------
create_lua() { # create_lua RUN: unique idempotency keys per run and thread
  printf 'local keys = {'; printf '"%s",' "${KEYS[@]}"; printf '}\n'
  printf 'local run = "%s"\n' "$1"
  cat <<'LUA'
local counter = 0
local threads = 0
function setup(thread) threads = threads + 1; thread:set("tid", tostring(threads)) end
request = function()
  counter = counter + 1
  local key = keys[(counter % #keys) + 1]
  local body = '{"mass":{"amount":"1","unit":"kg"},"idempotency_key":"' .. run .. '-' .. (tid or "t") .. '-' .. counter .. '"}'
  return wrk.format("POST", "/v1/orders/by-mass", {["Authorization"] = "Bearer " .. key, ["Content-Type"] = "application/json"}, body)
end
LUA
  result_lua
}

haproxy_cfg() { # haproxy_cfg N: a config for servers 1..N
  printf 'global\n    maxconn 4096\ndefaults\n    mode http\n    timeout connect 2s\n    timeout client 35s\n    timeout server 35s\n'
  printf 'frontend f\n    bind 127.0.0.1:%s\n    default_backend b\nbackend b\n    balance leastconn\n' "$LB"
  for n in $(seq 1 "$1"); do printf '    server s%s 127.0.0.1:%s\n' "$n" $((LB + n)); done
}

report_header "Scale-out on PostgreSQL" "$CONNECTIONS connections; wrk -t$THREADS -d$DURATION and pgbench -T$SECONDS_PG -c$CONNECTIONS on the same machine; release build; HAProxy in front; each server's pool 4 connections; rate limit raised.

pgbench ceiling (the same writes in one transaction, 20 accounts): **$CEILING tps**, average latency $PG_LAT ms"
for n in 1 2 3; do
  SERVERS=()
  for s in $(seq 1 "$n"); do
    serve_unlimited "$DB_URL" $((LB + s)) --no-dispatcher
    SERVERS+=("${PIDS[-1]}")
  done
  haproxy_cfg "$n" > "$WORK/haproxy-$n.cfg"
  haproxy -f "$WORK/haproxy-$n.cfg" -db >/dev/null 2>&1 &
  PIDS+=($!)
  HAP=$!
  wait_for "http://127.0.0.1:$LB/ready"
  create_lua "$STAMP-$n" > "$WORK/create-$n.lua"
  run_wrk "servers-$n" "$WORK/create-$n.lua" "http://127.0.0.1:$LB/v1/orders/by-mass" >> "$REPORT"
  kill "$HAP" "${SERVERS[@]}" 2>/dev/null || true
  wait "$HAP" "${SERVERS[@]}" 2>/dev/null || true
  sleep 1
done

# 3. the Redis limiter's cost ----------------------------------------------------
get_lua "${KEYS[0]}" > "$WORK/me.lua"
CONNECTIONS_ORDERS=$CONNECTIONS
CONNECTIONS=32
for round in 1 2; do
  for limiter in in-process redis; do
    extra=()
    [ "$limiter" = redis ] && extra=(--redis-url "$REDIS_URL" --redis-prefix "bench-$STAMP-$round:")
    serve_unlimited "$DB_URL" $((LB + 9)) --no-dispatcher "${extra[@]}"
    run_wrk "me-$limiter-$round" "$WORK/me.lua" "http://127.0.0.1:$((LB + 9))/v1/accounts/me" >> "$REPORT"
    kill "${PIDS[-1]}"; wait "${PIDS[-1]}" 2>/dev/null || true
    sleep 1
  done
done
CONNECTIONS=$CONNECTIONS_ORDERS

{
  echo
  for n in 1 2 3; do
    awk -v a="$(cat "$WORK/servers-$n.rps")" -v b="$CEILING" -v n="$n" 'BEGIN{printf "- %d server(s): order creation / pgbench ceiling = %.2f\n", n, a/b}'
  done
  echo "- Redis limiter: GET /v1/accounts/me with / without (32 connections), round 1: $(ratio me-redis-1 me-in-process-1), round 2: $(ratio me-redis-2 me-in-process-2)"
} >> "$REPORT"
cat "$REPORT"
bench_cleanup
PIDS=()
sleep 1
drop_database tonne_bench_scale
