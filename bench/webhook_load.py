"""Helpers of bench/webhooks.sh: set up a backlog, wait for it, steady load, latency."""
import concurrent.futures, json, sys, time, urllib.request

def call(method, url, key=None, body=None, account=None):
    req = urllib.request.Request(url, method=method, data=json.dumps(body).encode() if body is not None else None)
    req.add_header("Content-Type", "application/json")
    if key: req.add_header("Authorization", f"Bearer {key}")
    if account: req.add_header("Lune-Account", account)
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read() or b"null")

def order(base, key, account):
    call("POST", f"{base}/v1/orders/by-mass", key, {"mass": {"amount": "0.01", "unit": "t"}}, account)

cmd = sys.argv[1]
if cmd == "setup":
    base, key, hook, n = sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5])
    call("POST", f"{base}/v1/webhooks", key, {"url": hook})
    accounts = [None] + [call("POST", f"{base}/v1/accounts/client", key, {"name": f"c{i}", "currency": "GBP"})["id"] for i in range(19)]
    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        list(pool.map(lambda i: order(base, key, accounts[i % 20]), range(n)))
elif cmd == "wait":
    base, n = sys.argv[2], int(sys.argv[3])
    while int(urllib.request.urlopen(f"{base}/count").read()) < n:
        time.sleep(0.05)
elif cmd == "steady":
    base, key, rate, secs = sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
    with concurrent.futures.ThreadPoolExecutor(16) as pool:
        start = time.time()
        for i in range(rate * secs):
            target = start + i / rate
            time.sleep(max(0, target - time.time()))
            pool.submit(order, base, key, None)
elif cmd in ("snapshot", "latency"):
    # snapshot URL FILE: saves the histogram; latency URL [FILE]: quantiles of
    # what was observed since the snapshot (the steady phase only).
    text = urllib.request.urlopen(sys.argv[2]).read().decode()
    buckets = []
    for line in text.splitlines():
        if line.startswith("tonne_webhook_delivery_latency_seconds_bucket"):
            le = line.split('le="')[1].split('"')[0]
            buckets.append((float("inf") if le == "+Inf" else float(le), float(line.split()[-1])))
    if cmd == "snapshot":
        json.dump(buckets, open(sys.argv[3], "w"))
        sys.exit(0)
    if len(sys.argv) > 3:
        before = dict((le, c) for le, c in json.load(open(sys.argv[3])))
        buckets = [(le, c - before.get(le, 0.0)) for le, c in buckets]
    total = buckets[-1][1]
    def q(p):
        return next(le for le, c in buckets if c >= p * total)
    print(f"p50 <= {q(0.5)} s, p99 <= {q(0.99)} s (histogram bucket bounds, {int(total)} events)")
