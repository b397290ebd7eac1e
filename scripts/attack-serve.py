#!/usr/bin/env python3
"""Replays a set of attacks against a fresh `solver serve` on loopback, and fails (exit 1, saying
which and why) if the server does not hold: slow headers, a slow body, a huge declared length, 200 slow
clients while a normal request must still be answered within 2 s, a cross-site form post, a foreign Host,
50 hard requests and then a 3x3 solve that must be answered or refused (503) within its time limit, and
SIGTERM with half-sent requests open, which must end the process within 3 s.

Bounded: about 25 s, never more than a minute. Needs only python3 and the debug `solver` binary: $SOLVER,
else $CARGO_TARGET_DIR/debug/solver (target/debug/solver), built with cargo when missing. `make test` runs
it after the tests, which leave that binary up to date.

Usage: scripts/attack-serve.py
"""

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The server's own limits (web/src/listen.rs, web/src/lib.rs), with the margins this script allows.
HEADER_TIMEOUT = 5.0
BODY_TIMEOUT = 5.0
MARGIN = 2.0
# The time limit of the server under attack: long enough for a 3x3 solve, short enough to keep this quick.
TIME_LIMIT = 3.0
# The first 50 of Korf's 100: most take far more than TIME_LIMIT with Manhattan distance.
KORF = os.path.join(ROOT, "tests", "data", "korf100.txt")
EASY_3X3 = [8, 6, 7, 2, 5, 4, 3, 0, 1]

failures = []


def check(ok, what):
    """Records a failed check (the script goes on, to report every failure)."""
    print(("ok    " if ok else "FAIL  ") + what, flush=True)
    if not ok:
        failures.append(what)


def solver_binary():
    if os.environ.get("SOLVER"):
        return os.environ["SOLVER"]
    target = os.environ.get("CARGO_TARGET_DIR") or os.path.join(ROOT, "target")
    path = os.path.join(target, "debug", "solver")
    if not os.path.exists(path):
        print(f"attack-serve: building {path}", flush=True)
        subprocess.run(["cargo", "build", "--locked", "-p", "solver"], cwd=ROOT, check=True)
    return path


