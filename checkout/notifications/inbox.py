"""The sandbox inbox: a notify_url on the service itself that keeps what it receives (signature checked with the
merchant's keys) for the dashboard, and the worker's delivery to it in-process."""

from __future__ import annotations

import hmac
import json
import re
from collections.abc import Mapping
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from .. import clock, signing
from ..merchants.models import Merchant
from .models import InboxMessage
from .queries import Outgoing
from .result import Result
from .transport import headers_for

PATH = "/sandbox/inbox/"
KEEP = 200  # messages kept per merchant, the newest: an inbox anyone may post to stays bounded
MAX_BODY = 64 * 1024
# Only these headers are kept: a Basic Authorization header (a merchant's key) never is.
KEPT_HEADERS = ("Content-Type", "User-Agent", "X-Notify-Id", "Pagsmile-Signature", "Authorization")
_APP_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")


def url_for(public_url: str, app_id: str) -> str:
    return f"{public_url.rstrip('/')}{PATH}{app_id}"


def own_app_id(target: str, config: Mapping[str, Any]) -> str | None:
    """The app_id whose inbox `target` is, when it is this service's own inbox (by CHECKOUT_PUBLIC_URL, in
    sandbox mode): the worker then delivers in-process, whatever the private-target policy, since the service
    reaching itself is no private target of anyone else. None: any other URL, sent over HTTP as usual."""
    public = config.get("PUBLIC_URL")
    if not config.get("SANDBOX") or not public:
        return None
    prefix = public.rstrip("/") + PATH
    if not target.startswith(prefix):
        return None
    app_id = target[len(prefix) :]
    return app_id if _APP_ID.fullmatch(app_id) else None


def verified(merchant: Merchant, headers: Mapping[str, str], body: bytes) -> bool:
    """Whether the signature header the body came with is the merchant's: a payin callback's
    Pagsmile-Signature (HMAC-SHA256 of the raw body, security key), a payout notification's Authorization
    (the payout signature of the JSON body, app key)."""
    callback = headers.get("Pagsmile-Signature", "")
    if callback:
        parts = dict(part.split("=", 1) for part in callback.split(",") if "=" in part)
        expected = signing.callback_signature(body, merchant.security_key, 0).split("v2=", 1)[1]
        return hmac.compare_digest(parts.get("v2", ""), expected)
    signature = headers.get("Authorization", "")
    if signature and not signature.lower().startswith("basic "):
        try:
            payload = json.loads(body)
        except ValueError:
            return False
        return isinstance(payload, dict) and signing.verify_payout_signature(payload, merchant.app_key, signature)
    return False


def receive(session: Session, merchant: Merchant, headers: Mapping[str, str], body: bytes) -> InboxMessage:
    """Keep one received notification (the caller commits); the merchant's oldest beyond KEEP are dropped."""
    kept = {name: headers[name] for name in KEPT_HEADERS if headers.get(name)}
    if kept.get("Authorization", "").lower().startswith("basic "):
        del kept["Authorization"]
    try:
        payload = json.loads(body)
    except ValueError:
        payload = None
    notify_id = payload.get("notify_id") if isinstance(payload, dict) else None
    with clock.merchant(merchant.id):
        received_at = clock.now()
    message = InboxMessage(
        merchant_id=merchant.id,
        received_at=received_at,
        notify_id=str(notify_id)[:64] if notify_id is not None else None,
        headers=kept,
        body=body[:MAX_BODY].decode("utf-8", "replace").replace("\x00", "\ufffd"),
        signature_valid=verified(merchant, headers, body),
    )
    session.add(message)
    session.flush()
    oldest_kept = session.scalar(
        select(InboxMessage.id)
        .where(InboxMessage.merchant_id == merchant.id)
        .order_by(InboxMessage.id.desc())
        .offset(KEEP - 1)
        .limit(1)
    )
    if oldest_kept is not None:
        session.execute(
            delete(InboxMessage).where(InboxMessage.merchant_id == merchant.id, InboxMessage.id < oldest_kept)
        )
    return message


def deliver(session: Session, outgoing: Outgoing, app_id: str) -> Result:
    """The worker's delivery to the service's own inbox: the body and headers it would POST, kept at once."""
    with clock.merchant(outgoing.merchant_id):
        started_at = clock.now()
    if outgoing.app_key is None:
        return Result(succeeded=False, error="the merchant no longer exists", final=True, started_at=started_at)
    owner = session.scalar(select(Merchant).where(Merchant.app_id == app_id))
    if owner is None:
        return Result(succeeded=False, error=f"no sandbox inbox {app_id}", final=True, started_at=started_at)
    receive(session, owner, headers_for(outgoing), outgoing.body)
    return Result(succeeded=True, status_code=200, response="success", started_at=started_at)


def listing(session: Session, merchant_id: int, limit: int = 50) -> list[InboxMessage]:
    """The merchant's inbox, newest first."""
    return list(
        session.scalars(
            select(InboxMessage)
            .where(InboxMessage.merchant_id == merchant_id)
            .order_by(InboxMessage.id.desc())
            .limit(limit)
        )
    )
