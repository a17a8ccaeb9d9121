#!/usr/bin/env python3
"""tests/replay/server.py: the loopback HTTP replay server of kh's tests.

    python3 tests/replay/server.py [--port-file F] [--log F] [--latency MS]
                                   [--no-gzip] SCENARIO_DIR

It binds 127.0.0.1 on a free port, writes the port to --port-file (else to
stdout) once it listens, and serves the responses of SCENARIO_DIR over
HTTP/1.1 with keep-alive, one thread per connection. Stop it with SIGTERM.

A scenario is a directory holding a file `routes` and response files.

routes: one route a line; lines starting with "#" and blank lines are
ignored:

    /users/alice                      user-alice.http
    /repos/o/r/pulls?state=closed     502.http pulls-p1.http

The first word is the request target exactly as the client sends it (path
and query); the rest are response files, relative to the scenario
directory (../common/x.http works). The Nth request to a target gets the
Nth file; the last one repeats. A target with no route gets a GitHub-shaped
404. A line "* FILE" answers every unrouted target with FILE.

A response file is a raw HTTP response, like the recordings in
fixtures/github (NAME.headers + NAME.json): a status line
"HTTP/1.1 200 OK", header lines, an empty line, then the body bytes. The
server fixes what the recorded headers say about the original wire message:
it drops Content-Length, Transfer-Encoding, Content-Encoding and Connection
and sends its own (gzip when the client accepts it, unless --no-gzip).

Substitutions in headers and body:
    https://api.github.com  -> http://127.0.0.1:PORT  (so Link and Location
                               of real recordings point back here)
    {{BASE}}                -> http://127.0.0.1:PORT
    {{NOW}}, {{NOW+N}}      -> epoch seconds now (plus N)
    {{DATE}}                -> now as an HTTP date (for the Date header)

Pseudo-headers (not sent):
    X-Replay-Stall: S       send the headers, then wait S seconds before
                            the body (a stalled answer, for timeouts)
    X-Replay-Truncate: N    promise the whole body but send N bytes and
                            close the connection (a truncated answer)

Conditional requests: when the request carries If-None-Match and the
response has an ETag with the same tag (W/ ignored), or If-Modified-Since
equal to the response's Last-Modified, the answer is a 304 with the
response's headers and no body.

Counters: GET /_replay/stats answers {"requests":N,"conditional":N,
"not_modified":N,"full":N,"auth":N} (requests excludes /_replay/*;
conditional: requests with a validator; full: answers with a body; auth:
requests with an Authorization header). --log F appends one line per
request: "TARGET STATUS cond=0|1 auth=0|1 accept=ACCEPT version=V ua=UA"
(never a header's secret value). --latency MS sleeps before every answer.

python3 server.py --gen-bench DIR PAGES writes a scenario of PAGES pages of
pull requests (30 a page) for the benchmark.
"""

import gzip
import json
import os
import re
import sys
import threading
import time
from email.utils import formatdate
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

DROP = {"content-length", "transfer-encoding", "content-encoding",
        "connection", "keep-alive"}


def load_response(path):
    with open(path, "rb") as f:
        raw = f.read()
    head, sep, body = raw.partition(b"\r\n\r\n")
    if not sep:
        head, sep, body = raw.partition(b"\n\n")
    lines = head.decode("utf-8").replace("\r\n", "\n").split("\n")
    m = re.match(r"HTTP/[0-9.]+ (\d{3})(?: (.*))?$", lines[0])
    if not m:
        raise SystemExit("%s: no status line" % path)
    headers = []
    for line in lines[1:]:
        if not line.strip():
            continue
        name, _, value = line.partition(":")
        headers.append((name.strip(), value.strip()))
    return int(m.group(1)), m.group(2) or "", headers, body


def load_routes(scenario):
    routes, default = {}, None
    with open(os.path.join(scenario, "routes")) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            words = line.split()
            files = [os.path.join(scenario, w) for w in words[1:]]
            for p in files:
                load_response(p)  # fail early on a bad file
            if words[0] == "*":
                default = files
            else:
                routes[words[0]] = files
    return routes, default


def tag(etag):
    etag = etag.strip()
    return etag[2:] if etag.startswith("W/") else etag


