"""Each merchant's own sandbox clock: one merchant's advance never moves another's business time."""

import time
from datetime import timedelta

import pytest
from sqlalchemy import select

from checkout import clock, worker
from checkout.db import db
from checkout.merchants.service import find_by_app_id
from checkout.notifications.models import OutboxMessage
from checkout.payouts.models import Payout
from tests import builders
from tests.conftest import PayoutApi

FIVE_YEARS = 5 * 366 * 86400  # within one call's bound (advance_seconds)


def merchant_id(app, api) -> int:
    with app.app_context():
        return find_by_app_id(db.session, api.app_id).id


def status(api, trade_no: str) -> str:
    return api.post("/trade/query", {"trade_no": trade_no}, expect=200)["trade_status"]


def card_payment(api, out_trade_no: str) -> dict:
    token = api.post("/card/token", builders.card(), expect=200)["token"]
    card = {"token": token, "fingerprint": "fp-1", "issuer": "visa", "user_ip": "203.0.113.7"}
    return api.post("/trade/pay", builders.direct("CreditCard", out_trade_no=out_trade_no, **card), expect=200)


def test_ten_years_ahead_for_one_merchant_leaves_the_others_test_card_working(app, api, other_api, work):
    for _ in range(2):
        api.post("/sandbox/clock", {"advance_seconds": FIVE_YEARS}, expect=200)
    mine = api.get("/sandbox/clock")
    assert mine["offset_seconds"] == 2 * FIVE_YEARS and mine["now"] >= time.time() + 2 * FIVE_YEARS - 5
    theirs = other_api.get("/sandbox/clock")
    assert theirs["offset_seconds"] == 0 and abs(theirs["now"] - time.time()) < 5
    # The documented test card has run out on the advanced merchant's clock, not on the other's.
    refused = api.post("/card/token", builders.card(), expect=400)
    assert refused["sub_code"] == "invalid-parameter"
    body = card_payment(other_api, "card-b")
    work()
    assert status(other_api, body["trade_no"]) == "SUCCESS"
    assert clock.offset_seconds() == 0 and clock.current_merchant() is None  # nothing leaked to this thread


def test_a_trade_expires_on_its_own_merchants_clock(app, api, other_api):
    mine = api.post("/trade/pay", builders.direct("PIX", timeout_express="5m"), expect=200)["trade_no"]
    theirs = other_api.post("/trade/pay", builders.direct("PIX", timeout_express="5m"), expect=200)["trade_no"]
    api.post("/sandbox/clock", {"advance_seconds": 360}, expect=200)
    worker.run_once(app)
    assert status(api, mine) == "EXPIRED"
    assert status(other_api, theirs) == "PROCESSING"


def test_the_worker_takes_each_merchants_payout_steps_on_its_clock(app, api, other_api, merchant, fund):
    mine, theirs = PayoutApi(api.client, merchant), PayoutApi(api.client, other_api.credentials)
    fund(merchant, "USD", "1000.00")
    fund(other_api.credentials, "USD", "1000.00")
    a = mine.post("/payout", builders.payout(), expect=200)["data"]["transaction_id"]
    b = theirs.post("/payout", builders.payout(), expect=200)["data"]["transaction_id"]
    a_id = merchant_id(app, api)
    clock.advance_merchant(a_id, 400)  # past processing (60 s) and the bank's decision (300 s)
    for _ in range(3):
        worker.run_once(app)
    with app.app_context():
        payouts = {p.transaction_id: p for p in db.session.scalars(select(Payout))}
        assert (payouts[a].status, payouts[b].status) == ("PAID", "IN_PROCESSING")
        [paid] = [m for m in db.session.scalars(select(OutboxMessage)) if m.subject_id == a]
        # Its notification and when it was written are on the merchant's clock, 400 s ahead.
        assert abs(paid.payload["timestamp"] - (time.time() + 400)) < 5
        assert abs(clock.unix(paid.created_at) - (time.time() + 400)) < 5


