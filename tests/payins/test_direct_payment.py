from decimal import Decimal

import pytest

from checkout import clock
from checkout.payins.methods import boleto, brcode

from .. import builders


@pytest.mark.parametrize("path", ["/trade/pay", "/trade/create"])
def test_pix_answers_a_valid_br_code_for_the_order_amount(api, path):
    body = api.post(path, builders.direct("PIX", order_amount="1234.56"), expect=200)
    assert (body["code"], body["trade_status"], body["out_trade_no"]) == ("10000", "PROCESSING", "order-1")
    fields = brcode.parse(body["qr_code"])
    assert fields["26"]["00"] == "br.gov.bcb.pix"
    assert (fields["53"], fields["54"], fields["58"]) == ("986", "1234.56", "BR")
    assert fields["59"] and fields["60"]
    assert fields["62"]["05"] == body["trade_no"]


def test_pix_accepts_a_json_number_amount_without_float_error(api):
    body = api.post("/trade/pay", builders.direct("PIX", order_amount=Decimal("0.29")), expect=200)
    assert brcode.parse(body["qr_code"])["54"] == "0.29"


def test_boleto_answers_a_valid_linha_digitavel_and_pay_url(api):
    body = api.post("/trade/pay", builders.direct("Boleto", order_amount="100.50"), expect=200)
    code = boleto.barcode_from_linha(body["barcode"])
    assert len(body["barcode"]) == 47
    assert code[9:19] == "0000010050"
    due = clock.brazil_today().toordinal() + 3
    assert int(code[5:9]) == boleto.due_factor(type(clock.brazil_today()).fromordinal(due))
    assert body["pay_url"].startswith("http://checkout.test/pages/pay?token=")
    assert body["due_date"] == type(clock.brazil_today()).fromordinal(due).isoformat()


def test_lottery_answers_pay_url(api):
    body = api.post("/trade/pay", builders.direct("Lottery"), expect=200)
    assert body["pay_url"].startswith("http://checkout.test/pages/pay?token=")
    assert "barcode" not in body and "qr_code" not in body


def test_deposit_express_answers_bank_details(api):
    body = api.post("/trade/pay", builders.direct("DepositExpress", bank="bradesco"), expect=200)
    assert {k: body[k] for k in ("provider_owner", "provider_owner_document", "provider_agency",
                                 "provider_number", "bank_name")} == {
        "provider_owner": "Checkout Sandbox Pagamentos", "provider_owner_document": "11222333000181",
        "provider_agency": "3381", "provider_number": "0184522-1", "bank_name": "Banco Bradesco"}
    assert body["pay_url"].startswith("http://checkout.test/pages/pay?token=")


def test_deposit_express_only_the_five_banks(api, row_counts):
    before = row_counts()
    body = api.post("/trade/pay", builders.direct("DepositExpress", bank="nubank"), expect=400)
    assert body["sub_msg"] == ("bank: must be one of itau, santander, bradesco, banco-do-brasil, caixa "
                               "for DepositExpress")
    missing = api.post("/trade/pay", builders.direct("DepositExpress"), expect=400)
    assert (missing["code"], missing["sub_msg"]) == ("40001", "missing required argument: bank")
    assert row_counts() == before


def test_wallet_answers_wallet_and_app_links(api):
    body = api.post("/trade/pay", builders.direct("Wallet", channel="PicPay"), expect=200)
    assert body["wallet_url"].startswith("http://checkout.test/pages/wallet?token=")
    assert body["app_link_url"] == f"checkout-sandbox://wallet/picpay/pay?trade_no={body['trade_no']}"


@pytest.mark.parametrize("overrides, code, sub_msg", [
    ({}, "40001", "missing required argument: channel"),
    ({"channel": "Venmo"}, "40002", "channel: must be one of PicPay, MercadoPago, Todito, Yape, Nequi"),
    ({"channel": "Yape"}, "40002", "order_currency: must be PEN for Wallet"),
])
def test_wallet_channel_rules(api, overrides, code, sub_msg):
    body = api.post("/trade/pay", builders.direct("Wallet", **overrides), expect=400)
    assert (body["code"], body["sub_msg"]) == (code, sub_msg)


@pytest.mark.parametrize("method, bank, currency", [
    ("Cash", "oxxo", "MXN"), ("BankTransfer", "pse", "COP"), ("Khipu", "bancoestado", "CLP"),
])
def test_bank_list_methods(api, method, bank, currency):
    body = api.post("/trade/pay", builders.direct(method, bank=bank, order_currency=currency,
                                                  order_amount="1500", language_code="es"), expect=200)
    assert body["trade_status"] == "PROCESSING"
    assert body["web_url"].startswith("http://checkout.test/pages/pay?token=")


@pytest.mark.parametrize("method, overrides, sub_msg", [
    ("Cash", {"bank": "efecty", "order_currency": "MXN"}, "order_currency: must be COP for Cash"),
    ("Cash", {"bank": "spei", "order_currency": "MXN"},
     "bank: must be one of oxxo, seven_eleven, pagoefectivo, efecty for Cash"),
    ("BankTransfer", {"bank": "spei", "order_currency": "MXN", "language_code": "pt"},
     "language_code: must be one of es, en for spei"),
    ("Khipu", {"bank": "bancoestado", "order_currency": "CLP", "order_amount": "10.50"},
     "order_amount: at most 0 decimal places for CLP"),
])
def test_bank_list_rules(api, row_counts, method, overrides, sub_msg):
    before = row_counts()
    body = api.post("/trade/pay", builders.direct(method, **overrides), expect=400)
    assert body["sub_msg"] == sub_msg
    assert row_counts() == before


