"""One custom_code names one payout, whether submitted directly (/api/payout) or through a checkout session
(/api/checkout): a reuse answers 4001010 and writes nothing, also when the two race (issue 14, point 8)."""

import threading

from sqlalchemy import select

from checkout import clock
from checkout.db import db
from checkout.payouts.models import CheckoutSession, CustomCode, Payout
from tests import builders
from tests.conftest import PayoutApi

ROUNDS = 10


def test_a_checkout_sessions_code_refuses_a_direct_payout(payout_api, merchant, fund, row_counts):
    fund(merchant, "USD", "1000.00")
    payout_api.post("/checkout", builders.checkout_session("held"), expect=200)
    before = row_counts()
    answer = payout_api.post("/payout", builders.payout("held"), expect=400)
    assert (answer["code"], answer["msg"], answer["data"]) == (
        4001010,
        "order already existed",
        {"err": "custom_code: already used by a checkout session (OPEN)"},
    )
    assert row_counts() == before


def test_a_payouts_code_refuses_a_checkout_session(payout_api, merchant, fund, row_counts):
    fund(merchant, "USD", "1000.00")
    paid = payout_api.post("/payout", builders.payout("held"), expect=200)["data"]
    before = row_counts()
    answer = payout_api.post("/checkout", builders.checkout_session("held"), expect=400)
    assert (answer["code"], answer["msg"], answer["data"]) == (
        4001010,
        "order already existed",
        {"payout_id": paid["transaction_id"]},
    )
    assert row_counts() == before


def test_an_expired_sessions_code_stays_taken(payout_api, merchant, fund, work, row_counts):
    """Like a closed order's number at a serious provider: the code keeps naming what the merchant opened."""
    fund(merchant, "USD", "1000.00")
    payout_api.post("/checkout", builders.checkout_session("late", timeout=60), expect=200)
    clock.advance(61)
    work()
    before = row_counts()
    for path, body in (("/checkout", builders.checkout_session("late")), ("/payout", builders.payout("late"))):
        answer = payout_api.post(path, body, expect=400)
        assert (answer["code"], answer["data"]) == (
            4001010,
            {"err": "custom_code: already used by a checkout session (EXPIRED)"},
        )
    assert row_counts() == before


def test_codes_are_per_merchant(payout_api, other_payout_api, merchant, fund):
    fund(merchant, "USD", "1000.00")
    payout_api.post("/payout", builders.payout("mine"), expect=200)
    assert other_payout_api.post("/checkout", builders.checkout_session("mine"), expect=200)["code"] == 200


def test_each_path_claims_its_code_once(app, payout_api, merchant, fund):
    fund(merchant, "USD", "1000.00")
    payout_api.post("/checkout", builders.checkout_session("page"), expect=200)
    payout_api.post("/payout", builders.payout("direct"), expect=200)
    with app.app_context():
        claims = db.session.scalars(select(CustomCode.custom_code).order_by(CustomCode.custom_code)).all()
    assert claims == ["direct", "page"]


def race(app, merchant: dict, code: str) -> list[dict]:
    """/api/payout and /api/checkout with one code, each from its own thread, released together."""
    barrier, answers = threading.Barrier(2), [{}, {}]

    def send(index: int, path: str, body: dict) -> None:
        client = PayoutApi(app.test_client(), merchant)
        barrier.wait()
        answers[index] = client.post(path, body)

    bodies = [("/payout", builders.payout(code)), ("/checkout", builders.checkout_session(code))]
    threads = [threading.Thread(target=send, args=(i, *bodies[i])) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return answers


def test_racing_payout_and_checkout_with_one_code_one_wins(app, merchant, fund):
    """Each round sends /api/payout and /api/checkout with one code at once: exactly one is accepted, the
    other answers 4001010, and only the winner's row exists (on PostgreSQL the two really overlap)."""
    fund(merchant, "USD", "5000.00")
    for round_ in range(ROUNDS):
        code = f"race-{round_}"
        payout, checkout = race(app, merchant, code)
        assert sorted(a.get("code") for a in (payout, checkout)) == [200, 4001010], (payout, checkout)
        with app.app_context():
            payouts = db.session.scalars(select(Payout.transaction_id).where(Payout.custom_code == code)).all()
            pages = db.session.scalars(select(CheckoutSession.status).where(CheckoutSession.custom_code == code)).all()
        if payout["code"] == 200:
            assert (payouts, pages) == ([payout["data"]["transaction_id"]], [])
            assert checkout["data"] == {"payout_id": payouts[0]}
        else:
            assert (payouts, pages) == ([], ["OPEN"])
            assert payout["data"] == {"err": "custom_code: already used by a checkout session (OPEN)"}
    with app.app_context():
        assert len(db.session.scalars(select(CustomCode)).all()) == ROUNDS
