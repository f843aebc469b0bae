"""The fault suite (bench/faults/run.sh): two `tonne serve` processes and one
`tonne dispatch` on PostgreSQL, driven at RATE orders/s across 20 accounts with
unique idempotency keys and webhooks to a verifying loopback receiver, while a
server is SIGKILLed and restarted every 10-20 s and PostgreSQL is stopped with
`-m immediate` once. Then every request whose answer was lost is retried with
its idempotency key until it has one, and the run is checked in the manner of
Jepsen's set check. Prints every figure; exits 1 when a check fails.

Standard library only. Environment: TONNE_BIN, FAULT_SECONDS, FAULT_RATE,
FAULT_ADMIN_URL, PG_CLUSTER (e.g. "15 main")."""
import concurrent.futures
import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
BIN = os.environ.get("TONNE_BIN", "target/release/tonne")
SECONDS = int(os.environ.get("FAULT_SECONDS", "120"))
RATE = int(os.environ.get("FAULT_RATE", "150"))
ADMIN_URL = os.environ.get("FAULT_ADMIN_URL", "postgres://postgres@127.0.0.1:5432/test")
PG_CLUSTER = os.environ.get("PG_CLUSTER", "").split()
DB = "tonne_faults"
DB_URL = ADMIN_URL.rsplit("/", 1)[0] + "/" + DB
PORTS = [18401, 18402]
RECEIVER_PORT = 18409
ACCOUNTS = 20
WORK = os.environ.get("FAULT_WORK", "target/faults")
ENV = dict(
    os.environ,
    DATABASE_URL=DB_URL,
    TONNE_SECRETS_KEY="fa" * 32,
    TONNE_WEBHOOKS_ALLOW_PRIVATE="true",
    TONNE_RATE_LIMIT_PER_SECOND="1000000",
    TONNE_RATE_LIMIT_BURST="1000000",
    TONNE_LOG="warn",
    TONNE_DB_POOL_TIMEOUT_MS="2000",
    TONNE_WEBHOOK_POLL_MS="50",
)
failures = []
log_lock = threading.Lock()


def say(text):
    with log_lock:
        print(text, flush=True)


def check(name, ok, figure):
    say(f"{'ok  ' if ok else 'FAIL'} {name}: {figure}")
    if not ok:
        failures.append(name)


def psql(sql, url=DB_URL):
    out = subprocess.run(["psql", url, "-qAtc", sql], capture_output=True, text=True, check=True)
    return out.stdout.strip()


def call(method, url, key=None, body=None, timeout=10):
    """(status, parsed body); status 0 when no answer arrived."""
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(url, method=method, data=data)
    req.add_header("Content-Type", "application/json")
    if key:
        req.add_header("Authorization", f"Bearer {key}")
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.status, json.loads(r.read() or b"null")
    except urllib.error.HTTPError as e:
        try:
            return e.code, json.loads(e.read() or b"null")
        except ValueError:
            return e.code, None
    except (OSError, ValueError):
        return 0, None


def ready(port):
    return call("GET", f"http://127.0.0.1:{port}/ready", timeout=1)[0] == 200


def wait_ready(ports, limit=60.0):
    """Seconds until every port answers /ready 200 (None after `limit`)."""
    start = time.time()
    while time.time() - start < limit:
        if all(ready(p) for p in ports):
            return time.time() - start
        time.sleep(0.05)
    return None


class Processes:
    def __init__(self):
        self.servers = {}
        self.others = []

    def start_server(self, port):
        log = open(f"{WORK}/serve-{port}.log", "a")
        self.servers[port] = subprocess.Popen(
            [BIN, "serve", "--bind", f"127.0.0.1:{port}", "--no-dispatcher", "--no-demo"],
            # two servers on one machine: each metrics listener on a free port
            env={**ENV, "TONNE_METRICS_BIND": "127.0.0.1:0"}, stdout=log, stderr=subprocess.STDOUT)

    def kill_server(self, port):
        self.servers[port].send_signal(signal.SIGKILL)
        self.servers[port].wait()

    def start(self, argv, name):
        log = open(f"{WORK}/{name}.log", "a")
        p = subprocess.Popen(argv, env=ENV, stdout=log, stderr=subprocess.STDOUT)
        self.others.append(p)
        return p

    def stop_all(self):
        for p in list(self.servers.values()) + self.others:
            if p.poll() is None:
                p.terminate()
        for p in list(self.servers.values()) + self.others:
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                p.kill()


