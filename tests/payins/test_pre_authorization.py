from datetime import timedelta

import pytest
from sqlalchemy import select

from checkout import clock
from checkout.payins.models import Trade
from tests import builders


@pytest.fixture
def token(api):
    return api.post("/card/token", builders.card(), expect=200)["token"]


def _trade(session, trade_no):
    session.expire_all()
    return session.scalars(select(Trade).where(Trade.trade_no == trade_no)).one()


def test_authenticated_approved_card_is_authorized_with_a_callback(api, token, outbox, session):
    body = api.post("/trade/pre-authorization", builders.pre_authorization(token), expect=200)
    assert set(body) == {"code", "msg", "out_trade_no", "web_url", "trade_no", "prepay_id"}
    assert (body["code"], body["out_trade_no"], body["web_url"]) == ("10000", "pre-1", "")
    assert body["prepay_id"].startswith("pp_")
    [(kind, target, payload)] = outbox(body["trade_no"])
    assert (kind, target) == ("payin.callback", builders.NOTIFY)
    assert {k: payload[k] for k in ("trade_no", "out_trade_no", "trade_status", "order_amount", "order_currency")} == {
        "trade_no": body["trade_no"],
        "out_trade_no": "pre-1",
        "trade_status": "AUTHORIZED",
        "order_amount": "150.00",
        "order_currency": "BRL",
    }
    assert _trade(session, body["trade_no"]).status == "AUTHORIZED"


@pytest.mark.parametrize(
    "status_code, outcome",
    [
        ("Y", "AUTHORIZED"),
        ("A", "AUTHORIZED"),
        ("I", "AUTHORIZED"),
        ("N", "REFUSED"),
        ("R", "REFUSED"),
        ("U", "REFUSED"),
        ("C", "REFUSED"),
        ("D", "REFUSED"),
    ],
)
def test_outcome_follows_the_3ds_status_code(api, token, outbox, status_code, outcome):
    body = api.post(
        "/trade/pre-authorization", builders.pre_authorization(token, threeds={"status_code": status_code}), expect=200
    )
    [(_, _, payload)] = outbox(body["trade_no"])
    assert payload["trade_status"] == outcome
    if outcome == "REFUSED":
        assert payload["reason"] == f"3-D Secure authentication failed (status {status_code})"


@pytest.mark.parametrize(
    "card_no, reason",
    [
        (builders.DECLINED_CARD, "card declined by the issuer"),
        (builders.INSUFFICIENT_FUNDS_CARD, "insufficient funds"),
    ],
)
def test_test_cards_refuse_even_when_authenticated(api, outbox, card_no, reason):
    token = api.post("/card/token", builders.card(card_no), expect=200)["token"]
    body = api.post("/trade/pre-authorization", builders.pre_authorization(token), expect=200)
    [(_, _, payload)] = outbox(body["trade_no"])
    assert (payload["trade_status"], payload["reason"]) == ("REFUSED", reason)


def test_timeout_express_sets_the_expiry(api, token, session):
    body = api.post("/trade/pre-authorization", builders.pre_authorization(token, timeout_express="2h"), expect=200)
    trade = _trade(session, body["trade_no"])
    assert clock.as_utc(trade.expires_at) - clock.as_utc(trade.created_at) == timedelta(hours=2)


def test_default_timeout_is_90_minutes(api, token, session):
    body = api.post("/trade/pre-authorization", builders.pre_authorization(token), expect=200)
    trade = _trade(session, body["trade_no"])
    assert clock.as_utc(trade.expires_at) - clock.as_utc(trade.created_at) == timedelta(minutes=90)


