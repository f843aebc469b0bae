#!/usr/bin/env bash
# Webhook delivery on PostgreSQL (docs/performance.md, `just bench-webhooks`):
#  1. drain: a backlog of N test-order events (20 accounts) to a no-op loopback
#     receiver, delivered by one `tonne dispatch` — events/s and the dispatcher's
#     peak memory (VmHWM);
#  2. steady: orders created at RATE/s for SECONDS while the dispatcher runs —
#     commit→acknowledgement latency p50/p99 from the dispatcher's histogram.
set -euo pipefail
cd "$(dirname "$0")/.."
N=${N:-10000}; RATE=${RATE:-200}; SECONDS_STEADY=${SECONDS_STEADY:-30}
PG=${TONNE_BENCH_POSTGRES:-postgres://postgres@127.0.0.1:5432}
DB=tonne_bench_webhooks; URL="$PG/$DB"
OUT=bench/results/webhooks-$(date +%Y%m%dT%H%M%S).txt; mkdir -p bench/results
if [ -n "${TONNE_BIN:-}" ]; then BIN=$TONNE_BIN   # an already built binary (A/B runs)
else cargo build --release -q -p tonne; BIN=target/release/tonne; fi
psql "$PG/postgres" -qc "DROP DATABASE IF EXISTS $DB WITH (FORCE)" -c "CREATE DATABASE $DB"
export DATABASE_URL=$URL TONNE_SECRETS_KEY=$(printf 'cd%.0s' $(seq 32)) TONNE_WEBHOOKS_ALLOW_PRIVATE=true
python3 bench/noop_receiver.py 19977 & RX=$!
$BIN serve --bind 127.0.0.1:18090 --no-dispatcher --rate-limit-per-second 100000 --rate-limit-burst 100000 \
  --test-order-step-seconds 86400 > /tmp/bench-serve.log 2>&1 & SRV=$!
trap 'kill $RX $SRV ${DSP:-} 2>/dev/null || true' EXIT
sleep 3
KEY=$(grep 'test key' /tmp/bench-serve.log | awk '{print $3}')
python3 bench/webhook_load.py setup http://127.0.0.1:18090 "$KEY" http://127.0.0.1:19977/hook "$N"
curl -s http://127.0.0.1:19977/reset >/dev/null
$BIN dispatch --metrics-bind 127.0.0.1:19465 > /tmp/bench-dispatch.log 2>&1 & DSP=$!
START=$(date +%s.%N)
python3 bench/webhook_load.py wait http://127.0.0.1:19977 "$N"
END=$(date +%s.%N)
HWM=$(grep VmHWM /proc/$DSP/status | awk '{print $2}')
RATE_DRAIN=$(python3 -c "print(round($N/($END-$START)))")
SNAP=$(mktemp); python3 bench/webhook_load.py snapshot http://127.0.0.1:19465/metrics "$SNAP"
python3 bench/webhook_load.py steady http://127.0.0.1:18090 "$KEY" "$RATE" "$SECONDS_STEADY"
sleep 3
LAT=$(python3 bench/webhook_load.py latency http://127.0.0.1:19465/metrics "$SNAP")
{
  echo "machine: $(nproc) cores, $(uname -r); $(date -u +%FT%TZ)"
  echo "drain: $N events in $(python3 -c "print(round($END-$START,2))") s = $RATE_DRAIN events/s; dispatcher peak RSS ${HWM} kB"
  echo "steady $RATE orders/s for ${SECONDS_STEADY}s: commit->ack $LAT"
} | tee "$OUT"
