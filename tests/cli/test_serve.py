"""`checkout serve` as a newcomer meets it: the addresses it prints, and a busy port told in one line."""

import os
import socket
import subprocess

import requests

from tests import processes


def test_serve_prints_the_service_demo_and_dashboard_addresses(tmp_path):
    process, port, _, log = processes.serve(tmp_path)
    try:
        lines = log.read_text().splitlines()
        assert any(line.startswith(f"checkout listening on http://127.0.0.1:{port} (") for line in lines), lines
        assert f"merchant demo: http://127.0.0.1:{port}/demo (also at http://localhost:{port}/demo)" in lines
        assert f"dashboard: http://127.0.0.1:{port}/dashboard" in lines
        login = requests.get(f"http://127.0.0.1:{port}/dashboard", timeout=10)
        assert login.status_code == 200 and login.url.startswith(f"http://127.0.0.1:{port}/dashboard/login")
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
