#!/usr/bin/env bash
# Builds Tonne's image, starts compose.yaml (two API processes, a dispatcher,
# PostgreSQL, Redis, HAProxy), waits for /ready through the balancer, creates a
# webhook to a receiver on this machine, places an order through the balancer,
# sees its webhook delivered, then stops and removes everything.
#
#   bash deploy/container/container-test.sh
#
# Needs root with podman, podman-compose, runc and debootstrap (Debian's
# packages; installed when absent). Images the files name are made locally
# by base-images.sh when they are not present (no registry is needed).
set -euo pipefail
cd "$(dirname "$0")/../.."
export CONTAINERS_CONF=${CONTAINERS_CONF:-$PWD/deploy/container/containers.conf}
PROJECT=tonne-container-test
export TONNE_PORT=${TONNE_PORT:-18400}
RECEIVER_PORT=${RECEIVER_PORT:-18499}
WORK=$(mktemp -d)

need() { command -v "$1" >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$2" >/dev/null; }; }
need podman podman
need podman-compose podman-compose
need runc runc
need debootstrap debootstrap

bash deploy/container/base-images.sh

step() { echo "== $*"; }
compose() { podman-compose -p "$PROJECT" -f compose.yaml "$@"; }
RECEIVER_PID=
cleanup() {
  local status=$?
  set +e
  if [ "$status" != 0 ]; then
    step "failed ($status): the API processes' last lines"
    for s in api-1 api-2; do podman logs --tail 30 "${PROJECT}_${s}_1" 2>&1 | sed "s/^/$s: /"; done
  fi
  step "stopping"
  compose down -v >/dev/null 2>&1
  [ -z "$RECEIVER_PID" ] || kill "$RECEIVER_PID" 2>/dev/null
  rm -rf "$WORK"
}
trap cleanup EXIT

step "building the image"
podman build --format docker -t localhost/tonne:latest .
podman image inspect localhost/tonne:latest --format 'user={{.Config.User}} healthcheck={{.Config.Healthcheck.Test}} volumes={{.Config.Volumes}} size={{.Size}}'

export POSTGRES_PASSWORD=$(head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n')
export TONNE_SECRETS_KEY=$(head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n')
# The receiver below is on this machine, reached from the containers' network.
export TONNE_WEBHOOKS_ALLOW_PRIVATE=true
export TONNE_PUBLIC_URL=http://127.0.0.1:$TONNE_PORT

step "starting compose.yaml"
compose up -d
BASE=http://127.0.0.1:$TONNE_PORT
for i in $(seq 1 120); do
  if curl -fs "$BASE/ready" >/dev/null 2>&1; then break; fi
  [ "$i" = 120 ] && { compose ps; compose logs api-1 | tail -40; echo "not ready through the balancer" >&2; exit 1; }
  sleep 1
done
step "ready through the balancer: $(curl -fs "$BASE/ready")"
# Not racing its own start: both API processes pass their declared health
# check, and the balancer has both servers UP, before the first request that
# changes anything. The script runs the checks itself (`podman healthcheck
# run`, which also records the result): podman schedules them with systemd
# timers, and where no systemd runs (this sandbox, many CI runners) nothing
# would, leaving every container `starting` for ever.
for i in $(seq 1 60); do
  healthy=0
  for s in api-1 api-2; do
    podman healthcheck run "${PROJECT}_${s}_1" >/dev/null 2>&1 && healthy=$((healthy + 1))
  done
  [ "$healthy" = 2 ] && break
  [ "$i" = 60 ] && { compose ps; echo "the API processes did not become healthy" >&2; exit 1; }
  sleep 1
done
for i in $(seq 1 10); do curl -fs "$BASE/ready" >/dev/null 2>&1 || { echo "not ready through the balancer" >&2; exit 1; }; done

KEY=$(podman logs "${PROJECT}_api-1_1" 2>/dev/null | sed -nE 's/.*test key: ([^ ]+).*/\1/p' | head -1)
[ -n "$KEY" ] || { echo "no demo key in api-1's output" >&2; exit 1; }
# podman-compose 1.0 does not wait for `condition: service_healthy`: the API
# processes may have started before PostgreSQL accepted connections, and their
# pools' first connects then wait out their timeout. An authenticated read
# through the balancer answering 200 (twice, one per server) is the request
# path ready, before the first write.
ok=0
for i in $(seq 1 60); do
  if curl -fs -H "Authorization: Bearer $KEY" "$BASE/v1/accounts/me" >/dev/null 2>&1; then
    ok=$((ok + 1))
    [ "$ok" -ge 2 ] && break
  fi
  [ "$i" = 60 ] && { echo "an authenticated read did not succeed through the balancer" >&2; exit 1; }
  sleep 1
done

# A receiver that records each delivery (headers and body) to a file.
cat > "$WORK/receiver.py" <<'PY'
import http.server, json, sys
out = sys.argv[2]
class Receiver(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        with open(out, "a") as f:
            f.write(json.dumps({"path": self.path, "signature": self.headers.get("Lune-HMAC"), "body": json.loads(body)}) + "\n")
        self.send_response(200); self.send_header("Content-Length", "0"); self.end_headers()
    def log_message(self, *args): pass
http.server.HTTPServer(("0.0.0.0", int(sys.argv[1])), Receiver).serve_forever()
PY
python3 "$WORK/receiver.py" "$RECEIVER_PORT" "$WORK/deliveries.jsonl" &
RECEIVER_PID=$!

api() { curl -fsS -H "Authorization: Bearer $KEY" -H 'Content-Type: application/json' "$@"; }
step "a webhook to the receiver on this machine"
api -d "{\"url\": \"http://host.containers.internal:$RECEIVER_PORT/hook\"}" "$BASE/v1/webhooks" >/dev/null
step "an order through the balancer"
ORDER=$(api -d '{"mass": {"amount": "1.5", "unit": "t"}}' "$BASE/v1/orders/by-mass")
ORDER_ID=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["id"])' "$ORDER")
echo "order $ORDER_ID"
for i in $(seq 1 60); do
  if [ -f "$WORK/deliveries.jsonl" ] && grep -q "$ORDER_ID" "$WORK/deliveries.jsonl"; then break; fi
  [ "$i" = 60 ] && { compose logs dispatcher | tail -40; echo "no webhook delivered for $ORDER_ID" >&2; exit 1; }
  sleep 1
done
python3 - "$WORK/deliveries.jsonl" "$ORDER_ID" <<'PY'
import json, sys
events = [e for line in open(sys.argv[1]) for e in json.loads(line)["body"]["events"]]
mine = [e for e in events if sys.argv[2] in json.dumps(e)]
print("delivered:", ", ".join(e["event_type"] for e in mine))
assert mine and mine[0]["event_type"] == "order.received", mine
PY
step "health of the containers"
# The declared health checks, run now (podman schedules them with systemd
# timers, which a sandbox without systemd does not have).
for service in api-1 api-2 dispatcher; do
  podman healthcheck run "${PROJECT}_${service}_1" && echo "$service: healthy"
done
podman ps --filter "name=$PROJECT" --format '{{.Names}} {{.Status}}'
step "container test passed"
