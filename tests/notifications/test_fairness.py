"""Deliveries under a slow merchant and a killed worker: others are not held up, nothing recorded is resent."""

import signal
import sys
import threading
import time
from datetime import timedelta

from sqlalchemy import func, select

from checkout import clock, worker
from checkout.db import db
from checkout.notifications import claiming, dispatcher, transport
from checkout.notifications.models import DELIVERED, OutboxMessage
from tests.notifications.conftest import Receiver, worker_process
from tests.notifications.helpers import paid_pix

SLOW_CALLBACKS = 48  # three times the sending threads


def test_a_slow_merchant_does_not_hold_up_another(app, api, other_api, receiver, monkeypatch, capsys):
    """One merchant's receiver hangs on every callback; another's answers at once. The other's callback,
    written after all of the slow one's, still arrives within a round."""
    monkeypatch.setattr(transport, "READ_TIMEOUT", 3.0)
    slow = Receiver()
    slow.default = "hang"
    stop = threading.Event()
    try:
        for i in range(SLOW_CALLBACKS):
            paid_pix(api, slow, f"slow-{i}")
        paid_pix(other_api, receiver, "fast")
        started = time.monotonic()

        def rounds():
            deadline = time.monotonic() + 15
            while not stop.is_set() and time.monotonic() < deadline:
                worker.run_once(app)

        thread = threading.Thread(target=rounds)
        thread.start()
        receiver.wait_for(1, timeout=15)
        delay = time.monotonic() - started
        with capsys.disabled():
            sys.stdout.write(f"\n  fast merchant's callback beside {SLOW_CALLBACKS} hanging ones: {delay:.2f} s\n")
        assert delay < 2.0  # one round's wait at most; it was one slow answer per 16 ahead of it (9 s here)
        assert len(slow.requests) <= dispatcher.THREADS * 3 // 4  # the slow merchant's share, no more
    finally:
        stop.set()
        slow.close()
        thread.join(timeout=20)


def test_a_worker_killed_mid_round_resends_only_what_it_had_not_recorded(app, api, receiver, monkeypatch):
    """19 callbacks answered at once and one that hangs: the worker records the 19 while the last is in
    flight; killed then, what goes out again is that one only."""
    hanging = Receiver()
    hanging.default = "hang"
    fast = [paid_pix(api, receiver, f"fast-{i}") for i in range(19)]
    stuck = paid_pix(api, hanging, "stuck")
    process = worker_process(app)
    try:
        hanging.wait_for(1)
        receiver.wait_for(len(fast))
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and delivered(app) < len(fast):
            time.sleep(0.05)  # polling another process's commits
        assert delivered(app) == len(fast)  # recorded while the stuck one is still in flight
    finally:
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=10)
        hanging.close()
    later = clock.real_now() + claiming.LEASE + timedelta(seconds=1)
    monkeypatch.setattr(clock, "real_now", lambda: later)
    resent = Receiver()
    try:
        with app.app_context():
            db.session.execute(
                OutboxMessage.__table__.update()
                .where(OutboxMessage.subject_id == stuck)
                .values(target=resent.url)  # the hanging receiver is gone; the same message goes here
            )
            db.session.commit()
        with app.app_context():
            # Killed before its answer came, it was not recorded; on a slow machine the worker may have
            # given up on it first (read timeout) and recorded that: then its retry waits its schedule.
            recorded = db.session.scalar(select(OutboxMessage.attempts).where(OutboxMessage.subject_id == stuck))
            db.session.rollback()
        worker.run_once(app)
        duplicates = len(receiver.requests) - len(fast)
        assert (duplicates, len(resent.requests)) == (0, 0 if recorded else 1)
        assert [r["json"]["trade_no"] for r in resent.requests] == ([] if recorded else [stuck])
    finally:
        resent.close()


def delivered(app) -> int:
    with app.app_context():
        count = db.session.scalar(select(func.count()).where(OutboxMessage.status == DELIVERED))
        db.session.rollback()
        return count
