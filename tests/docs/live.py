"""A live `checkout serve` with its worker, for the suites that run what the docs and examples tell a merchant."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tests import processes


def serve_with_worker(folder: Path) -> tuple[subprocess.Popen, int, dict]:
    """`checkout serve` on 127.0.0.1 and a free port, worker included (callbacks go out), on a new SQLite
    database in `folder`; its output in `folder`/serve.log. Returns the process, the port and the environment
    a command line of the same service needs."""
    port = processes.free_port()
    env = {
        **os.environ,
        "CHECKOUT_DATABASE_URL": f"sqlite:///{folder / 'checkout.sqlite3'}",
        "CHECKOUT_SECRET_KEY": "docs-test-secret",
        "CHECKOUT_SANDBOX": "on",
        "CHECKOUT_DEMO_URL": f"http://127.0.0.1:{port}/demo",
    }
    log = folder / "serve.log"
    command = processes.checkout_command("serve", "--host", "127.0.0.1", "--port", str(port))
    with log.open("w") as out:
        process = subprocess.Popen(command, env=env, stdout=out, stderr=subprocess.STDOUT)
    if not processes.wait_until_ready(f"http://127.0.0.1:{port}/healthz", process, 60):
        processes.stop(process)
        pytest.fail(f"checkout serve did not start:\n{log.read_text()}")
    return process, port, env
