"""`checkout listen` against a live sandbox in remote mode (private targets refused): the receiver on loopback is
reached only through the listener, which survives the service's restart and stops cleanly on Ctrl-C."""

import base64
import hashlib
import hmac
import json
import os
import re
import signal
import subprocess
import threading
import time
from pathlib import Path

import pytest
import requests

from checkout.cli import listen
from tests import builders, processes
from tests.conftest import TIMESTAMP
from tests.notifications.conftest import Receiver


class Sandbox:
    """A `checkout serve` with its worker, as on a shared host: CHECKOUT_PRIVATE_TARGETS=deny."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.port = processes.free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = {
            **os.environ,
            "CHECKOUT_DATABASE_URL": f"sqlite:///{folder / 'checkout.sqlite3'}",
            "CHECKOUT_SECRET_KEY": "listen-test-secret",
            "CHECKOUT_SANDBOX": "on",
            "CHECKOUT_PRIVATE_TARGETS": "deny",
        }
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        log = (self.folder / "serve.log").open("a")
        command = processes.checkout_command("serve", "--host", "127.0.0.1", "--port", str(self.port))
        self.process = subprocess.Popen(command, env=self.env, stdout=log, stderr=subprocess.STDOUT)
        log.close()
        if not processes.wait_until_ready(f"{self.url}/healthz", self.process, 60):
            self.stop()
            pytest.fail(f"checkout serve did not start:\n{(self.folder / 'serve.log').read_text()}")

    def kill(self) -> None:
        assert self.process is not None
        self.process.kill()  # no goodbye: connections drop mid-poll
        self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process is not None:
            processes.stop(self.process)

    def merchant(self, name: str) -> dict:
        command = processes.checkout_command("merchants", "create", "--name", name)
        done = subprocess.run(command, env=self.env, capture_output=True, text=True, timeout=60, check=True)
        return json.loads(done.stdout)

    def auth(self, merchant: dict) -> dict:
        raw = f"{merchant['app_id']}:{merchant['security_key']}".encode()
        return {"Authorization": "Basic " + base64.b64encode(raw).decode()}

    def paid_pix(self, merchant: dict, out_trade_no: str, notify_url: str) -> str:
        body = {
            "app_id": merchant["app_id"],
            "timestamp": TIMESTAMP,
            **builders.direct("PIX", out_trade_no=out_trade_no, notify_url=notify_url),
        }
        created = requests.post(f"{self.url}/trade/pay", json=body, headers=self.auth(merchant), timeout=30)
        assert created.status_code == 200, created.text
        trade_no = created.json()["trade_no"]
        paid = requests.post(f"{self.url}/sandbox/trades/{trade_no}/pay", headers=self.auth(merchant), timeout=30)
        assert paid.status_code == 200, paid.text
        return trade_no

    def deliveries(self, merchant: dict) -> list[dict]:
        answer = requests.get(f"{self.url}/sandbox/deliveries", headers=self.auth(merchant), timeout=30)
        return answer.json()["deliveries"]


@pytest.fixture
def sandbox(tmp_path):
    instance = Sandbox(tmp_path)
    instance.start()
    yield instance
    instance.stop()


@pytest.fixture
def receiver():
    instance = Receiver()
    yield instance
    instance.close()


def _until(condition, timeout: float = 30, what: str = "the condition"):
    deadline = time.monotonic() + timeout
    while not (value := condition()):
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.2)  # polling another process's state
    return value


def _delivered(sandbox: Sandbox, merchant: dict, trade_no: str) -> dict | None:
    for delivery in sandbox.deliveries(merchant):
        if delivery["subject"] == trade_no and delivery["status"] == "delivered":
            return delivery
    return None


def _lines(process: subprocess.Popen) -> list[str]:
    """The listener's output, read on a thread of its own as it comes."""
    lines: list[str] = []

    def read():
        assert process.stdout is not None
        for line in process.stdout:
            lines.append(line.rstrip("\n"))

    threading.Thread(target=read, daemon=True).start()
    return lines


