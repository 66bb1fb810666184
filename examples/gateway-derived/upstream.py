"""An API that serves only its newest version, v2, on Python's standard library: `versionary gateway`
serves v1 from it by the change file beside it (changes-v2.json; docs/gateway.md, "Serve old
versions from the newest").

  GET  /api/v2/users        {"data": [...users], "meta": {"next": null}}
  GET  /api/v2/users/{id}   a user: id, name, email, status (active, inactive or pending)
  POST /api/v2/users        creates a user from the body; answers 201 with it
  GET  /_received           every request (method, target, body) received so far: tests read it
Usage: python3 upstream.py <port>; prints "ready <port>" once it listens.
"""
import json
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

USERS = {
    1: {"id": 1, "name": "Ada Lovelace", "email": "ada@example.com", "status": "active"},
    2: {"id": 2, "name": "Alan Turing", "email": "alan@example.com", "status": "pending"},
}
received = []


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def send_json(self, status, body):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/problem+json" if status >= 400 else "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("ETag", '"upstream-%d"' % len(data))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)

    def route(self):
        if self.path == "/_received":
            return self.send_json(200, received)
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length).decode() if length else None
        received.append({"method": self.command, "target": self.path, "body": body})
        path = urlsplit(self.path).path
        if path == "/api/v2/users" and self.command in ("GET", "HEAD"):
            users = [USERS[i] for i in sorted(USERS)]
            return self.send_json(200, {"data": users, "meta": {"next": None}})
        if path == "/api/v2/users" and self.command == "POST":
            user = json.loads(body or "{}")
            user["id"] = max(USERS) + 1
            user.setdefault("status", "active")
            USERS[user["id"]] = user
            return self.send_json(201, user)
        if path.startswith("/api/v2/users/") and self.command in ("GET", "HEAD"):
            uid = path.rsplit("/", 1)[1]
            if not uid.isdigit() or int(uid) not in USERS:
                return self.send_json(404, {"type": "about:blank", "title": "Not Found", "status": 404, "detail": "No such user."})
            return self.send_json(200, USERS[int(uid)])
        if path == "/api/v2/imports":
            return self.send_json(200, {"data": "not a list"})
        return self.send_json(404, {"type": "about:blank", "title": "Not Found", "status": 404, "detail": "Not here."})

    do_GET = do_HEAD = do_POST = do_PUT = do_PATCH = do_DELETE = route


if __name__ == "__main__":
    server = ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Handler)
    server.daemon_threads = True
    print(f"ready {server.server_address[1]}", flush=True)
    server.serve_forever()
