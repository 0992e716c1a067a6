"""Scheduled vault work: authorizations nobody decided before their page expired."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from .. import clock
from ..jobs import Due, Job, Scope, on_each_clock
from . import service
from .models import Vault

LIMIT = 200


def expire_authorizations(session: Session, config: Mapping[str, Any]) -> int:
    """PENDING vaults whose authorization session ran out become EXPIRED (their callback is queued)."""
    due = Due((Vault.status == service.PENDING,), Vault.session_expires_at)
    return on_each_clock(session, Vault.merchant_id, lambda scope: _expire(session, scope), due)


def _expire(session: Session, scope: Scope) -> int:
    pending = list(
        session.scalars(
            select(Vault)
            .where(scope, Vault.status == service.PENDING, Vault.session_expires_at <= clock.now())
            .limit(LIMIT)
            .with_for_update(of=Vault, skip_locked=True)
        )
    )
    for vault in pending:
        service.set_status(session, vault, service.EXPIRED, "the authorization session expired")
    return len(pending)


JOBS: list[Job] = [expire_authorizations]
