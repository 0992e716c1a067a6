"""`checkout serve` as a newcomer meets it: the addresses it prints, a busy port told in one line, the worker beside."""

import json
import os
import socket
import subprocess
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import ClassVar

import requests

from tests import builders, processes


def test_serve_prints_the_service_demo_and_dashboard_addresses(tmp_path):
    process, port, _, log = processes.serve(tmp_path)
    try:
        lines = log.read_text().splitlines()
        assert any(line.startswith(f"checkout listening on http://127.0.0.1:{port} (") for line in lines), lines
        assert f"merchant demo: http://127.0.0.1:{port}/demo (also at http://localhost:{port}/demo)" in lines
        assert f"dashboard: http://127.0.0.1:{port}/dashboard" in lines
        login = requests.get(f"http://127.0.0.1:{port}/dashboard", timeout=10)
        assert login.status_code == 200 and login.url.startswith(f"http://127.0.0.1:{port}/dashboard/login")
        # The serving processes find the Demo Shop serve provisioned before they started.
        demo = requests.get(f"http://127.0.0.1:{port}/demo/", timeout=10)
        assert demo.status_code == 200 and "Demo not set up" not in demo.text
    finally:
        processes.stop(process)


def test_serve_on_a_busy_port_says_so_in_one_line_and_exits_2(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        env = {
            **os.environ,
            "CHECKOUT_DATABASE_URL": f"sqlite:///{tmp_path / 'checkout.sqlite3'}",
            "CHECKOUT_SECRET_KEY": "serve-test-secret",
        }
        command = processes.checkout_command("serve", "--host", "127.0.0.1", "--port", str(port), "--no-worker")
        done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2, done.stderr
    assert done.stdout == ""
    assert done.stderr == f"port {port} is in use: choose another with --port\n"


class _Receiver(BaseHTTPRequestHandler):
    """A merchant's notification endpoint on loopback: what it received, in order."""

    received: ClassVar[list[dict]] = []
    arrived = threading.Condition()

    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        with self.arrived:
            self.received.append(body)
            self.arrived.notify_all()
        self.send_response(200)
        self.send_header("Content-Length", "7")
        self.end_headers()
        self.wfile.write(b"success")

    def log_message(self, *args):
        pass


def _started(tmp_path, *options: str, **settings: str) -> tuple[subprocess.Popen, int, dict, Path]:
    """`checkout serve` with `options` (the worker beside it unless told not) on a new SQLite database, with
    `settings` as more CHECKOUT_ variables; ready when /healthz answers."""
    port = processes.free_port()
    env = {
        **os.environ,
        "CHECKOUT_DATABASE_URL": f"sqlite:///{tmp_path / 'checkout.sqlite3'}",
        "CHECKOUT_SECRET_KEY": "serve-test-secret",
        **{f"CHECKOUT_{name}": value for name, value in settings.items()},
    }
    log = tmp_path / "serve.log"
    command = processes.checkout_command("serve", "--host", "127.0.0.1", "--port", str(port), *options)
    with log.open("w") as out:
        process = subprocess.Popen(command, env=env, stdout=out, stderr=out)
    if not processes.wait_until_ready(f"http://127.0.0.1:{port}/healthz", process, 60):
        processes.stop(process)
        raise AssertionError(log.read_text())
    return process, port, env, log


def _children(pid: int) -> list[int]:
    return [int(child) for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]


def test_serve_runs_the_worker_beside_its_server_and_stops_it(tmp_path):
    """The worker is a process of its own beside granian's: a paid Pix's notification reaches a receiver on
    loopback (allowed: the service listens on loopback only), and stopping serve stops every process."""
    receiver = ThreadingHTTPServer(("127.0.0.1", 0), _Receiver)
    threading.Thread(target=receiver.serve_forever, daemon=True).start()
    process, port, env, log = _started(tmp_path, SANDBOX="on")
    try:
        made = subprocess.run(
            processes.checkout_command("merchants", "create", "--name", "Beside"),
            env=env,
            capture_output=True,
            check=True,
        )
        credentials = json.loads(made.stdout)
        auth = (credentials["app_id"], credentials["security_key"])
        base = f"http://127.0.0.1:{port}"
        notify_url = f"http://127.0.0.1:{receiver.server_address[1]}/notify"
        body = {
            **builders.direct(notify_url=notify_url),
            "app_id": credentials["app_id"],
            "timestamp": "2026-11-28 01:00:00",
        }
        trade_no = requests.post(f"{base}/trade/pay", json=body, auth=auth, timeout=10).json()["trade_no"]
        paid = requests.post(f"{base}/sandbox/trades/{trade_no}/pay", auth=auth, timeout=10).json()
        assert paid["trade_status"] == "SUCCESS"
        with _Receiver.arrived:
            assert _Receiver.arrived.wait_for(lambda: _Receiver.received, 30), log.read_text()
        assert [(n["trade_no"], n["trade_status"]) for n in _Receiver.received] == [(trade_no, "SUCCESS")]
        beside = {pid: Path(f"/proc/{pid}/cmdline").read_bytes() for pid in _children(process.pid)}
        assert len(beside) >= 2, beside  # granian's serving process and the worker's
    finally:
        processes.stop(process)
        receiver.shutdown()
        receiver.server_close()
    assert process.returncode == 0, log.read_text()
    gone_by = time.monotonic() + 5
    while any(_alive(pid) for pid in beside) and time.monotonic() < gone_by:
        time.sleep(0.1)
    assert not {pid: line for pid, line in beside.items() if _alive(pid)}


def _alive(pid: int) -> bool:
    try:
        return not Path(f"/proc/{pid}/stat").read_text().split(") ", 1)[1].startswith("Z")
    except OSError:
        return False


def test_serve_killed_outright_leaves_no_process_serving_its_port(tmp_path):
    process, port, _, _ = _started(tmp_path)
    try:
        beside = _children(process.pid)
        assert len(beside) >= 2, beside  # granian's serving process and the worker's
    finally:
        process.kill()  # SIGKILL: nothing of serve's own runs to stop the others
        process.wait(10)
    gone_by = time.monotonic() + 10
    while any(_alive(pid) for pid in beside) and time.monotonic() < gone_by:
        time.sleep(0.1)
    assert not [pid for pid in beside if _alive(pid)]
    with socket.socket() as probe:
        assert probe.connect_ex(("127.0.0.1", port)) != 0  # refused: nobody listens there any more


def test_serve_behind_a_public_address_starts_and_announces_it(tmp_path):
    """With CHECKOUT_PUBLIC_URL, no origin is derived from where serve listens: the serving processes'
    settings are made without one."""
    process, _, _, log = _started(tmp_path, "--no-worker", PUBLIC_URL="https://pay.example")
    try:
        assert "dashboard: https://pay.example/dashboard" in log.read_text().splitlines()
    finally:
        processes.stop(process)
