"""The worker loop: runs the scheduled work of the service, from the database, on the sandbox clock."""
from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from flask import Flask
from sqlalchemy.orm import Session

from ..db import db

log = logging.getLogger(__name__)


def _payout_bank(session: Session, config) -> int:
    from ..payouts import lifecycle

    return lifecycle.advance_due(session, decided_after=config["PAYOUT_DECIDED_AFTER"])


def _vault_debits(session: Session, config) -> int:
    from ..payins import scheduled

    return scheduled.debit_vaults(session)


def _expiries(session: Session, config) -> int:
    from ..payins import scheduled

    return scheduled.expire_trades(session) + scheduled.expire_sessions(session)


def _deliveries(session: Session, config) -> int:
    from . import dispatcher

    return dispatcher.dispatch_due(session, config)


# Each job does what is due now and answers how many steps it took; each commits on its own. Deliveries
# come last, so that what the other jobs queued goes out in the same round.
JOBS: list[Callable[[Session, dict], int]] = [_payout_bank, _vault_debits, _expiries, _deliveries]


def run_once(app: Flask) -> int:
    steps = 0
    with app.app_context():
        for job in JOBS:
            try:
                steps += job(db.session, app.config)
                db.session.commit()
            except Exception:
                db.session.rollback()
                log.exception("worker job %s failed; it runs again next round", job.__name__)
    return steps


def run(app: Flask, stop: threading.Event, interval: float = 1.0) -> None:
    """Loop until `stop` is set: a round of every job, then a pause when there was nothing to do."""
    while not stop.is_set():
        if run_once(app) == 0:
            stop.wait(interval)


def start_thread(app: Flask, interval: float = 1.0) -> tuple[threading.Thread, threading.Event]:
    stop = threading.Event()
    thread = threading.Thread(target=run, args=(app, stop, interval), name="checkout-worker", daemon=True)
    thread.start()
    return thread, stop
