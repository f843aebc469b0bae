#!/usr/bin/env bash
# Estimates over HTTP on PostgreSQL (wrk, release build, one run on this machine):
#  1. POST /v1/estimates/flight (airports: great-circle + DESNZ factor + quote + insert);
#  2. POST /v1/estimates/transactions/batch with 100 entries (target p99 < 50 ms), one
#     purchase repeated and 100 different ones (EXIOBASE regions, currencies, dates);
#  3. POST /v1/estimates/shipping CNSHA -> NLRTM by container ship (sea path, cached).
# Engines in isolation: cargo bench -p tonne_estimation (criterion).
#
#   bash bench/estimates.sh          (DURATION=15s CONNECTIONS=4 by default)
#   TONNE_BIN=/path/to/tonne bash bench/estimates.sh
#                                    (an already built binary, e.g. another commit's, for A/B runs)
#   TARGETS="shipping-sea" bash bench/estimates.sh
#                                    (some targets only: flight batch-100 batch-100-mixed shipping-sea)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
bench_init estimates
bench_build
PORT=18191
DB_URL=$(fresh_database tonne_bench_estimates)
seed_database "$DB_URL"
serve_unlimited "$DB_URL" "$PORT"

post_lua '{"route":{"source":{"code":"LHR"},"destination":{"code":"JFK"}},"cabin_class":"economy","passengers":1}' > "$WORK/flight.lua"
ENTRY='{"value":{"value":"42.50","currency":"GBP"},"merchant":{"country_code":"GBR","category_code":"5812"}}'
BATCH=$(python3 -c 'import json, sys; print(json.dumps([json.loads(sys.argv[1])] * 100))' "$ENTRY")
post_lua "$BATCH" > "$WORK/batch.lua"
# 100 different purchases: merchant categories, EXIOBASE countries and
# rest-of-world ones, four currencies, dated and undated (issue 21)
MIXED=$(python3 - <<'PY'
import json
mccs = ["5411", "5812", "5541", "4511", "7011", "5732", "5651", "5912", "4121", "5999"]
countries = ["USA", "GBR", "DEU", "FRA", "KEN", "BRA", "IND", "NOR", "SAU", "AUS"]
currencies = ["USD", "GBP", "EUR", "SEK"]
out = []
for i in range(100):
    e = {"value": {"value": f"{10 + i * 3.37:.2f}", "currency": currencies[i % 4]},
         "merchant": {"country_code": countries[i % 10], "category_code": mccs[(i * 7) % 10]}}
    if i % 3 == 0:
        e["transaction_processed_at"] = f"{2012 + i % 12}-06-01T12:00:00Z"
    out.append(e)
print(json.dumps(out))
PY
)
post_lua "$MIXED" > "$WORK/batch-mixed.lua"
post_lua '{"shipment":{"containers":"2"},"route":{"source":{"locode":"CNSHA"},"destination":{"locode":"NLRTM"}},"method":{"vessel_type":"container_ship"}}' > "$WORK/sea.lua"

report_header "Estimates on PostgreSQL" "binary $BIN; $CONNECTIONS connections; wrk -t$THREADS -d$DURATION on the same machine; release build; rate limit raised."
CHECKPOINTS_BEFORE=$(psql "$DB_URL" -Atc 'SELECT checkpoints_req FROM pg_stat_bgwriter')
wanted() { [ -z "${TARGETS:-}" ] || [[ " $TARGETS " == *" $1 "* ]]; }
wanted flight && run_wrk flight "$WORK/flight.lua" "http://127.0.0.1:$PORT/v1/estimates/flight" >> "$REPORT"
wanted batch-100 && run_wrk batch-100 "$WORK/batch.lua" "http://127.0.0.1:$PORT/v1/estimates/transactions/batch" >> "$REPORT"
wanted batch-100-mixed && run_wrk batch-100-mixed "$WORK/batch-mixed.lua" "http://127.0.0.1:$PORT/v1/estimates/transactions/batch" >> "$REPORT"
wanted shipping-sea && run_wrk shipping-sea "$WORK/sea.lua" "http://127.0.0.1:$PORT/v1/estimates/shipping" >> "$REPORT"
# checkpoints PostgreSQL started during the run (WAL volume: the batches write ~25 MB/s)
echo "- checkpoints requested by WAL volume during the run: $(( $(psql "$DB_URL" -Atc 'SELECT checkpoints_req FROM pg_stat_bgwriter') - CHECKPOINTS_BEFORE ))" >> "$REPORT"
echo >> "$REPORT"
echo "- estimates stored: $(psql "$DB_URL" -Atc 'SELECT count(*) FROM estimates')" >> "$REPORT"
cat "$REPORT"
bench_cleanup
PIDS=()
sleep 1
drop_database tonne_bench_estimates
