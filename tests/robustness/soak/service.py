"""The soak's surroundings: `checkout` subprocesses (web processes, workers, CLI) and the merchants' notify URL."""

from __future__ import annotations

import collections
import json
import signal
import subprocess
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from ...processes import checkout_command, free_port, stop, wait_until_ready

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
        with self.lock:  # self.requests is the arrival order: the ordering check reads it
            request = {"path": path, "headers": headers, "raw": raw, "json": body, "notify_id": notify_id}
            self.requests.append(request)
            first = self.seen[notify_id] == 0
            self.seen[notify_id] += 1
            request["status"] = 500 if first and len(self.seen) % FAIL_EVERY == 0 else 200
            if request["status"] == 500:
                self.failed_on_purpose.add(notify_id)
            return request["status"]

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
    """`count` `checkout worker` subprocesses, killed with SIGKILL in turn and started again at once."""

    def __init__(self, env: dict, log: Path, count: int = 1):
        self.env, self.log = env, log
        self.processes: list[subprocess.Popen | None] = [None] * count
        self.starts = self.kills = 0
        self.died_alone: list[int] = []

    def _start(self, n: int) -> None:
        with self.log.open("ab") as out:
            self.processes[n] = subprocess.Popen(
                checkout_command("worker", "--interval", "0.2"), env=self.env, stdout=out, stderr=subprocess.STDOUT
            )
        self.starts += 1

    def start(self) -> None:
        for n in range(len(self.processes)):
            self._start(n)

    def kill_and_restart(self, n: int = 0) -> None:
        process = self.processes[n]
        assert process is not None
        code = process.poll()
        if code is not None:
            self.died_alone.append(code)
        else:
            process.send_signal(signal.SIGKILL)
            process.wait(timeout=10)
            self.kills += 1
        self._start(n)

    def check_alive(self) -> None:
        """Note any worker that exited by itself (and start it again)."""
        for n, process in enumerate(self.processes):
            if process is not None and (code := process.poll()) is not None:
                self.died_alone.append(code)
                self._start(n)

    def stop(self) -> None:
        for process in self.processes:
            if process is not None:
                stop(process)


class Servers:
    """`count` `checkout serve --no-worker` processes on their own ports, one database and one secret key."""

    def __init__(self, env: dict, folder: Path, count: int = 2):
        self.env, self.folder = env, folder
        self.ports = [free_port() for _ in range(count)]
        self.bases = [f"http://127.0.0.1:{port}" for port in self.ports]
        self.logs = [folder / f"serve-{n}.log" for n in range(count)]
        self.processes: list[subprocess.Popen | None] = [None] * count
        self.kills = 0

    def start(self, n: int, timeout: float) -> None:
        command = checkout_command("serve", "--host", "127.0.0.1", "--port", str(self.ports[n]), "--no-worker")
        with self.logs[n].open("ab") as out:
            process = subprocess.Popen(command, env=self.env, stdout=out, stderr=subprocess.STDOUT)
        self.processes[n] = process
        if not wait_until_ready(f"{self.bases[n]}/healthz", process, timeout):
            process.kill()
            raise RuntimeError(f"checkout serve did not start:\n{tail(self.logs[n])}")

    def kill(self, n: int) -> None:
        """SIGKILL web process `n`: what it was answering is cut off, its port refuses connections."""
        process = self.processes[n]
        assert process is not None and process.poll() is None, "a web process exited by itself"
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=10)
        self.kills += 1

    def stop(self) -> None:
        for process in self.processes:
            if process is not None:
                stop(process)


def create_merchant(env: dict, name: str) -> dict:
    def run(*args: str) -> str:
        return subprocess.run(
            checkout_command(*args), env=env, capture_output=True, text=True, check=True, timeout=120
        ).stdout

    credentials = json.loads(run("merchants", "create", "--name", name, "--return-host", "shop.example"))
    for currency, amount in (("USD", "1000000.00"), ("EUR", "200000.00")):
        run("merchants", "fund", "--app-id", credentials["app_id"], "--currency", currency, "--amount", amount)
    return credentials