class State:
    def __init__(self, scenario, latency, gz, log):
        self.scenario = scenario
        self.routes, self.default = load_routes(scenario)
        self.hits = {}
        self.lock = threading.Lock()
        self.latency = latency
        self.gzip = gz
        self.log = log
        self.stats = {"requests": 0, "conditional": 0, "not_modified": 0,
                      "full": 0, "auth": 0}
        self.base = None
        self.cache, self.gz = {}, {}

    def response(self, path):
        """A response file, read once; a body without {{...}} substituted once."""
        with self.lock:
            r = self.cache.get(path)
        if r is None:
            status, reason, headers, body = load_response(path)
            if b"{{" not in body:
                body = body.replace(b"https://api.github.com", self.base.encode())
            r = (status, reason, headers, body)
            with self.lock:
                self.cache[path] = r
        return r

    def gzipped(self, body):
        with self.lock:
            z = self.gz.get(body)
        if z is None:
            z = gzip.compress(body, 6, mtime=0)
            with self.lock:
                self.gz[body] = z
        return z


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # headers and body go in two writes
    server_version = "kh-replay"
    sys_version = ""

    def log_message(self, fmt, *args):
        pass

    def subst(self, s, now):
        st = self.server.state
        s = s.replace("https://api.github.com", st.base)
        s = s.replace("{{BASE}}", st.base)
        s = s.replace("{{DATE}}", formatdate(now, usegmt=True))
        return re.sub(r"\{\{NOW(?:\+(\d+))?\}\}",
                      lambda m: str(now + int(m.group(1) or 0)), s)

    def do_GET(self):
        st = self.server.state
        if self.path == "/_replay/stats":
            with st.lock:
                body = json.dumps(st.stats, sort_keys=True).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        inm = self.headers.get("If-None-Match")
        ims = self.headers.get("If-Modified-Since")
        auth = self.headers.get("Authorization") is not None
        with st.lock:
            files = st.routes.get(self.path, st.default)
            n = st.hits.get(self.path, 0)
            st.hits[self.path] = n + 1
            st.stats["requests"] += 1
            st.stats["conditional"] += bool(inm or ims)
            st.stats["auth"] += auth
        if st.latency:
            time.sleep(st.latency / 1000.0)
        if files:
            status, reason, headers, body = st.response(files[min(n, len(files) - 1)])
        else:
            status, reason, headers = 404, "Not Found", [
                ("Content-Type", "application/json; charset=utf-8")]
            body = (b'{"message":"Not Found","documentation_url":'
                    b'"https://docs.github.com/rest","status":"404"}')
        stall = truncate = None
        now = int(time.time())  # one instant for Date and reset alike
        out = []
        for name, value in headers:
            low = name.lower()
            if low == "x-replay-stall":
                stall = float(value)
            elif low == "x-replay-truncate":
                truncate = int(value)
            elif low not in DROP:
                out.append((name, self.subst(value, now)))
        static = b"{{" not in body  # the same bytes every time: memoised
        if not static:
            body = self.subst(body.decode("utf-8", "surrogateescape"), now).encode(
                "utf-8", "surrogateescape")
        etag = next((v for k, v in out if k.lower() == "etag"), None)
        lastmod = next((v for k, v in out if k.lower() == "last-modified"), None)
        if status == 200 and ((inm and etag and any(tag(t) == tag(etag) for t in inm.split(",")))
                              or (not inm and ims and lastmod and ims == lastmod)):
            status, reason, body = 304, "Not Modified", b""
        with st.lock:
            st.stats["not_modified"] += status == 304
            st.stats["full"] += len(body) > 0
        if st.log:
            with st.lock, open(st.log, "a") as f:
                f.write("%s %d cond=%d auth=%d accept=%s version=%s ua=%s\n" % (
                    self.path, status, bool(inm or ims), auth,
                    self.headers.get("Accept", "-"),
                    self.headers.get("X-GitHub-Api-Version", "-"),
                    self.headers.get("User-Agent", "-")))
        if body and st.gzip and "gzip" in self.headers.get("Accept-Encoding", ""):
            body = st.gzipped(body) if static else gzip.compress(body, 6)
            out.append(("Content-Encoding", "gzip"))
        self.send_response_only(status, reason or None)
        for name, value in out:
            self.send_header(name, value)
        if status != 304:
            self.send_header("Content-Length", str(len(body)))
        if truncate is not None:
            self.send_header("Connection", "close")
            self.close_connection = True
        self.end_headers()
        self.wfile.flush()
        if stall:
            time.sleep(stall)
        if truncate is not None:
            body = body[:truncate]
        try:
            self.wfile.write(body)
            self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True


class Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 128  # listen() backlog: parallel clients connect at once


def gen_bench(d, pages):
    """PAGES pages of 30 closed pull requests each, Link-chained."""
    os.makedirs(d, exist_ok=True)
    routes = []
    for p in range(1, pages + 1):
        items = []
        for i in range(30):
            n = (pages - p) * 30 + (30 - i)
            items.append({
                "url": "https://api.github.com/repos/bench/big/pulls/%d" % n,
                "html_url": "https://github.com/bench/big/pull/%d" % n,
                "number": n, "state": "closed",
                "title": "Speed up kernel %d" % n,
                "user": {"login": "dev%d" % (n % 97), "id": 1000 + n % 97, "type": "User"},
                "body": "Tuned the tile sizes.\n" * 4,
                "created_at": "2025-01-01T00:00:00Z",
                "closed_at": "2025-01-02T00:00:00Z",
                "merged_at": "2025-01-02T00:00:00Z" if n % 3 else None,
                "labels": [],
                "head": {"repo": {"full_name": "dev%d/big" % (n % 97), "fork": True}},
                "base": {"repo": {"full_name": "bench/big", "fork": False}},
            })
        q = "state=closed&sort=created&direction=desc&per_page=100"
        url = "/repos/bench/big/pulls?" + q if p == 1 else \
            "/repositories/4242/pulls?%s&page=%d" % (q, p)
        links = []
        if p < pages:
            links.append('<https://api.github.com/repositories/4242/pulls?%s&page=%d>; rel="next"' % (q, p + 1))
            links.append('<https://api.github.com/repositories/4242/pulls?%s&page=%d>; rel="last"' % (q, pages))
        name = "p%d.http" % p
        with open(os.path.join(d, name), "w") as f:
            f.write("HTTP/1.1 200 OK\n")
            f.write("Content-Type: application/json; charset=utf-8\n")
            f.write('ETag: W/"bench%d"\n' % p)
            f.write("X-RateLimit-Limit: 5000\nX-RateLimit-Remaining: 4999\n")
            f.write("X-RateLimit-Reset: {{NOW+3600}}\nX-RateLimit-Resource: core\n")
            if links:
                f.write("Link: %s\n" % ", ".join(links))
            f.write("\n")
            f.write(json.dumps(items, separators=(",", ":")))
        routes.append("%s %s" % (url, name))
    with open(os.path.join(d, "routes"), "w") as f:
        f.write("\n".join(routes) + "\n")
    with open(os.path.join(d, "urls"), "w") as f:
        f.write("\n".join(r.split()[0] for r in routes) + "\n")


def main(argv):
    args = argv[1:]
    if args[:1] == ["--gen-bench"]:
        gen_bench(args[1], int(args[2]))
        return 0
    opts = {"--port-file": None, "--log": None, "--latency": "0"}
    gz = True
    while args and args[0].startswith("--"):
        if args[0] == "--no-gzip":
            gz = False
            args = args[1:]
            continue
        if args[0] not in opts or len(args) < 2:
            sys.stderr.write("server.py: bad option %s\n" % args[0])
            return 2
        opts[args[0]] = args[1]
        args = args[2:]
    if len(args) != 1:
        sys.stderr.write("usage: server.py [options] SCENARIO_DIR\n")
        return 2
    # Many connection threads each take the GIL several times a request:
    # with the default 5 ms switch interval they queue behind each other.
    sys.setswitchinterval(0.0002)
    state = State(args[0], int(opts["--latency"]), gz, opts["--log"])
    srv = Server(("127.0.0.1", 0), Handler)
    srv.state = state
    port = srv.server_address[1]
    state.base = "http://127.0.0.1:%d" % port
    if opts["--port-file"]:
        tmp = opts["--port-file"] + ".tmp"
        with open(tmp, "w") as f:
            f.write("%d\n" % port)
        os.rename(tmp, opts["--port-file"])
    else:
        print(port, flush=True)
    try:
        srv.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    import signal
    signal.signal(signal.SIGTERM, lambda *a: sys.exit(0))
    sys.exit(main(sys.argv))
