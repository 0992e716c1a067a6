"""Servers the suites start as subprocesses: a free local port, the checkout command, waiting until one answers."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
import requests


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def checkout_command(*args: str) -> list[str]:
    return [sys.executable, "-m", "checkout", *args]


def wait_until_ready(url: str, process: subprocess.Popen, timeout: float) -> bool:
    """Poll `url` until it answers 200; False once the process has exited or `timeout` seconds passed."""
    deadline = time.monotonic() + timeout
    while True:
        with contextlib.suppress(requests.RequestException):
            if requests.get(url, timeout=2).status_code == 200:
                return True
        if process.poll() is not None or time.monotonic() > deadline:
            return False
        time.sleep(0.1)  # polling a starting subprocess


def stop(process: subprocess.Popen, timeout: float = 15) -> None:
    """Ask the process to end (SIGTERM), and kill it if it has not within `timeout` seconds."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)
    for stream in (process.stdout, process.stderr):
        if stream is not None:
            stream.close()  # else the pipe is left to the garbage collector, a ResourceWarning


def serve(folder: Path, *options: str) -> tuple[subprocess.Popen, int, dict, Path]:
    """A `checkout serve --no-worker` on 127.0.0.1 and a free port, on a new SQLite database in `folder`,
    its output in `folder`/serve.log; fails the test when it does not answer /healthz within 60 s."""
    port = free_port()
    log = folder / "serve.log"
    env = {
        **os.environ,
        "CHECKOUT_DATABASE_URL": f"sqlite:///{folder / 'checkout.sqlite3'}",
        "CHECKOUT_SECRET_KEY": "serve-test-secret",
        "CHECKOUT_SANDBOX": "on",
        "CHECKOUT_DEMO_URL": f"http://127.0.0.1:{port}/demo",
    }
    command = checkout_command("serve", "--host", "127.0.0.1", "--port", str(port), "--no-worker", *options)
    with log.open("w") as out:
        process = subprocess.Popen(command, env=env, stdout=out, stderr=subprocess.STDOUT)
    if not wait_until_ready(f"http://127.0.0.1:{port}/healthz", process, 60):
        stop(process)
        pytest.fail(f"checkout serve did not start:\n{log.read_text()}")
    return process, port, env, log
