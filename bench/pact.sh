#!/usr/bin/env bash
# PACT's ListFootprints over a large account on PostgreSQL (release build):
# BATCHES (100) batches of 10,000 calculated two-leg shipments — 1,000,000
# footprints — then, with a token from `tonne pact credentials create`:
#   1. the first PAGES (300) pages of `GET /pact/2/footprints?limit=100`,
#      each following the previous one's Link (the newest footprints);
#   2. SAMPLES (300) pages starting at random footprints anywhere in the
#      account (`after` = a random shipment's id: deep pages);
#   3. SAMPLES GetFootprint of random footprints.
# Reported: p50 / p99 / max of each (one client, one request at a time, a
# kept-alive connection). Target: ListFootprints p99 < 50 ms at page size 100.
#
#   bash bench/pact.sh
#   BATCHES=5 bash bench/pact.sh     (a quick run: 50,000 footprints)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
bench_init pact
BATCHES=${BATCHES:-100}
PAGES=${PAGES:-300}
SAMPLES=${SAMPLES:-300}
PORT=18198
bench_build
DB_URL=$(fresh_database tonne_bench_pact)
seed_database "$DB_URL"
serve_unlimited "$DB_URL" "$PORT"
BASE="http://127.0.0.1:$PORT"
AUTH="Authorization: Bearer $KEY"

python3 - "$WORK/rows.json" <<'PY'
import json, sys
rows = []
for i in range(10000):
    rows.append({
        "shipment_id": f"P-{i}",
        "target_internal_id": f"carrier-{i % 7}",
        "legs": [
            {"carriage": "pre", "method": {"vehicle_type": "truck_articulated_40t", "fuel": "diesel"},
             "distance": {"amount": str(40 + i % 60), "unit": "km"},
             "load": {"mass": {"amount": str(1 + i % 20), "unit": "t"}}},
            {"carriage": "main", "method": {"train_type": "electric_freight_train"},
             "distance": {"amount": str(200 + i % 500), "unit": "km"}},
        ],
    })
json.dump({"shipments": rows, "calculate_emissions": True}, open(sys.argv[1], "w"))
PY
status_of() { curl -fs -H "$AUTH" "$BASE/v1/shipments/batches/$1" | python3 -c 'import json,sys; print(json.load(sys.stdin)["status"])'; }
IDS=()
START=$(date +%s)
for i in $(seq 1 "$BATCHES"); do
  sed "s/\"P-/\"P$i-/g" "$WORK/rows.json" > "$WORK/batch.json"
  while :; do
    code=$(curl -s -o "$WORK/upload.out" -w '%{http_code}' -H "$AUTH" -H 'Content-Type: application/json' \
      --data-binary @"$WORK/batch.json" "$BASE/v1/shipments/batches")
    [ "$code" = 200 ] && break
    [ "$code" = 429 ] || { echo "upload $i answered $code: $(cat "$WORK/upload.out")" >&2; exit 1; }
    sleep 1 # the account's bound on pending batches
  done
  IDS+=("$(python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])' < "$WORK/upload.out")")
done
for id in "${IDS[@]}"; do
  while [ "$(status_of "$id")" != processed ]; do sleep 0.5; done
done
SEEDED=$(( $(date +%s) - START ))
FOOTPRINTS=$(psql "$DB_URL" -Atc "SELECT count(*) FROM shipments WHERE has_emissions")
psql "$DB_URL" -qc "VACUUM ANALYZE shipments" >/dev/null
psql "$DB_URL" -Atc "SELECT id FROM shipments ORDER BY random() LIMIT $SAMPLES" > "$WORK/random.txt"
CLIENT=$("$BIN" pact credentials create --account "$ACCOUNT" --json --database-url "$DB_URL")
CLIENT_ID=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["client_id"])' "$CLIENT")
SECRET=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["client_secret"])' "$CLIENT")
TOKEN=$(curl -fs -u "$CLIENT_ID:$SECRET" -d grant_type=client_credentials "$BASE/pact/auth/token" \
  | python3 -c 'import json,sys; print(json.load(sys.stdin)["access_token"])')
python3 bench/pact_pages.py "$BASE" "$TOKEN" "$PAGES" "$WORK/random.txt" > "$WORK/pages.out"

cat > "$REPORT" <<MD
# PACT ListFootprints over a large account ($STAMP)

PostgreSQL, release build \`$BIN\`, one account of $FOOTPRINTS calculated shipments (two legs each; seeded through the API in $SEEDED s). One client, one request at a time, kept-alive connection; page size 100.

| request | n | p50 | p99 | max | target |
|---|---|---|---|---|---|
$(cat "$WORK/pages.out")
MD
bench_finish tonne_bench_pact
