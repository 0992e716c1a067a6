import hashlib
import time

import pytest

from checkout import clock
from checkout.brazil import brcode
from checkout.payouts import service, sessions
from checkout.signing import payout_signature
from tests import builders
from tests.conftest import make_merchant


def test_dry_run_answers_all_figures_as_strings(payout_api):
    body = payout_api.post("/payout/dry-run", builders.dry_run(), expect=200)
    assert (body["code"], body["msg"]) == (200, "success") and abs(body["time"] - time.time()) < 5
    assert body["data"] == {
        "fee": "1.00",
        "tax": "0.38",
        "amount": "100.00",
        "settlement_amount": "100.00",
        "arrival_currency": "BRL",
        "arrival_amount": "537.30",
        "source_currency": "USD",
        "source_amount": "101.38",
        "exchange_rate": "5.373000",
    }


def test_merchant_id_header_is_accepted(payout_api):
    assert payout_api.post("/payout/dry-run", builders.dry_run(), header="MerchantId", expect=200)["code"] == 200


@pytest.mark.parametrize(
    "headers, code, msg, hint",
    [
        ({}, 4004100, "MerchantId or AppId is required", "missing AppId header: send your app_id in the AppId header"),
        (
            {"AppId": "app_unknown", "Authorization": "0" * 64},
            4004003,
            "permission denied",
            "unknown AppId: send the app_id shown in the dashboard under Developers (sandbox and production"
            " credentials differ)",
        ),
        (
            {"Authorization": "0" * 64},
            4004100,
            "MerchantId or AppId is required",
            "missing AppId header: send your app_id in the AppId header",
        ),
    ],
)
def test_missing_or_unknown_credentials(client, merchant, headers, code, msg, hint):
    # The provider's codes and words; `hint` (an extension) says what to send (tests/api/test_auth_errors.py).
    response = client.post("/api/payout/dry-run", json=builders.dry_run(), headers=headers)
    assert response.status_code == 401
    assert {k: v for k, v in response.get_json().items() if k != "time"} == {
        "code": code,
        "msg": msg,
        "data": {},
        "hint": hint,
    }


def test_signature_over_another_body_is_refused(client, merchant):
    signed = builders.dry_run()
    sent = {**signed, "amount": "1000.00"}
    response = client.post(
        "/api/payout/dry-run",
        json=sent,
        headers={"AppId": merchant["app_id"], "Authorization": payout_signature(signed, merchant["app_key"])},
    )
    assert response.status_code == 401 and response.get_json()["code"] == 4004003


def test_signature_with_another_merchants_key(client, merchant, app):

    other = make_merchant(app, "Outra")
    body = builders.dry_run()
    response = client.post(
        "/api/payout/dry-run",
        json=body,
        headers={"AppId": merchant["app_id"], "Authorization": payout_signature(body, other["app_key"])},
    )
    assert response.status_code == 401


@pytest.mark.parametrize(
    "overrides, err",
    [
        ({"source_currency": "BRL"}, "source_currency: Input should be 'USD', 'GBP' or 'EUR'"),
        ({"amount": "ten"}, "amount: must be a plain decimal number"),
        ({"amount": "1.001"}, "amount: at most 2 decimal places"),
        ({"amount": "0"}, "amount: must be between 0.01 and 99999999.99"),
        ({"fee_bear": "nobody"}, "fee_bear: Input should be 'beneficiary' or 'merchant'"),
        ({"method": "SPEI"}, "method: must be one of PIX, BANKTRANSFER, QRCODE, WALLET for BRA"),
        ({"arrival_currency": "MXN"}, "arrival_currency: must be BRL for BRA"),
        ({"timestamp": "now"}, "timestamp: Input should be a valid integer"),
        ({"timestamp": 1000}, "request has expired"),
        ({"country": ...}, "country: is required"),
    ],
)
def test_dry_run_field_rules(payout_api, overrides, err):
    body = payout_api.post("/payout/dry-run", builders.dry_run(**overrides), expect=400)
    assert (body["code"], body["msg"], body["data"]) == (4001000, "invalid parameter", {"err": err})


