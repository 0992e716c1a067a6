"""The worker: the composition root of scheduled work. It runs the jobs each feature exposes, in rounds."""

from __future__ import annotations

import logging
import threading

from flask import Flask

from .api import jobs as api_jobs
from .dashboard import jobs as dashboard_jobs
from .db import db
from .jobs import Job
from .notifications import jobs as notifications_jobs
from .payins import jobs as payins_jobs
from .payouts import jobs as payouts_jobs
from .vaults import jobs as vaults_jobs

log = logging.getLogger(__name__)


# Each job does what is due now and answers how many steps it took; each commits on its own. Deliveries
# come last, so that what the other jobs queued goes out in the same round; housekeeping (the request log,
# failed logins) after them.
JOBS: list[Job] = [
    *payouts_jobs.JOBS,
    *payins_jobs.JOBS,
    *vaults_jobs.JOBS,
    *notifications_jobs.JOBS,
    *api_jobs.JOBS,
    *dashboard_jobs.JOBS,
]


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
