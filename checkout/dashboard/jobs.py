"""Scheduled work of the dashboard: failed logins and sign-ups older than a day are forgotten."""

from __future__ import annotations

import time
from collections.abc import Mapping
from datetime import timedelta
from typing import Any

from sqlalchemy import delete
from sqlalchemy.orm import Session

from .. import clock
from ..jobs import Job
from .models import LoginAttempt, SignupAttempt

KEEP = timedelta(days=1)  # far longer than the windows they are counted in (15 minutes, an hour)
EVERY_SECONDS = 60.0
_last = [float("-inf")]  # per process, as the pace is: one purge a minute whichever app's worker runs it


def purge(session: Session, now=None) -> int:
    """Delete failed logins and sign-ups older than KEEP (real time, as they are counted); answers how many."""
    limit = (now or clock.real_now()) - KEEP
    logins = session.execute(delete(LoginAttempt).where(LoginAttempt.at < limit))
    signups = session.execute(delete(SignupAttempt).where(SignupAttempt.at < limit))
    return int(getattr(logins, "rowcount", 0) or 0) + int(getattr(signups, "rowcount", 0) or 0)


def purge_login_attempts(session: Session, config: Mapping[str, Any]) -> int:
    now = time.monotonic()
    if now - _last[0] < EVERY_SECONDS:
        return 0
    _last[0] = now
    purge(session)
    return 0  # housekeeping: never keeps the worker from pausing


JOBS: list[Job] = [purge_login_attempts]
