"""/trade/create as the provider's hosted checkout: an INITIAL trade and its web_url."""

import re
from datetime import datetime, timedelta
from urllib.parse import urlsplit

import pytest

from checkout import clock, worker
from tests import builders

from .helpers import hosted


def test_a_hosted_checkout_is_an_initial_trade_with_its_page(api, outbox):
    body = api.post("/trade/create", hosted(), expect=200)
    assert set(body) == {"code", "msg", "trade_no", "out_trade_no", "web_url", "prepay_id", "trade_status"}
    assert (body["out_trade_no"], body["trade_status"]) == ("202201010354002", "INITIAL")
    assert body["web_url"].startswith("http://checkout.test/pages/checkout?token=")
    assert body["prepay_id"].startswith("pp_")
    assert outbox(body["trade_no"]) == []  # INITIAL is not an event the provider notifies
    query = api.post("/trade/query", {"trade_no": body["trade_no"]}, expect=200)
    assert (query["trade_status"], query["method"], query["order_amount"]) == ("INITIAL", "", "12.01")
    created, expires = (datetime.fromisoformat(query[k]) for k in ("create_time", "expire_time"))
    assert expires - created == timedelta(days=1)  # "timeout_express": "1d"


def test_trade_type_api_creates_the_same_order_and_answers_prepay_id_with_web_url_empty(api, outbox):
    body = api.post("/trade/create", hosted(trade_type="API"), expect=200)
    assert set(body) == {"code", "msg", "trade_no", "out_trade_no", "web_url", "prepay_id", "trade_status"}
    assert (body["code"], body["msg"], body["out_trade_no"]) == ("10000", "Success", "202201010354002")
    assert (body["trade_status"], body["web_url"]) == ("INITIAL", "")
    assert re.fullmatch(r"pp_[0-9a-f]{24}", body["prepay_id"])
    assert outbox(body["trade_no"]) == []
    query = api.post("/trade/query", {"trade_no": body["trade_no"]}, expect=200)
    assert (query["trade_status"], query["method"], query["order_amount"], query["order_currency"]) == (
        "INITIAL",
        "",
        "12.01",
        "BRL",
    )
    assert query["prepay_id"] == body["prepay_id"]
    created, expires = (datetime.fromisoformat(query[k]) for k in ("create_time", "expire_time"))
    assert expires - created == timedelta(days=1)  # "timeout_express": "1d", as with WEB


def test_trade_type_api_with_a_method_and_a_card_token_is_a_checkout_that_charges_nothing(api, outbox):
    token = api.post("/card/token", builders.card(), expect=200)["token"]
    body = api.post(
        "/trade/create",
        hosted(trade_type="API", method="CreditCard", token=token, issuer="visa", user_ip="127.0.0.1"),
        expect=200,
    )
    assert (body["trade_status"], body["web_url"]) == ("INITIAL", "")
    query = api.post("/trade/query", {"trade_no": body["trade_no"]}, expect=200)
    assert (query["trade_status"], query["method"]) == ("INITIAL", "CreditCard")
    assert outbox(body["trade_no"]) == []


def test_web_and_api_share_the_merchants_order_numbers(api):
    api.post("/trade/create", hosted(trade_type="API"), expect=200)
    answer = api.post("/trade/create", hosted(trade_type="WEB"), expect=400)
    assert (answer["sub_code"], answer["sub_msg"]) == ("duplicate-out_trade_no", "out_trade_no is duplicate")


def test_a_complete_direct_payment_posted_to_create_still_answers_as_one_with_web_url(api):
    body = api.post("/trade/create", builders.direct("Boleto"), expect=200)
    assert (body["trade_status"], len(body["barcode"]) > 0) == ("PROCESSING", True)
    assert body["web_url"].startswith("http://checkout.test/pages/pay?token=")


@pytest.mark.parametrize(
    ("overrides", "code", "sub_msg"),
    [
        ({"trade_type": "APP"}, "40002", "trade_type: must be WEB or API"),
        ({"trade_type": "api"}, "40002", "trade_type: must be WEB or API"),
        ({"trade_type": None}, "40001", "missing required argument: trade_type"),
        ({"version": None}, "40001", "missing required argument: version"),
        ({"content": None}, "40001", "missing required argument: content"),
        ({"method": "Khipu"}, "40002", "method: Khipu does not take BRL"),
        (
            {"method": "Bitcoin"},
            "40002",
            "method: must be one of PIX, Boleto, Lottery, DepositExpress, OpenFinance, Wallet, Cash, BankTransfer, Khipu, "
            "SPEI, CoDi, OXXO, OXXOPay, PSE, Efecty, Bancolombia, SuRed, Gana, Baloto, WebPay, Pago46, PagoEfectivo, "
            "PagoFacil, Rapipago, BNCR, OTC, QRPH, AlipayPlus, CreditCard",
        ),
        ({"channel": "PicPay"}, "40002", "channel: only with method Wallet"),
        (
            {"method": "Wallet", "channel": "Yape"},
            "40002",
            "channel: must be one of PicPay, MercadoPago, AME, Astropay for this currency",
        ),
        ({"timeout_express": "16d"}, "40002", "timeout_express: must not exceed 15d"),
        (
            {"cancellation_express": "soon"},
            "40002",
            "cancellation_express: must be a number followed by m, h or d (e.g. 90m)",
        ),
        (
            {"cancellation_express": "1c"},
            "40002",
            "cancellation_express: must be a number followed by m, h or d (e.g. 90m)",
        ),
        ({"cancellation_express": "24h"}, "40002", "cancellation_express: must be longer than timeout_express"),
        ({"cancellation_express": "31d"}, "40002", "cancellation_express: must not exceed 30d"),
        ({"regions": ["BR"]}, "40002", "regions.0: must be an ISO 3166-1 alpha-3 country code"),
        ({"return_url": "https://user:pw@shop.example/back"}, "40002", "return_url: must not carry user information"),
    ],
)
@pytest.mark.parametrize("trade_type", ["WEB", "API"])
def test_a_hosted_checkout_refuses_what_the_provider_documents_and_writes_nothing(
    api, row_counts, overrides, code, sub_msg, trade_type
):
    body = hosted(trade_type=trade_type)
    for key, value in overrides.items():
        if value is None:
            body.pop(key)
        else:
            body[key] = value
    before = row_counts()
    answer = api.post("/trade/create", body, expect=400)
    assert (answer["code"], answer["sub_msg"]) == (code, sub_msg)
    assert row_counts() == before


