"""Concurrent requests: one trade per out_trade_no, refunds never above the paid amount, one end to an
authorization."""

from sqlalchemy import func, select

from checkout.db import db
from checkout.payins.models import Refund, Trade
from tests import builders

from .helpers import THREADS, race


def test_racing_duplicate_out_trade_no_creates_one_trade(app, merchant):
    answers = race(app, merchant, "/trade/pay", [builders.direct("PIX", out_trade_no="race-1")] * THREADS)
    codes = sorted(a.get("sub_code", a["code"]) for a in answers)
    assert codes == ["10000"] + ["duplicate-out_trade_no"] * (THREADS - 1)
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Trade)) == 1


def test_racing_refunds_never_exceed_the_paid_amount(app, api, merchant):
    trade_no = api.post("/trade/pay", builders.direct("PIX", order_amount="100.00"), expect=200)["trade_no"]
    api.post(f"/sandbox/trades/{trade_no}/pay", expect=200)
    bodies = [builders.refund(trade_no, "15.00", out_request_no=f"r{i}") for i in range(THREADS)]
    answers = race(app, merchant, "/trade/refund", bodies)
    assert sorted(a.get("sub_code", a["code"]) for a in answers) == ["10000"] * 6 + ["refund-amount-exceeded"] * 2
    query = api.post("/trade/query", {"trade_no": trade_no}, expect=200)
    assert (query["refunded_amount"], query["refundable_amount"], query["trade_status"]) == (
        "90.00",
        "10.00",
        "REFUNDED",
    )


def test_racing_repeats_of_one_out_request_no_make_one_refund(app, api, merchant):
    trade_no = api.post("/trade/pay", builders.direct("PIX", order_amount="100.00"), expect=200)["trade_no"]
    api.post(f"/sandbox/trades/{trade_no}/pay", expect=200)
    answers = race(
        app, merchant, "/trade/refund", [builders.refund(trade_no, "10.00", out_request_no="same")] * THREADS
    )
    assert {a["code"] for a in answers} == {"10000"}
    assert len({a["refund_no"] for a in answers}) == 1
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Refund)) == 1


def test_racing_captures_and_voids_end_an_authorization_once(app, api, merchant, outbox):
    token = api.post("/card/token", builders.card(), expect=200)["token"]
    trade_no = api.post("/trade/pre-authorization", builders.pre_authorization(token), expect=200)["trade_no"]
    capture = {"version": "2.0", "amount": "150.00", "currency": "BRL", "out_trade_no": "pre-1"}
    void = {"version": "2.0", "out_trade_no": "pre-1"}
    half = THREADS // 2
    answers = race(app, merchant, ["/trade/capture"] * half + ["/trade/void"] * half, [capture] * half + [void] * half)
    final = api.post("/trade/query", {"trade_no": trade_no}, expect=200)["trade_status"]
    assert final in ("SUCCESS", "CANCEL")
    # The winner's kind answers success every time (a repeat of what was done); the other kind is refused.
    won = slice(0, half) if final == "SUCCESS" else slice(half, THREADS)
    lost = slice(half, THREADS) if final == "SUCCESS" else slice(0, half)
    assert {a["code"] for a in answers[won]} == {"10000"}
    assert {a.get("sub_code") for a in answers[lost]} == {"trade-status-invalid"}
    assert [p["trade_status"] for _, _, p in outbox(trade_no)] == ["AUTHORIZED", final]
