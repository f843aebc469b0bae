#!/usr/bin/env bash
# Fair share on PostgreSQL, in one run on this machine (release build, or
# TONNE_BIN): one organisation's backlog must not stall two small ones, and
# junk requests must not grow the server.
#  1. Three organisations (made with the CLI). A uploads BATCHES (20) batches
#     of ROWS (10,000) shipments of three legs, calculated, and then asks for
#     CALCULATIONS (3) calculations of its shipments (past the account's
#     bound a request is 429: counted, not retried); meanwhile B and C each
#     upload a one-row batch every second for LIGHT_SECONDS (60) s and poll it
#     until processed (bench/fairness_light.py, one process each, C half a
#     second after B).
#     Reported: B's and C's upload → processed p50/p99 (target p99 < 2 s), their
#     upload request's p99 (target < 100 ms), and A's shipments processed per
#     second, from its first upload answered to its last batch processed
#     (target ≥ 5,000).
#  2. Once the server is idle again: JUNK (10,000) requests with random methods
#     (some of up to 60,000 characters) on random paths, without a key
#     (bench/fairness_junk.py). Reported: /metrics' size (target < 200 KB)
#     and the server's resident memory (target: flat), before and after.
#
#  PostgreSQL's max_wal_size is raised for the run (MAX_WAL_SIZE, 8GB; reset
#  after): at the default 1 GB, A's 300 MB of rows start a checkpoint every
#  15 s on this machine, and each checkpoint's fsync (up to 0.8 s here) holds
#  every commit waiting, B's and C's alike. The checkpoints requested during
#  the run are reported. MAX_WAL_SIZE=keep leaves the server's setting.
#
#   bash bench/fairness.sh
#   TONNE_BIN=target/debug/tonne SCALE=small bash bench/fairness.sh
#       (a quick check of the script: 3 × 500 rows, 15 s, 1,000 junk requests)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
bench_init fairness
if [ "${SCALE:-}" = small ]; then
  BATCHES=${BATCHES:-3} ROWS=${ROWS:-500} LIGHT_SECONDS=${LIGHT_SECONDS:-15} JUNK=${JUNK:-1000}
fi
BATCHES=${BATCHES:-20}
ROWS=${ROWS:-10000}
CALCULATIONS=${CALCULATIONS:-3}
LIGHT_SECONDS=${LIGHT_SECONDS:-60}
JUNK=${JUNK:-10000}
PORT=18195
METRICS_PORT=18196
bench_build
DB_URL=$(fresh_database tonne_bench_fairness)
MAX_WAL_SIZE=${MAX_WAL_SIZE:-8GB}
WAL_SETTING=$(psql "$ADMIN_URL" -Atc 'SHOW max_wal_size')
if [ "$MAX_WAL_SIZE" != keep ]; then
  psql "$ADMIN_URL" -qc "ALTER SYSTEM SET max_wal_size = '$MAX_WAL_SIZE'" -c 'SELECT pg_reload_conf()' >/dev/null
  trap 'psql "$ADMIN_URL" -qc "ALTER SYSTEM RESET max_wal_size" -c "SELECT pg_reload_conf()" >/dev/null || true; bench_cleanup' EXIT
  WAL_SETTING="$WAL_SETTING → $MAX_WAL_SIZE for the run"
fi
checkpoints() { psql "$ADMIN_URL" -Atc 'SELECT checkpoints_req + checkpoints_timed FROM pg_stat_bgwriter'; }
seed_database "$DB_URL"
KEY_A=$KEY
live_key() { python3 -c 'import json,sys; print(json.load(sys.stdin)["live"]["api_key"])'; }
KEY_B=$("$BIN" bootstrap --json --database-url "$DB_URL" | live_key)
KEY_C=$("$BIN" bootstrap --json --database-url "$DB_URL" | live_key)
SERVER_LOG="$WORK/server.log" serve_unlimited "$DB_URL" "$PORT" --metrics-bind "127.0.0.1:$METRICS_PORT"
SERVER=${PIDS[-1]}
BASE="http://127.0.0.1:$PORT/v1"
METRICS="http://127.0.0.1:$METRICS_PORT/metrics"
AUTH="Authorization: Bearer $KEY_A"

