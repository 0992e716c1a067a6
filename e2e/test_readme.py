"""The README followed as a newcomer would, on a new machine: its own commands, run as written (only the ports
changed, as it says) from a clean copy of the repository, to a verified callback on a receiver of one's own
through `checkout listen`, and the dashboard in real Chromium with the login the README's command made."""

from __future__ import annotations

import os
import queue
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests import processes
from tests.docs.test_samples import answers, check, runnable, shown

ROOT = Path(__file__).resolve().parents[1]
BLOCK = re.compile(r"<!-- (sample|process): ([\w.-]+) -->\n```sh\n(.*?)\n```", re.S)
ORDER = ["serve", "merchant", "first-payin", "sandbox-pay", "receiver", "listen"]
INSTALL_TIMEOUT = 900  # a new virtual environment installed from the lock: downloads on an empty pip cache
LISTEN_LINE = re.compile(r"→ payin\.callback \S+ \S+ 200")


def readme_blocks() -> dict[str, str]:
    found = BLOCK.findall((ROOT / "README.md").read_text(encoding="utf-8"))
    assert [name for _, name, _ in found] == ORDER, "the README's commands changed: follow them here too"
    return {name: text for _, name, text in found}


def new_machine_copy(folder: Path) -> Path:
    """The repository as a clean checkout has it (the tracked and the new files, nothing ignored: no .venv,
    no instance folder), copied as it stands now."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout.decode()
    copy = folder / "checkout"
    for name in filter(None, listed.split("\0")):
        source = ROOT / name
        if source.is_file():
            (copy / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, copy / name)
    return copy


def newcomer_environment() -> dict[str, str]:
    """A shell on a new machine: this machine's PATH without the test's own virtual environment, no CHECKOUT_*
    setting; the network's and pip's settings kept (they are the machine's)."""
    ours = Path(sys.prefix) / "bin"
    path = os.pathsep.join(entry for entry in os.environ["PATH"].split(os.pathsep) if Path(entry) != ours)
    kept = {
        key: value
        for key, value in os.environ.items()
        if key in {"HOME", "TMPDIR", "USER"} or key.startswith("PIP_") or key.lower().endswith("_proxy")
    }
    return {**kept, "PATH": path, "LANG": "C.UTF-8"}


class Terminal:
    """One command left running in its own terminal: its output read line by line as it comes."""

    def __init__(self, script: str, cwd: Path, env: dict[str, str]):
        self.process = subprocess.Popen(
            ["bash", "-c", script],
            cwd=cwd,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,  # Ctrl-C's reach: the command and whatever it started
        )
        self.lines: queue.Queue[str] = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\n"))

    def wait_for(self, pattern: str, timeout: float) -> re.Match:
        """The first line (from now on) that `pattern` matches; fails the test with the output so far."""
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            try:
                line = self.lines.get(timeout=min(left, 1.0))
            except queue.Empty:
                if self.process.poll() is not None and self.lines.empty():
                    break
                continue
            self.seen.append(line)
            if found := re.search(pattern, line):
                return found
        output = "\n".join(self.seen[-60:])
        pytest.fail(f"no line matching {pattern!r} (exit {self.process.poll()}); its output:\n{output}")

    def stop(self) -> None:
        """Ctrl-C, then a kill if it does not stop."""
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGINT)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=10)
        if self.process.stdout is not None:
            self.process.stdout.close()


