"""The customer's answer at its bank or wallet (sandbox hand-off): approve pays, decline refuses, each once."""

import pytest

from checkout.db import db
from checkout.errors import IllegalState
from checkout.merchants.service import find_by_app_id
from checkout.payins import handoffs
from tests import builders
from tests.pages.country_payments import CASES


def test_decline_refuses_a_waiting_trade_with_its_reason_and_callback(app, api, outbox):
    trade = api.post("/trade/pay", CASES["tr-papara"].body("o-1"), expect=200)
    with app.app_context():
        merchant = find_by_app_id(db.session, api.app_id)
        refused = handoffs.decline(db.session, merchant, trade["trade_no"], "Papara")
        db.session.commit()
        assert (refused.status, refused.failure_reason) == ("REFUSED", "declined by the customer at Papara")
    ((kind, _, payload),) = outbox(trade["trade_no"])
    assert (kind, payload["trade_status"], payload["reason"]) == (
        "payin.callback",
        "REFUSED",
        "declined by the customer at Papara",
    )
    assert payload["channel"] == "Papara" and payload["amount"] == "400.00"


@pytest.mark.parametrize(
    ("first", "then", "reason"),
    [
        ("approve", "decline", "trade is SUCCESS; only a PROCESSING trade can be declined"),
        ("decline", "decline", "trade is REFUSED; only a PROCESSING trade can be declined"),
        ("decline", "approve", "trade is REFUSED; only a PROCESSING trade can be paid"),
    ],
)
def test_a_decided_trade_stays_as_it_is(app, api, outbox, first, then, reason):
    trade = api.post("/trade/pay", CASES["ru-qiwi"].body("o-1"), expect=200)
    with app.app_context():
        merchant = find_by_app_id(db.session, api.app_id)
        decide = {"approve": handoffs.approve, "decline": lambda s, m, no: handoffs.decline(s, m, no, "QIWI")}
        decide[first](db.session, merchant, trade["trade_no"])
        db.session.commit()
        with pytest.raises(IllegalState) as refused:
            decide[then](db.session, merchant, trade["trade_no"])
        db.session.rollback()
    assert (refused.value.reason, refused.value.message) == ("trade-status-invalid", reason)
    assert len(outbox(trade["trade_no"])) == 1


def test_a_card_trade_is_not_declined_this_way(app, api):
    token = api.post("/card/token", builders.card(), expect=200)["token"]
    trade = api.post("/trade/pre-authorization", builders.pre_authorization(token), expect=200)
    with app.app_context():
        merchant = find_by_app_id(db.session, api.app_id)
        with pytest.raises(IllegalState) as refused:
            handoffs.decline(db.session, merchant, trade["trade_no"], "a bank")
    assert refused.value.reason == "method-not-payable"