def test_non_json_and_oversized_bodies(client, merchant):
    response = client.post(
        "/api/payout/dry-run", data=b"{nope", headers={"AppId": merchant["app_id"], "Content-Type": "application/json"}
    )
    assert response.status_code == 400
    assert response.get_json()["data"] == {"err": "body: request body is not valid UTF-8 JSON"}
    big = client.post(
        "/api/payout/dry-run", data=b"{" + b" " * (1024 * 1024) + b"}", headers={"Content-Type": "application/json"}
    )
    assert big.status_code == 400 and big.get_json()["data"] == {"err": "body: request body exceeds 1 MiB"}


def test_payout_debits_the_source_balance_and_starts_in_processing(payout_api, merchant, fund, client):
    fund(merchant, "USD", "1000.00")
    body = payout_api.post("/payout", builders.payout(), expect=200)["data"]
    assert body["status"] == "IN_PROCESSING" and body["transaction_id"].startswith("TS")
    assert (body["source_amount"], body["arrival_amount"], body["custom_code"]) == ("101.38", "537.30", "po-1")
    history = payout_api.post(
        "/balance/history",
        {
            "start_date": clock.now().date().isoformat(),
            "end_date": clock.now().date().isoformat(),
            "timestamp": builders.now_unix(),
        },
        expect=200,
    )["data"]
    assert history[0]["balance"] == [{"currency": "USD", "amount": "898.62"}]


def test_dry_run_and_payout_agree(payout_api, merchant, fund):
    fund(merchant, "USD", "1000.00")
    for i, case in enumerate(
        [
            {},
            {"fee_bear": "beneficiary"},
            {"amount": "537.31", "amount_type": "arrival"},
            {"amount": "33.33", "fee_bear": "beneficiary", "amount_type": "arrival"},
        ]
    ):
        quote = payout_api.post("/payout/dry-run", builders.dry_run(**case), expect=200)["data"]
        created = payout_api.post("/payout", builders.payout(f"agree-{i}", **case), expect=200)["data"]
        assert {k: created[k] for k in quote} == quote


def test_insufficient_balance_debits_nothing(payout_api, merchant, fund, row_counts):
    fund(merchant, "USD", "101.37")
    before = row_counts()
    # The provider answers HTTP 500 with 5001102 (its submit pages and API-code page agree).
    body = payout_api.post("/payout", builders.payout(), expect=500)
    assert (body["code"], body["msg"], body["data"]) == (
        5001102,
        "balance insufficient",
        {"err": "available 101.37 USD, needed 101.38 USD"},
    )
    assert row_counts() == before


def test_duplicate_custom_code(payout_api, merchant, fund):
    fund(merchant, "USD", "1000.00")
    first = payout_api.post("/payout", builders.payout(), expect=200)["data"]
    body = payout_api.post("/payout", builders.payout(), expect=400)
    # The submit page's own answer (its API-code page lists 4001020; the operation's page wins).
    assert (body["code"], body["msg"], body["data"]) == (
        4001010,
        "order already existed",
        {"payout_id": first["transaction_id"]},
    )


