#!/usr/bin/env bash
# A fresh clone's two README commands, timed: `cargo build --release` (what
# `cargo run --release` waits for) and `cargo test --workspace` (without
# PostgreSQL: no TONNE_TEST_* variables, CI unset), each from an empty
# `target/`, on a clone of REV (default HEAD) in a scratch folder. Crates are
# taken from Cargo's cache (downloading them is not counted). Prints the wall
# times, the slowest crates of each build (from `cargo build --timings`) and
# the binary's size, and keeps the timing pages and the release binary in
# bench/results/.
#
#   REV=HEAD bash bench/build-time.sh          # both builds
#   ONLY=release bash bench/build-time.sh      # or ONLY=test
#
# Nothing else should run on the machine meanwhile: on 2 cores another build
# doubles the figures. The CPU time (user + system) each build spends is
# printed too: it moves far less than the wall time when the machine is busy.
set -euo pipefail
cd "$(dirname "$0")/.."
REV=${REV:-HEAD}
ONLY=${ONLY:-both}
STAMP=$(date -u +%Y%m%dT%H%M%SZ)
OUT="$PWD/bench/results/build-time-$STAMP"
mkdir -p "$OUT"
WORK=$(mktemp -d /tmp/tonne-build-time.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
git clone -q --no-hardlinks . "$WORK/tonne"
git -C "$WORK/tonne" checkout -q "$REV"
cd "$WORK/tonne"
cargo fetch -q

unset CI TONNE_TEST_POSTGRES_URL TONNE_TEST_REDIS_URL TONNE_TEST_STRIPE_URL CARGO_TARGET_DIR CARGO_INCREMENTAL
export CARGO_TERM_COLOR=never

cpu() { # user + system seconds, as /usr/bin/time wrote them
  awk '{printf "%.0f", $1 + $2}' "$1"
}

slowest() { # the ten slowest units of the newest timing page
  python3 - "$1" <<'EOF'
import json, re, sys, glob, os
page = max(glob.glob(os.path.join(sys.argv[1], "cargo-timing-*.html")), key=os.path.getmtime)
units = json.loads(re.search(r"const UNIT_DATA = (\[.*?\]);\n", open(page).read(), re.S).group(1))
total = sum(u["duration"] for u in units)
print(f"  {len(units)} units, {total:.0f} s of compiling in all")
for u in sorted(units, key=lambda u: -u["duration"])[:10]:
    parts = ", ".join(f"{n} {s['end'] - s['start']:.0f} s" for n, s in (u.get("sections") or []))
    print(f"  {u['duration']:6.1f} s  {u['name']} {u.get('target', '').strip()}  {parts}")
EOF
}

echo "# Build time — $STAMP, $(git rev-parse --short HEAD), $(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GiB, $(rustc --version)"
if [ "$ONLY" != test ]; then
  start=$(date +%s)
  /usr/bin/time -f "%U %S" -o "$OUT/release.cpu" cargo build --release --timings >"$OUT/release.log" 2>&1
  end=$(date +%s)
  echo "cargo build --release: $((end - start)) s, $(cpu "$OUT/release.cpu") s of CPU; target/release/tonne $(stat -c %s target/release/tonne) bytes"
  slowest target/cargo-timings
  cp target/cargo-timings/cargo-timing.html "$OUT/release-timing.html"
  # kept for an A/B of the request path (bench/request-path.sh)
  cp target/release/tonne "$OUT/tonne"
  rm -rf target
fi
if [ "$ONLY" != release ]; then
  start=$(date +%s)
  /usr/bin/time -f "%U %S" -o "$OUT/test-build.cpu" cargo build --workspace --tests --timings >"$OUT/test-build.log" 2>&1
  built=$(date +%s)
  /usr/bin/time -f "%U %S" -o "$OUT/test.cpu" cargo test --workspace >"$OUT/test.log" 2>&1 || { echo "cargo test failed: $OUT/test.log"; exit 1; }
  end=$(date +%s)
  passed=$(grep -E '^test result:' "$OUT/test.log" | awk '{p += $4} END {print p}')
  echo "cargo test --workspace: $((end - start)) s ($((built - start)) s building the tests, $((end - built)) s compiling doc tests and running; $passed tests passed); CPU $(cpu "$OUT/test-build.cpu") s building, $(cpu "$OUT/test.cpu") s after"
  slowest target/cargo-timings
  cp target/cargo-timings/cargo-timing.html "$OUT/test-timing.html"
fi
echo "timing pages and logs: $OUT"
