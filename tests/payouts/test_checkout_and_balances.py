import threading
from datetime import date, timedelta
from urllib.parse import parse_qs, urlsplit

import pytest
from sqlalchemy import func, select

from checkout import clock, signing
from checkout.db import db
from checkout.payouts.models import CheckoutSession
from tests import builders
from tests.conftest import PayoutApi


def _within(seconds: int, post) -> dict:
    """The answer of `post`, whose expire_time must lie `seconds` after the clock's time around the request
    (read on both sides: a request that crosses a second boundary is no error)."""
    before = clock.unix(clock.now())
    body = post()
    assert before + seconds <= body["expire_time"] <= clock.unix(clock.now()) + seconds
    return body


def test_checkout_session_answers_a_signed_url(payout_api):
    body = _within(1800, lambda: payout_api.post("/checkout", builders.checkout_session(), expect=200)["data"])
    url = urlsplit(body["checkout_url"])
    assert (url.netloc, url.path) == ("checkout.test", "/pages/payout")
    payload = signing.read_page_token("test-secret-key", "payout", parse_qs(url.query)["token"][0], 1800)
    assert payload["session"].startswith("cs_")


def test_timeout_default_and_custom(payout_api):
    _within(600, lambda: payout_api.post("/checkout", builders.checkout_session(timeout=600), expect=200)["data"])


@pytest.mark.parametrize(
    "overrides, err",
    [
        ({"timeout": 1801}, "timeout: Input should be less than or equal to 1800"),
        ({"additional_remark": "r" * 40}, "additional_remark: String should have at most 39 characters"),
        ({"additional_remark": ...}, "additional_remark: is required"),
        ({"return_url": "javascript:alert(1)"}, "return_url: must be an absolute http(s) URL"),
        ({"source_currency": "MXN"}, "source_currency: must be USD or BRL for BRA"),
        ({"payout_currency": "MXN"}, "payout_currency: must be BRL for BRA"),
        ({"method": "SPEI"}, "method: must be PIX or BANKTRANSFER for BRA"),
        ({"country": "MEX", "payout_currency": "MXN", "method": "PIX"}, "method: must be SPEI for MEX"),
        (
            {"country": "GLOBAL", "payout_currency": "USD", "source_currency": "BRL", "method": ...},
            "source_currency: must be USD for GLOBAL",
        ),
        ({"payout_amount": "0.50", "fee_bear": "beneficiary"}, "amount: does not cover the fee and tax"),
        ({"payout_currency": "EUR"}, "payout_currency: Input should be 'USD', 'BRL' or 'MXN'"),
    ],
)
def test_checkout_field_and_combination_rules(payout_api, row_counts, overrides, err):
    before = row_counts()
    body = payout_api.post("/checkout", builders.checkout_session(**overrides), expect=400)
    assert (body["code"], body["data"]) == (4001000, {"err": err})
    assert row_counts() == before


@pytest.mark.parametrize(
    "overrides",
    [
        {"method": "Banktransfer"},
        {"source_currency": "BRL"},
        {"country": "MEX", "payout_currency": "MXN", "method": "SPEI", "source_currency": "MXN"},
        {"country": "GLOBAL", "payout_currency": "USD", "method": "external wallet"},
        {"country": ..., "method": ...},
    ],
)
def test_supported_combinations(payout_api, overrides):
    assert payout_api.post("/checkout", builders.checkout_session(**overrides), expect=200)["code"] == 200


def test_checkout_custom_code_already_used(payout_api, merchant, fund):
    payout_api.post("/checkout", builders.checkout_session(), expect=200)
    again = payout_api.post("/checkout", builders.checkout_session(), expect=400)
    assert (again["code"], again["data"]) == (
        4001010,
        {"err": "custom_code: already used by a checkout session (OPEN)"},
    )
    fund(merchant, "USD", "1000.00")
    paid = payout_api.post("/payout", builders.payout("po-x"), expect=200)["data"]
    taken = payout_api.post("/checkout", builders.checkout_session("po-x"), expect=400)
    assert (taken["code"], taken["data"]) == (4001010, {"payout_id": paid["transaction_id"]})


def history(payout_api, start: date, end: date):
    return payout_api.post(
        "/balance/history",
        {"start_date": start.isoformat(), "end_date": end.isoformat(), "timestamp": builders.now_unix()},
    )


def test_balance_history_one_record_per_day_most_recent_first(payout_api, merchant, fund):
    today = clock.now().date()
    fund(merchant, "USD", "100.00")
    clock.advance(2 * 86400)
    fund(merchant, "EUR", "50.00")
    fund(merchant, "USD", "0.01")
    body = history(payout_api, today - timedelta(days=1), today + timedelta(days=3))
    assert body["code"] == 200
    assert [(r["current_day"], r["balance"]) for r in body["data"]] == [
        (
            (today + timedelta(days=3)).isoformat(),
            [{"currency": "EUR", "amount": "50.00"}, {"currency": "USD", "amount": "100.01"}],
        ),
        (
            (today + timedelta(days=2)).isoformat(),
            [{"currency": "EUR", "amount": "50.00"}, {"currency": "USD", "amount": "100.01"}],
        ),
        ((today + timedelta(days=1)).isoformat(), [{"currency": "USD", "amount": "100.00"}]),
        (today.isoformat(), [{"currency": "USD", "amount": "100.00"}]),
        ((today - timedelta(days=1)).isoformat(), []),
    ]
    assert {r["merchant_id"] for r in body["data"]} == {merchant["merchant_id"]}


def test_balance_history_range_rules(payout_api):
    today = clock.now().date()
    reversed_range = history(payout_api, today, today - timedelta(days=1))
    assert (reversed_range["code"], reversed_range["data"]) == (
        4001000,
        {"err": "end_date: must not be before start_date"},
    )
    too_long = history(payout_api, today - timedelta(days=366), today)
    assert too_long["data"] == {"err": "end_date: the range must not exceed 366 days"}
    assert len(history(payout_api, today - timedelta(days=365), today)["data"]) == 366


def test_balances_are_per_merchant(payout_api, other_payout_api, merchant, fund):
    fund(merchant, "USD", "100.00")
    today = clock.now().date()
    assert history(other_payout_api, today, today)["data"][0]["balance"] == []


def test_racing_checkout_sessions_with_one_custom_code(app, merchant):
    barrier, answers = threading.Barrier(6), []

    def open_session():
        client = PayoutApi(app.test_client(), merchant)
        barrier.wait()
        answers.append(client.post("/checkout", builders.checkout_session("race")))

    threads = [threading.Thread(target=open_session) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert sorted(a["code"] for a in answers) == [200] + [4001010] * 5
    assert {a["data"].get("err") for a in answers if a["code"] != 200} == {
        "custom_code: already used by a checkout session (OPEN)"
    }
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(CheckoutSession)) == 1