def run(name: str, script: str, cwd: Path, env: dict[str, str]) -> dict:
    """One sample block run in a shell as pasted; its last printed JSON object must show what the README
    shows for it."""
    done = subprocess.run(
        ["bash", "-c", "set -euo pipefail\n" + runnable(script)],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, f"{name}: {done.stdout}{done.stderr}"
    printed = answers(done.stdout)
    assert printed, f"{name} printed no answer: {done.stdout!r} {done.stderr!r}"
    return printed[-1]


def test_the_readme_from_a_new_machine_to_a_verified_callback_and_the_dashboard(browser, tmp_path):
    blocks = readme_blocks()
    port, receiver_port = processes.free_port(), processes.free_port()
    base = f"http://127.0.0.1:{port}"
    for name, text in blocks.items():  # "change 8000 in the samples below to match", and the receiver's port
        blocks[name] = text.replace(":8000", f":{port}").replace("--port 8000", f"--port {port}")
        blocks[name] = (
            blocks[name].replace(":3000", f":{receiver_port}").replace("--port 3000", f"--port {receiver_port}")
        )
    folder = new_machine_copy(tmp_path)
    env = newcomer_environment()
    terminals: list[Terminal] = []
    try:
        # Terminal 1: the first command, from nothing to a service answering.
        serve = Terminal(blocks["serve"], folder, env)
        terminals.append(serve)
        serve.wait_for(rf"^checkout listening on {re.escape(base)} \(database: sqlite:///", INSTALL_TIMEOUT)
        serve.wait_for(rf"^merchant demo: http://localhost:{port}/demo", 30)
        dashboard = serve.wait_for(rf"^dashboard: ({re.escape(base)}/dashboard)$", 30)[1]

        # Terminal 2: the merchant and its login, the first payin to the sandbox inbox, the customer paying.
        created = run("merchant", blocks["merchant"], folder, env)
        check("merchant", shown(blocks["merchant"]), created, base)
        env |= {"APP_ID": created["app_id"], "SECURITY_KEY": created["security_key"], "APP_KEY": created["app_key"]}
        trade = run("first-payin", blocks["first-payin"], folder, env)
        check("first-payin", shown(blocks["first-payin"]), trade, base)
        env["TRADE_NO"] = trade["trade_no"]
        paid = run("sandbox-pay", blocks["sandbox-pay"], folder, env)
        check("sandbox-pay", shown(blocks["sandbox-pay"]), paid, base)

        # Terminals 3 and 4: a receiver of one's own on loopback, and `checkout listen` forwarding to it.
        receiver = Terminal(blocks["receiver"], folder, env)
        terminals.append(receiver)
        ready = shown(blocks["receiver"]).strip()
        assert receiver.wait_for(r"^listening on .*", 30)[0] == ready
        listen = Terminal(blocks["listen"], folder, env)
        terminals.append(listen)
        listen.wait_for(rf"^Ready: forwarding notifications to http://localhost:{receiver_port}/notify", 60)
        receiver.wait_for(r"^verified callback: order-1 SUCCESS 100\.50 BRL$", 60)
        assert LISTEN_LINE.fullmatch(shown(blocks["listen"]).strip()), "the README's listen line is not what it prints"
        listen.wait_for(LISTEN_LINE.pattern, 30)

        the_dashboard_shows_it(browser, dashboard, created, trade["trade_no"])
    finally:
        for terminal in reversed(terminals):
            terminal.stop()


def the_dashboard_shows_it(browser, dashboard: str, created: dict, trade_no: str) -> None:
    """The dashboard at the address `serve` printed, with the login `merchants create` printed: the payment, its
    callback forwarded by the listener, and the sandbox inbox's copy, verified."""
    page = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US").new_page()
    page.goto(dashboard)
    page.get_by_label("E-mail").fill(created["dashboard_email"])
    page.get_by_label("Password").fill(created["dashboard_password"])
    page.get_by_role("button", name="Log in").click()
    nav = page.get_by_role("navigation", name="Dashboard")
    nav.get_by_role("link", name="Payments", exact=True).click()
    expect(page.locator("#payments-table").get_by_text("order-1")).to_be_visible()
    page.get_by_role("link", name=trade_no).click()
    expect(page.get_by_text("forwarded by checkout listen").first).to_be_visible()
    expect(page.get_by_text("order-1").first).to_be_visible()
    nav.get_by_role("link", name="Developers", exact=True).click()
    page.get_by_role("link", name="Sandbox inbox").click()
    row = page.locator("#inbox-table tbody tr").first
    expect(row.get_by_text("verified", exact=True)).to_be_visible()
    row.get_by_text("Show").click()
    expect(row.locator("pre")).to_contain_text(f'"trade_no":"{trade_no}"')
    page.context.close()
