#!/usr/bin/env bash
# The dependency rule: domain crates depend on no framework. Fails if any domain
# crate's normal (non-dev) dependency tree contains a web, database, async-runtime
# or HTTP-client crate, or serde_json.
set -euo pipefail
cd "$(dirname "$0")/.."
domains=(tonne_kernel tonne_accounts tonne_ordering tonne_estimation tonne_webhooks tonne_links tonne_quoted tonne_impact tonne_shipments)
forbidden='^(actix|actix-web|actix-http|actix-rt|diesel|diesel_migrations|diesel-async|tokio-postgres|r2d2|tokio|reqwest|hyper|serde_json|libsqlite3-sys|pq-sys|governor|prometheus|utoipa) '
status=0
for crate in "${domains[@]}"; do
  tree=$(cargo tree --offline -e normal -p "$crate" --prefix none --format '{p}' 2>/dev/null || cargo tree -e normal -p "$crate" --prefix none --format '{p}')
  if bad=$(grep -E "$forbidden" <<<"$tree"); then
    echo "boundary violation: $crate depends on:" >&2
    sort -u <<<"$bad" >&2
    status=1
  else
    echo "boundaries: $crate depends on no framework ($(sort -u <<<"$tree" | wc -l) crates in its tree)"
  fi
done
# The binary only wires: storage adapters live in tonne_storage, so its own
# code names no database crate (its tests may).
if grep -rnE '\bdiesel::|use diesel' crates/tonne/src >/dev/null; then
  echo "boundary violation: crates/tonne/src uses diesel (storage belongs in tonne_storage):" >&2
  grep -rnE '\bdiesel::|use diesel' crates/tonne/src >&2
  status=1
else
  echo "boundaries: the binary's code names no database crate (it wires tonne_storage)"
fi
exit $status
