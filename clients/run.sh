#!/usr/bin/env bash
# Runs the official Lune TypeScript clients (2.2.7 and 3.9.2) against a fresh Tonne server:
# builds the clients and their schemas if needed, starts `tonne serve` on a temporary SQLite
# database and a free port, bootstraps an organisation, runs run.js, stops the server.
#   TONNE_BIN   the tonne binary (default: target/debug/tonne of this repository)
#   arguments   passed to run.js (--json, --only lune2|lune3)
# Exit status: run.js's (0: every call passed, 1: some failed, 2: the harness broke).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(dirname "$here")"
bin="${TONNE_BIN:-$repo/target/debug/tonne}"
[[ -x "$bin" ]] || { echo "no tonne binary at $bin (cargo build, or set TONNE_BIN)" >&2; exit 2; }

cd "$here"
if [[ ! -d node_modules ]]; then npm ci --no-audit --no-fund >&2; fi
if [[ ! -d vendor/lune2/src || ! -d vendor/lune3/src ]]; then bash sources.sh >&2; fi
for v in lune2 lune3; do
    if [[ ! -f vendor/$v/dist/cjs/client.js ]]; then
        # the 2023 sources do not type-check against today's axios/node typings; tsc emits anyway
        npx tsc -p vendor/$v/tsconfig-cjs.json >&2 || true
        [[ -f vendor/$v/dist/cjs/client.js ]] || { echo "building $v failed" >&2; exit 2; }
    fi
done
if [[ ! -f schemas/lune2.json || ! -f schemas/lune3.json ]]; then node schemas.js >&2; fi

work="$(mktemp -d)"
pid=""
cleanup() {
    if [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null; then kill "$pid"; wait "$pid" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT
db="sqlite://$work/tonne.db"
port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"

"$bin" migrate --database-url "$db" >"$work/migrate.log" 2>&1
"$bin" bootstrap --json --database-url "$db" >"$work/keys.json" 2>"$work/bootstrap.log"
TONNE_METRICS_BIND=127.0.0.1:0 "$bin" serve --bind "127.0.0.1:$port" --database-url "$db" \
    --rate-limit-per-second 100000 --rate-limit-burst 100000 \
    --webhooks-allow-private --test-order-step-seconds 1 >"$work/serve.log" 2>&1 &
pid=$!
for _ in $(seq 1 100); do
    curl -fsS "http://127.0.0.1:$port/health" >/dev/null 2>&1 && break
    kill -0 "$pid" 2>/dev/null || { cat "$work/serve.log" >&2; exit 2; }
    sleep 0.1
done

key() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]]['api_key'])" "$work/keys.json" "$1"; }
set +e
TONNE_URL="http://127.0.0.1:$port" TONNE_LIVE_KEY="$(key live)" TONNE_TEST_KEY="$(key test)" node run.js "$@"
rc=$?
set -e
if grep -q ' ERROR ' "$work/serve.log"; then
    echo "server errors logged during the run:" >&2
    grep ' ERROR ' "$work/serve.log" | tail -20 >&2
fi
exit $rc