def test_a_callback_timestamp_and_its_retries_follow_the_merchants_clock(app, api, other_api, outbox):
    api.post("/sandbox/clock", {"advance_seconds": 86400}, expect=200)
    paid = {}
    for who in (api, other_api):
        trade_no = who.post("/trade/pay", builders.direct("PIX"), expect=200)["trade_no"]
        who.post(f"/sandbox/trades/{trade_no}/pay", expect=200)
        paid[who.app_id] = trade_no
    [(_, _, callback)] = outbox(paid[api.app_id])
    assert abs(int(callback["timestamp"]) - (time.time() + 86400)) < 5
    [(_, _, other)] = outbox(paid[other_api.app_id])
    assert abs(int(other["timestamp"]) - time.time()) < 5

    def attempts() -> dict[str, OutboxMessage]:
        with app.app_context():
            return {m.subject_id: m for m in db.session.scalars(select(OutboxMessage))}

    for _ in range(20):  # nothing listens at builders.NOTIFY: each first attempt fails
        worker.run_once(app)
        if all(m.attempts == 1 for m in attempts().values()):
            break
    messages = attempts()
    a, b = messages[paid[api.app_id]], messages[paid[other_api.app_id]]
    assert abs(clock.unix(a.first_dispatch_at) - (time.time() + 86400)) < 5
    assert clock.as_utc(a.next_attempt_at) == clock.as_utc(a.first_dispatch_at) + timedelta(minutes=10)
    assert clock.as_utc(b.next_attempt_at) == clock.as_utc(b.first_dispatch_at) + timedelta(minutes=10)
    assert abs(clock.unix(b.first_dispatch_at) - time.time()) < 5
    api.post("/sandbox/clock", {"advance_seconds": 601}, expect=200)  # A's retry comes due, B's does not
    for _ in range(20):
        worker.run_once(app)
        if attempts()[paid[api.app_id]].attempts == 2:
            break
    messages = attempts()
    assert (messages[paid[api.app_id]].attempts, messages[paid[other_api.app_id]].attempts) == (2, 1)


def test_merchant_contexts_nest_and_restore(app, api, other_api):
    a, b = merchant_id(app, api), merchant_id(app, other_api)
    clock.advance_merchant(a, 100)
    clock.advance_merchant(b, 200)
    clock.advance(10)  # the operator's shared clock moves every merchant's
    assert (clock.current_merchant(), clock.offset_seconds()) == (None, 10)
    with clock.merchant(a):
        assert clock.offset_seconds() == 110
        with clock.merchant(b):
            assert (clock.current_merchant(), clock.offset_seconds()) == (b, 210)
            with clock.merchant(None):
                assert clock.offset_seconds() == 10
            assert clock.offset_seconds() == 210
        assert (clock.current_merchant(), clock.offset_seconds()) == (a, 110)
    assert (clock.current_merchant(), clock.offset_seconds()) == (None, 10)
    assert abs((clock.now() - clock.real_now()).total_seconds() - 10) < 1


def test_a_merchants_clock_has_the_same_bound_and_only_moves_forward(app, api):
    a = merchant_id(app, api)
    clock.advance_merchant(a, int(clock.MAX_OFFSET.total_seconds()))
    with pytest.raises(ValueError, match="cannot run more than"):
        clock.advance_merchant(a, 1)
    with pytest.raises(ValueError, match="only moves forward"):
        clock.advance_merchant(a, -1)


def test_a_card_entry_link_lasts_30_minutes_on_its_merchants_clock(api, other_api, client):
    mine, theirs = (
        who.post("/card/session", {"country": "BRA"}, expect=200)["card_url"].removeprefix("http://checkout.test")
        for who in (api, other_api)
    )
    assert (client.get(mine).status_code, client.get(theirs).status_code) == (200, 200)
    api.post("/sandbox/clock", {"advance_seconds": 31 * 60}, expect=200)
    assert (client.get(mine).status_code, client.get(theirs).status_code) == (410, 200)
