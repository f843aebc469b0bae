#!/usr/bin/env python3
"""A webhook receiver for the tutorial: prints each event Tonne sends, after
checking its Lune-HMAC signature (docs/webhooks.md, "Verifying the
signature").

    python3 docs/tutorial/receiver.py PORT SECRET
"""
import hashlib
import hmac
import http.server
import json
import sys
import time

PORT, SECRET = int(sys.argv[1]), sys.argv[2]


def verified(header: str, body: bytes, tolerance: int = 300) -> bool:
    parts = [p.split("=", 1) for p in header.split(",") if "=" in p]
    stamp = next((v for k, v in parts if k == "timestamp"), None)
    if stamp is None or not stamp.isdigit() or abs(time.time() - int(stamp)) > tolerance:
        return False
    expected = hmac.new(SECRET.encode(), f"{stamp}.".encode() + body, hashlib.sha256).hexdigest()
    return any(hmac.compare_digest(expected, v) for k, v in parts if k == "v1")


class Receiver(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        if not verified(self.headers.get("Lune-HMAC", ""), body):
            print("refused: the signature does not match", flush=True)
            self.send_response(401)
            self.end_headers()
            return
        for event in json.loads(body)["events"]:
            data = event["data"]
            if "order" in data:
                what = f"order {data['order']['id']} ({data['order']['status']})"
            else:
                a = data.get("allocation", {})
                what = f"{a.get('quantity')} t of order {a.get('order_id')} to project {a.get('project_id')}"
            print(f"verified {event['event_type']}: {what}", flush=True)
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args):
        pass


http.server.HTTPServer(("127.0.0.1", PORT), Receiver).serve_forever()
