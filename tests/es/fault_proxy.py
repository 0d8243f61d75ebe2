#!/usr/bin/env python3
"""A fault-injecting HTTP proxy for fiohist's Elasticsearch tests (stdlib only).

    fault_proxy.py --upstream http://127.0.0.1:9260 [--port 0] [--max-seconds 900]
                   [--stop-on-stdin-eof] [--tls-cert CERT.pem --tls-key KEY.pem]

Listens on 127.0.0.1 (port 0: any free port), prints "PORT <n>" on stdout, and forwards every
request to the upstream node, except when a fault is armed. It stops on SIGTERM, after
--max-seconds, or (with --stop-on-stdin-eof) when its stdin closes.

With --tls-cert/--tls-key it serves HTTPS (to test --ca-file and --insecure); the upstream
stays plain HTTP.

Control (JSON bodies, answered by the proxy itself):
    POST /__proxy/fault   {"mode": M, "count": N, "path": "_bulk", ...}   arm a fault
    POST /__proxy/reset                                                  disarm all
    GET  /__proxy/stats                                                  counters as JSON
Modes (each applies to the next `count` requests whose path contains `path`; count -1 =
forever):
    status        answer {"status": S} (e.g. 429, 503) without forwarding
    too_large     answer 413 when the body is larger than {"max_bytes": B} (count ignored)
    drop          read the request, then close the connection without an answer
    drop_after    forward the request, then close the connection without the answer
    delay         sleep {"seconds": T}, then forward
    auth          require basic auth {"user": U, "password": P}, else 401 (count ignored)
    api_key       require "Authorization: ApiKey K" for {"key": K}, else 401 (count ignored)
"""
import argparse
import base64
import http.client
import http.server
import json
import os
import signal
import socket
import ssl
import sys
import threading
import time
import urllib.parse

LOCK = threading.Lock()
FAULTS = []  # dicts: mode, count, path, ...
STATS = {"requests": 0, "bulk_requests": 0, "injected": 0, "max_bulk_bytes": 0,
         "gzip_requests": 0, "split_413": 0}
UPSTREAM = None  # (host, port)


def take_fault(path, body_len, headers):
    """The fault to apply to this request, or None; consumes one count."""
    with LOCK:
        for f in FAULTS:
            if f.get("path", "_bulk") not in path:
                continue
            mode = f["mode"]
            if mode == "too_large":
                if body_len > f["max_bytes"]:
                    STATS["split_413"] += 1
                    STATS["injected"] += 1
                    return f
                continue
            if mode in ("auth", "api_key"):
                if mode == "auth":
                    expected = "Basic " + base64.b64encode(
                        (f["user"] + ":" + f["password"]).encode()).decode()
                else:
                    expected = "ApiKey " + f["key"]
                if headers.get("Authorization") != expected:
                    STATS["injected"] += 1
                    return f
                continue
            if f["count"] == 0:
                continue
            if f["count"] > 0:
                f["count"] -= 1
            STATS["injected"] += 1
            return f
    return None


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, fmt, *args):  # quiet
        pass

    def reply(self, status, obj):
        data = json.dumps(obj).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def drop(self):
        self.close_connection = True
        try:
            self.connection.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass

    def handle_any(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        if self.path.startswith("/__proxy/"):
            return self.control(body)
        with LOCK:
            STATS["requests"] += 1
            if "_bulk" in self.path:
                STATS["bulk_requests"] += 1
                STATS["max_bulk_bytes"] = max(STATS["max_bulk_bytes"], len(body))
            if self.headers.get("Content-Encoding") == "gzip":
                STATS["gzip_requests"] += 1
        fault = take_fault(self.path, len(body), self.headers)
        mode = fault["mode"] if fault else None
        if mode == "status":
            return self.reply(fault["status"], {"error": {
                "type": "injected_fault", "reason": "fault_proxy answered %d" % fault["status"]},
                "status": fault["status"]})
        if mode == "too_large":
            return self.reply(413, {"error": "request body too large (fault_proxy)"})
        if mode in ("auth", "api_key"):
            return self.reply(401, {"error": {"type": "security_exception",
                                              "reason": "missing or wrong credentials"},
                                    "status": 401})
        if mode == "drop":
            return self.drop()
        if mode == "delay":
            time.sleep(fault["seconds"])
        status, headers, data = self.forward(body)
        if mode == "drop_after":
            return self.drop()
        self.send_response(status)
        for k, v in headers:
            if k.lower() in ("content-length", "transfer-encoding", "connection"):
                continue
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)

    def forward(self, body):
        conn = http.client.HTTPConnection(UPSTREAM[0], UPSTREAM[1], timeout=300)
        try:
            headers = {k: v for k, v in self.headers.items()
                       if k.lower() not in ("host", "connection", "accept-encoding")}
            conn.request(self.command, self.path, body=body if body else None, headers=headers)
            resp = conn.getresponse()
            return resp.status, resp.getheaders(), resp.read()
        except OSError as e:
            return 502, [("Content-Type", "application/json")], json.dumps(
                {"error": "fault_proxy: upstream failed: %s" % e}).encode()
        finally:
            conn.close()

    def control(self, body):
        if self.path.startswith("/__proxy/fault"):
            spec = json.loads(body or b"{}")
            spec.setdefault("count", 1)
            spec.setdefault("path", "_bulk")
            with LOCK:
                FAULTS.append(spec)
            return self.reply(200, {"armed": spec})
        if self.path.startswith("/__proxy/reset"):
            with LOCK:
                FAULTS.clear()
                for k in STATS:
                    STATS[k] = 0
            return self.reply(200, {"reset": True})
        if self.path.startswith("/__proxy/stats"):
            with LOCK:
                return self.reply(200, dict(STATS))
        return self.reply(404, {"error": "unknown control path"})

    do_GET = do_POST = do_PUT = do_DELETE = do_HEAD = handle_any


def main():
    global UPSTREAM
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--upstream", required=True)
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--max-seconds", type=float, default=900)
    ap.add_argument("--stop-on-stdin-eof", action="store_true",
                    help="exit when stdin closes (when a test spawns it through a pipe)")
    ap.add_argument("--tls-cert", help="PEM certificate: serve HTTPS")
    ap.add_argument("--tls-key", help="PEM private key of --tls-cert")
    args = ap.parse_args()
    up = urllib.parse.urlsplit(args.upstream)
    if up.hostname not in ("127.0.0.1", "localhost", "::1"):
        sys.exit("fault_proxy: upstream must be on this machine")
    UPSTREAM = (up.hostname, up.port or 80)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    server.daemon_threads = True
    if args.tls_cert:
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.load_cert_chain(args.tls_cert, args.tls_key)
        server.socket = ctx.wrap_socket(server.socket, server_side=True)
    print("PORT %d" % server.server_address[1], flush=True)

    def stop(*_):
        threading.Thread(target=server.shutdown, daemon=True).start()

    signal.signal(signal.SIGTERM, stop)
    threading.Timer(args.max_seconds, stop).start()

    def watch_stdin():
        try:
            while os.read(0, 1024):
                pass
        except OSError:
            pass
        stop()

    if args.stop_on_stdin_eof:
        threading.Thread(target=watch_stdin, daemon=True).start()
    server.serve_forever()
    os._exit(0)


if __name__ == "__main__":
    main()
