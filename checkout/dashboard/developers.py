"""The developers area's queries and actions: keys behind the password, deliveries, the request log, signatures."""

from __future__ import annotations

import base64
import hashlib
import json
from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from .. import clock, jsonbody, signing
from ..api.requestlog import ApiRequest
from ..merchants import service as merchants
from ..merchants.models import Merchant
from ..notifications import inspect
from ..notifications.models import OutboxMessage

PAGE = 50
STATUS_CLASSES = {"2xx": (200, 299), "4xx": (400, 499), "5xx": (500, 599)}


# --- keys ------------------------------------------------------------------------------------------


def basic_header(app_id: str, security_key: str) -> str:
    """The payin `Authorization` header value for these credentials."""
    return "Basic " + base64.b64encode(f"{app_id}:{security_key}".encode()).decode()


def keys_version(merchant: Merchant) -> str:
    """A short digest of the keys the rotation form was shown with: a second POST of the same form (a
    reload of the answer) names keys that are gone, and rotates nothing. It reveals nothing of them."""
    return hashlib.sha256(f"{merchant.security_key}:{merchant.app_key}".encode()).hexdigest()[:16]


class AlreadyRotated(Exception):
    """The keys are no longer those the rotation form was shown with: another rotation came first."""


def rotate(session: Session, merchant_id: int, seen: tuple[str, str]) -> dict:
    """New security_key and app_key in place of `seen` (the pair the form was shown with), effective at the
    commit; answers the new credentials. Raises AlreadyRotated when the keys are no longer those: of two
    confirmations sent at once, one rotates (merchants.service.rotate_keys swaps them in one UPDATE)."""
    try:
        return merchants.credentials(merchants.rotate_keys(session, merchant_id, seen=seen))
    except merchants.KeysChanged:
        raise AlreadyRotated from None


# --- notification deliveries -----------------------------------------------------------------------


@dataclass
class Deliveries:
    messages: list[OutboxMessage]
    older: int | None  # the `before` cursor of the next (older) page, None on the last


def deliveries(session: Session, merchant_id: int, status: str | None, before: int | None) -> Deliveries:
    """This merchant's notifications, newest first, PAGE at a time."""
    status = status if status in inspect.STATUSES else None
    found = inspect.listing(session, merchant_id, status, limit=PAGE + 1, before=before)
    return Deliveries(found[:PAGE], found[PAGE - 1].id if len(found) > PAGE else None)


def delivery(session: Session, merchant_id: int, notify_id: str) -> OutboxMessage | None:
    return inspect.find(session, merchant_id, notify_id)


def subject_page(message: OutboxMessage) -> tuple[str, dict[str, str]] | None:
    """The dashboard page of what a notification is about (endpoint, its arguments): the trade of a
    payment's callback or a refund's e-mail, the vault, the payout. A test notification is about nothing."""
    if (message.payload or {}).get("test"):
        return None
    if message.kind.startswith("payin."):
        return "dashboard.payments.detail", {"trade_no": message.subject_id}
    if message.kind.startswith("refund.") and (message.payload or {}).get("trade_no"):
        return "dashboard.payments.detail", {"trade_no": str(message.payload["trade_no"])}
    if message.kind.startswith("vault."):
        return "dashboard.vaults.detail", {"token": message.subject_id}
    if message.kind.startswith("payout."):
        return "dashboard.payouts.detail", {"transaction_id": message.subject_id}
    return None


# --- API request log -------------------------------------------------------------------------------


@dataclass
class Requests:
    rows: list[ApiRequest]
    older: int | None


def requests(
    session: Session, merchant_id: int, *, path: str | None, status_class: str | None, before: int | None
) -> Requests:
    """This merchant's logged API requests, newest first, PAGE at a time (keyset on id)."""
    query = select(ApiRequest).where(ApiRequest.merchant_id == merchant_id)
    if before is not None:
        query = query.where(ApiRequest.id < before)
    if path:
        query = query.where(ApiRequest.path.startswith(path, autoescape=True))
    if status_class in STATUS_CLASSES:
        low, high = STATUS_CLASSES[status_class]
        query = query.where(ApiRequest.status.between(low, high))
    found = list(session.scalars(query.order_by(ApiRequest.id.desc()).limit(PAGE + 1)))
    return Requests(found[:PAGE], found[PAGE - 1].id if len(found) > PAGE else None)


def logged_at(row: ApiRequest) -> datetime:
    return clock.as_utc(row.at)


# --- signature helper ------------------------------------------------------------------------------


class NotAnObject(ValueError):
    """The pasted body is not one the payout API would read; kind is jsonbody.BodyError's."""

    def __init__(self, kind: str):
        super().__init__(kind)
        self.kind = kind


@dataclass
class SignatureCheck:
    """What the helper shows. Never the signature the server expects: with it, anyone holding a dashboard
    session could sign any payout without the app_key (the keys page asks for the password again)."""

    canonical: str
    given: str = ""
    matches: bool | None = None  # None: no signature was pasted
    reasons: list[str] = field(default_factory=list)  # why it does not match, as far as we can tell


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def parse_body(text: str) -> dict:
    """The pasted body read as the payout API reads it, under the same limits (numbers kept as written)."""
    try:
        return jsonbody.parse_object(text)
    except jsonbody.BodyError as error:
        raise NotAnObject(error.kind) from None


def check_signature(merchant: Merchant, text: str, given: str = "") -> SignatureCheck:
    """The canonical string of this body (checkout.signing, the server's own code), and whether `given`
    is the signature the payout API expects with this merchant's app_key. When it
    does not match, the usual mistakes are tried in turn to say why: the raw text signed (whitespace), the
    keys in their written order, empty values kept, the payin security key used."""
    body = parse_body(text)
    result = SignatureCheck(signing.payout_canonical(body))
    given = given.strip()
    if not given:
        return result
    result.given = given
    result.matches = signing.verify_payout_signature(body, merchant.app_key, given)
    if result.matches:
        return result
    sent = given.lower()
    kept = {k: v for k, v in body.items() if v is not None and v != ""}
    # Each key=value pair written by the server's own canonical form, one pair at a time.
    pairs = {key: signing.payout_canonical({key: value}) for key, value in body.items()}
    tries = [
        ("raw", text + merchant.app_key),
        ("raw", text.strip() + merchant.app_key),
        ("compact", json.dumps(body, separators=(",", ":"), ensure_ascii=False, default=str) + merchant.app_key),
        ("order", "&".join(pairs[key] for key in body if key in kept) + merchant.app_key),
        (
            "empty",
            "&".join(pairs[key] or f"{key}=" for key in sorted(body) if body[key] is not None) + merchant.app_key,
        ),
        ("security_key", result.canonical + merchant.security_key),
        ("no_key", result.canonical),
    ]
    result.reasons = sorted({reason for reason, candidate in tries if _sha(candidate) == sent})
    if not result.reasons and len(sent) != 64:
        result.reasons = ["length"]
    return result
