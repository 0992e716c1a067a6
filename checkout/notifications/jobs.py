"""Scheduled notification work: deliver what is due from the outbox."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlalchemy.orm import Session

from ..jobs import Job
from . import dispatcher


def deliveries(session: Session, config: Mapping[str, Any]) -> int:
    return dispatcher.dispatch_due(session, config)


JOBS: list[Job] = [deliveries]
