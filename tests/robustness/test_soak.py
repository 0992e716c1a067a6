"""Soak: mixed merchant load on a live server over PostgreSQL with SIGKILLed workers, then every invariant checked."""

from __future__ import annotations

import os
import subprocess
import time

import pytest
from sqlalchemy import select

from checkout.db import db
from checkout.merchants.models import Merchant
from checkout.payins import states as trades
from checkout.payouts import lifecycle
from tests.processes import checkout_command, free_port, stop, wait_until_ready
from tests.robustness.soak import checks
from tests.robustness.soak.load import REQUEST_TIMEOUT, Client, Stats
from tests.robustness.soak.service import Receiver, Workers, create_merchant, tail

DATABASE_URL = os.environ.get("CHECKOUT_DATABASE_URL", "")
SOAK_SECONDS = float(os.environ.get("CHECKOUT_SOAK_SECONDS", "120"))
CLIENT_THREADS = 4  # two per merchant
WORKER_KILLS = 3
START_TIMEOUT = 60

pytestmark = [
    pytest.mark.robustness,
    pytest.mark.skipif(
        not DATABASE_URL.startswith("postgresql"),
        reason="the soak needs PostgreSQL: set CHECKOUT_DATABASE_URL=postgresql+psycopg://...",
    ),
]


@pytest.fixture
def service_env(database_url) -> dict:
    # Without proxy variables: the worker's requests must reach the receiver on 127.0.0.1 directly.
    env = {k: v for k, v in os.environ.items() if k.lower() not in ("http_proxy", "https_proxy", "all_proxy")}
    return {
        **env,
        "CHECKOUT_DATABASE_URL": database_url,
        "CHECKOUT_SANDBOX": "on",
        "CHECKOUT_PRIVATE_TARGETS": "allow",  # its receivers listen on 127.0.0.1
        "CHECKOUT_SECRET_KEY": "soak-secret-key-0123456789abcdef",
        "NO_PROXY": "127.0.0.1,localhost",
    }


@pytest.fixture
def live_server(service_env, tmp_path):
    """Base URL of `checkout serve --no-worker` and its log; ready when /healthz answers."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    log = tmp_path / "serve.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            checkout_command("serve", "--host", "127.0.0.1", "--port", str(port), "--no-worker"),
            env=service_env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    if not wait_until_ready(f"{base}/healthz", process, START_TIMEOUT):
        process.kill()
        pytest.fail(f"checkout serve did not start:\n{tail(log)}")
    yield base, log
    stop(process)


@pytest.fixture
def workers(service_env, tmp_path):
    supervisor = Workers(service_env, tmp_path / "worker.log")
    yield supervisor
    supervisor.stop()


@pytest.fixture
def receiver():
    instance = Receiver()
    yield instance
    instance.close()


def summary(
    stats: Stats, workers: Workers, deliveries: dict, trades_by: dict, payouts_by: dict, advances: int, elapsed: float
) -> str:
    lines = [
        f"soak: {elapsed:.0f} s, {CLIENT_THREADS} clients, worker started {workers.starts}x, "
        f"killed (SIGKILL) {workers.kills}x, settled with {advances} clock moves",
        f"requests: {sum(sum(c.values()) for c in stats.statuses.values())}",
    ]
    for op in sorted(stats.statuses):
        counts = ", ".join(f"{status}: {n}" for status, n in sorted(stats.statuses[op].items(), key=str))
        lines.append(f"  {op:36} {sum(stats.statuses[op].values()):6}  ({counts})")
    if stats.refusals:
        lines.append(
            "planned refusals: "
            + ", ".join(f"{op} {why}: {n}" for (op, why), n in sorted(stats.refusals.items(), key=str))
        )
    lines.append(
        f"outbox: {deliveries['messages']} messages {dict(deliveries['kinds'])}; receiver got "
        f"{deliveries['received']} requests for {deliveries['unique']} notify_ids "
        f"({deliveries['failed_on_purpose']} first attempts answered 500 on purpose, "
        f"{deliveries['duplicates']} duplicates)"
    )
    lines.append(f"trades: {dict(trades_by)}; payouts: {dict(payouts_by)}")
    return "\n".join(lines)


def test_soak(app, live_server, workers, receiver, service_env, capsys):
    base, server_log = live_server
    stats = Stats()
    merchants = [create_merchant(service_env, name) for name in ("Soak Loja A", "Soak Loja B")]
    workers.start()
    started = time.monotonic()
    deadline = started + SOAK_SECONDS
    clients = [
        Client(f"c{n}", base, merchants[n % 2], receiver.url, seed=1000 + n, deadline=deadline, stats=stats)
        for n in range(CLIENT_THREADS)
    ]
    for client in clients:
        client.start()
    for k in range(1, WORKER_KILLS + 1):
        time.sleep(max(0.0, started + SOAK_SECONDS * k / (WORKER_KILLS + 1) - time.monotonic()))  # the schedule
        workers.kill_and_restart()
    for client in clients:
        client.join(timeout=max(0.0, deadline - time.monotonic()) + REQUEST_TIMEOUT + 30)
    assert not any(client.is_alive() for client in clients), "a client thread did not stop"
    elapsed = time.monotonic() - started

    advances = checks.settle(app, base, merchants, stats)  # each merchant on its own clock
    problems: list[str] = []
    with app.app_context():
        session = db.session
        keys = {session.scalar(select(Merchant.id).where(Merchant.app_id == m["app_id"])): m for m in merchants}
        deliveries = checks.check_deliveries(session, receiver, keys, problems)
        trades_by = checks.check_trades(session, problems)
        payouts_by = checks.check_payouts(session, problems)
        checks.check_ledger(session, problems)
        checks.check_vaults(session, problems)
        session.rollback()
    with capsys.disabled():
        print("\n" + summary(stats, workers, deliveries, trades_by, payouts_by, advances, elapsed))
    worker_log = workers.log.read_text(errors="replace") if workers.log.exists() else ""

    assert stats.server_errors == [], f"5xx answers:\n{stats.server_errors[:10]}\n{tail(server_log)}"
    assert stats.crashes == [], "\n".join(stats.crashes[:5])
    assert stats.surprises == [], "\n".join(stats.surprises[:20])
    assert workers.died_alone == [], f"a worker exited by itself: {workers.died_alone}\n{tail(workers.log)}"
    assert workers.kills == WORKER_KILLS
    assert "Traceback" not in worker_log, tail(workers.log, 80)
    assert problems == [], "\n".join(problems[:30])
    # The mix really ran: every operation had answers, and the paths under test were taken.
    assert min(sum(c.values()) for c in stats.statuses.values()) > 0
    assert {trades.REFUNDED, trades.AUTHORIZED, trades.REFUSED} <= set(trades_by)
    assert {lifecycle.PAID, lifecycle.REJECTED, lifecycle.REFUNDED} <= set(payouts_by)
    assert deliveries["failed_on_purpose"] > 0