def test_listen_forwards_to_loopback_on_a_remote_sandbox_survives_a_restart_and_stops_on_ctrl_c(sandbox, receiver):
    merchant = sandbox.merchant("Loja Listen")
    env = {**sandbox.env, "CHECKOUT_APP_ID": merchant["app_id"], "CHECKOUT_SECURITY_KEY": merchant["security_key"]}
    command = processes.checkout_command("listen", "--forward-to", receiver.url, "--url", sandbox.url)
    listener = subprocess.Popen(
        command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, encoding="utf-8"
    )
    try:
        out = _lines(listener)
        _until(lambda: any(line.startswith("Ready: forwarding notifications to") for line in out), what="ready")

        first = sandbox.paid_pix(merchant, "order-1", receiver.url)
        receiver.wait_for(1)
        delivery = _until(lambda: _delivered(sandbox, merchant, first), what="the first delivery")
        request = receiver.requests[0]
        # The body and signature the service makes, unchanged: the receiver verifies them with its key.
        t, v2 = (part.split("=", 1)[1] for part in request["headers"]["Pagsmile-Signature"].split(","))
        expected = hmac.new(merchant["security_key"].encode(), request["raw"], hashlib.sha256).hexdigest()
        assert hmac.compare_digest(v2, expected) and abs(int(t) - time.time()) < 60
        assert request["json"]["trade_no"] == first and request["json"]["trade_status"] == "SUCCESS"
        assert request["headers"]["X-Notify-Id"] == delivery["id"] == request["json"]["notify_id"]
        assert request["headers"]["User-Agent"] == "checkout-notifier/1.0"
        listened = [a for a in delivery["attempt_log"] if a["via"] == "listen"]
        assert [(a["status_code"], a["response"], a["succeeded"]) for a in listened] == [(200, "success", True)]
        # The service itself never reached the loopback receiver: its own attempts, if any, were refused.
        for attempt in delivery["attempt_log"]:
            if attempt["via"] is None:
                assert "not a public address" in attempt["error"]
        _until(lambda: any(line.startswith(f"→ payin.callback {delivery['id']} ") for line in out), what="a line")
        assert any(line.endswith(" 200") and delivery["id"] in line for line in out)

        # The service dies mid long-poll and comes back; the listener carries on from its cursor.
        sandbox.kill()
        sandbox.start()
        second = sandbox.paid_pix(merchant, "order-2", receiver.url)
        receiver.wait_for(2, timeout=40)
        _until(lambda: _delivered(sandbox, merchant, second), what="the second delivery")
        assert [r["json"]["trade_no"] for r in receiver.requests] == [first, second]  # once each
        assert any(line.startswith("! cannot reach") for line in out)

        listener.send_signal(signal.SIGINT)
        assert listener.wait(timeout=20) == 0
        assert listener.stderr is not None
        assert "Stopped. Resume with --after " in listener.stderr.read()
    finally:
        if listener.poll() is None:
            listener.kill()
            listener.wait(timeout=10)
        for stream in (listener.stdout, listener.stderr):
            if stream is not None:
                stream.close()


def test_a_message_forwarded_but_not_reported_comes_again_after_a_reconnect(sandbox, receiver):
    """At least once: the listener stops after forwarding, before reporting and moving its cursor; resumed
    from the cursor it had, the same message is forwarded again, then never more."""
    merchant = sandbox.merchant("Loja Repete")
    credentials = (sandbox.url, merchant["app_id"], merchant["security_key"], receiver.url)
    first = listen.Listener(*credentials, echo=lambda _: None)
    first.step()  # the start: the cursor is fixed, nothing forwarded
    cursor = first.cursor
    sandbox.paid_pix(merchant, "order-1", receiver.url)

    class Crashed(Exception):
        pass

    original = first._call

    def call(method, path, **options):
        if method == "POST":
            raise Crashed  # the process dies between the forward and its report
        return original(method, path, **options)

    first._call = call  # type: ignore[method-assign]
    with pytest.raises(Crashed):
        first.step()
    assert len(receiver.requests) == 1 and first.cursor == cursor

    said: list[str] = []
    second = listen.Listener(*credentials, after=cursor, echo=said.append)
    assert second.step() == 1
    # A resumed listener says it is connected before it forwards what it finds waiting.
    assert said[0] == f"Ready: forwarding notifications to {receiver.url} (Ctrl-C stops)"
    assert re.fullmatch(r"→ payin\.callback [0-9a-f-]{36} \S+Z 200", said[1]), said
    notify_id = receiver.requests[0]["json"]["notify_id"]
    assert [r["json"]["notify_id"] for r in receiver.requests] == [notify_id, notify_id]
    assert _delivered(sandbox, merchant, receiver.requests[0]["json"]["trade_no"])

    resumed = listen.Listener(*credentials, after=second.cursor, echo=lambda _: None, sleep=lambda _: None)
    resumed.wait = 1
    assert resumed.step() == 0
    assert len(receiver.requests) == 2  # acknowledged: never again


def test_listen_with_a_wrong_key_says_so_and_exits(sandbox, receiver):
    merchant = sandbox.merchant("Loja Chave")
    command = processes.checkout_command(
        "listen", "--forward-to", receiver.url, "--url", sandbox.url, "--app-id", merchant["app_id"],
        "--security-key", "wrong",
    )  # fmt: skip
    done = subprocess.run(command, env=sandbox.env, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 1
    assert done.stderr.startswith(
        f"Error: {sandbox.url} refused: invalid signature: wrong security_key for this app_id"
    )
