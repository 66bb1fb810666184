"""A small JSON API on Python's standard library: an API in another language to put `versionary gateway` in front of (docs/gateway.md); the gateway tests use it too.

v1 users have "name"; v2 users have "firstName" and "lastName". Besides users it serves:
  GET  /api/vN/echo      the request it received (method, path, headers, every traceparent), so tests see what was forwarded
  POST /api/vN/echo      the same, with the body's length and SHA-256
  GET  /api/vN/slow?ms=  answers after a delay
  GET  /api/vN/big?mb=   streams that many MiB of bytes, chunked
  GET  /api/vN/big/sent  how many bytes of body the last big stream has written so far
  GET  /api/vN/hop       an answer with hop-by-hop headers (Connection: close, X-Hop; X-Hop), which a proxy removes
  POST /api/vN/early?status=413&then=close|drain
                         answers at once, before the body, with Connection: close; then closes with the body
                         unread (a reset), or reads the body to its end and closes, as servers do with an upload
                         they refuse; status=0 closes without an answer
  GET  /_received        every request target received so far (outside /api: only tests call it, directly)
Usage: python3 upstream.py <port>; prints "ready <port>" once it listens.
"""
import hashlib
import json
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

USERS = {1: ("Ada", "Lovelace"), 2: ("Alan", "Turing")}
# Bytes of body the last /big stream has handed to its socket: the tests read it to see back-pressure.
big_sent = 0
# Every request target received, in order: the gateway tests check that none escapes the prefix.
received = []


def user(version, uid):
    first, last = USERS[uid]
    if version == "v1":
        return {"id": uid, "name": f"{first} {last}"}
    return {"id": uid, "firstName": first, "lastName": last}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def send_json(self, status, body, headers=None):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)

    def read_body(self):
        """Read the request body to its end (Content-Length or chunked): its length and SHA-256."""
        length = int(self.headers.get("Content-Length") or 0)
        digest, size = hashlib.sha256(), 0
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            while True:
                n = int(self.rfile.readline().strip() or b"0", 16)
                if n == 0:
                    self.rfile.readline()
                    break
                chunk = self.rfile.read(n)
                self.rfile.readline()
                digest.update(chunk)
                size += len(chunk)
        else:
            while size < length:
                chunk = self.rfile.read(min(65536, length - size))
                if not chunk:
                    break
                digest.update(chunk)
                size += len(chunk)
        return size, digest.hexdigest()

    def route(self):
        global big_sent
        if self.path == "/_received":
            return self.send_json(200, received)
        received.append(self.path)
        url = urlsplit(self.path)
        parts = url.path.strip("/").split("/")
        query = parse_qs(url.query)
        if len(parts) < 3 or parts[0] != "api" or parts[1] not in ("v1", "v2"):
            return self.send_json(404, {"error": "not here", "path": url.path})
        version, rest = parts[1], parts[2:]
        if rest == ["users"] and self.command == "GET":
            return self.send_json(200, [user(version, i) for i in USERS], {"Link": '</api/%s/users?page=2>; rel="next"' % version})
        if len(rest) == 2 and rest[0] == "users" and self.command == "GET":
            uid = int(rest[1]) if rest[1].isdigit() else 0
            if uid not in USERS:
                return self.send_json(404, {"error": "no such user"})
            return self.send_json(200, user(version, uid))
        if rest == ["echo"]:
            size, digest = self.read_body()
            return self.send_json(200, {"method": self.command, "path": self.path, "headers": {k.lower(): v for k, v in self.headers.items()}, "traceparents": self.headers.get_all("traceparent") or [], "bodyLength": size, "bodySha256": digest})
        if rest == ["early"]:
            # The answer goes before the body is read; Connection: close ends the exchange after it.
            status = int(query.get("status", ["413"])[0])
            if status == 0:
                # No answer at all: the connection just closes.
                self.close_connection = True
                return None
            self.send_json(status, {"error": "refused early", "status": status}, {"Connection": "close"})
            if query.get("then", ["close"])[0] == "drain":
                self.read_body()
            # Otherwise the socket closes with the body unread: the kernel answers the rest with a reset.
            return None
        if rest == ["cookies"]:
            # Two fields of one name, and validators of the upstream's own.
            data = b'{"cookies":2}'
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.send_header("Set-Cookie", "a=1; Path=/")
            self.send_header("Set-Cookie", "b=2; Path=/")
            self.send_header("ETag", '"up-1"')
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(data)
            return None
        if rest == ["empty"]:
            self.send_response(204)
            self.end_headers()
            return None
        if rest == ["hop"]:
            return self.send_json(200, {"hop": True}, {"Connection": "close, X-Hop", "X-Hop": "secret", "Keep-Alive": "timeout=5"})
        if rest == ["slow"]:
            time.sleep(int(query.get("ms", ["1000"])[0]) / 1000)
            return self.send_json(200, {"slow": True})
        if rest == ["big", "sent"]:
            return self.send_json(200, {"sent": big_sent})
        if rest == ["big"]:
            big_sent = 0
            mib = int(query.get("mb", ["1"])[0])
            self.send_response(200)
            self.send_header("Content-Type", "application/octet-stream")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            block = bytes(range(256)) * 4096
            piece = 64 * 1024
            for _ in range(mib):
                # Written (and counted) in 64 KiB pieces, so the count follows the socket closely.
                self.wfile.write(b"%x\r\n" % len(block))
                for start in range(0, len(block), piece):
                    self.wfile.write(block[start:start + piece])
                    big_sent += piece
                self.wfile.write(b"\r\n")
            self.wfile.write(b"0\r\n\r\n")
            return None
        return self.send_json(404, {"error": "not here", "path": url.path})

    do_GET = do_HEAD = do_POST = do_PUT = do_PATCH = do_DELETE = do_QUERY = route


if __name__ == "__main__":
    server = ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Handler)
    server.daemon_threads = True
    print(f"ready {server.server_address[1]}", flush=True)
    server.serve_forever()
