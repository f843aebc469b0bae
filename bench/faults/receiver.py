"""Webhook receiver of the fault suite: verifies every request's Lune-HMAC
signature with its organisation's secret (docs/webhooks.md), records each event
it carries as one JSON line (event_id, account_id, sequence, signature_ok) in
arrival order, and acknowledges with 204.

    python3 receiver.py PORT SECRETS_JSON OUT_JSONL"""
import hashlib
import hmac
import http.server
import json
import sys
import threading
import time

port, secrets_path, out_path = int(sys.argv[1]), sys.argv[2], sys.argv[3]
lock = threading.Lock()
out = open(out_path, "a", buffering=1)
secrets = {}


def verify(secret, header, raw_body, tolerance=300):
    parts = [p.split("=", 1) for p in header.split(",") if "=" in p]
    timestamp = next((v for k, v in parts if k == "timestamp"), None)
    if timestamp is None or abs(time.time() - int(timestamp)) > tolerance:
        return False
    expected = hmac.new(secret.encode(), f"{timestamp}.".encode() + raw_body, hashlib.sha256).hexdigest()
    return any(hmac.compare_digest(expected, v) for k, v in parts if k == "v1")


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_POST(self):
        raw = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        header = self.headers.get("Lune-HMAC", "")
        organisation = next((p.split("=", 1)[1] for p in header.split(",") if p.startswith("organisation=")), "")
        with lock:
            if organisation not in secrets:
                try:
                    secrets.update(json.load(open(secrets_path)))
                except (OSError, ValueError):
                    pass
            ok = organisation in secrets and verify(secrets[organisation], header, raw)
            for e in json.loads(raw)["events"]:
                out.write(json.dumps({"event_id": e["event_id"], "account_id": e["account_id"],
                                      "sequence": e["sequence"], "signature_ok": ok}) + "\n")
        self.send_response(204)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


http.server.ThreadingHTTPServer.daemon_threads = True
http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler).serve_forever()
