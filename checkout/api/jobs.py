"""Scheduled work of the API layer: the request log forgets requests older than 7 days."""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from sqlalchemy.orm import Session

from ..jobs import Job
from . import requestlog

EVERY_SECONDS = 60.0  # a purge per minute per process is plenty for a 7-day window
_last = [float("-inf")]  # per process, as the pace is: one purge a minute whichever app's worker runs it


def purge_request_log(session: Session, config: Mapping[str, Any]) -> int:
    """Delete logged requests older than 7 days (real time), at most once a minute."""
    now = time.monotonic()
    if now - _last[0] < EVERY_SECONDS:
        return 0
    _last[0] = now
    requestlog.purge(session)
    return 0  # housekeeping: never keeps the worker from pausing


JOBS: list[Job] = [purge_request_log]
