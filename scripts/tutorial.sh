#!/usr/bin/env bash
# Runs docs/tutorial.md's commands as written, in order, in a fresh
# directory, so that the tutorial stays true (`.ci/run` runs this after the
# tests). `cargo run --release [-- ARGS]` runs the binary the tests built
# (TONNE_BIN, default target/debug/tonne: CI builds one profile only).
# Blocks fenced as "sh background" run in the background (the server, the
# receiver); free ports replace 8080 and 8099. Fails at the first command
# that fails, or after five minutes, showing the logs.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin="${TONNE_BIN:-$root/target/debug/tonne}"
case "$bin" in /*) ;; *) bin="$PWD/$bin" ;; esac
[ -x "$bin" ] || { echo "no binary at $bin (build it first: cargo build)" >&2; exit 1; }
export TONNE_BIN="$bin"
work=$(mktemp -d)
mkdir -p "$work/docs/tutorial"
cp "$root/docs/tutorial/receiver.py" "$work/docs/tutorial/"
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
api=$(free_port)
rx=$(free_port)

python3 - "$root/docs/tutorial.md" "$api" "$rx" >"$work/steps.sh" <<'PY'
import re, sys
text, api, rx = open(sys.argv[1]).read(), sys.argv[2], sys.argv[3]
print("set -euo pipefail")
blocks = re.findall(r"^```(sh[^\n]*)\n(.*?)^```", text, re.S | re.M)
assert blocks, "no sh blocks in the tutorial"
for n, (info, body) in enumerate(blocks, 1):
    body = body.replace("127.0.0.1:8080", f"127.0.0.1:{api}")
    body = body.replace("127.0.0.1:8099", f"127.0.0.1:{rx}").replace("receiver.py 8099", f"receiver.py {rx}")
    print(f"echo '--- tutorial block {n} ({info.strip()})'")
    if info.strip() == "sh background":
        print("{\n" + body + "} >>background.log 2>&1 &")
    else:
        print(body)
PY

cd "$work"
cat >run.sh <<'SH'
cargo() {
  if [ "${1:-}" = run ] && [ "${2:-}" = --release ]; then
    shift 2
    [ "${1:-}" = -- ] && shift
    "$TONNE_BIN" "$@"
  else
    command cargo "$@"
  fi
}
# each background block in a process group of its own, ended whole at exit
set -m
stop() { for p in $(jobs -p); do kill -- "-$p" 2>/dev/null || true; done; }
trap stop EXIT
trap 'exit 1' TERM INT
source ./steps.sh
SH
export TONNE_BIND="127.0.0.1:$api" TONNE_METRICS_BIND=off TONNE_TEST_ORDER_STEP_SECONDS=2
status=0
timeout 300 bash run.sh >tutorial.log 2>&1 || status=$?
if [ "$status" -ne 0 ]; then
  echo "the tutorial failed (exit $status); its output, then the background processes' logs:" >&2
  tail -n 60 tutorial.log >&2
  tail -n 40 background.log >&2 2>/dev/null || true
  tail -n 20 receiver.log >&2 2>/dev/null || true
  exit 1
fi
echo "the tutorial ran as written: $(grep -c '^--- tutorial block' tutorial.log) blocks, $(grep -c '^verified' receiver.log) webhook events verified"
rm -rf "$work"