@pytest.mark.parametrize(
    "value, rule",
    [
        ("16d", "timeout_express: must not exceed 15d"),
        ("90", "timeout_express: must be a number followed by m, h, d or c (e.g. 90m)"),
        ("0m", "timeout_express: must be a number followed by m, h, d or c (e.g. 90m)"),
        ("2c", "timeout_express: the c unit only takes 1c (end of the current day)"),
    ],
)
def test_bad_timeout_express(api, token, row_counts, value, rule):
    before = row_counts()
    body = api.post("/trade/pre-authorization", builders.pre_authorization(token, timeout_express=value), expect=400)
    assert body["sub_msg"] == rule
    assert row_counts() == before


@pytest.mark.parametrize(
    "overrides, code, sub_msg",
    [
        ({"method": "PIX"}, "40002", "method: must be CreditCard"),
        ({"trade_type": "WEB"}, "40002", "trade_type: must be API"),
        ({"format": "XML"}, "40002", "format: must be JSON"),
        ({"version": "1.0"}, "40002", "version: must be 2.0"),
        ({"threeds": {"status_reason_code": "17"}}, "40002", "threeds.status_reason_code: must be one of 01 to 16"),
        ({"threeds": {"status_reason_code": "1"}}, "40002", "threeds.status_reason_code: must be one of 01 to 16"),
        (
            {"threeds": {"status_code": "X"}},
            "40002",
            "threeds.status_code: Input should be 'U', 'N', 'Y', 'A', 'C', 'D', 'R' or 'I'",
        ),
        ({"threeds": {"cavv": ...}}, "40001", "missing required argument: threeds.cavv"),
        ({"issuer": ...}, "40001", "missing required argument: issuer"),
        ({"out_trade_no": "x" * 65}, "40002", "out_trade_no: String should have at most 64 characters"),
        ({"notify_url": "ftp://merchant.example"}, "40002", "notify_url: must be an absolute http(s) URL"),
        ({"order_amount": "0"}, "40002", "order_amount: must be between 0.01 and 99999999.99"),
        ({"order_amount": "-5"}, "40002", "order_amount: must be between 0.01 and 99999999.99"),
        ({"order_amount": "1.001"}, "40002", "order_amount: at most 2 decimal places for BRL"),
        (
            {"order_currency": "XYZ"},
            "40002",
            "order_currency: must be one of AED, ARS, BHD, BOB, BRL, CLP, CNY, COP, CRC, EGP, EUR, GBP, GTQ, HKD, IDR,"
            " KRW, KWD, MXN, MYR, OMR, PEN, PHP, PYG, QAR, RUB, SAR, THB, TRY, TWD, USD, UYU",
        ),
        (
            {"order_currency": "ARS"},
            "40002",
            "order_currency: must be one of BRL, USD, EUR, GBP, MXN, CLP, COP, PEN, BHD, KWD, OMR, QAR, SAR, AED, RUB"
            " for a card",
        ),
    ],
)
def test_field_rules(api, token, row_counts, overrides, code, sub_msg):
    before = row_counts()
    body = api.post("/trade/pre-authorization", builders.pre_authorization(token, **overrides), expect=400)
    assert (body["code"], body["sub_msg"]) == (code, sub_msg)
    assert row_counts() == before


def test_unknown_or_foreign_card_token(api, other_api, token):
    body = other_api.post("/trade/pre-authorization", builders.pre_authorization(token), expect=400)
    assert (body["sub_code"], body["sub_msg"]) == ("invalid-card-token", "token: unknown card token")


def test_card_token_expires_after_30_minutes(api, token):
    clock.advance(30 * 60 + 1)
    body = api.post("/trade/pre-authorization", builders.pre_authorization(token), expect=400)
    assert body["sub_msg"] == "token: card token has expired; tokenize the card again"


def test_duplicate_out_trade_no(api, token):
    api.post("/trade/pre-authorization", builders.pre_authorization(token), expect=200)
    body = api.post("/trade/pre-authorization", builders.pre_authorization(token), expect=400)
    assert body == {
        "code": "40002",
        "msg": "Business Failed",
        "sub_code": "duplicate-out_trade_no",
        "sub_msg": "out_trade_no is duplicate",
    }
