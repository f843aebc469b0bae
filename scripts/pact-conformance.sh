#!/usr/bin/env bash
# Runs WBCSD's PACT conformance tests (wbcsd/pact-conformance-service, MIT: its
# command-line runner, src/scripts/run-tests-cli.ts, which needs no database)
# against a fresh Tonne server on loopback, PACT v2.3:
#   1. lays the tool's sources out under target/pact-conformance from a git clone
#      (PACT_CONFORMANCE_GIT, default the session mirror) at the commit below, and
#      installs its npm dependencies (npm ci, once);
#   2. starts `tonne serve` on a temporary SQLite database and a free port,
#      bootstraps an organisation, uploads three calculated shipments, makes PACT
#      credentials with `tonne pact credentials create`;
#   3. runs the tool with the base URL http://127.0.0.1:PORT/pact and prints its
#      verdict per test case.
#   TONNE_BIN   the tonne binary (default: target/debug/tonne of this repository)
#   TLS=1       put HAProxy (Debian's package, installed when absent) in front, with a
#               self-signed certificate made for the run, listening for TLS only: the
#               base is then https://127.0.0.1:PORT/pact (the certificate accepted
#               with NODE_TLS_REJECT_UNAUTHORIZED=0), and the cases that send plain
#               HTTP to it (9, 10, 11, 17) meet a TLS port, as in production
#   CALLBACKS=1 run the tool's own server instead of its command-line runner (its
#               database on the local PostgreSQL, PACT_CONFORMANCE_DB, default
#               postgres://postgres@127.0.0.1:5432), register it as the account's
#               PACT partner (`tonne pact partners add`, its fixed test credentials),
#               so that cases 13 and 14.B — Tonne's asynchronous answers, posted to
#               the tool's /2/events — run too; prints every case's result
# Exit status: the tool's (0: every mandatory case passed), 2: the harness broke.
# What each case means and which cannot pass on loopback: docs/API.md, "PACT".
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(dirname "$here")"
bin="${TONNE_BIN:-$repo/target/debug/tonne}"
[[ -x "$bin" ]] || { echo "no tonne binary at $bin (cargo build, or set TONNE_BIN)" >&2; exit 2; }
source_git="${PACT_CONFORMANCE_GIT:-/work/.mirror/wbcsd+pact-conformance-service/repo}"
commit=839bfe8cd27f30cf60f30e3265f2f2db330f5b04
tool="$repo/target/pact-conformance"

if [[ ! -f "$tool/.commit" || "$(cat "$tool/.commit")" != "$commit" ]]; then
    git -C "$source_git" cat-file -e "$commit^{commit}" 2>/dev/null || {
        echo "commit $commit of wbcsd/pact-conformance-service is not in $source_git" >&2
        echo "(clone it and set PACT_CONFORMANCE_GIT)" >&2
        exit 2
    }
    rm -rf "$tool"
    mkdir -p "$tool"
    git -C "$source_git" archive "$commit" | tar -x -C "$tool"
    (cd "$tool" && npm ci --no-audit --no-fund >&2)
    echo "$commit" >"$tool/.commit"
fi

work="$(mktemp -d)"
pid=""
proxy=""
cpid=""
cleanup() {
    for p in $cpid $proxy $pid; do
        if kill -0 "$p" 2>/dev/null; then kill "$p"; wait "$p" 2>/dev/null || true; fi
    done
    rm -rf "$work"
}
trap cleanup EXIT
db="sqlite://$work/tonne.db"
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
port="$(free_port)"
public="http://127.0.0.1:$port"
if [[ "${TLS:-}" == 1 ]]; then
    command -v haproxy >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq haproxy >/dev/null; }
    tls_port="$(free_port)"
    public="https://127.0.0.1:$tls_port"
    openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=127.0.0.1 \
        -addext subjectAltName=IP:127.0.0.1 -keyout "$work/key.pem" -out "$work/cert.pem" 2>/dev/null
    cat "$work/cert.pem" "$work/key.pem" >"$work/tls.pem"
    cat >"$work/haproxy.cfg" <<CFG
global
    maxconn 256
defaults
    mode http
    timeout connect 2s
    timeout client 35s
    timeout server 35s
    option forwardfor
