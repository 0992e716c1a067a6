"""One subject's notifications keep their order under several workers: a claim never takes a later message while
an earlier one of its subject is pending, even when another worker's claim has just locked that one."""

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from checkout.db import db
from checkout.notifications import claiming
from checkout.notifications.models import OutboxMessage
from tests import builders


def _refunded_pix(api, receiver) -> str:
    """A paid PIX refunded in part: two messages about one trade, SUCCESS then REFUNDED, both pending."""
    trade_no = api.post(
        "/trade/pay", builders.direct("PIX", out_trade_no="ordered-1", notify_url=receiver.url), expect=200
    )["trade_no"]
    api.post(f"/sandbox/trades/{trade_no}/pay", expect=200)
    api.post("/trade/refund", builders.refund(trade_no, "1.00", out_request_no="r-1"), expect=200)
    return trade_no


def _messages(app, trade_no: str) -> list[OutboxMessage]:
    with app.app_context():
        return list(
            db.session.scalars(
                select(OutboxMessage).where(OutboxMessage.subject_id == trade_no).order_by(OutboxMessage.id)
            )
        )


def test_a_claim_leaves_a_later_message_while_another_claim_holds_the_earlier_one_uncommitted(app, api, receiver):
    if db.engine.dialect.name != "postgresql":
        pytest.skip("row locks and SKIP LOCKED: SQLite lets one writer claim at a time")
    with app.app_context():
        trade_no = _refunded_pix(api, receiver)
        first, second = _messages(app, trade_no)
        assert (first.payload["trade_status"], second.payload["trade_status"]) == ("SUCCESS", "REFUNDED")
        # Worker A is inside its claim: it has locked the first message and not yet committed its hold.
        with Session(db.engine) as worker_a:
            worker_a.execute(
                select(OutboxMessage.id).where(OutboxMessage.id == first.id).with_for_update(of=OutboxMessage)
            ).all()
            # Worker B claims meanwhile: SKIP LOCKED passes over the first; the second must stay where it is.
            claimed = claiming.claim(db.session)
            assert [(m.subject, m.payload["trade_status"]) for m in claimed] == []
            worker_a.rollback()
        # Once the first is free again, one claim takes both, in their order.
        claimed = claiming.claim(db.session)
        assert [m.payload["trade_status"] for m in claimed] == ["SUCCESS", "REFUNDED"]


def test_a_later_message_waits_for_an_earlier_one_of_its_subject_held_by_a_committed_claim(app, api, receiver):
    with app.app_context():
        trade_no = _refunded_pix(api, receiver)
        first, _ = _messages(app, trade_no)
        assert [m.payload["trade_status"] for m in claiming.claim(db.session, only=first.id)] == ["SUCCESS"]
        assert claiming.claim(db.session) == []  # the REFUNDED waits for the SUCCESS held by that claim