batch_body() { # batch_body N TAG: N calculated shipments of three legs
  python3 - "$1" "$2" <<'PY'
import json, sys
n, tag = int(sys.argv[1]), sys.argv[2]
ports = [("CNSHA", "NLRTM"), ("SGSIN", "DEHAM"), ("USLAX", "JPTYO"), ("CNNGB", "BEANR"), ("KRPUS", "USNYC")]
rows = []
for i in range(n):
    o, d = ports[i % len(ports)]
    mass = {"amount": str(1 + i % 20), "unit": "t"}
    rows.append({
        "shipment_id": f"{tag}-{i}",
        "target_internal_id": f"carrier-{i % 7}",
        "target_internal_name": f"Carrier {i % 7}",
        "legs": [
            {"carriage": "pre", "method": {"vehicle_type": "truck_articulated_40t", "fuel": "diesel"},
             "distance": {"amount": str(40 + i % 60), "unit": "km"}, "load": {"mass": mass}},
            {"carriage": "main", "method": {"vessel_type": "container_ship"},
             "origin": {"locode": o}, "destination": {"locode": d}},
            {"carriage": "on", "method": {"vehicle_type": "truck", "fuel": "diesel"},
             "distance": {"amount": str(20 + i % 80), "unit": "km"}},
        ],
    })
print(json.dumps({"shipments": rows, "calculate_emissions": True}))
PY
}

batch_field() { # batch_field ID FIELD: a field of A's batch (empty when absent)
  curl -fs -H "$AUTH" "$BASE/shipments/batches/$1" \
    | python3 -c 'import json,sys; print(json.load(sys.stdin).get(sys.argv[1]) or "")' "$2"
}
now() { date +%s.%N; }
rss_kib() { awk '/VmRSS/{print $2}' "/proc/$SERVER/status"; }
cpu_ticks() { awk '{print $14 + $15}' "/proc/$SERVER/stat"; }
wait_idle() { # until the server used < 5 % of a core over a second (at most 10 min)
  local before after
  for _ in $(seq 1 600); do
    before=$(cpu_ticks); sleep 1; after=$(cpu_ticks)
    [ $((after - before)) -le $(( $(getconf CLK_TCK) / 20 )) ] && return 0
  done
  echo "the server did not go idle" >&2
}

# 1. A's backlog beside B and C ----------------------------------------------------
batch_body "$ROWS" heavy > "$WORK/heavy.json"
SIZE=$(du -k "$WORK/heavy.json" | cut -f1)
# one process per small tenant, half a second apart: independent clients
python3 bench/fairness_light.py "$BASE" "$LIGHT_SECONDS" 0 "B=$KEY_B" > "$WORK/light-b.out" &
LIGHT_B=$!
python3 bench/fairness_light.py "$BASE" "$LIGHT_SECONDS" 0.5 "C=$KEY_C" > "$WORK/light-c.out" &
LIGHT_C=$!
PIDS+=("$LIGHT_B" "$LIGHT_C")
CHECKPOINTS_BEFORE=$(checkpoints)
IDS=()
FIRST=""
for i in $(seq 1 "$BATCHES"); do
  sed "s/\"heavy-/\"heavy$i-/g" "$WORK/heavy.json" > "$WORK/heavy-$i.json"
  while :; do
    code=$(curl -s -o "$WORK/upload.out" -w '%{http_code}' -H "$AUTH" -H 'Content-Type: application/json' \
      --data-binary @"$WORK/heavy-$i.json" "$BASE/shipments/batches")
    [ "$code" = 200 ] && break
    [ "$code" = 429 ] || { echo "A's upload $i answered $code: $(cat "$WORK/upload.out")" >&2; exit 1; }
    sleep 1 # the account's bound on pending batches: wait for one to be processed
  done
  [ -n "$FIRST" ] || FIRST=$(now)
  IDS+=("$(python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])' < "$WORK/upload.out")")
  rm -f "$WORK/heavy-$i.json"
done
UPLOADED=$(now)
CALC_CODES=()
for _ in $(seq 1 "$CALCULATIONS"); do
  CALC_CODES+=("$(curl -s -o /dev/null -w '%{http_code}' -X POST -H "$AUTH" "$BASE/shipments/calculate")")
done
for id in "${IDS[@]}"; do
  for _ in $(seq 1 6000); do
    [ "$(batch_field "$id" status)" = processed ] && break
    sleep 0.1
  done
done
DONE=$(now)
A_OK=0
A_FAILED=0
for id in "${IDS[@]}"; do
  ok=$(batch_field "$id" success_count) failed=$(batch_field "$id" failed_count)
  A_OK=$((A_OK + ${ok:-0}))
  A_FAILED=$((A_FAILED + ${failed:-0}))