def test_method_given_shows_only_that_method_and_empty_shows_all(api, client):
    only_pix = api.post("/trade/create", hosted(method="PIX", out_trade_no="o-1"), expect=200)
    every = api.post("/trade/create", hosted(method="", out_trade_no="o-2"), expect=200)
    mxn = api.post("/trade/create", hosted(order_currency="MXN", out_trade_no="o-3", regions=["MEX"]), expect=200)
    assert [
        api.post("/trade/query", {"trade_no": t["trade_no"]}, expect=200)["trade_status"]
        for t in (only_pix, every, mxn)
    ] == ["INITIAL"] * 3

    def offered(answer: dict) -> list[str]:
        url = urlsplit(answer["web_url"])
        html = client.get(f"{url.path}?{url.query}").get_data(as_text=True)
        return re.findall(r'data-method="([A-Za-z]+)"', html) or re.findall(r'id="method-title">([^<]+)<', html)

    assert offered(only_pix) == ["PIX"]  # straight to its form: no picker
    assert offered(every) == ["PIX", "Boleto", "Lottery", "DepositExpress", "OpenFinance", "Wallet", "CreditCard"]
    assert offered(mxn) == ["Wallet", "Cash", "BankTransfer", "SPEI", "CoDi", "OXXO", "OXXOPay", "CreditCard"]


def test_a_repeated_out_trade_no_is_refused(api):
    api.post("/trade/create", hosted(), expect=200)
    answer = api.post("/trade/create", hosted(), expect=400)
    assert (answer["sub_code"], answer["sub_msg"]) == ("duplicate-out_trade_no", "out_trade_no is duplicate")


def test_a_checkout_nobody_completes_expires_with_its_callback(app, api, outbox):
    trade_no = api.post("/trade/create", hosted(timeout_express="30m"), expect=200)["trade_no"]
    clock.advance(31 * 60)
    worker.run_once(app)
    query = api.post("/trade/query", {"trade_no": trade_no}, expect=200)
    assert (query["trade_status"], query["failure_reason"]) == (
        "EXPIRED",
        "no payment method was submitted before it expired",
    )
    assert [p["trade_status"] for _, _, p in outbox(trade_no)] == ["EXPIRED"]


def test_the_sandbox_cannot_pay_a_checkout_before_a_method_is_submitted(api):
    trade_no = api.post("/trade/create", hosted(), expect=200)["trade_no"]
    answer = api.post(f"/sandbox/trades/{trade_no}/pay", expect=400)
    assert (answer["sub_code"], answer["sub_msg"]) == (
        "trade-status-invalid",
        "trade is INITIAL; the customer has not submitted a method yet",
    )


@pytest.mark.parametrize(
    "overrides, sub_msg",
    [
        ({"order_currency": "BHD", "order_amount": "0.1"}, "order_amount: no method takes 0.1 BHD"),
        ({"order_currency": "BHD", "order_amount": "50000.001"}, "order_amount: no method takes 50000.001 BHD"),
        (
            {"order_currency": "COP", "order_amount": "3000", "method": "Bancolombia"},
            "order_amount: Bancolombia does not take 3000 COP",
        ),
        (
            {"order_currency": "PHP", "order_amount": "100", "method": "AlipayPlus", "channel": "GCash"},
            "channel: must be one of AlipayPlus for this currency",
        ),
    ],
)
def test_a_checkout_no_offered_method_could_pay_is_refused_at_once(api, row_counts, overrides, sub_msg):
    before = row_counts()
    body = hosted(**overrides, customer={"identify": {"type": "", "number": ""}})
    assert api.post("/trade/create", body, expect=400)["sub_msg"] == sub_msg
    assert row_counts() == before


def test_alipayplus_with_its_own_channel_is_a_checkout_of_that_method(api):
    body = hosted(order_currency="PHP", order_amount="100", method="AlipayPlus", channel="alipayplus")
    body["customer"] = {"identify": {"type": "", "number": ""}}
    trade_no = api.post("/trade/create", body, expect=200)["trade_no"]
    query = api.post("/trade/query", {"trade_no": trade_no}, expect=200)
    assert (query["trade_status"], query["order_amount"]) == ("INITIAL", "100.00")