def setup(procs):
    psql(f"DROP DATABASE IF EXISTS {DB} WITH (FORCE)", ADMIN_URL)
    psql(f"CREATE DATABASE {DB}", ADMIN_URL)
    subprocess.run([BIN, "migrate"], env=ENV, check=True, capture_output=True)
    subprocess.run([BIN, "catalogue", "import", "demo"], env=ENV, check=True, capture_output=True)
    tenants = []
    for i in range(ACCOUNTS):
        out = subprocess.run([BIN, "bootstrap", "--json", "--name", f"Faults {i}"], env=ENV,
                             check=True, capture_output=True, text=True).stdout
        boot = json.loads(out)
        tenants.append({"organisation": boot["organisation_id"], "account": boot["live"]["account_id"],
                        "key": boot["live"]["api_key"]})
    for port in PORTS:
        procs.start_server(port)
    if wait_ready(PORTS) is None:
        raise SystemExit("the servers did not start")
    secrets = {}
    for t in tenants:
        status, hook = call("POST", f"http://127.0.0.1:{PORTS[0]}/v1/webhooks", t["key"],
                            {"url": f"http://127.0.0.1:{RECEIVER_PORT}/hook"})
        assert status == 200, (status, hook)
        secrets[t["organisation"]] = hook["secret"]
    json.dump(secrets, open(f"{WORK}/secrets.json", "w"))
    return tenants


class Load:
    """Orders at RATE/s, round-robin over accounts and servers."""

    def __init__(self, tenants):
        self.tenants = tenants
        self.outcomes = []  # (tenant index, idempotency key, status, order id)
        self.lock = threading.Lock()
        self.stop = threading.Event()

    def one(self, n):
        i = n % len(self.tenants)
        key = f"fault-{i}-{n}"
        port = PORTS[n % len(PORTS)]
        status, body = call("POST", f"http://127.0.0.1:{port}/v1/orders/by-mass", self.tenants[i]["key"],
                            {"mass": {"amount": "1", "unit": "kg"}, "idempotency_key": key}, timeout=15)
        order = body.get("id") if status == 200 and isinstance(body, dict) else None
        with self.lock:
            self.outcomes.append((i, key, status, order))

    def run(self, seconds):
        with concurrent.futures.ThreadPoolExecutor(64) as pool:
            start = time.time()
            n = 0
            while time.time() - start < seconds:
                target = start + n / RATE
                time.sleep(max(0.0, target - time.time()))
                pool.submit(self.one, n)
                n += 1
        return n


def faults(procs, seconds, record):
    """SIGKILL and restart a server every 10-20 s; stop PostgreSQL once."""
    start = time.time()
    pg_done = False
    rng = random.Random(7)
    count = 0
    while True:
        # Every 10-20 s (a short run: every 10 s, so that it sees both kinds).
        wait = rng.uniform(10, 20) if seconds > 60 else 10
        if time.time() - start + wait > seconds - 1:
            return
        time.sleep(wait)
        count += 1
        if not pg_done and count == 2 and PG_CLUSTER:
            pg_done = True
            subprocess.run(["pg_ctlcluster", "--skip-systemctl-redirect", *PG_CLUSTER, "stop", "-m", "immediate"],
                           check=True, capture_output=True)
            say(f"fault: PostgreSQL stopped (-m immediate) at {time.time() - start:.1f} s")
            time.sleep(2)
            subprocess.run(["pg_ctlcluster", "--skip-systemctl-redirect", *PG_CLUSTER, "start"],
                           check=True, capture_output=True)
            took = wait_ready(PORTS)
            record.append(("PostgreSQL restart", took))
            say(f"fault: PostgreSQL restarted; both servers ready after {took} s")
            continue
        port = rng.choice(PORTS)
        procs.kill_server(port)
        say(f"fault: SIGKILL server :{port} at {time.time() - start:.1f} s")
        procs.start_server(port)
        took = wait_ready([port])
        record.append((f"SIGKILL :{port}", took))
        say(f"fault: server :{port} restarted, ready after {took} s")


