"""A no-op webhook receiver for bench/webhooks.sh: answers 204, counts events."""
import http.server, json, socketserver, sys, threading
count = 0
lock = threading.Lock()
class H(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def do_POST(self):
        global count
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        with lock:
            count += len(json.loads(body)["events"])
        self.send_response(204); self.send_header("Content-Length", "0"); self.end_headers()
    def do_GET(self):
        global count
        if self.path == "/reset":
            with lock: count = 0
        out = str(count).encode()
        self.send_response(200); self.send_header("Content-Length", str(len(out))); self.end_headers(); self.wfile.write(out)
    def log_message(self, *a): pass
class S(socketserver.ThreadingMixIn, http.server.HTTPServer): daemon_threads = True
S(("127.0.0.1", int(sys.argv[1])), H).serve_forever()