@pytest.mark.parametrize(
    "overrides, err",
    [
        ({"account_type": "RANDOM"}, "account_type: must be one of CPF, CNPJ, EVP, PHONE, EMAIL"),
        ({"account": "12345678900"}, "account: must be a valid CPF key (11 digits)"),
        ({"account_type": "CNPJ", "account": builders.CPF}, "account: must be a valid CNPJ key (14 digits)"),
        ({"account_type": "EVP", "account": "not-a-uuid"}, "account: must be a random key (UUID)"),
        (
            {"account_type": "PHONE", "account": "+15551234567"},
            "account: must be a Brazilian phone key: +55 (optional), an area code and the number",
        ),
        ({"account_type": "EMAIL", "account": "nobody"}, "account: must be an e-mail key"),
        ({"document_id": "39053344704"}, "document_id: must be a valid CPF (digits only)"),
        ({"document_id": ...}, "document_id: is required for this method"),
        ({"phone": "+55 11 98765-4321"}, "phone: must be up to 15 digits, + optional, such as 5511987654321"),
        ({"phone": "5511987654321000"}, "phone: must be up to 15 digits, + optional, such as 5511987654321"),
        ({"additional_remark": "r" * 40}, "additional_remark: String should have at most 39 characters"),
    ],
)
def test_pix_key_rules(payout_api, merchant, fund, row_counts, overrides, err):
    fund(merchant, "USD", "1000.00")
    before = row_counts()
    body = payout_api.post("/payout", builders.payout(**overrides), expect=400)
    assert (body["code"], body["data"]) == (4001000, {"err": err})
    assert row_counts() == before


@pytest.mark.parametrize(
    "overrides",
    [
        {"account_type": "EVP", "account": builders.EVP},
        {"account_type": "PHONE", "account": "+5511987654321"},
        {"account_type": "EMAIL", "account": "ana@example.com"},
        {"account_type": "CNPJ", "account": builders.CNPJ, "document_id": builders.CNPJ, "document_type": "CNPJ"},
    ],
)
def test_pix_key_types(payout_api, merchant, fund, overrides):
    fund(merchant, "USD", "1000.00")
    assert payout_api.post("/payout", builders.payout(**overrides), expect=200)["data"]["status"] == "IN_PROCESSING"


def test_spei_clabe(payout_api, merchant, fund):
    fund(merchant, "USD", "1000.00")
    ok = payout_api.post("/payout", builders.spei_payout(), expect=200)["data"]
    assert ok["arrival_currency"] == "MXN"
    bad = payout_api.post("/payout", builders.spei_payout("x", account="002010077777777772"), expect=400)
    assert bad["data"] == {"err": "account: CLABE check digit is wrong"}


def test_brazilian_bank_transfer(payout_api, merchant, fund):
    fund(merchant, "USD", "1000.00")
    fields = {
        "method": "BANKTRANSFER",
        "account": "123456",
        "account_type": "CHECKING",
        "bank_code": "341",
        "branch": "0001",
        "account_digit": "7",
    }
    payout_api.post("/payout", builders.payout("bt", **fields), expect=200)
    for change, err in [
        ({"bank_code": "999"}, "bank_code: must be one of 001, 033, 104, 237, 341, 260, 077, 336, 756"),
        ({"branch": "12"}, "branch: must be 4 digits"),
        ({"account_digit": "YY"}, "account_digit: must be 1 or 2 digits (or X)"),
        ({"account": "123"}, "account: must be 4 to 18 digits"),
        ({"account_type": "CPF"}, "account_type: must be CHECKING or SAVINGS"),
    ]:
        body = payout_api.post("/payout", builders.payout("bt2", **{**fields, **change}), expect=400)
        assert body["data"] == {"err": err}


def test_wallet_needs_a_channel(payout_api, merchant, fund):
    fund(merchant, "USD", "1000.00")
    wallet = {
        "country": "GLOBAL",
        "method": "WALLET",
        "arrival_currency": "USD",
        "account": "ana@example.com",
        "account_type": ...,
        "document_id": ...,
        "document_type": ...,
    }
    missing = payout_api.post("/payout", builders.payout("w", **wallet), expect=400)
    assert missing["data"] == {"err": "channel: must be one of PAYPAL, SKRILL, CHECKOUT for WALLET"}
    ok = payout_api.post("/payout", builders.payout("w", channel="PAYPAL", **wallet), expect=200)["data"]
    assert ok["exchange_rate"] == "1" and ok["arrival_amount"] == "100.00"


