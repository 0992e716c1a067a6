"""The soak's surroundings: `checkout` subprocesses (server, workers, CLI) and the merchants' notify URL."""

from __future__ import annotations

import collections
import json
import signal
import subprocess
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from ...processes import checkout_command, stop

FAIL_EVERY = 8  # the receiver answers 500 to the first attempt of every 8th new notification


class Receiver:
    """Records every request; fails the first attempt of a fixed share of notifications to make retries."""

    def __init__(self):
        self.lock = threading.Lock()
        self.requests: list[dict] = []
        self.seen: collections.Counter[str] = collections.Counter()
        self.failed_on_purpose: set[str] = set()
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/notify"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def _answer(self, path: str, headers: dict, raw: bytes) -> int:
        try:
            body = json.loads(raw)
        except ValueError:
            body = None
        notify_id = (body or {}).get("notify_id") or headers.get("X-Notify-Id") or ""
        with self.lock:
            self.requests.append({"path": path, "headers": headers, "raw": raw, "json": body})
            first = self.seen[notify_id] == 0
            self.seen[notify_id] += 1
            if first and len(self.seen) % FAIL_EVERY == 0:
                self.failed_on_purpose.add(notify_id)
                return 500
        return 200

    def _handler(self):
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self):  # noqa: N802 (http.server's name)
                length = int(self.headers.get("Content-Length", 0))
                raw = self.rfile.read(length)
                if len(raw) < length:  # the sender was killed mid-request: nothing was delivered
                    self.close_connection = True
                    return
                status = receiver._answer(self.path, dict(self.headers), raw)
                answer = b"success" if status == 200 else b"try again later"
                self.send_response(status)
                self.send_header("Content-Length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)

            def log_message(self, *args):
                pass

        return Handler

    def close(self):
        self.server.shutdown()
        self.server.server_close()


def tail(path: Path, lines: int = 40) -> str:
    return "\n".join(path.read_text(errors="replace").splitlines()[-lines:]) if path.exists() else ""


class Workers:
    """`checkout worker` subprocesses, one at a time, killed with SIGKILL and started again on demand."""

    def __init__(self, env: dict, log: Path):
        self.env, self.log = env, log
        self.process: subprocess.Popen | None = None
        self.starts = self.kills = 0
        self.died_alone: list[int] = []

    def start(self) -> None:
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(
                checkout_command("worker", "--interval", "0.2"), env=self.env, stdout=out, stderr=subprocess.STDOUT
            )
        self.starts += 1

    def kill_and_restart(self) -> None:
        code = self.process.poll()
        if code is not None:
            self.died_alone.append(code)
        else:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=10)
            self.kills += 1
        self.start()

    def stop(self) -> None:
        if self.process is not None:
            stop(self.process)


def create_merchant(env: dict, name: str) -> dict:
    def run(*args: str) -> str:
        return subprocess.run(
            checkout_command(*args), env=env, capture_output=True, text=True, check=True, timeout=120
        ).stdout

    credentials = json.loads(run("merchants", "create", "--name", name, "--return-host", "shop.example"))
    for currency, amount in (("USD", "1000000.00"), ("EUR", "200000.00")):
        run("merchants", "fund", "--app-id", credentials["app_id"], "--currency", currency, "--amount", amount)
    return credentials
