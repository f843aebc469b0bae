# Tonne — contributor recipes. The README's two cargo commands never need `just`.

pg_url := env_var_or_default("TONNE_TEST_POSTGRES_URL", "postgres://postgres@127.0.0.1:5432/test")

default:
    @just --list

# Serve on SQLite (./tonne.db)
run *ARGS:
    cargo run --release -- {{ARGS}}

# Every test; PostgreSQL variants skip unless TONNE_TEST_POSTGRES_URL is set
test:
    cargo test --workspace

# Every test with the PostgreSQL suite mandatory
test-pg:
    CI=true TONNE_TEST_POSTGRES_URL={{pg_url}} cargo test --workspace

# Format
fmt:
    cargo fmt --all

# fmt check + clippy with warnings denied
lint:
    cargo fmt --all -- --check
    cargo clippy --workspace --all-targets -- -D warnings

# run docs/tutorial.md's commands as written (with target/debug/tonne)
tutorial:
    cargo build -p tonne
    bash scripts/tutorial.sh

# Domain crates depend on no framework
boundaries:
    scripts/check-boundaries.sh

# The CI gate
ci:
    bash .ci/run

# The official Lune TypeScript clients 2.2.7 and 3.9.2 against a fresh server (clients/run.sh; needs node/npm; TONNE_BIN overrides the binary)
clients *ARGS:
    if [ -z "${TONNE_BIN:-}" ]; then cargo build -p tonne; fi
    bash clients/run.sh {{ARGS}}

# WBCSD's PACT conformance tests (all 22, callbacks included) behind HAProxy with TLS (scripts/pact-conformance.sh; needs node/npm, PostgreSQL)
pact-conformance:
    if [ -z "${TONNE_BIN:-}" ]; then cargo build -p tonne; fi
    CALLBACKS=1 TLS=1 bash scripts/pact-conformance.sh

# Three servers and a dispatcher on PostgreSQL and Redis behind HAProxy (deploy/)
cluster:
    bash deploy/cluster.sh

# Crash tests: 2 servers + dispatcher under load, SIGKILLs and a PostgreSQL stop, then the set check (120 s)
faults:
    bash bench/faults/run.sh

# Load benchmarks (writes bench/results/; see docs/performance.md)
bench: bench-accounts bench-orders bench-estimates bench-engines bench-webhooks bench-scale bench-console bench-analytics bench-shipments bench-fairness bench-report bench-pact

# GET /v1/accounts/me on SQLite and PostgreSQL vs a bare actix handler
bench-accounts:
    bash bench/accounts-me.sh

# A fresh clone's `cargo build --release` and `cargo test --workspace`, timed from an empty target/ (bench/build-time.sh)
bench-build-time:
    bash bench/build-time.sh

# The request path A/B: two builds alternated (A=old binary, B=new; issue 22)
bench-request-path a b="target/release/tonne":
    A={{a}} B={{b}} bash bench/request-path.sh

# The write path A/B: shipping estimate and order creation at 4 connections,
# p50 with the server's and PostgreSQL's CPU per request (issue 22)
bench-write-path a b="target/release/tonne":
    A={{a}} B={{b}} bash bench/write-path.sh

# Orders on PostgreSQL: pgbench baseline, creation, quotes, deep pagination
bench-orders:
    bash bench/orders.sh

# Estimates over HTTP on PostgreSQL: flight, batch of 100 transactions, sea shipping
bench-estimates:
    bash bench/estimates.sh

# Each estimation engine in isolation (criterion)
bench-engines:
    cargo bench -p tonne_estimation

# Webhook delivery on PostgreSQL: backlog drain (events/s, dispatcher memory), commit->ack latency at 200 orders/s
bench-webhooks:
    bash bench/webhooks.sh

# The console's delivery log and audit log, first page vs 900,000 rows deep (PostgreSQL)
bench-console:
    bash bench/console.sh

# Analytics and public sustainability pages over an account with 1,000,000 orders
bench-analytics:
    bash bench/analytics.sh

# Orders by mass with 1, 2 and 3 server processes vs the pgbench ceiling; the Redis limiter's cost
bench-scale:
    bash bench/scale.sh

# Shipments: a 10,000-shipment batch accepted and processed, then a 200,000-shipment calculation (memory, p99 of /v1/accounts/me meanwhile)
bench-shipments:
    bash bench/shipments.sh

# Fair share: one organisation's 200,000-shipment backlog and calculations beside two uploading one-row batches every second (their p99), then 10,000 junk requests (/metrics size, memory)
bench-fairness:
    bash bench/fairness.sh

# The ISO 14083 report over 200,000 shipments: CSV streamed, PDF
bench-report:
    bash bench/report.sh

# PACT ListFootprints at page size 100 over 1,000,000 footprints (p99 < 50 ms), GetFootprint
bench-pact:
    bash bench/pact.sh