def test_status_by_either_id(payout_api, merchant, fund):
    fund(merchant, "USD", "1000.00")
    created = payout_api.post("/payout", builders.payout(), expect=200)["data"]
    by_id = payout_api.post("/payout/status", {"payout_id": created["transaction_id"]}, expect=200)["data"]
    by_code = payout_api.post("/payout/status", {"custom_code": "po-1"}, expect=200)["data"]
    assert (
        by_id
        == by_code
        == {
            "payout_id": created["transaction_id"],
            "custom_code": "po-1",
            "status": "IN_PROCESSING",
            "description": "in processing",
        }
    )


def test_status_errors(payout_api, other_payout_api, merchant, fund):
    neither = payout_api.post("/payout/status", {}, expect=400)
    assert (neither["code"], neither["msg"], neither["data"]) == (
        400,
        "invalid parameters",
        {"error": "custom_code or payout_id required"},
    )
    unknown = payout_api.post("/payout/status", {"payout_id": "TS404"}, expect=400)
    assert (unknown["code"], unknown["msg"], unknown["data"]) == (400, "can not find this payout order", {})
    fund(merchant, "USD", "1000.00")
    payout_api.post("/payout", builders.payout(), expect=200)
    foreign = other_payout_api.post("/payout/status", {"custom_code": "po-1"}, expect=400)
    assert foreign["msg"] == "can not find this payout order"


def test_detail_record(payout_api, merchant, fund):
    fund(merchant, "USD", "1000.00")
    created = payout_api.post("/payout", builders.payout(), expect=200)["data"]
    detail = payout_api.post(
        "/payout/detail", {"transaction_id": created["transaction_id"], "timestamp": builders.now_unix()}, expect=200
    )["data"]
    assert detail == {
        "reference_id": "po-1",
        "transaction_id": created["transaction_id"],
        "user_name": "Ana Souza",
        "amount": "100.00",
        "source_amount": "101.38",
        "settlement_amount": "100.00",
        "source_currency": "USD",
        "arrival_amount": "537.30",
        "arrival_currency": "BRL",
        "exchange_rate": "5.373000",
        "tax": "0.38",
        "fee": "1.00",
        "fee_user": "merchant",
        "transaction_status": "PROCESSING",
        "remark": "in processing",
        "create_time": detail["create_time"],
        "update_time": detail["update_time"],
        "extra": {},
    }
    assert abs(detail["create_time"] - time.time()) < 5


def test_detail_timestamp_window(payout_api, merchant, fund):
    fund(merchant, "USD", "1000.00")
    created = payout_api.post("/payout", builders.payout(), expect=200)["data"]
    for skew in (16, -16):
        body = payout_api.post(
            "/payout/detail",
            {"transaction_id": created["transaction_id"], "timestamp": builders.now_unix() + skew},
            expect=400,
        )
        assert (body["code"], body["msg"], body["data"]) == (4001009, "request has expired", {})


def test_detail_window_follows_the_wall_clock_not_the_sandbox_clock(payout_api, merchant, fund):
    fund(merchant, "USD", "1000.00")
    created = payout_api.post("/payout", builders.payout(), expect=200)["data"]
    clock.advance(3600)
    payout_api.post(
        "/payout/detail", {"transaction_id": created["transaction_id"], "timestamp": builders.now_unix()}, expect=200
    )