frontend pact
    bind 127.0.0.1:$tls_port ssl crt $work/tls.pem
    http-request set-header X-Forwarded-Proto https
    default_backend tonne
backend tonne
    server tonne 127.0.0.1:$port
CFG
fi
"$bin" migrate --database-url "$db" >"$work/migrate.log" 2>&1
"$bin" bootstrap --json --database-url "$db" >"$work/keys.json" 2>"$work/bootstrap.log"
if [[ "${CALLBACKS:-}" == 1 ]]; then
    # the tool's server on loopback: Tonne must be allowed to call it
    export TONNE_WEBHOOKS_ALLOW_PRIVATE=true
fi
TONNE_METRICS_BIND=127.0.0.1:0 TONNE_PUBLIC_URL="$public" TONNE_TRUSTED_PROXIES=127.0.0.1 \
    "$bin" serve --bind "127.0.0.1:$port" --database-url "$db" \
    --rate-limit-per-second 1000 --rate-limit-burst 1000 >"$work/serve.log" 2>&1 &
pid=$!
if [[ "${TLS:-}" == 1 ]]; then
    haproxy -f "$work/haproxy.cfg" -db >"$work/haproxy.log" 2>&1 &
    proxy=$!
    export NODE_TLS_REJECT_UNAUTHORIZED=0
fi
for _ in $(seq 1 100); do
    curl -fsS "http://127.0.0.1:$port/health" >/dev/null 2>&1 && break
    kill -0 "$pid" 2>/dev/null || { cat "$work/serve.log" >&2; exit 2; }
    sleep 0.1
done
field() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval('d' + sys.argv[2]))" "$@"; }
key="$(field "$work/keys.json" "['live']['api_key']")"
account="$(field "$work/keys.json" "['live']['account_id']")"
cat >"$work/batch.json" <<'JSON'
{"calculate_emissions": true, "shipments": [
 {"shipment_id": "PO-1001", "target_internal_id": "carrier-1", "target_internal_name": "Carrier One",
  "legs": [
   {"carriage": "pre", "method": {"vehicle_type": "truck", "fuel": "diesel"},
    "distance": {"amount": "50", "unit": "km"}, "load": {"mass": {"amount": "12", "unit": "t"}}},
   {"carriage": "main", "method": {"vessel_type": "container_ship"},
    "origin": {"locode": "CNSHA"}, "destination": {"locode": "NLRTM"}},
   {"carriage": "on", "method": {"train_type": "electric_freight_train"},
    "distance": {"amount": "300", "unit": "km"}}]},
 {"shipment_id": "PO-1002", "target_internal_id": "carrier-2",
  "legs": [
   {"carriage": "pre", "method": {"vehicle_type": "truck", "fuel": "diesel"},
    "distance": {"amount": "250", "unit": "km"}, "load": {"mass": {"amount": "8", "unit": "t"}}},
   {"carriage": "main", "method": "warehouse_ambient"},
   {"carriage": "on", "method": {"vehicle_type": "truck", "fuel": "diesel"},
    "distance": {"amount": "40", "unit": "km"}}]},
 {"shipment_id": "PO-1003", "target_internal_id": "carrier-1",
  "legs": [{"carriage": "main", "method": {"train_type": "electric_freight_train"},
    "distance": {"amount": "800", "unit": "km"}, "load": {"mass": {"amount": "3", "unit": "t"}}}]}
]}
JSON
batch="$(curl -fsS -H "Authorization: Bearer $key" -H 'Content-Type: application/json' \
    --data-binary @"$work/batch.json" "http://127.0.0.1:$port/v1/shipments/batches" \
    | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')"
for _ in $(seq 1 300); do
    status="$(curl -fsS -H "Authorization: Bearer $key" "http://127.0.0.1:$port/v1/shipments/batches/$batch" \
        | python3 -c 'import json,sys; print(json.load(sys.stdin)["status"])')"
    [[ "$status" == processed ]] && break
    sleep 0.1
done
[[ "$status" == processed ]] || { echo "the shipments were not processed" >&2; exit 2; }
"$bin" pact credentials create --account "$account" --label "PACT conformance" --json \
    --database-url "$db" >"$work/client.json"
client_id="$(field "$work/client.json" "['client_id']")"
client_secret="$(field "$work/client.json" "['client_secret']")"

