"""Small tenants beside a big one (bench/fairness.sh): each key uploads a
one-row shipment batch every second and polls it until processed.

    python3 bench/fairness_light.py BASE SECONDS OFFSET NAME=KEY [NAME=KEY ...]

OFFSET (seconds) delays the first upload: bench/fairness.sh runs one process
per tenant, each starting at its own point in the second, as independent
clients would (one process for both made them share one interpreter's pauses
and send at the same instant).

Prints one line per tenant:
    LIGHT name batches processed p50_s p99_s write_p50_ms write_p99_ms failures
(upload -> processed in seconds, the upload request itself in milliseconds;
failures are uploads not answered 200 and batches not processed within
WAIT_S).
"""

import json
import sys
import threading
import time
import urllib.error
import urllib.request

POLL_S = 0.02
WAIT_S = 120.0


def request(method, url, key, body=None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, method=method)
    req.add_header("Authorization", f"Bearer {key}")
    if data is not None:
        req.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(req, timeout=30) as res:
            return res.status, json.loads(res.read() or b"null")
    except urllib.error.HTTPError as e:
        return e.code, None
    except OSError:
        return 0, None


def row(name, n):
    return {
        "shipment_id": f"{name}-{n}",
        "target_internal_id": f"carrier-{name}",
        "target_internal_name": f"Carrier {name}",
        "legs": [
            {"carriage": "pre", "method": {"vehicle_type": "truck_articulated_40t", "fuel": "diesel"},
             "distance": {"amount": "50", "unit": "km"}, "load": {"mass": {"amount": "3", "unit": "t"}}},
            {"carriage": "main", "method": {"vessel_type": "container_ship"},
             "origin": {"locode": "CNSHA"}, "destination": {"locode": "NLRTM"}},
        ],
    }


def one(base, name, key, n, out, lock):
    t0 = time.monotonic()
    status, body = request("POST", f"{base}/shipments/batches", key,
                           {"shipments": [row(name, n)], "calculate_emissions": True})
    written = time.monotonic()
    record = {"write_s": written - t0, "processed_s": None, "status": status}
    if status == 200 and body and "id" in body:
        url = f"{base}/shipments/batches/{body['id']}"
        while time.monotonic() - t0 < WAIT_S:
            s, b = request("GET", url, key)
            if s == 200 and b and b.get("status") == "processed":
                record["processed_s"] = time.monotonic() - t0
                break
            time.sleep(POLL_S)
    with lock:
        out.append(record)


def percentile(values, p):
    if not values:
        return float("nan")
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * p // 100))  # nearest rank
    return ordered[int(rank) - 1]


def main():
    base, seconds, offset = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
    tenants = [arg.split("=", 1) for arg in sys.argv[4:]]
    time.sleep(offset)
    results = {name: [] for name, _ in tenants}
    lock = threading.Lock()
    threads = []
    start = time.monotonic()
    n = 0
    while time.monotonic() - start < seconds:
        for name, key in tenants:
            t = threading.Thread(target=one, args=(base, name, key, n, results[name], lock))
            t.start()
            threads.append(t)
        n += 1
        time.sleep(max(0.0, start + n - time.monotonic()))
    for t in threads:
        t.join()
    for name, _ in tenants:
        records = results[name]
        writes = [r["write_s"] * 1000 for r in records if r["status"] == 200]
        done = [r["processed_s"] for r in records if r["processed_s"] is not None]
        failures = len(records) - len(done)
        print("LIGHT %s %d %d %.3f %.3f %.1f %.1f %d" % (
            name, len(records), len(done), percentile(done, 50), percentile(done, 99),
            percentile(writes, 50), percentile(writes, 99), failures))


if __name__ == "__main__":
    main()
