"""Payout inputs that once slipped past the rules."""
import hashlib
import threading
from decimal import Decimal

import pytest
from sqlalchemy import func, select

from checkout.db import db
from checkout.payins.methods import brcode
from checkout.payouts.models import CheckoutSession

from .. import builders
from ..conftest import PayoutApi


def test_non_ascii_authorization_is_permission_denied(client, merchant):
    response = client.post("/api/payout/dry-run", json=builders.dry_run(),
                           headers={"AppId": merchant["app_id"], "Authorization": "é" * 64})
    assert response.status_code == 401 and response.get_json()["code"] == 4004003


def test_numbers_are_signed_as_they_were_written(client, merchant):
    ts = builders.now_unix()
    raw = ('{"amount": "100.00", "arrival_currency": "BRL", "country": "BRA", "fee_bear": "merchant", '
           f'"method": "PIX", "source_currency": "USD", "timestamp": {ts}, "x": 1e-07, '
           '"meta": {"b": 1.50, "a": [2, "é"]}}')
    expected = ('amount=100.00&arrival_currency=BRL&country=BRA&fee_bear=merchant&meta={"a":[2,"é"],"b":1.50}'
                f"&method=PIX&source_currency=USD&timestamp={ts}&x=1e-07")
    signature = hashlib.sha256((expected + merchant["app_key"]).encode()).hexdigest()
    response = client.post("/api/payout/dry-run", data=raw.encode(), headers={
        "AppId": merchant["app_id"], "Authorization": signature, "Content-Type": "application/json"})
    assert response.status_code == 200, response.get_json()


def test_qr_code_with_a_non_numeric_amount(payout_api, merchant, fund):
    fund(merchant, "USD", "1000.00")
    body = brcode.build(key=builders.EVP, amount=None, merchant_name="Loja", merchant_city="Rio", txid="Q1")
    body = body[:-8].replace("5802BR", "5403abc5802BR") + "6304"
    code = body + f"{brcode.crc16(body.encode()):04X}"
    answer = payout_api.post("/payout", builders.payout(method="QRCODE", account=code, account_type=...), expect=400)
    assert answer["data"] == {"err": "account: the QR code's amount (field 54) is not a number"}


@pytest.mark.parametrize("digit", "0123456789")
def test_one_digit_repeated_is_not_a_cpf(payout_api, merchant, fund, digit):
    fund(merchant, "USD", "1000.00")
    answer = payout_api.post("/payout", builders.payout(account=digit * 11), expect=400)
    assert answer["data"] == {"err": "account: must be a valid CPF key (11 digits)"}


def test_a_checkout_sessions_custom_code_is_its_own(payout_api, merchant, fund):
    fund(merchant, "USD", "1000.00")
    payout_api.post("/checkout", builders.checkout_session("held"), expect=200)
    answer = payout_api.post("/payout", builders.payout("held"), expect=400)
    assert answer["data"] == {"err": "custom_code: belongs to a checkout session; its page creates that payout"}


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
    assert sorted(a["code"] for a in answers) == [200] + [4001000] * 5
    assert {a["data"].get("err") for a in answers if a["code"] != 200} == {
        "custom_code: already has a checkout session"}
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(CheckoutSession)) == 1


def test_rates_given_as_json_numbers_are_read_exactly(app, payout_api):
    app.config["PAYOUT_MID_RATES"] = {**app.config["PAYOUT_MID_RATES"], "EUR/BRL": 5.85}
    try:
        data = payout_api.post("/payout/dry-run", builders.dry_run(source_currency="EUR"), expect=200)["data"]
    finally:
        app.config["PAYOUT_MID_RATES"] = {**app.config["PAYOUT_MID_RATES"], "EUR/BRL": "5.85"}
    assert data["exchange_rate"] == "5.820750"
    assert Decimal(data["exchange_rate"]) == Decimal("5.85") * Decimal("0.995")


def test_remark_follows_partial_refunds(payout_api, api, merchant, fund):
    fund(merchant, "USD", "1000.00")
    tid = payout_api.post("/payout", builders.payout(), expect=200)["data"]["transaction_id"]
    api.post("/sandbox/clock", {"advance_seconds": 360}, expect=200)
    api.post(f"/sandbox/payouts/{tid}/refund", {"amount": "1.00"}, expect=200)
    status = payout_api.post("/payout/status", {"payout_id": tid}, expect=200)["data"]
    assert (status["status"], status["description"]) == ("PARTIAL_REFUNDED", "partly refunded by the recipient's bank")


@pytest.mark.parametrize("phone", ["+5510987654321", "+551187654321", "+55119876543"])
def test_pix_phone_keys_need_a_real_area_code_and_shape(payout_api, merchant, fund, phone):
    fund(merchant, "USD", "1000.00")
    answer = payout_api.post("/payout", builders.payout(account=phone, account_type="PHONE"), expect=400)
    assert answer["data"]["err"].startswith("account: must be a Brazilian phone key")


def test_cash_needs_a_mexican_phone(payout_api, merchant, fund):
    fund(merchant, "USD", "1000.00")
    cash = {"country": "MEX", "method": "CASH", "arrival_currency": "MXN", "account": ..., "account_type": ...,
            "document_id": ..., "document_type": ..., "phone": "+5511987654321"}
    answer = payout_api.post("/payout", builders.payout("c", **cash), expect=400)
    assert answer["data"] == {"err": "phone: must be an E.164 number starting with +52"}


