#!/usr/bin/env bash
# Estimates over HTTP on PostgreSQL (wrk, release build, one run on this machine):
#  1. POST /v1/estimates/flight (airports: great-circle + DESNZ factor + quote + insert);
#  2. POST /v1/estimates/transactions/batch with 100 entries (target p99 < 50 ms);
#  3. POST /v1/estimates/shipping CNSHA -> NLRTM by container ship (sea path, cached).
# Engines in isolation: cargo bench -p tonne_estimation (criterion).
#
#   bash bench/estimates.sh          (DURATION=15s CONNECTIONS=4 by default)
#   TONNE_BIN=/path/to/tonne bash bench/estimates.sh
#                                    (an already built binary, e.g. another commit's, for A/B runs)
set -euo pipefail
cd "$(dirname "$0")/.."

DURATION=${DURATION:-15s}
CONNECTIONS=${CONNECTIONS:-4}
ADMIN_URL=${BENCH_POSTGRES_URL:-postgres://postgres@127.0.0.1:5432/test}
DB_URL="${ADMIN_URL%/*}/tonne_bench_estimates"
PORT=18191
OUT=bench/results
mkdir -p "$OUT"
STAMP=$(date -u +%Y%m%dT%H%M%SZ)
REPORT="$OUT/estimates-$STAMP.md"
command -v wrk >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null; }

if [ -n "${TONNE_BIN:-}" ]; then
  BIN=$TONNE_BIN
else
  cargo build --release -p tonne --bin tonne
  BIN=target/release/tonne
fi
WORK=$(mktemp -d)
SERVER=""
cleanup() { [ -n "$SERVER" ] && kill "$SERVER" 2>/dev/null; rm -rf "$WORK"; }
trap cleanup EXIT

psql "$ADMIN_URL" -qc 'DROP DATABASE IF EXISTS tonne_bench_estimates WITH (FORCE)' -c 'CREATE DATABASE tonne_bench_estimates' >/dev/null
"$BIN" migrate --database-url "$DB_URL" >/dev/null
"$BIN" catalogue import demo --database-url "$DB_URL" >/dev/null
BOOT=$("$BIN" bootstrap --json --database-url "$DB_URL")
KEY=$(sed -E 's/.*"live":\{"account_id":"[0-9a-f]+","api_key":"([^"]+)".*/\1/' <<<"$BOOT")

TONNE_RATE_LIMIT_PER_SECOND=1000000000 TONNE_RATE_LIMIT_BURST=1000000000 TONNE_LOG=warn \
  "$BIN" serve --no-demo --database-url "$DB_URL" --bind "127.0.0.1:$PORT" >/dev/null 2>&1 &
SERVER=$!
for _ in $(seq 1 100); do curl -fs "http://127.0.0.1:$PORT/ready" >/dev/null && break; sleep 0.1; done

post_lua() { # post_lua BODY
  cat <<LUA
wrk.method = "POST"
wrk.body = [==[$1]==]
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer $KEY"
done = function(summary, latency, requests)
  io.write(string.format("RESULT %.0f %.3f %.3f %d %d\n", summary.requests / (summary.duration / 1e6),
    latency:percentile(50) / 1000, latency:percentile(99) / 1000,
    summary.errors.status + summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout,
    summary.requests))
end
LUA
}

post_lua '{"route":{"source":{"code":"LHR"},"destination":{"code":"JFK"}},"cabin_class":"economy","passengers":1}' > "$WORK/flight.lua"
ENTRY='{"value":{"value":"42.50","currency":"GBP"},"merchant":{"country_code":"GBR","category_code":"5812"}}'
BATCH=$(python3 -c 'import json, sys; print(json.dumps([json.loads(sys.argv[1])] * 100))' "$ENTRY")
post_lua "$BATCH" > "$WORK/batch.lua"
post_lua '{"shipment":{"containers":"2"},"route":{"source":{"locode":"CNSHA"},"destination":{"locode":"NLRTM"}},"method":{"vessel_type":"container_ship"}}' > "$WORK/sea.lua"

run() { # run LABEL SCRIPT PATH
  local line
  line=$(wrk -t2 -c"$CONNECTIONS" -d"$DURATION" -s "$2" "http://127.0.0.1:$PORT$3" | grep '^RESULT')
  # shellcheck disable=SC2086
  set -- "$1" $line
  printf '| %s | %s | %s | %s | %s | %s |\n' "$1" "$3" "$4" "$5" "$6" "$7"
}

{
  echo "# Estimates on PostgreSQL — $STAMP"
  echo
  echo "Binary: $BIN"
  echo
  echo "Machine: $(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GiB; $CONNECTIONS connections; wrk -t2 -d$DURATION on the same machine; release build; rate limit raised."
  echo
  echo "| target | requests/s | p50 ms | p99 ms | errors | requests |"
  echo "|---|---|---|---|---|---|"
} > "$REPORT"
run flight "$WORK/flight.lua" /v1/estimates/flight >> "$REPORT"
run batch-100 "$WORK/batch.lua" /v1/estimates/transactions/batch >> "$REPORT"
run shipping-sea "$WORK/sea.lua" /v1/estimates/shipping >> "$REPORT"
echo >> "$REPORT"
echo "- estimates stored: $(psql "$DB_URL" -Atc 'SELECT count(*) FROM estimates')" >> "$REPORT"
cat "$REPORT"
kill "$SERVER"; SERVER=""
sleep 1
psql "$ADMIN_URL" -qc 'DROP DATABASE IF EXISTS tonne_bench_estimates WITH (FORCE)' >/dev/null
