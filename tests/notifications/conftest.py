"""A real HTTP receiver on 127.0.0.1 that records every request and answers as each test scripts it."""

import json
import os
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest


class Receiver:
    def __init__(self):
        self.requests: list[dict] = []
        self.script: list = []  # answers to give, in order; then `default`
        self.default = (200, b"success")
        self.arrived = threading.Condition()
        self.release = threading.Event()  # ends every "hang" answer early
        handler = self._handler()
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/notify"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def _handler(self):
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self):  # noqa: N802
                raw = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                with receiver.arrived:
                    receiver.requests.append(
                        {"path": self.path, "headers": dict(self.headers), "raw": raw, "json": json.loads(raw)}
                    )
                    answer = receiver.script.pop(0) if receiver.script else receiver.default
                    receiver.arrived.notify_all()
                if answer == "hang":
                    receiver.release.wait(30)
                    return
                if answer == "trickle":  # headers, then a byte now and then: never a whole answer in time
                    self.send_response(200)
                    self.send_header("Content-Length", "100")
                    self.end_headers()
                    for _ in range(100):
                        if receiver.release.wait(0.3):
                            return
                        self.wfile.write(b"s")
                        self.wfile.flush()
                    return
                if answer == "nul":
                    self.send_response(500)
                    self.send_header("Content-Length", "5")
                    self.end_headers()
                    self.wfile.write(b"a\x00b\x00c")
                    return
                if answer == "close":
                    self.close_connection = True
                    self.connection.shutdown(2)
                    return
                status, body = answer
                self.send_response(status)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        return Handler

    def wait_for(self, count: int, timeout: float = 20) -> None:
        """Block until `count` requests have arrived (bounded), without a fixed sleep."""
        deadline = time.monotonic() + timeout
        with self.arrived:
            while len(self.requests) < count:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"only {len(self.requests)} of {count} requests arrived")
                self.arrived.wait(left)

    def statuses(self) -> list[str]:
        return [r["json"].get("status") or r["json"].get("trade_status") for r in self.requests]

    def close(self):
        self.release.set()
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def receiver():
    instance = Receiver()
    yield instance
    instance.close()


def worker_process(app) -> subprocess.Popen:
    """A `checkout worker` of its own on the test database, allowed to reach the receivers on 127.0.0.1."""
    env = {
        **os.environ,
        "CHECKOUT_DATABASE_URL": app.config["DATABASE_URL"],
        "CHECKOUT_SANDBOX": "on",
        "CHECKOUT_PRIVATE_TARGETS": "allow",
    }
    return subprocess.Popen(
        [sys.executable, "-m", "checkout", "worker", "--interval", "0.2"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
