#!/usr/bin/env bash
# The request path, A/B (issue 22): two builds of `tonne` alternated in one run
# (A B A B …) on PostgreSQL, beside a bare actix-web handler:
#  - GET /v1/accounts/me at 64 connections: requests/s, p50, p99, the ratio to
#    bare actix, and the server's context switches and CPU time per request
#    (perf stat on the server process, software events);
#  - POST /v1/orders/by-mass and POST /v1/estimates/shipping at 4 connections: p50.
#
#   A=/path/to/old/tonne B=target/release/tonne bash bench/request-path.sh
#   ROUNDS=2 DURATION=10s (defaults)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
bench_init request-path
ROUNDS=${ROUNDS:-2}
A=${A:?set A to the first binary}
B=${B:-target/release/tonne}
# BARE=path/to/bare_actix skips building it (e.g. when A and B were built elsewhere)
if [ -z "${BARE:-}" ]; then
  cargo build --release -p tonne --example bare_actix
  BARE=target/release/examples/bare_actix
fi
command -v perf >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq linux-perf >/dev/null; }

{
  echo "# The request path, A/B — $STAMP"
  echo
  echo "Machine: $(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GiB, $(uname -sr); release builds; wrk -t$THREADS -d$DURATION on the same machine; PostgreSQL; rate limit raised."
  echo "A = $A, B = $B"
  echo
  echo "| round | build | me req/s | me p50 ms | me p99 ms | / bare | ctx switches / req | CPU µs / req | order p50 ms | shipping p50 ms |"
  echo "|---|---|---|---|---|---|---|---|---|---|"
} > "$REPORT"

"$BARE" 127.0.0.1:18181 >/dev/null 2>&1 &
PIDS+=($!)
wait_for http://127.0.0.1:18181/v1/accounts/me
get_lua none > "$WORK/bare.lua"

PORT=18190
for round in $(seq 1 "$ROUNDS"); do
  for build in A B; do
    BIN=${!build}
    PORT=$((PORT + 1))
    DB_URL=$(fresh_database tonne_bench_path)
    seed_database "$DB_URL"
    serve_unlimited "$DB_URL" "$PORT"
    SERVER=${PIDS[-1]}
    get_lua > "$WORK/me.lua"
    post_lua "$ORDER_BODY" > "$WORK/order.lua"
    post_lua "$SHIPPING_BODY" > "$WORK/sea.lua"
    CONNECTIONS=64 run_wrk "bare-$round-$build" "$WORK/bare.lua" http://127.0.0.1:18181/v1/accounts/me > /dev/null
    wrk -t"$THREADS" -c64 -d2s -s "$WORK/me.lua" "http://127.0.0.1:$PORT/v1/accounts/me" > /dev/null
    secs=${DURATION%s}
    perf stat -x, -e context-switches,task-clock -p "$SERVER" -o "$WORK/perf-$round-$build" -- sleep "$secs" &
    PERF=$!
    me=$(wrk -t"$THREADS" -c64 -d"$DURATION" -s "$WORK/me.lua" "http://127.0.0.1:$PORT/v1/accounts/me" | grep '^RESULT')
    wait "$PERF" || true
    # shellcheck disable=SC2086
    set -- $me
    rps=$2 p50=$3 p99=$4 requests=$6
    switches=$(awk -F, '/context-switches/{print $1}' "$WORK/perf-$round-$build")
    cpu_ms=$(awk -F, '/task-clock/{print $1}' "$WORK/perf-$round-$build")
    order=$(CONNECTIONS=4 run_wrk "order-$round-$build" "$WORK/order.lua" "http://127.0.0.1:$PORT/v1/orders/by-mass" | awk -F'|' '{print $4}')
    sea=$(CONNECTIONS=4 run_wrk "sea-$round-$build" "$WORK/sea.lua" "http://127.0.0.1:$PORT/v1/estimates/shipping" | awk -F'|' '{print $4}')
    awk -v r="$round" -v b="$build" -v rps="$rps" -v p50="$p50" -v p99="$p99" -v bare="$(cat "$WORK/bare-$round-$build.rps")" \
        -v sw="$switches" -v cpu="$cpu_ms" -v n="$requests" -v order="$order" -v sea="$sea" \
        'BEGIN { printf "| %s | %s | %d | %.2f | %.2f | %.3f | %.1f | %.0f | %s | %s |\n", r, b, rps, p50, p99, rps / bare, sw / n, cpu * 1000 / n, order, sea }' >> "$REPORT"
    kill "$SERVER" 2>/dev/null || true
    wait "$SERVER" 2>/dev/null || true
  done
done
bench_finish tonne_bench_path
