"""What the notification tests share: a paid PIX trade and its message, a transport that answers as told."""

from __future__ import annotations

import dataclasses
import json

from sqlalchemy import select

from checkout.db import db
from checkout.notifications.models import OutboxMessage
from checkout.notifications.result import Result
from tests import builders


def paid_pix(api, receiver, out_trade_no="order-1") -> str:
    trade_no = api.post(
        "/trade/pay", builders.direct("PIX", out_trade_no=out_trade_no, notify_url=receiver.url), expect=200
    )["trade_no"]
    api.post(f"/sandbox/trades/{trade_no}/pay", expect=200)
    return trade_no


def message_of(app, subject: str) -> OutboxMessage:
    with app.app_context():
        return db.session.scalars(select(OutboxMessage).where(OutboxMessage.subject_id == subject)).one()


SUCCESS = Result(succeeded=True, status_code=200, response="success", duration_ms=3)


class Transport:
    """The HTTP transport, patched: every send is recorded and answered as scripted, none reaches a
    receiver. A receiver that hangs would hold whoever calls it; a request must never be the caller."""

    def __init__(self):
        self.sent: list[dict] = []
        self.script: list[Result] = []

    def __call__(self, url: str, body: bytes, headers: dict, *, allow_private: bool) -> Result:
        self.sent.append(json.loads(body))
        answer = self.script.pop(0) if self.script else SUCCESS
        return dataclasses.replace(answer)  # a fresh one: the dispatcher writes into it
