"""Soak: a deployment over PostgreSQL (two web processes behind a round-robin client, three workers) under
mixed merchant load, with workers SIGKILLed every few seconds and one web process once, then every
invariant checked, notification order included."""

from __future__ import annotations

import os
import time

import pytest
from sqlalchemy import select

from checkout.db import db
from checkout.merchants.models import Merchant
from checkout.payins import states as trades
from checkout.payouts import lifecycle
from tests.robustness.soak import checks, ordering
from tests.robustness.soak.load import REQUEST_TIMEOUT, Client, Stats
from tests.robustness.soak.service import Receiver, Servers, Workers, create_merchant, tail

DATABASE_URL = os.environ.get("CHECKOUT_DATABASE_URL", "")
SOAK_SECONDS = float(os.environ.get("CHECKOUT_SOAK_SECONDS", "120"))
MERCHANTS = 3
CLIENT_THREADS = 6  # two per merchant
WEB_PROCESSES = 2
WORKER_PROCESSES = 3
WORKER_KILL_EVERY = 10.0  # seconds: one worker (in turn) SIGKILLed and started again
WEB_KILL_AT = 0.5  # of the soak's time: one web process SIGKILLed, then started again on its port
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
def servers(service_env, tmp_path):
    """The web processes (`checkout serve --no-worker`), each ready when its /healthz answers."""
    deployment = Servers(service_env, tmp_path, WEB_PROCESSES)
    try:
        for n in range(WEB_PROCESSES):
            deployment.start(n, START_TIMEOUT)
    except RuntimeError as exc:
        deployment.stop()
        pytest.fail(str(exc))
    yield deployment
    deployment.stop()


@pytest.fixture
def workers(service_env, tmp_path):
    supervisor = Workers(service_env, tmp_path / "worker.log", WORKER_PROCESSES)
    yield supervisor
    supervisor.stop()


@pytest.fixture
def receiver():
    instance = Receiver()
    yield instance
    instance.close()


def summary(
    stats: Stats,
    deployment: tuple[Servers, Workers],
    deliveries: dict,
    order: dict,
    trades_by: dict,
    payouts_by: dict,
    advances: int,
    elapsed: float,
) -> str:
    servers, workers = deployment
    lines = [
        f"soak: {elapsed:.0f} s, {CLIENT_THREADS} clients over {MERCHANTS} merchants, {WEB_PROCESSES} web processes "
        f"(killed {servers.kills}x; {stats.fallbacks} requests sent to the other, {sum(stats.cut.values())} answers "
        f"cut off {dict(stats.cut)}), {WORKER_PROCESSES} workers (started {workers.starts}x, killed (SIGKILL) "
        f"{workers.kills}x), settled with {advances} clock moves",
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
    lines.append(
        f"order: {order['subjects']} subjects, {order['out_of_order']} out of order, {order['overtaking']} sent "
        f"before an earlier one was acknowledged, {order['second_copies']} accepted twice, "
        f"{order['over_copies']} more than twice"
    )
    lines.append(
        f"trades: {sum(trades_by.values())} {dict(trades_by)}; payouts: {sum(payouts_by.values())} {dict(payouts_by)}"
    )
    return "\n".join(lines)


def _run_schedule(servers: Servers, workers: Workers, stats: Stats, started: float) -> None:
    """Kill a worker every WORKER_KILL_EVERY seconds (each in turn, started again at once) and one web process
    once, at WEB_KILL_AT of the soak (cut off mid-answer, started again on its port; meanwhile its requests
    go to the other)."""
    events = [(started + WORKER_KILL_EVERY * k, "worker") for k in range(1, int(SOAK_SECONDS / WORKER_KILL_EVERY) + 1)]
    events.append((started + SOAK_SECONDS * WEB_KILL_AT + WORKER_KILL_EVERY / 2, "web"))
    for n, (at, what) in enumerate(sorted(events)):
        time.sleep(max(0.0, at - time.monotonic()))  # the schedule
        workers.check_alive()
        if what == "worker":
            workers.kill_and_restart(n % WORKER_PROCESSES)
            continue
        stats.outage = True
        stats.outages += 1
        servers.kill(1)
        servers.start(1, START_TIMEOUT)
        time.sleep(0.5)  # answers cut by the kill may still be on their way to the clients
        stats.outage = False


def test_soak(app, servers, workers, receiver, service_env, capsys):
    stats = Stats()
    merchants = [create_merchant(service_env, f"Soak Loja {chr(65 + n)}") for n in range(MERCHANTS)]
    workers.start()
    started = time.monotonic()
    deadline = started + SOAK_SECONDS
    clients = [
        Client(f"c{n}", servers.bases, merchants[n % MERCHANTS], receiver.url, 1000 + n, deadline, stats)
        for n in range(CLIENT_THREADS)
    ]
    for client in clients:
        client.start()
    _run_schedule(servers, workers, stats, started)
    for client in clients:
        client.join(timeout=max(0.0, deadline - time.monotonic()) + REQUEST_TIMEOUT + 30)
    assert not any(client.is_alive() for client in clients), "a client thread did not stop"
    elapsed = time.monotonic() - started

    advances = checks.settle(app, servers.bases[0], merchants, stats)  # each merchant on its own clock
    problems: list[str] = []
    with app.app_context():
        session = db.session
        keys = {session.scalar(select(Merchant.id).where(Merchant.app_id == m["app_id"])): m for m in merchants}
        deliveries = checks.check_deliveries(session, receiver, keys, problems)
        order = ordering.check_ordering(deliveries.pop("sent"), receiver.requests, problems)
        trades_by = checks.check_trades(session, problems)
        payouts_by = checks.check_payouts(session, problems)
        checks.check_ledger(session, problems)
        checks.check_balance_history(session, problems)
        checks.check_vaults(session, problems)
        session.rollback()
    with capsys.disabled():
        print("\n" + summary(stats, (servers, workers), deliveries, order, trades_by, payouts_by, advances, elapsed))
    worker_log = workers.log.read_text(errors="replace") if workers.log.exists() else ""
    server_logs = "\n".join(tail(log) for log in servers.logs)

    assert stats.server_errors == [], f"5xx answers:\n{stats.server_errors[:10]}\n{server_logs}"
    assert stats.crashes == [], "\n".join(stats.crashes[:5])
    assert stats.surprises == [], "\n".join(stats.surprises[:20])
    assert workers.died_alone == [], f"a worker exited by itself: {workers.died_alone}\n{tail(workers.log)}"
    assert workers.kills == int(SOAK_SECONDS / WORKER_KILL_EVERY)
    assert servers.kills == 1
    assert "Traceback" not in worker_log, tail(workers.log, 80)
    assert problems == [], "\n".join(problems[:30])
    assert order["out_of_order"] == order["overtaking"] == order["over_copies"] == 0
    # The mix really ran: every operation had answers, and the paths under test were taken.
    assert min(sum(c.values()) for c in stats.statuses.values()) > 0
    assert {trades.REFUNDED, trades.AUTHORIZED, trades.REFUSED} <= set(trades_by)
    assert {lifecycle.PAID, lifecycle.REJECTED, lifecycle.REFUNDED} <= set(payouts_by)
    assert deliveries["failed_on_purpose"] > 0
