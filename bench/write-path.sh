#!/usr/bin/env bash
# The write path, A/B (issue 22): builds of `tonne` alternated in one run (A B
# A B …) on PostgreSQL, each on a fresh seeded database. For
# POST /v1/estimates/shipping (CNSHA → NLRTM, 2 containers) and
# POST /v1/orders/by-mass at 4 connections: requests, p50, and the CPU time
# per request of the server and of PostgreSQL (its backends for the database,
# from /proc: user + system), so that a change in p50 can be told apart from
# the machine's noise.
#
#   A=/path/to/old/tonne B=target/release/tonne [C=…] bash bench/write-path.sh
#   ROUNDS=3 DURATION=8s (defaults)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
DURATION=${DURATION:-8s}
bench_init write-path
ROUNDS=${ROUNDS:-3}
A=${A:?set A to the first binary}
B=${B:-target/release/tonne}
BUILDS=(A B)
[ -n "${C:-}" ] && BUILDS+=(C)
HZ=$(getconf CLK_TCK)

{
  echo "# The write path, A/B — $STAMP"
  echo
  echo "Machine: $(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GiB, $(uname -sr); release builds; wrk -t$THREADS -c4 -d$DURATION on the same machine; PostgreSQL; rate limit raised."
  for b in "${BUILDS[@]}"; do echo "$b = ${!b}"; done
  echo
  echo "| round | build | route | requests | p50 ms | server CPU µs / req | PostgreSQL CPU µs / req |"
  echo "|---|---|---|---|---|---|---|"
} > "$REPORT"

ticks() { # user + system clock ticks of the given processes (those still there)
  local sum=0 p
  for p in "$@"; do
    [ -r "/proc/$p/stat" ] && sum=$((sum + $(awk '{print $14 + $15}' "/proc/$p/stat" 2>/dev/null || echo 0)))
  done
  echo "$sum"
}

PORT=18290
for round in $(seq 1 "$ROUNDS"); do
  for build in "${BUILDS[@]}"; do
    BIN=${!build}
    PORT=$((PORT + 1))
    DB_URL=$(fresh_database tonne_bench_write)
    seed_database "$DB_URL"
    serve_unlimited "$DB_URL" "$PORT"
    SERVER=${PIDS[-1]}
    for route in shipping order; do
      if [ "$route" = shipping ]; then
        post_lua "$SHIPPING_BODY" > "$WORK/w.lua"; path=/v1/estimates/shipping
      else
        post_lua "$ORDER_BODY" > "$WORK/w.lua"; path=/v1/orders/by-mass
      fi
      wrk -t"$THREADS" -c4 -d2s -s "$WORK/w.lua" "http://127.0.0.1:$PORT$path" > /dev/null
      # shellcheck disable=SC2046
      set -- $(pgrep -f "postgres: .* tonne_bench_write " || true)
      s0=$(ticks "$SERVER"); p0=$(ticks "$@")
      line=$(wrk -t"$THREADS" -c4 -d"$DURATION" -s "$WORK/w.lua" "http://127.0.0.1:$PORT$path" | grep '^RESULT')
      s1=$(ticks "$SERVER"); p1=$(ticks "$@")
      # shellcheck disable=SC2086
      set -- $line
      awk -v r="$round" -v b="$build" -v route="$route" -v n="$6" -v p50="$3" -v s=$((s1 - s0)) -v p=$((p1 - p0)) -v hz="$HZ" \
        'BEGIN { printf "| %s | %s | %s | %d | %.2f | %.0f | %.0f |\n", r, b, route, n, p50, s * 1e6 / hz / n, p * 1e6 / hz / n }' >> "$REPORT"
    done
    kill "$SERVER" 2>/dev/null || true
    wait "$SERVER" 2>/dev/null || true
  done
done
bench_finish tonne_bench_write
