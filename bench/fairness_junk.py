"""Junk requests (bench/fairness.sh): random methods, some of tens of
thousands of characters, on random paths, without a key, each on its own
connection.

    python3 bench/fairness_junk.py HOST PORT COUNT

Prints `JUNK <count> <seconds> <status>=<n> ...` (`closed` when the server
closed the connection without an answer).
"""

import collections
import random
import socket
import string
import sys
import threading
import time

STANDARD = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "CONNECT"]
TOKEN = string.ascii_letters + string.digits + "-_.~"


def method(rng):
    r = rng.random()
    if r < 0.4:
        return rng.choice(STANDARD)
    if r < 0.97:
        return "".join(rng.choices(string.ascii_uppercase, k=rng.randint(1, 40)))
    return "".join(rng.choices(string.ascii_uppercase, k=rng.randint(1000, 60000)))


def path(rng):
    segments = ["".join(rng.choices(TOKEN, k=rng.randint(1, 24))) for _ in range(rng.randint(1, 5))]
    prefix = rng.choice(["", "/v1", "/console", "/v1/shipments", "/links"])
    return prefix + "/" + "/".join(segments)


def worker(host, port, count, seed, statuses, lock):
    rng = random.Random(seed)
    for _ in range(count):
        line = f"{method(rng)} {path(rng)} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
        status = "closed"
        try:
            with socket.create_connection((host, port), timeout=10) as s:
                s.sendall(line.encode())
                answer = s.recv(64).decode("latin-1")
                if answer.startswith("HTTP/"):
                    status = answer.split(" ", 2)[1]
        except OSError:
            status = "closed"
        with lock:
            statuses[status] += 1


def main():
    host, port, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    threads_n = 4
    statuses = collections.Counter()
    lock = threading.Lock()
    start = time.monotonic()
    threads = [
        threading.Thread(target=worker, args=(host, port, count // threads_n + (i < count % threads_n), 46 + i, statuses, lock))
        for i in range(threads_n)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    spread = " ".join(f"{k}={v}" for k, v in sorted(statuses.items()))
    print(f"JUNK {sum(statuses.values())} {time.monotonic() - start:.1f} {spread}")


if __name__ == "__main__":
    main()
