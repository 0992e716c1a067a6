"""Servers the suites start as subprocesses: a free local port, the checkout command, waiting until one answers."""

from __future__ import annotations

import contextlib
import socket
import subprocess
import sys
import time

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
