#!/usr/bin/env bash
# The fault suite (`just faults`; a 30 s form runs in .ci/run): see faults.py.
#
#   bash bench/faults/run.sh                         (120 s, release build)
#   FAULT_SECONDS=30 TONNE_BIN=target/debug/tonne bash bench/faults/run.sh
#
# Needs PostgreSQL at $FAULT_ADMIN_URL (default postgres://postgres@127.0.0.1:5432/test)
# managed by pg_ctlcluster on this machine (it is stopped with -m immediate and
# started again once), and python3. Writes its logs to target/faults/.
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ -z "${TONNE_BIN:-}" ]; then
  cargo build --release -p tonne --bin tonne
  export TONNE_BIN=target/release/tonne
fi
if [ -z "${PG_CLUSTER:-}" ] && [ -d /etc/postgresql ]; then
  PG_CLUSTER="$(ls /etc/postgresql | head -n 1) main"
fi
export PG_CLUSTER
rm -rf target/faults
mkdir -p target/faults
python3 bench/faults/faults.py | tee target/faults/report.txt
