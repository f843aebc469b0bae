#!/usr/bin/env bash
# The ISO 14083 report on PostgreSQL, in one run on this machine (release build):
# BATCHES (20) batches of 10,000 calculated shipments of four legs (road
# pre-carriage, a warehouse, sea main carriage between UN/LOCODEs, road
# on-carriage) — 200,000 shipments, 800,000 report lines — then RUNS (3)
# times each: GET /v1/shipments/report (CSV, streamed: time to the first
# byte and to the last) and ?format=pdf (the summary over every page).
# Reported: medians, the CSV's size and lines, the server's peak resident
# memory while reporting. Targets: CSV < 5 s, PDF < 10 s.
#
#   bash bench/report.sh
#   BATCHES=2 bash bench/report.sh    (a quick run: 20,000 shipments)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
bench_init report
BATCHES=${BATCHES:-20}
RUNS=${RUNS:-3}
PORT=18197
bench_build
DB_URL=$(fresh_database tonne_bench_report)
seed_database "$DB_URL"
serve_unlimited "$DB_URL" "$PORT"
SERVER=${PIDS[-1]}
BASE="http://127.0.0.1:$PORT/v1"
AUTH="Authorization: Bearer $KEY"

python3 - "$WORK/rows.json" <<'PY'
import json, sys
ports = [("CNSHA", "NLRTM"), ("SGSIN", "DEHAM"), ("USLAX", "JPTYO"), ("CNNGB", "BEANR"), ("KRPUS", "USNYC")]
rows = []
for i in range(10000):
    o, d = ports[i % len(ports)]
    rows.append({
        "shipment_id": f"R-{i}",
        "target_internal_id": f"carrier-{i % 7}",
        "legs": [
            {"carriage": "pre", "method": {"vehicle_type": "truck_articulated_40t", "fuel": "diesel"},
             "distance": {"amount": str(40 + i % 60), "unit": "km"},
             "load": {"mass": {"amount": str(1 + i % 20), "unit": "t"}},
             "dates": {"atd": f"2026-{1 + i % 12:02d}-{1 + i % 28:02d}T08:00:00Z"}},
            {"carriage": "main", "method": "warehouse_ambient"},
            {"carriage": "main", "method": {"vessel_type": "container_ship"},
             "origin": {"locode": o}, "destination": {"locode": d}},
            {"carriage": "on", "method": {"vehicle_type": "truck", "fuel": "diesel"},
             "distance": {"amount": str(20 + i % 80), "unit": "km"}},
        ],
    })
json.dump({"shipments": rows, "calculate_emissions": True}, open(sys.argv[1], "w"))
PY
status_of() { curl -fs -H "$AUTH" "$BASE/shipments/batches/$1" | python3 -c 'import json,sys; print(json.load(sys.stdin)["status"])'; }
for i in $(seq 1 "$BATCHES"); do
  sed "s/\"R-/\"R$i-/g" "$WORK/rows.json" > "$WORK/batch.json"
  id=$(curl -fs -H "$AUTH" -H 'Content-Type: application/json' --data-binary @"$WORK/batch.json" "$BASE/shipments/batches" \
    | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
  while [ "$(status_of "$id")" != processed ]; do sleep 0.2; done
done
SHIPMENTS=$((BATCHES * 10000))

rss() { awk '/VmRSS/{print $2}' "/proc/$SERVER/status"; }
median() { sort -n | awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}'; }
IDLE=$(rss)
PEAK=$IDLE
sample() { while :; do r=$(rss); [ "$r" -gt "$(cat "$WORK/peak")" ] && echo "$r" > "$WORK/peak"; sleep 0.1; done; }
echo "$IDLE" > "$WORK/peak"
sample & PIDS+=($!)
: > "$WORK/csv.txt"; : > "$WORK/first.txt"; : > "$WORK/pdf.txt"
for _ in $(seq 1 "$RUNS"); do
  curl -fs -H "$AUTH" -o "$WORK/report.csv" -w '%{time_starttransfer} %{time_total}\n' "$BASE/shipments/report" > "$WORK/t"
  awk '{print $1}' "$WORK/t" >> "$WORK/first.txt"; awk '{print $2}' "$WORK/t" >> "$WORK/csv.txt"
  curl -fs -H "$AUTH" -o "$WORK/report.pdf" -w '%{time_total}\n' "$BASE/shipments/report?format=pdf" >> "$WORK/pdf.txt"
done
PEAK=$(cat "$WORK/peak")
LINES=$(wc -l < "$WORK/report.csv")
SIZE=$(du -k "$WORK/report.csv" | cut -f1)
TOTAL=$(grep '^summary,,,,,,total,' "$WORK/report.csv" | cut -d, -f12)

cat > "$REPORT" <<MD
# The ISO 14083 report ($STAMP)

PostgreSQL, release build, $SHIPMENTS shipments of four legs (one a warehouse), $RUNS runs each, medians.

| | median | runs |
|---|---|---|
| CSV, first byte | $(median < "$WORK/first.txt") s | $(paste -sd' ' "$WORK/first.txt") |
| CSV, whole ($LINES lines, $SIZE KiB) | $(median < "$WORK/csv.txt") s (target < 5 s) | $(paste -sd' ' "$WORK/csv.txt") |
| PDF (summary over every page) | $(median < "$WORK/pdf.txt") s (target < 10 s) | $(paste -sd' ' "$WORK/pdf.txt") |

Report total: $TOTAL kg CO2e WTW. Server resident memory: idle $((IDLE / 1024)) MiB, peak while reporting $((PEAK / 1024)) MiB.
MD
bench_finish tonne_bench_report