def retry_lost(load):
    """Retries every request without an answer until it has one; returns the
    acknowledged (tenant, key) -> order id map, how many were lost, the attempts,
    and how many of the lost had been stored all the same."""
    acked = {}
    lost = []
    for i, key, status, order in load.outcomes:
        if status == 200:
            acked[(i, key)] = order
        elif status in (0, 500, 502, 503, 504):
            lost.append((i, key))
        else:
            check(f"unexpected answer {status} for {key}", False, status)
    retries = 0
    stored_before = 0
    for i, key in lost:
        t = load.tenants[i]
        for attempt in range(200):
            retries += 1
            port = PORTS[attempt % len(PORTS)]
            status, body = call("POST", f"http://127.0.0.1:{port}/v1/orders/by-mass", t["key"],
                                {"mass": {"amount": "1", "unit": "kg"}, "idempotency_key": key})
            if status == 200:
                acked[(i, key)] = body["id"]
                break
            if status == 409:  # an earlier attempt was stored: read it back
                status, body = call("GET", f"http://127.0.0.1:{port}/v1/orders/by-idempotency-key/{key}", t["key"])
                if status == 200:
                    acked[(i, key)] = body["id"]
                    stored_before += 1
                    break
            time.sleep(0.2)
        else:
            check(f"request {key} never got an answer", False, "200 attempts")
    return acked, len(lost), retries, stored_before


