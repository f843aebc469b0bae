#!/usr/bin/env bash
# Load benchmark of GET /v1/accounts/me with a valid key, on SQLite and on
# PostgreSQL, against a bare actix-web handler returning a constant JSON body,
# all in one run on this machine (load generator on the same machine).
#
#   bash bench/accounts-me.sh            # 15 s per target, 64 connections
#   DURATION=30s CONNECTIONS=128 bash bench/accounts-me.sh
#
# Needs wrk (installed from Debian's packages if absent) and, for the PostgreSQL
# leg, a server at $BENCH_POSTGRES_URL (default postgres://postgres@127.0.0.1:5432/test;
# a database tonne_bench is created and dropped there).
set -euo pipefail
cd "$(dirname "$0")/.."

DURATION=${DURATION:-15s}
CONNECTIONS=${CONNECTIONS:-64}
THREADS=${THREADS:-2}
ADMIN_URL=${BENCH_POSTGRES_URL:-postgres://postgres@127.0.0.1:5432/test}
PG_BENCH_URL="${ADMIN_URL%/*}/tonne_bench"
OUT=bench/results
mkdir -p "$OUT"
STAMP=$(date -u +%Y%m%dT%H%M%SZ)
REPORT="$OUT/accounts-me-$STAMP.md"

if ! command -v wrk >/dev/null; then
  echo "installing wrk…"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null
fi

cargo build --release -p tonne --bin tonne --example bare_actix
BIN=target/release/tonne
BARE=target/release/examples/bare_actix
WORK=$(mktemp -d)
PIDS=()
cleanup() { for p in "${PIDS[@]:-}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$WORK"; }
trap cleanup EXIT

wait_for() { for _ in $(seq 1 100); do curl -fs "$1" >/dev/null 2>&1 && return 0; sleep 0.1; done; echo "not up: $1" >&2; return 1; }

# run NAME URL [KEY]: prints "NAME rps p50 p99 non2xx"
run() {
  local name=$1 url=$2 key=${3:-}
  local lua="$WORK/$name.lua"
  cat > "$lua" <<LUA
wrk.headers["Authorization"] = "Bearer $key"
done = function(summary, latency, requests)
  io.write(string.format("RESULT %.0f %.3f %.3f %d %d\n", summary.requests / (summary.duration / 1e6),
    latency:percentile(50) / 1000, latency:percentile(99) / 1000,
    summary.errors.status + summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout,
    summary.requests))
end
LUA
  wrk -t"$THREADS" -c"$CONNECTIONS" -d2s -s "$lua" "$url" >/dev/null   # warm-up
  local line
  line=$(wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" -s "$lua" "$url" | grep '^RESULT')
  # shellcheck disable=SC2086
  set -- $line
  printf '| %s | %s | %s | %s | %s | %s |\n' "$name" "$2" "$3" "$4" "$5" "$6"
  echo "$2" > "$WORK/$name.rps"
}

serve() { # serve NAME DATABASE_URL PORT; sets KEY (not in a subshell, so PIDS keeps the server)
  local url=$2 port=$3
  if curl -fs "http://127.0.0.1:$port/health" >/dev/null 2>&1; then echo "port $port is busy" >&2; exit 1; fi
  KEY=$("$BIN" bootstrap --json --database-url "$url" | sed -E 's/.*"live":\{"account_id":"[0-9a-f]+","api_key":"([^"]+)".*/\1/')
  TONNE_RATE_LIMIT_PER_SECOND=1000000000 TONNE_RATE_LIMIT_BURST=1000000000 TONNE_LOG=warn \
    "$BIN" serve --no-demo --database-url "$url" --bind "127.0.0.1:$port" >/dev/null 2>&1 &
  PIDS+=($!)
  wait_for "http://127.0.0.1:$port/ready"
}

{
  echo "# GET /v1/accounts/me — $STAMP"
  echo
  echo "Machine: $(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GiB, $(uname -sr); wrk -t$THREADS -c$CONNECTIONS -d$DURATION on the same machine; release build; rate limit raised."
  echo
  echo "| target | requests/s | p50 ms | p99 ms | errors | requests |"
  echo "|---|---|---|---|---|---|"
} > "$REPORT"

"$BARE" 127.0.0.1:18181 >/dev/null 2>&1 &
PIDS+=($!)
wait_for http://127.0.0.1:18181/v1/accounts/me
run bare-actix http://127.0.0.1:18181/v1/accounts/me >> "$REPORT"

serve sqlite "sqlite://$WORK/bench.db" 18182
run tonne-sqlite http://127.0.0.1:18182/v1/accounts/me "$KEY" >> "$REPORT"

if psql "$ADMIN_URL" -qc 'SELECT 1' >/dev/null 2>&1; then
  psql "$ADMIN_URL" -qc 'DROP DATABASE IF EXISTS tonne_bench WITH (FORCE)' -c 'CREATE DATABASE tonne_bench' >/dev/null
  serve postgres "$PG_BENCH_URL" 18183
  run tonne-postgres http://127.0.0.1:18183/v1/accounts/me "$KEY" >> "$REPORT"
else
  echo "| tonne-postgres | skipped: no server at $ADMIN_URL | | | | |" >> "$REPORT"
fi

{
  echo
  bare=$(cat "$WORK/bare-actix.rps")
  for t in tonne-sqlite tonne-postgres; do
    [ -f "$WORK/$t.rps" ] && echo "- $t / bare-actix throughput ratio: $(awk -v a="$(cat "$WORK/$t.rps")" -v b="$bare" 'BEGIN{printf "%.2f", a/b}')"
  done
} >> "$REPORT"

cat "$REPORT"
echo
echo "written to $REPORT"
if psql "$ADMIN_URL" -qc 'SELECT 1' >/dev/null 2>&1; then
  for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
  sleep 1
  psql "$ADMIN_URL" -qc 'DROP DATABASE IF EXISTS tonne_bench WITH (FORCE)' >/dev/null || true
fi
