"""Live `checkout serve` on a free port with a fresh SQLite database, and Debian's Chromium."""
from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time

import pytest
import requests

CHROMIUM = os.environ.get("CHECKOUT_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
START_TIMEOUT = 30


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _checkout(*args: str) -> list[str]:
    return [sys.executable, "-m", "checkout", *args]


@pytest.fixture(scope="session")
def server_env(tmp_path_factory) -> dict:
    folder = tmp_path_factory.mktemp("live")
    return {**os.environ, "CHECKOUT_DATABASE_URL": f"sqlite:///{folder / 'checkout.sqlite3'}",
            "CHECKOUT_SECRET_KEY": "e2e-secret", "CHECKOUT_SANDBOX": "on"}


@pytest.fixture(scope="session")
def live_server(server_env):
    """Base URL of a running `checkout serve`; ready when /healthz answers, stopped at the end."""
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    process = subprocess.Popen(_checkout("serve", "--host", "127.0.0.1", "--port", str(port)),
                               env=server_env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    deadline = time.monotonic() + START_TIMEOUT
    while True:
        try:
            if requests.get(f"{base}/healthz", timeout=1).status_code == 200:
                break
        except requests.ConnectionError:
            pass
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            raise RuntimeError(f"checkout serve did not start:\n{process.stdout.read()}")
        time.sleep(0.1)  # polling readiness of a subprocess, not waiting on a page
    yield base
    process.terminate()
    process.wait(timeout=10)


@pytest.fixture(scope="session")
def merchant(server_env, live_server) -> dict:
    out = subprocess.run(_checkout("merchants", "create", "--name", "Loja E2E"),
                         env=server_env, capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS}
