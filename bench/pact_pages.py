"""PACT requests timed one at a time over a kept-alive connection
(bench/pact.sh):

    python3 bench/pact_pages.py BASE TOKEN PAGES RANDOM_IDS_FILE

Prints Markdown table rows: ListFootprints following Link from the first
page (PAGES pages), ListFootprints from random footprints (one page each,
`after` = a random id), GetFootprint of random footprints. Every answer
must be 200 with 100 footprints (a page) or one (GetFootprint).
"""

import http.client
import json
import sys
import time
import urllib.parse
import uuid


def percentile(values, p):
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * p // 100))
    return ordered[int(rank) - 1]


def main():
    base, token, pages, random_file = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
    parsed = urllib.parse.urlparse(base)
    conn = http.client.HTTPConnection(parsed.hostname, parsed.port, timeout=30)
    headers = {"Authorization": f"Bearer {token}"}

    def get(path):
        t0 = time.perf_counter()
        conn.request("GET", path, headers=headers)
        res = conn.getresponse()
        body = res.read()
        elapsed = (time.perf_counter() - t0) * 1000
        if res.status != 200:
            raise SystemExit(f"{path}: {res.status} {body[:300]!r}")
        return elapsed, json.loads(body), res.getheader("Link")

    rows = []
    walk = []
    path = "/pact/2/footprints?limit=100"
    for _ in range(pages):
        ms, body, link = get(path)
        assert len(body["data"]) == 100, len(body["data"])
        walk.append(ms)
        if not link:
            break
        url = link.split(">")[0].lstrip("<")
        path = url[len(base):]
    rows.append(("ListFootprints, first pages following Link", walk, "< 50 ms"))

    ids = [uuid.UUID(line.strip()) for line in open(random_file) if line.strip()]
    deep = []
    for i in ids:
        ms, body, _ = get(f"/pact/2/footprints?limit=100&after={i}")
        assert len(body["data"]) <= 100
        deep.append(ms)
    rows.append(("ListFootprints, a page from a random footprint", deep, "< 50 ms"))

    one = []
    for i in ids:
        ms, body, _ = get(f"/pact/2/footprints/{i}")
        assert body["data"]["id"] == str(i)
        one.append(ms)
    rows.append(("GetFootprint, a random footprint", one, ""))

    for name, values, target in rows:
        print("| %s | %d | %.1f ms | **%.1f ms** | %.1f ms | %s |" % (
            name, len(values), percentile(values, 50), percentile(values, 99), max(values), target))


if __name__ == "__main__":
    main()