def main():
    os.makedirs(WORK, exist_ok=True)
    procs = Processes()
    receiver = subprocess.Popen([sys.executable, f"{HERE}/receiver.py", str(RECEIVER_PORT),
                                 f"{WORK}/secrets.json", f"{WORK}/deliveries.jsonl"])
    try:
        tenants = setup(procs)
        say(f"set up: {ACCOUNTS} accounts, 2 servers, 1 dispatcher; {RATE} orders/s for {SECONDS} s")
        supply = dict(line.split("|") for line in psql(
            "SELECT id, available_grams FROM bundles WHERE available_grams IS NOT NULL").splitlines())
        procs.start([BIN, "dispatch", "--metrics-bind", "127.0.0.1:18408"], "dispatch")
        load = Load(tenants)
        record = []
        injector = threading.Thread(target=faults, args=(procs, SECONDS, record))
        injector.start()
        sent = load.run(SECONDS)
        injector.join()
        statuses = {}
        for o in load.outcomes:
            statuses[o[2]] = statuses.get(o[2], 0) + 1
        say(f"load: {sent} requests in {SECONDS} s ({sent / SECONDS:.0f}/s); answers by status "
            f"(0: none) {dict(sorted(statuses.items()))}")
        wait_ready(PORTS)
        acked, lost, retries, stored_before = retry_lost(load)
        say(f"retried: {lost} requests had no answer; {retries} attempts until each had one; "
            f"{stored_before} of them had been stored before their answer was lost (409, read back by key)")

        # The set check -------------------------------------------------------
        rows = psql("SELECT o.id, o.account_id, o.idempotency_key FROM orders o WHERE o.idempotency_key LIKE 'fault-%'")
        stored = {}
        for line in rows.splitlines():
            oid, account, key = line.split("|")
            stored.setdefault(key, []).append(oid)
        missing = [k for (i, k), oid in acked.items() if oid not in stored.get(k, [])]
        check("acknowledged orders lost", not missing, len(missing))
        dupes = psql("SELECT count(*) FROM (SELECT account_id, idempotency_key FROM orders "
                     "WHERE idempotency_key IS NOT NULL GROUP BY 1, 2 HAVING count(*) > 1) d")
        check("orders per (account, idempotency key) above 1", dupes == "0", dupes)
        unacked = len([k for k in stored if (int(k.split('-')[1]), k) not in acked])
        check("stored orders nobody was told about, after retries", unacked == 0, unacked)
        no_events = psql("SELECT count(*) FROM orders o WHERE NOT EXISTS (SELECT 1 FROM order_events e WHERE e.order_id = o.id)")
        check("orders without their events", no_events == "0", no_events)
        orphans = psql("SELECT count(*) FROM order_events e WHERE NOT EXISTS (SELECT 1 FROM orders o WHERE o.id = e.order_id)")
        check("events without their order", orphans == "0", orphans)
        gaps = psql("SELECT count(*) FROM (SELECT account_id FROM order_events GROUP BY account_id "
                    "HAVING min(sequence) <> 1 OR max(sequence) <> count(*)) g")
        check("accounts whose event sequence has a gap", gaps == "0", gaps)
        negative = psql("SELECT count(*) FROM bundles WHERE available_grams < 0")
        check("bundles with negative inventory", negative == "0", negative)
        held = dict(line.split("|") for line in psql(
            "SELECT l.bundle_id, coalesce(sum(l.quantity_grams), 0) FROM order_lines l JOIN orders o ON o.id = l.order_id "
            "WHERE o.mode = 'live' AND NOT l.insufficient_available_quantity AND o.status NOT IN ('cancelled', 'failed') "
            "GROUP BY l.bundle_id").splitlines())
        now = dict(line.split("|") for line in psql(
            "SELECT id, available_grams FROM bundles WHERE available_grams IS NOT NULL").splitlines())
        unbalanced = [b for b in supply if int(supply[b]) != int(now[b]) + int(held.get(b, 0))]
        check("bundles where supply != available + held by live orders", not unbalanced,
              f"{len(unbalanced)} of {len(supply)} limited bundles")

        # Delivery --------------------------------------------------------------
        events = {}
        for line in psql("SELECT event_id, account_id, sequence FROM order_events").splitlines():
            eid, account, seq = line.split("|")
            events[eid] = (account, int(seq))
        deadline = time.time() + 120
        seen = set()
        while time.time() < deadline:
            seen = set()
            with open(f"{WORK}/deliveries.jsonl") as f:
                for line in f:
                    seen.add(json.loads(line)["event_id"])
            if set(events) <= seen:
                break
            time.sleep(1)
        undelivered = len(set(events) - seen)
        check("events never delivered", undelivered == 0, f"{undelivered} of {len(events)}")
        first_seen = {}
        bad_signatures = 0
        deliveries = 0
        firsts = set()
        with open(f"{WORK}/deliveries.jsonl") as f:
            for line in f:
                d = json.loads(line)
                deliveries += 1
                bad_signatures += 0 if d["signature_ok"] else 1
                if d["event_id"] in firsts:
                    continue
                firsts.add(d["event_id"])
                first_seen.setdefault(d["account_id"], []).append(int(d["sequence"]))
        broken = [a for a, seqs in first_seen.items() if seqs != list(range(1, len(seqs) + 1))]
        check("accounts whose events first arrived out of order", not broken, len(broken))
        check("deliveries with an invalid signature", bad_signatures == 0, f"{bad_signatures} of {deliveries}")
        say(f"deliveries: {deliveries} event deliveries for {len(events)} events "
            f"({deliveries - len(firsts)} repeats, at least once)")
        for name, took in record:
            check(f"ready again after {name}", took is not None and took < 30,
                  "never" if took is None else f"{took:.2f} s")
    finally:
        procs.stop_all()
        receiver.terminate()
    say(f"fault suite: {'FAILED: ' + ', '.join(failures) if failures else 'every check passed'}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