for _ in $(seq 1 50); do
    curl -fsSk "$public/health" >/dev/null 2>&1 && break
    sleep 0.1
done
base="$public/pact"
echo "PACT conformance (wbcsd/pact-conformance-service $commit), V2.3, against $base" >&2
set +e
if [[ "${CALLBACKS:-}" == 1 ]]; then
    pg="${PACT_CONFORMANCE_DB:-postgres://postgres@127.0.0.1:5432}"
    psql "$pg/postgres" -qc "DROP DATABASE IF EXISTS pact_conformance" \
        -qc "CREATE DATABASE pact_conformance" >&2 || exit 2
    cport="$(free_port)"
    capi="http://127.0.0.1:$cport"
    export NODE_ENV=test PORT="$cport" DB_CONNECTION_STRING="$pg/pact_conformance" \
        CONFORMANCE_API="$capi" LOG_OUTPUT=console JWT_SECRET="$(openssl rand -hex 32)"
    (cd "$tool" && npx ts-node --transpile-only src/data/migrate.ts latest) >"$work/migrate-tool.log" 2>&1 \
        || { cat "$work/migrate-tool.log" >&2; exit 2; }
    (cd "$tool" && exec npx ts-node --transpile-only src/server.ts) >"$work/tool.log" 2>&1 &
    cpid=$!
    for _ in $(seq 1 300); do
        curl -fsS "$capi/health-check" >/dev/null 2>&1 && break
        kill -0 "$cpid" 2>/dev/null || { cat "$work/tool.log" >&2; exit 2; }
        sleep 0.1
    done
    # the tool's server, as Tonne's partner: its events carry `source` = CONFORMANCE_API
    TONNE_PACT_PARTNER_SECRET=test_client_secret "$bin" pact partners add --account "$account" \
        --url "$capi" --client-id test_client_id --database-url "$db" >&2 || exit 2
    python3 - "$capi" "$base" "$client_id" "$client_secret" <<'PY'
import json, sys, time, urllib.request
capi, base, cid, secret = sys.argv[1:]
def call(method, path, body=None):
    req = urllib.request.Request(capi + path, method=method,
        data=None if body is None else json.dumps(body).encode(),
        headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=120) as r:
        return json.load(r)
run = call("POST", "/testruns/", {"baseUrl": base, "version": "V2.3", "clientId": cid,
    "clientSecret": secret, "organizationName": "Tonne", "adminEmail": "ops@example.com",
    "adminName": "Tonne CI"})
run_id = run.get("testRunId") or run.get("id")
deadline = time.time() + 60
while True:
    run = call("GET", f"/testruns/{run_id}")
    results = run.get("results") or run.get("testResults") or []
    if all(r["status"] != "PENDING" for r in results) or time.time() > deadline:
        break
    time.sleep(1)
for r in sorted(results, key=lambda r: [int(x) if x.isdigit() else x for x in r["testKey"].replace("TESTCASE#", "").replace(".", " ").split()]):
    print(f'{r["testKey"]:<14} {r["status"]:<8} {"mandatory" if r.get("mandatory") else "optional ":<9} {r["name"]}'
          + (f' -- {r["errorMessage"]}' if r.get("errorMessage") and r["status"] != "SUCCESS" else ""))
failed = [r for r in results if r.get("mandatory") and r["status"] != "SUCCESS"]
print(f'test run {run_id}: {run.get("status")}; {sum(r["status"] == "SUCCESS" for r in results)} passed, '
      f'{sum(r["status"] == "FAILURE" for r in results)} failed, {sum(r["status"] == "PENDING" for r in results)} pending of {len(results)}')
sys.exit(1 if failed else 0)
PY
    rc=$?
else
    (cd "$tool" && NODE_ENV=test PORT=0 DB_CONNECTION_STRING=unused CONFORMANCE_API=http://127.0.0.1:9/unreachable \
        LOG_OUTPUT=console npx ts-node --transpile-only src/scripts/run-tests-cli.ts \
        --baseUrl "$base" --clientId "$client_id" --clientSecret "$client_secret" \
        --version V2.3 --organizationName "Tonne")
    rc=$?
fi
set -e
if grep -q ' ERROR ' "$work/serve.log"; then
    echo "server errors logged during the run:" >&2
    grep ' ERROR ' "$work/serve.log" | tail -20 >&2
fi
exit $rc
