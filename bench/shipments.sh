#!/usr/bin/env bash
# Shipments on PostgreSQL, in one run on this machine (release build):
#  1. upload: a batch of 10,000 shipments of three legs each (road pre-carriage,
#     sea main carriage between UN/LOCODEs, road on-carriage) with
#     calculate_emissions — the time until the API answers its id;
#  2. processing: the time from the answer until the batch is processed
#     (every row decoded, checked, calculated, stored) → shipments per second;
#  3. calculation: BATCHES more such batches stored without emissions
#     (200,000 shipments by default), then POST /v1/shipments/calculate
#     ?emissions=without_co2e (exactly those 200,000: the limit) — the server's resident memory sampled every 0.2 s (growth over
#     the idle figure, peak) and GET /v1/accounts/me under wrk meanwhile (p99),
#     until GET /v1/shipments?emissions=without_co2e counts none.
#
#   bash bench/shipments.sh            (BATCHES=20 → 200,000 shipments)
#   BATCHES=2 bash bench/shipments.sh  (a quick run)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
bench_init shipments
BATCHES=${BATCHES:-20}
PORT=18194
bench_build
DB_URL=$(fresh_database tonne_bench_shipments)
seed_database "$DB_URL"
serve_unlimited "$DB_URL" "$PORT"
SERVER=${PIDS[-1]}
BASE="http://127.0.0.1:$PORT/v1"
AUTH="Authorization: Bearer $KEY"

batch_body() { # batch_body N CALCULATE TAG: N shipments of three legs
  python3 - "$1" "$2" "$3" <<'PY'
import json, sys
n, calc, tag = int(sys.argv[1]), sys.argv[2] == "true", sys.argv[3]
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
print(json.dumps({"shipments": rows, "calculate_emissions": calc}))
PY
}

status_of() { curl -fs -H "$AUTH" "$BASE/shipments/batches/$1" | python3 -c 'import json,sys; print(json.load(sys.stdin)["status"])'; }
wait_processed() { while [ "$(status_of "$1")" != processed ]; do sleep 0.05; done; }
now() { date +%s.%N; }

# 1-2. one batch, calculated ------------------------------------------------------
batch_body 10000 true first > "$WORK/first.json"
SIZE=$(du -k "$WORK/first.json" | cut -f1)
T0=$(now)
ID=$(curl -fs -H "$AUTH" -H 'Content-Type: application/json' --data-binary @"$WORK/first.json" "$BASE/shipments/batches" \
  | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
T1=$(now)
wait_processed "$ID"
T2=$(now)
SUCCESS=$(curl -fs -H "$AUTH" "$BASE/shipments/batches/$ID" | python3 -c 'import json,sys; print(json.load(sys.stdin)["success_count"])')
ACCEPT=$(awk -v a="$T0" -v b="$T1" 'BEGIN{printf "%.3f", b-a}')
PROCESS=$(awk -v a="$T1" -v b="$T2" 'BEGIN{printf "%.2f", b-a}')
RATE=$(awk -v s="$SUCCESS" -v t="$PROCESS" 'BEGIN{printf "%.0f", s/t}')

# 3. many batches, then one calculation over all ----------------------------------
batch_body 10000 false more > "$WORK/more.json"
for i in $(seq 1 "$BATCHES"); do
  sed "s/\"more-/\"more$i-/g" "$WORK/more.json" > "$WORK/more-$i.json"
  id=$(curl -fs -H "$AUTH" -H 'Content-Type: application/json' --data-binary @"$WORK/more-$i.json" "$BASE/shipments/batches" \
    | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
  rm -f "$WORK/more-$i.json"
  wait_processed "$id"
done
count_without() { curl -fs -H "$AUTH" "$BASE/shipments?emissions=without_co2e&limit=1&include_totals=true" \
  | python3 -c 'import json,sys; print(json.load(sys.stdin)["total"]["without_co2e"])'; }
TOTAL_WITHOUT=$(count_without)
rss() { awk '/VmRSS/{print $2}' "/proc/$SERVER/status"; }
IDLE_RSS=$(rss)
get_lua > "$WORK/me.lua"
T3=$(now)
curl -fs -X POST -H "$AUTH" "$BASE/shipments/calculate?emissions=without_co2e" >/dev/null
( wrk -t1 -c4 -d600s -s "$WORK/me.lua" "$BASE/accounts/me" > "$WORK/me.out" ) & WRK=$!
PEAK=$IDLE_RSS
while :; do
  r=$(rss); [ "$r" -gt "$PEAK" ] && PEAK=$r
  left=$(count_without)
  [ "$left" = 0 ] && break
  sleep 0.2
done
T4=$(now)
kill -INT "$WRK" 2>/dev/null || true
wait "$WRK" 2>/dev/null || true
CALC=$(awk -v a="$T3" -v b="$T4" 'BEGIN{printf "%.1f", b-a}')
CALC_RATE=$(awk -v n="$TOTAL_WITHOUT" -v t="$CALC" 'BEGIN{printf "%.0f", n/t}')
ME=$(grep '^RESULT' "$WORK/me.out" || echo "RESULT - - - - -")
read -r _ ME_RPS ME_P50 ME_P99 ME_ERR _ <<<"$ME"

{
  echo "# Shipments on PostgreSQL — $STAMP"
  echo
  echo "Machine: $(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GiB, $(uname -sr); release build; server and PostgreSQL on the same machine."
  echo
  echo "| measure | figure |"
  echo "|---|---|"
  echo "| upload of 10,000 shipments × 3 legs (${SIZE} KiB) answered in | ${ACCEPT} s |"
  echo "| processed (decoded, checked, calculated, stored) in | ${PROCESS} s → **${RATE} shipments/s** (${SUCCESS} stored) |"
  echo "| calculation of ${TOTAL_WITHOUT} stored shipments | ${CALC} s → ${CALC_RATE} shipments/s |"
  echo "| server memory: idle → peak during the calculation | $((IDLE_RSS / 1024)) MiB → $((PEAK / 1024)) MiB (growth $(((PEAK - IDLE_RSS) / 1024)) MiB) |"
  echo "| GET /v1/accounts/me meanwhile (wrk, 4 connections) | ${ME_RPS} req/s, p50 ${ME_P50} ms, **p99 ${ME_P99} ms**, ${ME_ERR} errors |"
} > "$REPORT"
bench_finish tonne_bench_shipments