def test_bank_list_operation(api):
    body = api.post("/trade/bank-list", {"method": "Cash"}, expect=200)
    assert [b["bank_id"] for b in body["banks"]] == ["oxxo", "seven_eleven", "pagoefectivo", "efecty"]
    assert body["banks"][0] == {"bank_id": "oxxo", "bank_name": "OXXO", "country": "MEX", "currency": "MXN",
                                "language_codes": ["es", "en"]}


def test_credit_card_direct_payment_succeeds_with_the_approving_card(api, outbox):
    token = api.post("/card/token", builders.card(), expect=200)["token"]
    body = api.post("/trade/pay", builders.direct("CreditCard", token=token, fingerprint="fp-1", issuer="visa",
                                                  user_ip="203.0.113.7", installments=3), expect=200)
    assert body["trade_status"] == "SUCCESS"
    assert [p["trade_status"] for _, _, p in outbox(body["trade_no"])] == ["SUCCESS"]


def test_credit_card_direct_payment_refused_card(api, outbox):
    token = api.post("/card/token", builders.card(builders.DECLINED_CARD), expect=200)["token"]
    body = api.post("/trade/pay", builders.direct("CreditCard", token=token, fingerprint="fp-1", issuer="visa",
                                                  user_ip="203.0.113.7"), expect=200)
    assert body["trade_status"] == "REFUSED"
    [(_, _, payload)] = outbox(body["trade_no"])
    assert payload["reason"] == "card declined by the issuer"


@pytest.mark.parametrize("missing", ["token", "fingerprint", "issuer", "user_ip"])
def test_credit_card_requires_its_fields(api, missing):
    fields = {"token": "tok_x", "fingerprint": "fp", "issuer": "visa", "user_ip": "203.0.113.7"}
    fields.pop(missing)
    body = api.post("/trade/pay", builders.direct("CreditCard", **fields), expect=400)
    assert (body["code"], body["sub_msg"]) == ("40001", f"missing required argument: {missing}")


@pytest.mark.parametrize("overrides, code, sub_msg", [
    ({"method": ...}, "40001", "missing required argument: method"),
    ({"method": "Bitcoin"}, "40002",
     "method: must be one of PIX, Boleto, Lottery, DepositExpress, Wallet, Cash, BankTransfer, Khipu, CreditCard"),
    ({"order_currency": "USD"}, "40002", "order_currency: must be BRL for PIX"),
    ({"order_amount": "100000000.00"}, "40002", "order_amount: must be between 0.01 and 99999999.99"),
    ({"order_amount": "NaN"}, "40002", "order_amount: must be a plain decimal number"),
    ({"order_amount": True}, "40002", "order_amount: must be a number or a numeric string"),
    ({"order_amount": "12.345"}, "40002", "order_amount: at most 2 decimal places"),
    ({"subject": "s" * 129}, "40002", "subject: String should have at most 128 characters"),
    ({"content": "c" * 256}, "40002", "content: String should have at most 255 characters"),
    ({"notify_url": "merchant.example/notify"}, "40002", "notify_url: must be an absolute http(s) URL"),
    ({"customer": {"email": "not-an-email"}}, "40002", "customer.email: must be an e-mail address"),
    ({"customer": {"identify": {"number": "12345678900"}}}, "40002",
     "customer.identify.number: must be a valid CPF (digits only)"),
    ({"customer": {"identify": {"type": "DNI"}}}, "40002", "customer.identify.type: must be CPF or CNPJ for PIX"),
    ({"address": {"city": ...}}, "40001", "missing required argument: address.city"),
    ({"customer": ...}, "40001", "missing required argument: customer"),
    ({"installments": 13}, "40002", "installments: Input should be less than or equal to 12"),
    ({"user_ip": "999.1.1.1"}, "40002", "user_ip: must be an IPv4 or IPv6 address"),
])
def test_direct_payment_field_rules(api, row_counts, overrides, code, sub_msg):
    before = row_counts()
    body = api.post("/trade/pay", builders.merge(builders.direct("PIX"), overrides), expect=400)
    assert (body["code"], body["sub_msg"]) == (code, sub_msg)
    assert row_counts() == before


def test_cnpj_customer_is_accepted(api):
    body = api.post("/trade/pay", builders.direct("PIX", customer={"identify": {"type": "CNPJ",
                                                                                "number": builders.CNPJ}}), expect=200)
    assert body["trade_status"] == "PROCESSING"


def test_duplicate_out_trade_no_is_per_merchant(api, other_api):
    api.post("/trade/pay", builders.direct("PIX"), expect=200)
    duplicate = api.post("/trade/pay", builders.direct("Boleto"), expect=400)
    assert duplicate["sub_code"] == "duplicate-out_trade_no"
    other = other_api.post("/trade/pay", builders.direct("PIX"), expect=200)
    assert other["trade_status"] == "PROCESSING"
