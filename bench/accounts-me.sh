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
. "$(dirname "$0")/lib.sh"
CONNECTIONS=${CONNECTIONS:-64} WARMUP=${WARMUP:-2s}
bench_init accounts-me
bench_build
cargo build --release -p tonne --example bare_actix
BARE=target/release/examples/bare_actix

serve() { # serve DATABASE_URL PORT; sets KEY (not in a subshell, so PIDS keeps the server)
  KEY=$("$BIN" bootstrap --json --database-url "$1" | sed -E 's/.*"live":\{"account_id":"[0-9a-f]+","api_key":"([^"]+)".*/\1/')
  serve_unlimited "$1" "$2"
}

report_header "GET /v1/accounts/me" "wrk -t$THREADS -c$CONNECTIONS -d$DURATION on the same machine; release build; rate limit raised."

"$BARE" 127.0.0.1:18181 >/dev/null 2>&1 &
PIDS+=($!)
wait_for http://127.0.0.1:18181/v1/accounts/me
get_lua none > "$WORK/bare.lua"
run_wrk bare-actix "$WORK/bare.lua" http://127.0.0.1:18181/v1/accounts/me >> "$REPORT"

serve "sqlite://$WORK/bench.db" 18182
get_lua > "$WORK/sqlite.lua"
run_wrk tonne-sqlite "$WORK/sqlite.lua" http://127.0.0.1:18182/v1/accounts/me >> "$REPORT"

if psql "$ADMIN_URL" -qc 'SELECT 1' >/dev/null 2>&1; then
  serve "$(fresh_database tonne_bench)" 18183
  get_lua > "$WORK/postgres.lua"
  run_wrk tonne-postgres "$WORK/postgres.lua" http://127.0.0.1:18183/v1/accounts/me >> "$REPORT"
else
  echo "| tonne-postgres | skipped: no server at $ADMIN_URL | | | | |" >> "$REPORT"
fi

{
  echo
  for t in tonne-sqlite tonne-postgres; do
    [ -f "$WORK/$t.rps" ] && echo "- $t / bare-actix throughput ratio: $(ratio "$t" bare-actix)"
  done
} >> "$REPORT"

cat "$REPORT"
echo
echo "written to $REPORT"
if psql "$ADMIN_URL" -qc 'SELECT 1' >/dev/null 2>&1; then
  bench_cleanup
  PIDS=()
  sleep 1
  drop_database tonne_bench
fi
