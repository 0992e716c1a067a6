"""Scheduled notification work: deliver what is due from the outbox."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlalchemy.orm import Session

from . import dispatcher


class Deliveries:
    """The delivery job of one worker, with its sending threads (dispatcher.new_sender): they start with its
    first send, and stop when the worker that made the job closes it."""

    __name__ = "deliveries"  # as the worker's log names a job

    def __init__(self) -> None:
        self.sender = dispatcher.new_sender()

    def __call__(self, session: Session, config: Mapping[str, Any]) -> int:
        return dispatcher.dispatch_due(session, config, self.sender)

    def close(self) -> None:
        self.sender.close()