class Server:
    """`solver serve --port 0` on loopback; the port is read from the line it logs."""

    def __init__(self, binary, *args):
        self.proc = subprocess.Popen(
            [binary, "serve", "--port", "0", "--bind", "127.0.0.1", "--pdbs", "/nonexistent", *args],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        deadline = time.monotonic() + 20
        for line in self.proc.stderr:
            if "http://" in line:
                self.addr = line.split("http://")[1].split("/")[0]
                break
            if time.monotonic() > deadline:
                break
        else:
            sys.exit(f"attack-serve: the server ended before saying where it listens ({self.proc.wait()})")
        self.port = int(self.addr.rsplit(":", 1)[1])
        # Keep reading stderr, so the server never blocks on a full pipe.
        threading.Thread(target=lambda: [None for _ in self.proc.stderr], daemon=True).start()

    def connect(self, timeout=TIME_LIMIT + 5):
        """A connection whose reads give up after `timeout` seconds (a server that does not hold fails a
        check rather than hang the script)."""
        return socket.create_connection(("127.0.0.1", self.port), timeout=timeout)

    def stop(self):
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()


def head(server, method, path, length=None, content_type="application/json", host=None, extra="", headers=()):
    """A request's header block (without the blank line that ends it when `extra` is ''), with `headers`
    ("Name: value" lines) besides the usual."""
    lines = [f"{method} {path} HTTP/1.1", f"Host: {host or server.addr}", "Connection: close", *headers]
    if content_type:
        lines.append(f"Content-Type: {content_type}")
    if length is not None:
        lines.append(f"Content-Length: {length}")
    return ("\r\n".join(lines) + "\r\n" + extra).encode()


def read_answer(sock):
    """Status, headers (lowercase names) and body of the answer on `sock`, read to its close or to the
    socket's timeout (status None when no answer came)."""
    data = b""
    while True:
        try:
            chunk = sock.recv(65536)
        except (ConnectionResetError, TimeoutError):
            break
        if not chunk:
            break
        data += chunk
    text = data.decode("utf-8", "replace")
    if "\r\n\r\n" not in text:
        return None, {}, text
    top, body = text.split("\r\n\r\n", 1)
    status = int(top.split(" ")[1])
    headers = {}
    for line in top.split("\r\n")[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    if headers.get("transfer-encoding") == "chunked":
        out, rest = "", body
        while "\r\n" in rest:
            size, rest = rest.split("\r\n", 1)
            n = int(size.strip() or "0", 16)
            if n == 0:
                break
            out, rest = out + rest[:n], rest[n + 2 :]
        body = out
    return status, headers, body


def request(server, method, path, body=b"", **kw):
    """One whole request; returns status, headers, body and the seconds it took."""
    started = time.monotonic()
    with server.connect() as sock:
        sock.sendall(head(server, method, path, length=len(body), extra="\r\n", **kw) + body)
        status, headers, text = read_answer(sock)
    return status, headers, text, time.monotonic() - started


def solve(server, position, **kw):
    return request(server, "POST", "/api/solve", json.dumps(position).encode(), **kw)


def closed_within(sock, seconds):
    """Seconds until the server closes `sock` (any answer it sends first is read), or None past `seconds`."""
    started = time.monotonic()
    sock.settimeout(seconds)
    try:
        while sock.recv(65536):
            pass
    except socket.timeout:
        return None
    except OSError:
        pass
    return time.monotonic() - started


def korf_positions(count):
    positions = []
    with open(KORF) as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                positions.append([int(t) for t in line.split()[2:]])
    return positions[:count]


def attacks(binary):
    server = Server(binary, "--time-limit", str(TIME_LIMIT))
    try:
        status, _, text, took = solve(server, {"board": "3x3", "tiles": EASY_3X3})
        check(status == 200 and json.loads(text)["status"] == "solved", f"a 3x3 solve is answered ({took:.2f} s)")

        form = b"tiles=1&board=3x3"
        for kind in ["application/x-www-form-urlencoded", "text/plain", None]:
            status, _, text, _ = request(server, "POST", "/api/solve", form, content_type=kind)
            check(status == 415, f"a POST with Content-Type {kind} is refused with 415 (got {status}: {text.strip()})")

        host = f"rebound.example:{server.port}"
        status, _, text, _ = solve(server, {"board": "3x3", "tiles": EASY_3X3}, host=host)
        check(status == 403, f"a request for Host {host} is refused with 403 (got {status}: {text.strip()})")
        status, _, _, _ = request(server, "GET", "/", host=host)
        check(status == 403, f"the page asked for Host {host} is refused with 403 (got {status})")

        # Another site's page: a GET needs no JSON body, so where it comes from is what refuses it.
        for sent in ["Sec-Fetch-Site: cross-site", "Sec-Fetch-Site: same-site", "Origin: http://evil.example"]:
            status, _, text, _ = request(server, "GET", "/api/random?puzzle=water-sort&colors=6", headers=[sent])
            check(status == 403, f"a random draw sent with {sent} is refused with 403 (got {status}: {text.strip()})")
        status, _, text, _ = request(server, "GET", "/api/random?board=3x3", headers=["Sec-Fetch-Site: same-origin"])
        check(status == 200, f"the page's own random draw is answered (got {status}: {text.strip()})")
        status, headers, _, _ = request(server, "GET", "/")
        check("frame-ancestors 'none'" in headers.get("content-security-policy", ""),
              f"the page may not be framed by another site (Content-Security-Policy: {headers.get('content-security-policy')})")
        ids = []
        for _ in range(2):
            body = json.dumps({"board": "3x3", "tiles": EASY_3X3}).encode()
            status, _, text, _ = request(server, "POST", "/api/jobs", body)
            ids.append(json.loads(text)["id"] if status == 202 else "")
        check(all(len(i) == 16 for i in ids) and ids[0] != ids[1] and not all(i.isdigit() for i in ids),
              f"job ids are 64 random-looking bits, not a count: {ids}")

        # A flood of random draws does not take the search threads: a solve during it is answered.
        drawn = []

        def draw():
            try:
                drawn.append(request(server, "GET", "/api/random?puzzle=water-sort&colors=16&empty=2&capacity=8")[0])
            except OSError:
                drawn.append(None)

        flood = [threading.Thread(target=draw) for _ in range(60)]
        for t in flood:
            t.start()
        status, _, text, took = solve(server, {"board": "3x3", "tiles": EASY_3X3})
        for t in flood:
            t.join(timeout=TIME_LIMIT + 6)
        check(status == 200 and took < 2, f"during a flood of 60 random draws a 3x3 solve is answered within 2 s "
              f"({status}, {took:.2f} s; draws answered {sorted(set(map(str, drawn)))})")

        with server.connect(timeout=2) as sock:
            started = time.monotonic()
            sock.sendall(head(server, "POST", "/api/solve", length=10**14, extra="\r\n") + b"{")
            status, _, text = read_answer(sock)
            took = time.monotonic() - started
        check(status == 413 and took < 1, f"a declared length of 10^14 is refused with 413 at once ({status}, {took:.2f} s)")

        # Slow clients: 200 with half their headers sent, one with half its body, and one that sends nothing.
        slow = []
        for _ in range(200):
            sock = server.connect()
            sock.sendall(head(server, "POST", "/api/solve")[:40])
            slow.append(sock)
        half_body = server.connect(timeout=BODY_TIMEOUT + MARGIN)
        half_body.sendall(head(server, "POST", "/api/solve", length=100, extra="\r\n") + b'{"board": ')
        silent = server.connect()
        opened = time.monotonic()

        status, _, text, took = solve(server, {"board": "3x3", "tiles": EASY_3X3})
        check(status == 200 and took < 2, f"with 200 slow clients open a 3x3 solve is answered within 2 s ({status}, {took:.2f} s)")

        status, _, text = read_answer(half_body)
        took = time.monotonic() - opened
        bound = BODY_TIMEOUT + MARGIN
        check(status == 408 and took < bound, f"a half-sent body is answered 408 within {bound:.0f} s ({status}, {took:.2f} s)")
        bound = HEADER_TIMEOUT + MARGIN
        closed = closed_within(silent, max(0.1, opened + bound - time.monotonic())) is not None
        took = time.monotonic() - opened
        check(closed, f"a client sending nothing is closed within {bound:.0f} s ({took:.2f} s)")
        latest = 0.0
        still_open = 0
        for sock in slow:
            left = max(0.01, opened + bound - time.monotonic())
            if closed_within(sock, left) is None:
                still_open += 1
            latest = time.monotonic() - opened
            sock.close()
        check(still_open == 0, f"200 clients with half their headers sent are closed within {bound:.0f} s "
              f"({still_open} still open, the last closed {latest:.2f} s after opening)")
        half_body.close()
        silent.close()

        # 50 hard requests at once, then a 3x3 solve: it is answered or refused (503) within its time limit.
        answers = []
        lock = threading.Lock()

        def hard(tiles):
            try:
                answer = solve(server, {"tiles": tiles, "heuristic": "manhattan"})
            except OSError as e:
                answer = (None, {}, str(e), float("inf"))
            with lock:
                answers.append(answer)

        threads = [threading.Thread(target=hard, args=(p,)) for p in korf_positions(50)]
        for t in threads:
            t.start()
        time.sleep(0.3)
        status, headers, text, took = solve(server, {"board": "3x3", "tiles": EASY_3X3})
        bound = TIME_LIMIT + 0.5
        busy = status == 503 and "retry-after" in headers
        check((status == 200 or busy) and took < bound,
              f"after 50 hard requests a 3x3 solve is answered or refused with 503 within {bound} s "
              f"({status}, {took:.2f} s)")
        for t in threads:
            t.join(timeout=TIME_LIMIT + 6)
        refused = sum(1 for a in answers if a[0] == 503 and "retry-after" in a[1])
        limited = sum(1 for a in answers if a[0] == 200 and json.loads(a[2])["status"] in ("limit", "solved"))
        answers = list(answers)
        slowest = max((a[3] for a in answers), default=float("inf"))
        check(len(answers) == 50 and refused + limited == 50 and slowest < TIME_LIMIT + 1,
              f"the 50 hard requests are each answered within the time limit: {limited} searched, {refused} "
              f"refused with 503 and Retry-After, the slowest in {slowest:.2f} s")
        status, _, text, took = solve(server, {"board": "3x3", "tiles": EASY_3X3})
        check(status == 200, f"once they are done a 3x3 solve is answered ({status}, {took:.2f} s)")
    finally:
        server.stop()

    # SIGTERM with half-sent requests open: the process ends within 3 s, with exit code 130.
    server = Server(binary)
    try:
        half_head = server.connect()
        half_head.sendall(head(server, "POST", "/api/solve")[:30])
        half_body = server.connect()
        half_body.sendall(head(server, "POST", "/api/solve", length=100, extra="\r\n") + b"{")
        time.sleep(0.2)
        started = time.monotonic()
        server.proc.send_signal(signal.SIGTERM)
        try:
            code = server.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            code = None
        took = time.monotonic() - started
        check(code == 130 and took < 3, f"SIGTERM with half-sent requests open ends the server within 3 s "
              f"(exit {code}, {took:.2f} s)")
        half_head.close()
        half_body.close()
    finally:
        server.stop()


def main():
    started = time.monotonic()
    attacks(solver_binary())
    took = time.monotonic() - started
    if failures:
        print(f"attack-serve: {len(failures)} check(s) failed in {took:.0f} s:", file=sys.stderr)
        for f in failures:
            print(f"  {f}", file=sys.stderr)
        sys.exit(1)
    print(f"attack-serve: every attack held ({took:.0f} s)")


if __name__ == "__main__":
    main()
