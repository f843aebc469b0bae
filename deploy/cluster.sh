#!/usr/bin/env bash
# `just cluster`: three `tonne serve` processes and one `tonne dispatch` on one
# PostgreSQL database and one Redis, behind HAProxy (Debian's package,
# installed when absent), on this machine. Ctrl-C drains and stops everything.
#
#   bash deploy/cluster.sh            (LB on 127.0.0.1:18300, servers 18301-18303)
#   TONNE_BIN=target/debug/tonne bash deploy/cluster.sh
set -euo pipefail
cd "$(dirname "$0")/.."

ADMIN_URL=${CLUSTER_POSTGRES_URL:-postgres://postgres@127.0.0.1:5432/test}
DB=${CLUSTER_DATABASE:-tonne_cluster}
export DATABASE_URL="${ADMIN_URL%/*}/$DB"
export TONNE_REDIS_URL=${TONNE_REDIS_URL:-redis://127.0.0.1:6379}
export TONNE_SECRETS_KEY=${TONNE_SECRETS_KEY:-$(printf 'c1%.0s' $(seq 32))}
export TONNE_LB_PORT=${TONNE_LB_PORT:-18300}
export TONNE_PORT_1=$((TONNE_LB_PORT + 1)) TONNE_PORT_2=$((TONNE_LB_PORT + 2)) TONNE_PORT_3=$((TONNE_LB_PORT + 3))
export TONNE_PUBLIC_URL=${TONNE_PUBLIC_URL:-http://127.0.0.1:$TONNE_LB_PORT}
export TONNE_DRAIN_SECONDS=${TONNE_DRAIN_SECONDS:-3}
# HAProxy reaches the servers from 127.0.0.1: its X-Forwarded-For names the client.
export TONNE_TRUSTED_PROXIES=${TONNE_TRUSTED_PROXIES:-127.0.0.1}
export TONNE_DB_POOL_SIZE=${TONNE_DB_POOL_SIZE:-4}
export TONNE_LOG=${TONNE_LOG:-info}
LOGS=${CLUSTER_LOGS:-target/cluster}
mkdir -p "$LOGS"

command -v haproxy >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq haproxy >/dev/null; }
redis-cli -u "$TONNE_REDIS_URL" ping >/dev/null || { echo "Redis does not answer at $TONNE_REDIS_URL" >&2; exit 1; }
if [ -n "${TONNE_BIN:-}" ]; then BIN=$TONNE_BIN; else cargo build --release -p tonne --bin tonne; BIN=target/release/tonne; fi

PIDS=()
stop() {
  trap - EXIT INT TERM
  echo "stopping: SIGTERM to every process (servers drain for ${TONNE_DRAIN_SECONDS}s)"
  for p in "${PIDS[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
}
trap stop EXIT INT TERM

if ! psql "$ADMIN_URL" -Atc "SELECT 1 FROM pg_database WHERE datname = '$DB'" | grep -q 1; then
  psql "$ADMIN_URL" -qc "CREATE DATABASE $DB"
fi
"$BIN" migrate >/dev/null
for n in 1 2 3; do
  port_var=TONNE_PORT_$n
  # The first server creates the demo organisation on an empty database.
  extra=(); [ "$n" = 1 ] || extra=(--no-demo)
  # each process's metrics on its own loopback port: 9464, 9474, 9484
  TONNE_METRICS_BIND="127.0.0.1:$((9454 + 10 * n))" \
    "$BIN" serve --bind "127.0.0.1:${!port_var}" --no-dispatcher "${extra[@]}" > "$LOGS/serve-$n.log" 2>&1 &
  PIDS+=($!)
  for _ in $(seq 1 100); do curl -fs "http://127.0.0.1:${!port_var}/ready" >/dev/null && break; sleep 0.1; done
done
"$BIN" dispatch > "$LOGS/dispatch.log" 2>&1 &
PIDS+=($!)
haproxy -f deploy/haproxy.cfg -db > "$LOGS/haproxy.log" 2>&1 &
PIDS+=($!)
for _ in $(seq 1 100); do curl -fs "http://127.0.0.1:$TONNE_LB_PORT/ready" >/dev/null && break; sleep 0.1; done

echo "Tonne cluster: http://127.0.0.1:$TONNE_LB_PORT (HAProxy) -> 127.0.0.1:$TONNE_PORT_1, :$TONNE_PORT_2, :$TONNE_PORT_3; one dispatcher"
echo "  database $DATABASE_URL; rate limits in $TONNE_REDIS_URL; logs in $LOGS/"
grep -h "key:" "$LOGS"/serve-*.log || echo "  (the database already had an organisation: create keys with \`tonne keys create\`)"
echo "Ctrl-C stops the cluster."
wait -n "${PIDS[@]}" || true
echo "a process of the cluster exited; see $LOGS/"
