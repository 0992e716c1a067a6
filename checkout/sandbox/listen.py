"""Sandbox routes (CHECKOUT_SANDBOX on only) behind `checkout listen`: the merchant's notifications as a
long-poll stream, and the local receiver's answer reported back."""

from __future__ import annotations

import threading
import time
from typing import Annotated

from flask import Blueprint, request
from pydantic import BaseModel, Field, StrictInt, StrictStr

from ..api.operation import operation
from ..db import db
from ..errors import InvalidField, NotFound
from ..merchants.models import Merchant
from ..notifications import inspect, stream
from ..validation import REQUEST_CONFIG
from .schemas import Delivery

bp = Blueprint("listen", __name__)

MAX_WAIT = 25  # seconds: under the idle timeouts of common proxies (30 s and up)
HOLD = MAX_WAIT  # the longest a poll is actually held (a fuzzing suite, calling it thousands of times, lowers it)
POLL_EVERY = 0.5
# Long-polls waiting at once in this process; past it a poll answers at once (the listener then pauses a
# second), so that listeners never hold every one of the server's threads.
_waiting = threading.BoundedSemaphore(4)


class ForwardResult(BaseModel):
    """What the local receiver answered to one forwarded message."""

    model_config = REQUEST_CONFIG
    status_code: Annotated[StrictInt, Field(ge=100, le=599)] | None = None
    response: Annotated[StrictStr, Field(max_length=65536)] | None = None
    error: Annotated[StrictStr, Field(max_length=1024)] | None = None
    duration_ms: Annotated[StrictInt, Field(ge=0, le=3_600_000)] = 0


class StreamedMessage(BaseModel):
    id: str = Field(description="the delivery's id (notify_id), as /sandbox/deliveries names it")
    kind: str
    target: str = Field(description="the notify_url the service sends it to")
    subject: str
    status: str
    created_at: int
    body: str = Field(description="the exact body, UTF-8 JSON; send its UTF-8 bytes unchanged")
    headers: dict[str, str] = Field(description="the headers it is sent with, signature headers signed now")


class StreamBatch(BaseModel):
    messages: list[StreamedMessage]
    cursor: str = Field(description="send it back as `after` once every message above is handled")


def _number(name: str, default: int, maximum: int) -> int:
    raw = request.args.get(name)
    if raw is None:
        return default
    if not raw.isdigit() or len(raw) > 18:  # an empty value too: the parameter is an integer when given
        raise InvalidField(name, "must be a whole number")
    if int(raw) > maximum:
        raise InvalidField(name, f"must be at most {maximum}")
    return int(raw)


@operation(
    bp,
    "/notifications/stream",
    None,
    methods=("GET",),
    tag="sandbox",
    read_only=True,
    summary="The merchant's notifications after a cursor, waiting up to `wait` seconds for the next ones",
    query={
        "after": {"type": "string", "description": "the cursor of the last batch handled; none: from now"},
        "wait": {"type": "integer", "minimum": 0, "maximum": MAX_WAIT, "description": "seconds, default 25"},
    },
    response=StreamBatch,
)
def notification_stream(merchant: Merchant):
    session = db.session
    start = request.args.get("after") is None
    after = stream.start(session) if start else _number("after", 0, 2**62)
    wait = _number("wait", MAX_WAIT, MAX_WAIT)
    holes = stream.Holes()
    started = time.monotonic()
    deadline = started + min(wait, HOLD)
    waiting = wait > 0 and _waiting.acquire(blocking=False)
    try:
        while True:
            messages, after = stream.poll(session, merchant.id, after, holes, time.monotonic())
            # Held back by a hole (an id not committed yet, or rolled back): even a poll that would not
            # wait waits for it to settle, so that what lies behind it is not left to the next poll.
            settling = bool(holes.first_seen) and time.monotonic() < started + stream.SETTLE + POLL_EVERY
            if messages or (not settling and (not waiting or time.monotonic() >= deadline)):
                break
            session.rollback()  # no connection held while waiting
            time.sleep(POLL_EVERY if settling else min(POLL_EVERY, max(0.0, deadline - time.monotonic())))
    finally:
        if waiting:
            _waiting.release()
    return {"messages": [stream.describe(m, merchant) for m in messages], "cursor": str(after)}


@operation(
    bp,
    "/notifications/stream/<delivery_id>/result",
    ForwardResult,
    tag="sandbox",
    summary="Record what the local receiver answered to a message `checkout listen` forwarded",
    response=Delivery,
)
def forward_result(merchant: Merchant, req: ForwardResult, delivery_id: str):
    message = stream.record_forward(
        db.session,
        merchant.id,
        delivery_id,
        status_code=req.status_code,
        response=req.response,
        error=req.error,
        duration_ms=req.duration_ms,
    )
    if message is None:
        raise NotFound(reason="delivery-not-exist", message="no such delivery")
    db.session.flush()
    db.session.expire(message, ["attempt_log"])  # read again, with the attempt just written
    return inspect.describe(message)
