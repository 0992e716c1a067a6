"""examples/: the Python and the JavaScript merchant integrations, each run whole against a live `checkout serve`
on loopback: a Pix payment, its callback verified on the example's own server, a signed payout PAID."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from checkout import signing
from tests import processes
from tests.docs.live import serve_with_worker

ROOT = Path(__file__).resolve().parents[2]
NODE = "/usr/bin/node" if Path("/usr/bin/node").exists() else shutil.which("node")


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    folder = tmp_path_factory.mktemp("examples")
    process, port, env = serve_with_worker(folder)
    yield port, env
    processes.stop(process)


def merchant(env: dict) -> dict[str, str]:
    """A new merchant with 1,000.00 USD to pay out, made as the examples' READMEs say."""

    def checkout(*args: str) -> dict:
        done = subprocess.run(processes.checkout_command(*args), env=env, capture_output=True, text=True, check=True)
        return json.loads(done.stdout)

    created = checkout("merchants", "create", "--name", "Shop")
    checkout("merchants", "fund", "--app-id", created["app_id"], "--currency", "USD", "--amount", "1000.00")
    return {"APP_ID": created["app_id"], "SECURITY_KEY": created["security_key"], "APP_KEY": created["app_key"]}


def run_example(command: list[str], port: int, env: dict) -> list[str]:
    keys = merchant(env)
    shop = {**os.environ, **keys, "CHECKOUT_URL": f"http://127.0.0.1:{port}", "SHOP_PORT": str(processes.free_port())}
    done = subprocess.run(command, env=shop, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout.splitlines()


def assert_the_whole_journey(lines: list[str]) -> None:
    assert len(lines) == 4, lines
    assert re.fullmatch(r"payment \d+: PROCESSING", lines[0]), lines
    assert re.fullmatch(r"verified callback: order-\d+ SUCCESS 100\.50 BRL", lines[1]), lines
    assert re.fullmatch(r"payout (TS\d+): IN_PROCESSING \(100\.00 BRL for 19\.28 USD\)", lines[2]), lines
    assert lines[3] == f"payout {lines[2].split()[1].rstrip(':')}: PAID", lines


def test_the_python_example_runs_whole(served):
    port, env = served
    assert_the_whole_journey(run_example([sys.executable, str(ROOT / "examples/python/shop.py")], port, env))


@pytest.mark.skipif(NODE is None, reason="node is not installed (scripts/test installs Debian's nodejs)")
def test_the_javascript_example_runs_whole(served):
    port, env = served
    assert NODE is not None
    assert_the_whole_journey(run_example([NODE, str(ROOT / "examples/node/shop.mjs")], port, env))


def example(name: str, monkeypatch):
    """examples/python/NAME.py as a module, imported as the script would be (its folder first on the path)."""
    monkeypatch.syspath_prepend(str(ROOT / "examples/python"))
    spec = importlib.util.spec_from_file_location(f"{name}_example", ROOT / f"examples/python/{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def shop(monkeypatch):
    """examples/python/shop.py as a module, with a merchant's keys."""
    module = example("shop", monkeypatch)
    monkeypatch.setattr(module, "SECURITY_KEY", "sk_example")
    monkeypatch.setattr(module, "APP_KEY", "app-key-example")
    return module


def test_the_python_receiver_refuses_a_callback_the_service_did_not_sign(monkeypatch):
    receiver = example("receiver", monkeypatch)
    body = b'{"trade_no": "2026", "trade_status": "SUCCESS", "amount": "100.50"}'
    header = signing.callback_signature(body, "sk_example", 1795800000)
    assert receiver.callback_is_genuine(body, header, "sk_example")
    assert not receiver.callback_is_genuine(body.replace(b"100.50", b"1000.50"), header, "sk_example")
    assert not receiver.callback_is_genuine(
        body, signing.callback_signature(body, "sk_other", 1795800000), "sk_example"
    )
    assert not receiver.callback_is_genuine(body, "", "sk_example")
    assert receiver.describe(json.loads(body) | {"out_trade_no": "order-1", "currency": "BRL"}) == (
        "verified callback: order-1 SUCCESS 100.50 BRL"
    )


def test_the_python_example_signs_payouts_as_the_service_verifies(shop):
    body = {"custom_code": "payout-1", "amount": "100.00", "timestamp": 1795800000, "email": "", "remark": None}
    assert signing.verify_payout_signature(body, "app-key-example", shop.payout_signature(body))
    assert not signing.verify_payout_signature(body, "another-key", shop.payout_signature(body))
