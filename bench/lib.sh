# Shared by the load benchmarks under bench/ (sourced, not run).
#
#   . "$(dirname "$0")/lib.sh"; bench_init NAME
#
# sets DURATION, CONNECTIONS, THREADS, ADMIN_URL, OUT, STAMP, REPORT, WORK and
# PIDS (every process in PIDS is killed on exit), and installs wrk from Debian's
# packages when absent. BIN is the release build of `tonne`, or $TONNE_BIN when
# set (another commit's binary, for A/B runs).

bench_init() { # bench_init NAME
  cd "$(dirname "${BASH_SOURCE[0]}")/.."
  DURATION=${DURATION:-15s}
  CONNECTIONS=${CONNECTIONS:-4}
  THREADS=${THREADS:-2}
  ADMIN_URL=${BENCH_POSTGRES_URL:-postgres://postgres@127.0.0.1:5432/test}
  OUT=bench/results
  mkdir -p "$OUT"
  STAMP=$(date -u +%Y%m%dT%H%M%SZ)
  REPORT="$OUT/$1-$STAMP.md"
  WORK=$(mktemp -d)
  PIDS=()
  trap bench_cleanup EXIT
  if ! command -v wrk >/dev/null; then
    echo "installing wrk…"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null
  fi
}

bench_cleanup() {
  for p in "${PIDS[@]:-}"; do [ -z "$p" ] || kill "$p" 2>/dev/null || true; done
  rm -rf "$WORK"
  return 0
}

bench_build() { # bench_build [CARGO ARGS…]: sets BIN
  if [ -n "${TONNE_BIN:-}" ]; then
    BIN=$TONNE_BIN
  else
    cargo build --release -p tonne --bin tonne "$@"
    BIN=target/release/tonne
  fi
}

wait_for() { # wait_for URL: up to 10 s
  for _ in $(seq 1 100); do curl -fs "$1" >/dev/null 2>&1 && return 0; sleep 0.1; done
  echo "not up: $1" >&2
  return 1
}

fresh_database() { # fresh_database NAME: drops and creates it, prints its URL
  psql "$ADMIN_URL" -qc "DROP DATABASE IF EXISTS $1 WITH (FORCE)" -c "CREATE DATABASE $1" >/dev/null
  echo "${ADMIN_URL%/*}/$1"
}

drop_database() { # drop_database NAME
  psql "$ADMIN_URL" -qc "DROP DATABASE IF EXISTS $1 WITH (FORCE)" >/dev/null || true
}

seed_database() { # seed_database URL: migrates, imports the demo catalogue, sets KEY and ACCOUNT (live)
  "$BIN" migrate --database-url "$1" >/dev/null
  "$BIN" catalogue import demo --database-url "$1" >/dev/null
  local boot
  boot=$("$BIN" bootstrap --json --database-url "$1")
  KEY=$(sed -E 's/.*"live":\{"account_id":"[0-9a-f]+","api_key":"([^"]+)".*/\1/' <<<"$boot")
  ACCOUNT=$(sed -E 's/.*"live":\{"account_id":"([0-9a-f]+)".*/\1/' <<<"$boot")
}

serve_unlimited() { # serve_unlimited DATABASE_URL PORT [ARGS…]: rate limit raised, waits for /ready
  # (SERVER_LOG=FILE: the server logs each request, with its latency, to FILE)
  local url=$1 port=$2
  shift 2
  if curl -fs "http://127.0.0.1:$port/health" >/dev/null 2>&1; then echo "port $port is busy" >&2; exit 1; fi
  TONNE_RATE_LIMIT_PER_SECOND=1000000000 TONNE_RATE_LIMIT_BURST=1000000000 \
  TONNE_PAGE_RATE_LIMIT_PER_SECOND=1000000000 TONNE_PAGE_RATE_LIMIT_BURST=1000000000 \
  TONNE_LOG=$([ -n "${SERVER_LOG:-}" ] && echo info || echo warn) \
  TONNE_METRICS_BIND=127.0.0.1:0 \
    "$BIN" serve --no-demo --database-url "$url" --bind "127.0.0.1:$port" "$@" >"${SERVER_LOG:-/dev/null}" 2>&1 &
  PIDS+=($!)
  wait_for "http://127.0.0.1:$port/ready"
}

# The bodies the A/B benchmarks post: a sea shipment (CNSHA → NLRTM, 2
# containers) and an order by mass.
SHIPPING_BODY='{"shipment":{"containers":"2"},"route":{"source":{"locode":"CNSHA"},"destination":{"locode":"NLRTM"}},"method":{"vessel_type":"container_ship"}}'
ORDER_BODY='{"mass":{"amount":"0.1","unit":"t"}}'

bench_finish() { # bench_finish DATABASE: prints the report, stops everything, drops the database
  cat "$REPORT"
  echo
  echo "written to $REPORT"
  bench_cleanup
  PIDS=()
  sleep 1
  drop_database "$1"
}

result_lua() { # the wrk `done` hook that prints "RESULT rps p50_ms p99_ms errors requests"
  cat <<'LUA'
done = function(summary, latency, requests)
  io.write(string.format("RESULT %.0f %.3f %.3f %d %d\n", summary.requests / (summary.duration / 1e6),
    latency:percentile(50) / 1000, latency:percentile(99) / 1000,
    summary.errors.status + summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout,
    summary.requests))
end
LUA
}

post_lua() { # post_lua BODY: a wrk script posting BODY with $KEY
  cat <<LUA
wrk.method = "POST"
wrk.body = [==[$1]==]
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer $KEY"
LUA
  result_lua
}

get_lua() { # get_lua [KEY]: a wrk script for GET with a bearer key
  echo "wrk.headers[\"Authorization\"] = \"Bearer ${1:-$KEY}\""
  result_lua
}

report_header() { # report_header TITLE DESCRIPTION: starts $REPORT with the results table
  {
    echo "# $1 — $STAMP"
    echo
    echo "Machine: $(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GiB, $(uname -sr); $2"
    echo
    echo "| target | requests/s | p50 ms | p99 ms | errors | requests |"
    echo "|---|---|---|---|---|---|"
  } > "$REPORT"
}

run_wrk() { # run_wrk LABEL SCRIPT URL: prints a table row, keeps the rate in $WORK/LABEL.rps
  local line
  [ -n "${WARMUP:-}" ] && wrk -t"$THREADS" -c"$CONNECTIONS" -d"$WARMUP" -s "$2" "$3" >/dev/null
  line=$(wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" -s "$2" "$3" | grep '^RESULT')
  # shellcheck disable=SC2086
  set -- "$1" $line
  printf '| %s | %s | %s | %s | %s | %s |\n' "$1" "$3" "$4" "$5" "$6" "$7"
  echo "$3" > "$WORK/$1.rps"
}

ratio() { # ratio LABEL_A LABEL_B: rps of A over rps of B, two decimals
  awk -v a="$(cat "$WORK/$1.rps")" -v b="$(cat "$WORK/$2.rps")" 'BEGIN{printf "%.2f", a/b}'
}

order_sql() { # order_sql ACCOUNT_SQL: pgbench script of the writes one order creation does
  # (conditional inventory updates of the 5 default bundles in $BUNDLES, the order
  # and its 5 lines, the per-account sequence bump, the outbox event), in one
  # transaction; ACCOUNT_SQL is an SQL expression, e.g. "'<id>'" or a subquery.
  local a=$1
  cat <<SQL
\set oid random(1, 9000000000000000)
\set eid random(1, 9000000000000000)
BEGIN;
UPDATE bundles SET available_grams = available_grams - 100 WHERE id = '${BUNDLES[0]}' AND available_grams >= 100;
UPDATE bundles SET available_grams = available_grams - 200 WHERE id = '${BUNDLES[1]}' AND available_grams >= 200;
UPDATE bundles SET available_grams = available_grams - 200 WHERE id = '${BUNDLES[2]}' AND available_grams >= 200;
UPDATE bundles SET available_grams = available_grams - 200 WHERE id = '${BUNDLES[3]}' AND available_grams >= 200;
UPDATE bundles SET available_grams = available_grams - 300 WHERE id = '${BUNDLES[4]}' AND available_grams >= 300;
INSERT INTO orders (id, account_id, mode, idempotency_key, kind, status, currency, quantity_grams, offset_cost_minor, commission_minor, total_cost_minor, requested_quantity_grams, metadata, created_at, updated_at)
  VALUES (lpad(:oid::text, 32, '0'), $a, 'live', 'pgbench-' || :oid, 'quantity', 'received', 'GBP', 1000, 2, 0, 2, 1000, '{}', now(), now());
INSERT INTO order_lines VALUES
  (lpad(:oid::text, 32, '0'), 0, '${BUNDLES[0]}', 'b', 100, 12180, 13398, 1, false),
  (lpad(:oid::text, 32, '0'), 1, '${BUNDLES[1]}', 'b', 200, 2784, 3062, 1, false),
  (lpad(:oid::text, 32, '0'), 2, '${BUNDLES[2]}', 'b', 200, 827, 910, 0, false),
  (lpad(:oid::text, 32, '0'), 3, '${BUNDLES[3]}', 'b', 200, 418, 460, 0, false),
  (lpad(:oid::text, 32, '0'), 4, '${BUNDLES[4]}', 'b', 300, 1218, 1340, 0, false);
INSERT INTO account_event_sequences VALUES ($a, 0) ON CONFLICT DO NOTHING;
UPDATE account_event_sequences SET last_sequence = last_sequence + 1 WHERE account_id = $a;
SELECT last_sequence FROM account_event_sequences WHERE account_id = $a;
INSERT INTO order_events VALUES (lpad(:eid::text, 32, '0'), 'order.received', $a,
  (SELECT last_sequence FROM account_event_sequences WHERE account_id = $a), lpad(:oid::text, 32, '0'), '{"order":{}}', now());
COMMIT;
SQL
}
