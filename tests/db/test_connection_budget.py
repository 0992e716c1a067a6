"""A `checkout serve` on PostgreSQL never holds more connections than CHECKOUT_DATABASE_CONNECTIONS in its serving
process (the worker beside it has its own), under load."""

from __future__ import annotations

import base64
import json
import os
import subprocess
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
import requests
from sqlalchemy import create_engine, text
from sqlalchemy.pool import NullPool

from tests import builders, processes

URL = os.environ.get("CHECKOUT_DATABASE_URL", "")
pytestmark = pytest.mark.skipif(
    not URL.startswith("postgresql"), reason="SQLite opens files, not server connections: nothing to count"
)

BUDGET = 6
CLIENTS = 24
ROUNDS = 10  # requests per client, three kinds in turn


def _held(engine) -> int:
    with engine.connect() as connection:
        return int(
            connection.scalar(
                text(
                    "SELECT count(*) FROM pg_stat_activity"
                    " WHERE datname = current_database() AND application_name = 'checkout-web'"
                )
            )
        )


@pytest.fixture
def served(tmp_path):
    port = processes.free_port()
    env = {
        **os.environ,
        "CHECKOUT_DATABASE_URL": URL,
        "CHECKOUT_DATABASE_CONNECTIONS": str(BUDGET),
        "CHECKOUT_SECRET_KEY": "budget-test-secret",
        "CHECKOUT_SANDBOX": "on",
        "CHECKOUT_DEMO_URL": f"http://127.0.0.1:{port}/demo",
    }
    log = tmp_path / "serve.log"
    command = processes.checkout_command("serve", "--host", "127.0.0.1", "--port", str(port), "--threads", "8")
    with log.open("w") as out:
        process = subprocess.Popen(command, env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        if not processes.wait_until_ready(f"http://127.0.0.1:{port}/healthz", process, 60):
            pytest.fail(f"checkout serve did not start:\n{log.read_text()}")
        created = subprocess.run(
            processes.checkout_command("merchants", "create", "--name", "Budget"),
            env=env, capture_output=True, timeout=60, check=True,
        )  # fmt: skip
        yield f"http://127.0.0.1:{port}", json.loads(created.stdout), log
    finally:
        processes.stop(process)


def test_serve_holds_no_more_connections_than_its_budget_under_concurrent_requests(served):
    base, credentials, log = served
    assert (
        "database connections: at most 6 (8 request threads: 1 kept for reads + 2 pooled, 1 request log,"
        " 1 sandbox clock, 1 listening for key changes) in the serving process" in log.read_text()
    )
    pair = f"{credentials['app_id']}:{credentials['security_key']}".encode()
    headers = {"Authorization": "Basic " + base64.b64encode(pair).decode()}
    app_id = credentials["app_id"]

    def client(number: int) -> list[tuple[int, str]]:
        answers = []
        with requests.Session() as session:
            for round_ in range(ROUNDS):
                order = f"budget-{number}-{round_}"
                body = {"app_id": app_id, "timestamp": builders.TIMESTAMP, **builders.direct(out_trade_no=order)}
                paid = session.post(f"{base}/trade/pay", json=body, headers=headers, timeout=60)
                answers.append((paid.status_code, paid.json()["code"]))
                query = {"app_id": app_id, "timestamp": builders.TIMESTAMP, "out_trade_no": order}
                found = session.post(f"{base}/trade/query", json=query, headers=headers, timeout=60)
                answers.append((found.status_code, found.json()["code"]))
                clock = session.get(f"{base}/sandbox/clock", headers=headers, timeout=60)
                answers.append((clock.status_code, clock.json()["code"]))
        return answers

    counter = create_engine(URL, poolclass=NullPool)
    counts: list[int] = []
    done = threading.Event()

    def watch() -> None:
        while not done.is_set():
            counts.append(_held(counter))
            time.sleep(0.01)  # sampling pg_stat_activity while the load runs

    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        with ThreadPoolExecutor(CLIENTS) as pool:
            answers = [answer for answers in pool.map(client, range(CLIENTS)) for answer in answers]
    finally:
        done.set()
        watcher.join()
    counts.append(_held(counter))
    counter.dispose()

    assert answers == [(200, "10000")] * (CLIENTS * ROUNDS * 3)
    assert max(counts) <= BUDGET, counts
    assert max(counts) >= 4, counts  # the load did use the pools: the bound was met, not idled under