@pytest.mark.parametrize(
    "payout, extra_keys",
    [
        (
            {
                "country": "COL",
                "method": "CASHOUT",
                "arrival_currency": "COP",
                "document_id": "1234567890",
                "document_type": "CC",
                "account": ...,
                "account_type": ...,
                "phone": "+573001234567",
            },
            {"pin", "valid_days"},
        ),
        (
            {
                "country": "MEX",
                "method": "CASH",
                "arrival_currency": "MXN",
                "account": ...,
                "account_type": ...,
                "document_id": ...,
                "document_type": ...,
                "phone": "+5215512345678",
            },
            {"upt_ref"},
        ),
        (
            {
                "country": "MEX",
                "method": "CASHPICKUP",
                "arrival_currency": "MXN",
                "account": ...,
                "account_type": ...,
                "document_id": ...,
                "document_type": ...,
                "phone": "+5215512345678",
            },
            {"voucher"},
        ),
    ],
)
def test_detail_extra_per_cash_method(payout_api, merchant, fund, payout, extra_keys):
    fund(merchant, "USD", "1000.00")
    created = payout_api.post("/payout", builders.payout("cash", **payout), expect=200)["data"]
    extra = payout_api.post(
        "/payout/detail", {"transaction_id": created["transaction_id"], "timestamp": builders.now_unix()}, expect=200
    )["data"]["extra"]
    assert set(extra) == extra_keys
    if "valid_days" in extra:
        assert extra["valid_days"] == 30 and len(extra["pin"]) == 6


def test_server_faults_answer_the_payout_envelope(app, payout_api, monkeypatch):

    def explode(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(service, "quote", explode)
    monkeypatch.setattr(sessions, "create", explode)
    monkeypatch.setitem(app.config, "PROPAGATE_EXCEPTIONS", False)
    dry_run = payout_api.post("/payout/dry-run", builders.dry_run(), expect=500)
    assert (dry_run["code"], dry_run["msg"], dry_run["data"]) == (500, "system error", {"error": "system error"})
    checkout = payout_api.post("/checkout", builders.checkout_session(), expect=500)
    assert (checkout["code"], checkout["msg"], checkout["data"]) == (5001000, "system error", {})


def test_non_ascii_authorization_is_permission_denied(client, merchant):
    response = client.post(
        "/api/payout/dry-run", json=builders.dry_run(), headers={"AppId": merchant["app_id"], "Authorization": "é" * 64}
    )
    assert response.status_code == 401 and response.get_json()["code"] == 4004003


def test_numbers_are_signed_as_they_were_written(client, merchant):
    ts = builders.now_unix()
    raw = (
        '{"amount": "100.00", "arrival_currency": "BRL", "country": "BRA", "fee_bear": "merchant", '
        f'"method": "PIX", "source_currency": "USD", "timestamp": {ts}, "x": 1e-07, '
        '"meta": {"b": 1.50, "a": [2, "é"]}}'
    )
    expected = (
        'amount=100.00&arrival_currency=BRL&country=BRA&fee_bear=merchant&meta={"a":[2,"é"],"b":1.50}'
        f"&method=PIX&source_currency=USD&timestamp={ts}&x=1e-07"
    )
    signature = hashlib.sha256((expected + merchant["app_key"]).encode()).hexdigest()
    response = client.post(
        "/api/payout/dry-run",
        data=raw.encode(),
        headers={"AppId": merchant["app_id"], "Authorization": signature, "Content-Type": "application/json"},
    )
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


@pytest.mark.parametrize("phone", ["+5510987654321", "+551187654321", "+55119876543"])
def test_pix_phone_keys_need_a_real_area_code_and_shape(payout_api, merchant, fund, phone):
    fund(merchant, "USD", "1000.00")
    answer = payout_api.post("/payout", builders.payout(account=phone, account_type="PHONE"), expect=400)
    assert answer["data"]["err"].startswith("account: must be a Brazilian phone key")


def test_cash_needs_a_mexican_phone(payout_api, merchant, fund):
    fund(merchant, "USD", "1000.00")
    cash = {
        "country": "MEX",
        "method": "CASH",
        "arrival_currency": "MXN",
        "account": ...,
        "account_type": ...,
        "document_id": ...,
        "document_type": ...,
        "phone": "+5511987654321",
    }
    answer = payout_api.post("/payout", builders.payout("c", **cash), expect=400)
    assert answer["data"] == {"err": "phone: must be a number with its country code 52 (+ optional)"}
