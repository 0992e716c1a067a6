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
# come after these, so that what they queued goes out in the same round; housekeeping (the request log,
# failed logins) last.
JOBS: list[Job] = [*payouts_jobs.JOBS, *payins_jobs.JOBS, *vaults_jobs.JOBS]
HOUSEKEEPING: list[Job] = [*api_jobs.JOBS, *dashboard_jobs.JOBS]
DELIVERIES = "checkout.deliveries"  # app.extensions: the app's delivery job, with its sending threads


def deliveries(app: Flask) -> notifications_jobs.Deliveries:
    """The app's delivery job, made by its worker's first round and kept until close(app)."""
    job = app.extensions.get(DELIVERIES)
    if job is None:  # setdefault: of two first rounds at once, one job (a Sender starts no thread until used)
        job = app.extensions.setdefault(DELIVERIES, notifications_jobs.Deliveries())
    return job


def jobs(app: Flask) -> list[Job]:
    """Every job of a round, in order."""
    return [*JOBS, deliveries(app), *HOUSEKEEPING]


def run_once(app: Flask) -> int:
    steps = 0
    with app.app_context():
        for job in jobs(app):
            try:
                steps += job(db.session, app.config)
                db.session.commit()
            except Exception:
                db.session.rollback()
                log.exception("worker job %s failed; it runs again next round", job.__name__)
    return steps


def close(app: Flask) -> None:
    """Stop the worker's sending threads (checkout.close, when the process stops)."""
    job = app.extensions.pop(DELIVERIES, None)
    if job is not None:
        job.close()


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