done
A_SECONDS=$(awk -v a="$FIRST" -v b="$DONE" 'BEGIN{printf "%.1f", b-a}')
A_UPLOADS=$(awk -v a="$FIRST" -v b="$UPLOADED" 'BEGIN{printf "%.1f", b-a}')
A_RATE=$(awk -v n="$A_OK" -v t="$A_SECONDS" 'BEGIN{printf "%.0f", n/t}')
wait "$LIGHT_B" "$LIGHT_C"
cat "$WORK/light-b.out" "$WORK/light-c.out" > "$WORK/light.out"
CHECKPOINTS=$(( $(checkpoints) - CHECKPOINTS_BEFORE ))
# the server's own time for the small uploads: every upload it logged in part 1
# but A's (its BATCHES 5 MB uploads, the slowest), so that a pause in the
# measuring client is told apart from one in the server
SERVER_SMALL=$(sed 's/\x1b\[[0-9;]*m//g' "$WORK/server.log" | grep 'request finished' \
  | grep 'method=POST path=/v1/shipments/batches ' | sed -E 's/.*latency_us=([0-9]+).*/\1/' | sort -n \
  | head -n "-$BATCHES" | awk '{a[NR]=$1} END{if (NR == 0) {print "none"; exit}
      r50 = int((NR * 50 + 99) / 100); r99 = int((NR * 99 + 99) / 100)
      printf "%d uploads: p50 %.1f ms, p99 %.1f ms, max %.1f ms", NR, a[r50]/1000, a[r99]/1000, a[NR]/1000}')

# 2. junk requests -------------------------------------------------------------------
wait_idle
METRICS_BEFORE=$(curl -fs "$METRICS" | wc -c)
RSS_BEFORE=$(rss_kib)
JUNK_OUT=$(python3 bench/fairness_junk.py 127.0.0.1 "$PORT" "$JUNK")
sleep 1
METRICS_AFTER=$(curl -fs "$METRICS" | wc -c)
RSS_AFTER=$(rss_kib)
read -r _ JUNK_SENT JUNK_SECONDS JUNK_SPREAD <<<"$JUNK_OUT"

met() { # met EXPRESSION: "met" or "**not met**" (awk condition over numbers)
  if awk "BEGIN{exit !($1)}"; then echo met; else echo "**not met**"; fi
}
light_rows() {
  local name batches processed p50 p99 w50 w99 failures
  while read -r _ name batches processed p50 p99 w50 w99 failures; do
    echo "| $name: one-row batches, one a second for ${LIGHT_SECONDS} s | ${batches} uploaded, ${processed} processed, ${failures} failed or unfinished | |"
    echo "| $name: upload → processed | p50 ${p50} s, **p99 ${p99} s** | < 2 s: $(met "$p99 < 2 && $failures == 0") |"
    echo "| $name: upload request | p50 ${w50} ms, **p99 ${w99} ms** | < 100 ms: $(met "$w99 < 100") |"
  done < <(grep '^LIGHT' "$WORK/light.out")
}

{
  echo "# Fair share on PostgreSQL — $STAMP"
  echo
  echo "Machine: $(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GiB, $(uname -sr); binary \`$BIN\`; server and PostgreSQL on the same machine."
  echo
  echo "| measure | figure | target |"
  echo "|---|---|---|"
  echo "| PostgreSQL max_wal_size; checkpoints during part 1 | ${WAL_SETTING}; ${CHECKPOINTS} | |"
  echo "| A: ${BATCHES} batches × ${ROWS} shipments × 3 legs (${SIZE} KiB each), uploaded in | ${A_UPLOADS} s | |"
  echo "| A: calculations asked for meanwhile (answers) | ${CALC_CODES[*]} | |"
  echo "| A: processed, from its first upload answered to its last batch processed | ${A_OK} stored (${A_FAILED} failed) in ${A_SECONDS} s → **${A_RATE} shipments/s** | ≥ 5,000: $(met "$A_RATE >= 5000") |"
  light_rows
  echo "| B and C: upload request, as the server logged it (its own time) | ${SERVER_SMALL} | |"
  echo "| ${JUNK_SENT} junk requests (random methods and paths, no key) in ${JUNK_SECONDS} s | ${JUNK_SPREAD} | |"
  echo "| /metrics before → after | $((METRICS_BEFORE / 1024)) KiB → **$((METRICS_AFTER / 1024)) KiB** | < 200 KB: $(met "$METRICS_AFTER < 200000") |"
  echo "| server memory before → after | $((RSS_BEFORE / 1024)) MiB → **$((RSS_AFTER / 1024)) MiB** (growth $(((RSS_AFTER - RSS_BEFORE) / 1024)) MiB) | flat |"
} > "$REPORT"
bench_finish tonne_bench_fairness
