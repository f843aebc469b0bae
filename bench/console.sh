#!/usr/bin/env bash
# The console's deep pages on PostgreSQL, with 1,000,000 rows behind them:
#  1. a member's webhook delivery log (GET /console/webhooks/{id}, 25 a page),
#     first page and the page 900,000 attempts deep;
#  2. the operator's audit log (GET /console/audit), first and deep, and the
#     same filtered by organisation.
# Each deep page is measured against its first page in the same run.
#
#   bash bench/console.sh            (release build; TONNE_BIN=… for another binary)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
bench_init console
PORT=18191
bench_build
DB_URL=$(fresh_database tonne_bench_console)
seed_database "$DB_URL"
ORG=$(psql "$DB_URL" -Atc "SELECT organisation_id FROM accounts WHERE id = '$ACCOUNT'")

# webhooks need a key to seal their secrets (PostgreSQL has no key file)
export TONNE_SECRETS_KEY
TONNE_SECRETS_KEY=$(printf 'cd%.0s' $(seq 32))
serve_unlimited "$DB_URL" "$PORT" --webhooks-allow-private
HOOK=$(curl -fs -H "Authorization: Bearer $KEY" -H 'Content-Type: application/json' \
  -d '{"url": "http://127.0.0.1:9/bench"}' "http://127.0.0.1:$PORT/v1/webhooks" \
  | sed -E 's/.*"id":"([0-9a-f]{32})".*/\1/')

# 1,000,000 attempts of that webhook, and 1,000,000 audit entries of the organisation.
psql "$DB_URL" -q <<SQL
INSERT INTO webhook_attempts (id, webhook_id, account_id, first_sequence, last_sequence, event_count,
                              attempted_at, status_code, error, latency_ms, outcome, next_attempt_at)
SELECT '0' || lpad(to_hex(g), 31, '0'), '$HOOK', '$ACCOUNT', g, g, 1,
       timestamp '2025-01-01' + g * interval '1 second', 500, NULL, 12, 'failed', NULL
FROM generate_series(1, 1000000) AS g;
INSERT INTO audit_log (id, at, actor_kind, actor, action, object_kind, object_id, organisation_id, before_json, after_json)
SELECT '0' || lpad(to_hex(g), 31, '0'), timestamp '2025-01-01' + g * interval '1 second', 'person',
       'bench@example.org', 'bundle.stock_changed', 'bundle', 'b' || g, '$ORG', '[]', '[["change","+1 t"]]'
FROM generate_series(1, 1000000) AS g;
ANALYZE webhook_attempts; ANALYZE audit_log;
SQL
DEEP_ATTEMPT=$(psql "$DB_URL" -Atc "SELECT id FROM webhook_attempts WHERE webhook_id = '$HOOK' ORDER BY id DESC OFFSET 900000 LIMIT 1")
DEEP_ENTRY=$(psql "$DB_URL" -Atc "SELECT id FROM audit_log ORDER BY id DESC OFFSET 900000 LIMIT 1")

sign_in() { # sign_in EMAIL: prints the session cookie
  local jar="$WORK/jar-$1" page csrf
  page=$(curl -fs -c "$jar" "http://127.0.0.1:$PORT/console/sign-in")
  csrf=$(grep -o 'name="csrf" value="[^"]*"' <<<"$page" | sed 's/.*value="//; s/"$//')
  curl -fs -o /dev/null -b "$jar" -c "$jar" --data-urlencode "csrf=$csrf" \
    --data-urlencode "email=$1" --data-urlencode "password=correct horse battery staple" \
    "http://127.0.0.1:$PORT/console/sign-in"
  awk '$6 == "tonne_session" {print $7}' "$jar"
}
echo "correct horse battery staple" | "$BIN" users create --email member@example.org --organisation "$ORG" --password-stdin --database-url "$DB_URL" >/dev/null
echo "correct horse battery staple" | "$BIN" users create --email operator@example.org --operator --password-stdin --database-url "$DB_URL" >/dev/null
{ echo "wrk.headers[\"Cookie\"] = \"tonne_session=$(sign_in member@example.org)\""; result_lua; } > "$WORK/member.lua"
{ echo "wrk.headers[\"Cookie\"] = \"tonne_session=$(sign_in operator@example.org)\""; result_lua; } > "$WORK/operator.lua"

report_header "The console's deep pages on PostgreSQL" "$CONNECTIONS connections; wrk -t$THREADS -d$DURATION; release build; rate limit raised; 1,000,000 webhook attempts and 1,000,000 audit entries seeded."
run_wrk attempts-first "$WORK/member.lua" "http://127.0.0.1:$PORT/console/webhooks/$HOOK?mode=live" >> "$REPORT"
run_wrk attempts-deep "$WORK/member.lua" "http://127.0.0.1:$PORT/console/webhooks/$HOOK?mode=live&after=$DEEP_ATTEMPT" >> "$REPORT"
run_wrk audit-first "$WORK/operator.lua" "http://127.0.0.1:$PORT/console/audit" >> "$REPORT"
run_wrk audit-deep "$WORK/operator.lua" "http://127.0.0.1:$PORT/console/audit?after=$DEEP_ENTRY" >> "$REPORT"
run_wrk audit-org-deep "$WORK/operator.lua" "http://127.0.0.1:$PORT/console/audit?organisation=$ORG&after=$DEEP_ENTRY" >> "$REPORT"
{
  echo
  echo "- delivery log, deep page / first page: $(ratio attempts-deep attempts-first)"
  echo "- audit log, deep page / first page: $(ratio audit-deep audit-first)"
  echo "- audit log by organisation, deep page / first page: $(ratio audit-org-deep audit-first)"
} >> "$REPORT"
cat "$REPORT"
bench_cleanup
PIDS=()
sleep 1
drop_database tonne_bench_console
