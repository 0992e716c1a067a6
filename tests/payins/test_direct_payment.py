import base64
from datetime import timedelta
from decimal import Decimal

import pytest

from checkout import clock
from checkout.brazil import boleto, brcode, qrimage
from tests import builders


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


def test_pix_answers_pay_url_and_the_qr_as_an_image_and_its_address(api, client):
    body = api.post("/trade/pay", builders.direct("PIX"), expect=200)
    assert body["web_url"] == ""  # as the provider's PIX page answers it: the page is pay_url
    assert body["pay_url"].startswith("http://checkout.test/pages/pay?token=")
    png = qrimage.png(body["qr_code"])
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    assert body["qr_code_img"] == "data:image/png;base64," + base64.b64encode(png).decode()
    assert body["qr_code_url"].startswith("http://checkout.test/pages/pay/qr.png?token=")
    image = client.get(body["qr_code_url"].removeprefix("http://checkout.test"))
    assert (image.status_code, image.mimetype, image.data) == (200, "image/png", png)


def test_the_qr_image_address_opens_nothing_else(api, client):
    body = api.post("/trade/pay", builders.direct("PIX"), expect=200)
    token = body["qr_code_url"].partition("?")[2]
    assert client.get(f"/pages/pay?{token}").status_code == 400
    assert client.get(f"/pages/pay/qr.png?{body['pay_url'].partition('?')[2]}").status_code == 400


def test_the_qr_image_is_answered_where_the_direct_payment_is_not_kept(api):
    """qr_code_img is drawn when answering; /trade/query answers the kept fields."""
    created = api.post("/trade/pay", builders.direct("PIX"), expect=200)
    query = api.post("/trade/query", {"trade_no": created["trade_no"]}, expect=200)
    assert "qr_code_img" not in query
    assert (query["qr_code"], query["qr_code_url"], query["pay_url"]) == (
        created["qr_code"],
        created["qr_code_url"],
        created["pay_url"],
    )


def test_boleto_answers_the_bar_code_the_typed_line_and_pay_url(api):
    body = api.post("/trade/pay", builders.direct("Boleto", order_amount="100.50"), expect=200)
    code = body["barcode"]
    assert len(code) == 44 and len(body["bank_code"]) == 47
    assert boleto.barcode_from_linha(body["bank_code"]) == code
    assert code[9:19] == "0000010050"
    due = clock.brazil_today().toordinal() + 3
    assert int(code[5:9]) == boleto.due_factor(type(clock.brazil_today()).fromordinal(due))
    assert body["pay_url"].startswith("http://checkout.test/pages/pay?token=")
    assert body["due_date"] == type(clock.brazil_today()).fromordinal(due).isoformat()
    assert body["web_url"] == ""


def test_lottery_answers_its_line_as_barcode_bank_no_and_pay_url(api):
    body = api.post("/trade/pay", builders.direct("Lottery", order_amount="12.01"), expect=200)
    assert body["pay_url"].startswith("http://checkout.test/pages/pay?token=")
    code = boleto.barcode_from_linha(body["barcode"])
    assert (code[:3], code[9:19]) == ("104", "0000001201")  # Caixa, whose slips lotéricas take
    assert len(body["bank_no"]) == 8 and body["bank_no"].isdigit()
    assert (body["web_url"], "qr_code" in body, "bank_code" in body) == ("", False, False)


def test_deposit_express_answers_bank_details(api):
    body = api.post("/trade/pay", builders.direct("DepositExpress", bank="bradesco"), expect=200)
    assert {
        k: body[k]
        for k in ("provider_owner", "provider_owner_document", "provider_agency", "provider_number", "bank_name")
    } == {
        "provider_owner": "Checkout Sandbox Pagamentos",
        "provider_owner_document": "11222333000181",
        "provider_agency": "3381",
        "provider_number": "0184522-1",
        "bank_name": "Banco Bradesco",
    }
    assert body["pay_url"].startswith("http://checkout.test/pages/pay?token=")
    assert body["web_url"] == body["pay_url"]  # the provider's example answers its page as both


def test_deposit_express_bank_in_any_case(api):
    """The provider's DepositExpress example sends "Bradesco"; its list says bradesco."""
    body = api.post("/trade/pay", builders.direct("DepositExpress", bank="Bradesco"), expect=200)
    assert body["bank_name"] == "Banco Bradesco"


def test_deposit_express_only_the_five_banks(api, row_counts):
    before = row_counts()
    body = api.post("/trade/pay", builders.direct("DepositExpress", bank="nubank"), expect=400)
    assert body["sub_msg"] == (
        "bank: must be one of itau, santander, bradesco, banco-do-brasil, caixa for DepositExpress"
    )
    missing = api.post("/trade/pay", builders.direct("DepositExpress"), expect=400)
    assert (missing["code"], missing["sub_msg"]) == ("40001", "missing required argument: bank")
    assert row_counts() == before


def test_wallet_answers_wallet_and_app_links(api):
    body = api.post("/trade/pay", builders.direct("Wallet", channel="PicPay"), expect=200)
    assert body["wallet_url"].startswith("http://checkout.test/pages/wallet?token=")
    assert body["app_link_url"] == f"checkout-sandbox://wallet/picpay/pay?trade_no={body['trade_no']}"


@pytest.mark.parametrize(
    "overrides, code, sub_msg",
    [
        ({}, "40001", "missing required argument: channel"),
        (
            {"channel": "Venmo"},
            "40002",
            "channel: must be one of PicPay, MercadoPago, Todito, Yape, Nequi, AME, Astropay, TPaga, ClaroPay, "
            "Dale, Daviplata, Movii, Rappipay, Mach, Chek, Tupay, AlipayCN, AlipayHK, DANA, KakaoPay, NaverPay, "
            "Payco, SamsungPay, TOSS, BOOST, TNG, BPI, GCash, RabbitLinePay, TrueMoney, LINEPay, QIWI, Papara, "
            "FawryPay",
        ),
        ({"channel": "Yape"}, "40002", "order_currency: must be PEN for Wallet"),
    ],
)
def test_wallet_channel_rules(api, overrides, code, sub_msg):
    body = api.post("/trade/pay", builders.direct("Wallet", **overrides), expect=400)
    assert (body["code"], body["sub_msg"]) == (code, sub_msg)


@pytest.mark.parametrize(
    "method, bank, currency",
    [
        ("Cash", "oxxo", "MXN"),
        ("BankTransfer", "pse", "COP"),
        ("Khipu", "bancoestado", "CLP"),
    ],
)
def test_bank_list_methods(api, method, bank, currency):
    body = api.post(
        "/trade/pay",
        builders.direct(method, bank=bank, order_currency=currency, order_amount="1500", language_code="es"),
        expect=200,
    )
    assert body["trade_status"] == "PROCESSING"
    # The provider's pages answer the payment page in pay_url, web_url empty (they were the other way).
    assert body["web_url"] == ""
    assert body["pay_url"].startswith("http://checkout.test/pages/pay?token=")
    assert isinstance(body.get("reference", ""), str)


@pytest.mark.parametrize(
    "method, overrides, sub_msg",
    [
        # A bank of another country's list: the currency's own banks are named
        (
            "Cash",
            {"bank": "efecty", "order_currency": "MXN"},
            "bank: must be one of oxxo, seven_eleven for Cash in MXN",
        ),
        (
            "Cash",
            {"bank": "spei", "order_currency": "MXN"},
            "bank: must be one of oxxo, seven_eleven for Cash in MXN",
        ),
        (
            "BankTransfer",
            {"bank": "spei", "order_currency": "MXN", "language_code": "pt"},
            "language_code: must be one of es, en for spei",
        ),
        (
            "Khipu",
            {"bank": "bancoestado", "order_currency": "CLP", "order_amount": "10.50"},
            "order_amount: at most 0 decimal places for CLP",
        ),
    ],
)
def test_bank_list_rules(api, row_counts, method, overrides, sub_msg):
    before = row_counts()
    body = api.post("/trade/pay", builders.direct(method, **overrides), expect=400)
    assert body["sub_msg"] == sub_msg
    assert row_counts() == before


def test_bank_list_operation(api):
    body = api.post("/trade/bank-list", {"method": "Cash"}, expect=200)
    assert [b["bank_id"] for b in body["data"]] == ["oxxo", "seven_eleven", "pagoefectivo", "efecty", "8300", "8301"]
    assert body["data"][0] == {
        "bank_id": "oxxo",
        "bank_name": "OXXO",
        "detail": "",
        "country": "MEX",
        "currency": "MXN",
        "language_codes": ["es", "en"],
    }
    assert (body["method"], "min_amount" in body) == ("Cash", False)


def test_khipu_banks_answer_their_minimum_and_hold_payments_to_it(api, row_counts):
    body = api.post("/trade/bank-list", {"method": "Khipu"}, expect=200)
    assert body["min_amount"] == "200"
    assert {(b["currency"], b["min_amount"]) for b in body["data"]} == {("CLP", "200"), ("ARS", "50.00")}
    before = row_counts()
    small = builders.direct("Khipu", bank="bancoestado", order_currency="CLP", order_amount="199")
    answer = api.post("/trade/pay", small, expect=400)
    assert answer["sub_msg"] == "order_amount: must be at least 200 CLP for bancoestado"
    assert row_counts() == before
    at_least = builders.direct("Khipu", bank="bancoestado", order_currency="CLP", order_amount="200")
    assert api.post("/trade/pay", at_least, expect=200)["trade_status"] == "PROCESSING"


def test_credit_card_direct_payment_answers_processing_and_the_worker_approves_it(api, outbox, work):
    token = api.post("/card/token", builders.card(), expect=200)["token"]
    body = api.post(
        "/trade/pay",
        builders.direct(
            "CreditCard", token=token, fingerprint="fp-1", issuer="visa", user_ip="203.0.113.7", installments=3
        ),
        expect=200,
    )
    assert (body["trade_status"], body["web_url"]) == ("PROCESSING", "")
    assert outbox(body["trade_no"]) == []  # PROCESSING is answered, not called back
    query = api.post("/trade/query", {"trade_no": body["trade_no"]}, expect=200)
    assert query["trade_status"] == "PROCESSING" and "expire_time" not in query  # the acquirer decides, not a clock
    work()
    query = api.post("/trade/query", {"trade_no": body["trade_no"]}, expect=200)
    assert (query["trade_status"], query["refundable_amount"]) == ("SUCCESS", "100.50")
    [(kind, target, payload)] = outbox(body["trade_no"])
    assert (kind, target) == ("payin.callback", builders.NOTIFY)
    assert (payload["trade_status"], payload["amount"], payload["method"]) == ("SUCCESS", "100.50", "CreditCard")


def test_credit_card_direct_payment_refused_card(api, outbox, work):
    token = api.post("/card/token", builders.card(builders.DECLINED_CARD), expect=200)["token"]
    body = api.post(
        "/trade/pay",
        builders.direct("CreditCard", token=token, fingerprint="fp-1", issuer="visa", user_ip="203.0.113.7"),
        expect=200,
    )
    assert body["trade_status"] == "PROCESSING"
    work()
    [(_, _, payload)] = outbox(body["trade_no"])
    assert (payload["trade_status"], payload["reason"]) == ("REFUSED", "card declined by the issuer")
    query = api.post("/trade/query", {"trade_no": body["trade_no"]}, expect=200)
    assert (query["trade_status"], query["refuse_detail"]) == ("REFUSED", "card declined by the issuer")


def test_a_card_payment_is_charged_once_and_its_timeout_express_is_still_checked(api, outbox, work, row_counts):
    token = api.post("/card/token", builders.card(), expect=200)["token"]
    card = {"token": token, "fingerprint": "fp-1", "issuer": "visa", "user_ip": "203.0.113.7"}
    before = row_counts()
    bad = api.post("/trade/pay", builders.direct("CreditCard", timeout_express="90x", **card), expect=400)
    assert bad["sub_msg"] == "timeout_express: must be a number followed by m, h, d or c (e.g. 90m)"
    assert row_counts() == before
    body = api.post("/trade/pay", builders.direct("CreditCard", timeout_express="5m", **card), expect=200)
    clock.advance(3600)  # long past its timeout_express: a card is not the customer's to pay late
    work()
    work()
    assert [p["trade_status"] for _, _, p in outbox(body["trade_no"])] == ["SUCCESS"]


@pytest.mark.parametrize("missing", ["token", "fingerprint", "issuer", "user_ip"])
def test_credit_card_requires_its_fields(api, missing):
    fields = {"token": "tok_x", "fingerprint": "fp", "issuer": "visa", "user_ip": "203.0.113.7"}
    fields.pop(missing)
    body = api.post("/trade/pay", builders.direct("CreditCard", **fields), expect=400)
    assert (body["code"], body["sub_msg"]) == ("40001", f"missing required argument: {missing}")


@pytest.mark.parametrize(
    "overrides, code, sub_msg",
    [
        ({"method": ...}, "40001", "missing required argument: method"),
        (
            {"method": "Bitcoin"},
            "40002",
            "method: must be one of PIX, Boleto, Lottery, DepositExpress, OpenFinance, Wallet, Cash, BankTransfer, Khipu, "
            "SPEI, CoDi, OXXO, OXXOPay, PSE, Efecty, Bancolombia, SuRed, Gana, Baloto, WebPay, Pago46, PagoEfectivo, "
            "PagoFacil, Rapipago, BNCR, OTC, QRPH, AlipayPlus, CreditCard",
        ),
        ({"order_currency": "USD"}, "40002", "order_currency: must be BRL for PIX"),
        ({"order_amount": "100000000.00"}, "40002", "order_amount: must be between 0.01 and 99999999.99"),
        ({"order_amount": "NaN"}, "40002", "order_amount: must be a plain decimal number"),
        ({"order_amount": True}, "40002", "order_amount: must be a number or a numeric string"),
        ({"order_amount": "12.345"}, "40002", "order_amount: at most 2 decimal places for BRL"),
        ({"subject": "s" * 129}, "40002", "subject: String should have at most 128 characters"),
        ({"content": "c" * 256}, "40002", "content: String should have at most 255 characters"),
        ({"notify_url": "merchant.example/notify"}, "40002", "notify_url: must be an absolute http(s) URL"),
        ({"customer": {"email": "not-an-email"}}, "40002", "customer.email: must be an e-mail address"),
        (
            {"customer": {"identify": {"number": "12345678900"}}},
            "40002",
            "customer.identify.number: must be a valid CPF (digits only)",
        ),
        ({"customer": {"identify": {"type": "DNI"}}}, "40002", "customer.identify.type: must be CPF or CNPJ for PIX"),
        ({"address": {"city": ...}}, "40001", "missing required argument: address.city"),
        ({"customer": ...}, "40001", "missing required argument: customer"),
        ({"installments": 13}, "40002", "installments: Input should be less than or equal to 12"),
        ({"user_ip": "999.1.1.1"}, "40002", "user_ip: must be an IPv4 or IPv6 address"),
    ],
)
def test_direct_payment_field_rules(api, row_counts, overrides, code, sub_msg):
    before = row_counts()
    body = api.post("/trade/pay", builders.merge(builders.direct("PIX"), overrides), expect=400)
    assert (body["code"], body["sub_msg"]) == (code, sub_msg)
    assert row_counts() == before


def test_cnpj_customer_is_accepted(api):
    body = api.post(
        "/trade/pay",
        builders.direct("PIX", customer={"identify": {"type": "CNPJ", "number": builders.CNPJ}}),
        expect=200,
    )
    assert body["trade_status"] == "PROCESSING"


def test_duplicate_out_trade_no_is_per_merchant(api, other_api):
    api.post("/trade/pay", builders.direct("PIX"), expect=200)
    duplicate = api.post("/trade/pay", builders.direct("Boleto"), expect=400)
    assert duplicate["sub_code"] == "duplicate-out_trade_no"
    other = other_api.post("/trade/pay", builders.direct("PIX"), expect=200)
    assert other["trade_status"] == "PROCESSING"


def test_a_repeat_is_refused_by_the_constraint_and_writes_nothing(api, row_counts):
    first = api.post("/trade/pay", builders.direct("PIX"), expect=200)
    before = row_counts()
    repeat = api.post("/trade/pay", builders.direct("PIX", order_amount="7.00"), expect=400)
    assert (repeat["code"], repeat["sub_code"], repeat["sub_msg"]) == (
        "40002",
        "duplicate-out_trade_no",
        "out_trade_no is duplicate",
    )
    assert row_counts() == before
    query = api.post("/trade/query", {"out_trade_no": "order-1"}, expect=200)
    assert (query["trade_no"], query["order_amount"], query["trade_status"]) == (
        first["trade_no"],
        "100.50",
        "PROCESSING",
    )


def test_a_repeated_card_payment_hears_it_is_a_repeat_not_that_its_token_is_spent(api, row_counts):
    token = api.post("/card/token", builders.card(), expect=200)["token"]
    card = {"token": token, "fingerprint": "fp-1", "issuer": "visa", "user_ip": "203.0.113.7"}
    api.post("/trade/pay", builders.direct("CreditCard", **card), expect=200)
    before = row_counts()
    repeat = api.post("/trade/pay", builders.direct("CreditCard", **card), expect=400)
    assert (repeat["sub_code"], repeat["sub_msg"]) == ("duplicate-out_trade_no", "out_trade_no is duplicate")
    assert row_counts() == before


def test_a_card_payment_named_in_another_case_charges_its_card(api, outbox, work):
    token = api.post("/card/token", builders.card(), expect=200)["token"]
    card = {"token": token, "fingerprint": "fp-1", "issuer": "visa", "user_ip": "203.0.113.7"}
    body = api.post("/trade/pay", builders.direct("creditcard", **card), expect=200)
    work()
    [(_, _, payload)] = outbox(body["trade_no"])
    assert (payload["trade_status"], payload["amount"], payload["method"]) == ("SUCCESS", "100.50", "CreditCard")


@pytest.mark.parametrize(
    "card, sub_msg",
    [
        ({"valid_thru_year": "203²"}, "card.valid_thru_year: must be 4 or 2 digits"),
        ({"valid_thru_month": "¹"}, "card.valid_thru_month: must be 1 or 2 digits"),
        ({"cvv": "١٢٣"}, "card.cvv: must be 3 digits for visa"),
        ({"card_no": "４１１１１１１１１１１１１１１１"}, "card.card_no: must be 12 to 19 digits"),
    ],
)
def test_digits_outside_ascii_are_refused(api, card, sub_msg):
    assert api.post("/card/token", builders.card(card=card), expect=400)["sub_msg"] == sub_msg


@pytest.mark.parametrize("amount", ["100.00999999999999999999999999999", "100.000000000000000000000000000001"])
def test_amounts_beyond_decimal_precision_are_refused_not_rounded(api, amount):
    body = api.post("/trade/pay", builders.direct("PIX", order_amount=amount), expect=400)
    assert body["sub_msg"] == "order_amount: at most 2 decimal places for BRL"


def test_trailing_zeros_are_not_decimal_places(api):
    assert api.post("/trade/pay", builders.direct("PIX", order_amount="10.5000"), expect=200)["code"] == "10000"


@pytest.mark.parametrize("timestamp", ["2026-01- 1 10:00:00", "2026-01-01\t10:00:00", "2026-01-01  1:00:00"])
def test_timestamps_with_loose_fields(api, timestamp):
    body = api.post("/card/token", {**builders.card(), "timestamp": timestamp}, expect=400)
    assert body["sub_msg"] == "timestamp: must be yyyy-MM-dd HH:mm:ss"


def test_iso_week_dates_are_not_dates(api):
    vault = builders.pix_vault(clock.brazil_today(), pix={"plan": {"start_date": "2026-W47-6"}})
    body = api.post("/vault/create", vault, expect=400)
    assert body["sub_msg"] == "pix.plan.start_date: must be a date yyyy-MM-dd"


def test_country_codes_are_upper_case(api):
    token = api.post("/card/token", builders.card(), expect=200)["token"]
    body = api.post("/vault/create", builders.card_vault(token, card_token={"region": "bra"}), expect=400)
    assert body["sub_msg"] == "card_token.region: must be an ISO 3166-1 alpha-3 country code"


def test_channel_only_with_wallet(api):
    body = api.post("/trade/pay", builders.direct("PIX", channel="PicPay"), expect=400)
    assert body["sub_msg"] == "channel: only with method Wallet"


def test_boleto_stays_payable_until_the_end_of_its_due_date(api):
    created = api.post("/trade/pay", builders.direct("Boleto"), expect=200)
    due = clock.brazil_today() + timedelta(days=3)
    assert created["due_date"] == due.isoformat()
    query = api.post("/trade/query", {"trade_no": created["trade_no"]}, expect=200)
    # Midnight after the due date in Brazil (UTC-3) is 03:00 UTC.
    assert query["expire_time"] == f"{due + timedelta(days=1)} 03:00:00"
    clock.advance(91 * 60)
    assert api.post(f"/sandbox/trades/{created['trade_no']}/pay", expect=200)["trade_status"] == "SUCCESS"


def test_boleto_due_date_follows_timeout_express(api):
    created = api.post("/trade/pay", builders.direct("Boleto", timeout_express="10d"), expect=200)
    expected = (clock.now() + timedelta(days=10)).astimezone(clock.BRAZIL).date()
    assert created["due_date"] == expected.isoformat()


def test_cancellation_express_is_the_vouchers_life_and_cancels_it_unpaid(api, work, outbox):
    """Boleto's and Lottery's pages: cancellation_express bounds the voucher, and is longer than timeout_express."""
    created = api.post(
        "/trade/pay", builders.direct("Boleto", timeout_express="1h", cancellation_express="2d"), expect=200
    )
    ends = clock.now() + timedelta(days=2)
    assert created["due_date"] == ends.astimezone(clock.BRAZIL).date().isoformat()
    clock.advance(3600 + 1)  # past timeout_express: still payable, the voucher lives on
    work()
    assert api.post("/trade/query", {"trade_no": created["trade_no"]}, expect=200)["trade_status"] == "PROCESSING"
    clock.advance(2 * 86400)
    work()
    query = api.post("/trade/query", {"trade_no": created["trade_no"]}, expect=200)
    assert (query["trade_status"], query["failure_reason"]) == ("CANCEL", "not paid within cancellation_express")
    assert [p["trade_status"] for _, _, p in outbox(created["trade_no"])] == ["CANCEL"]
    paid = api.post(f"/sandbox/trades/{created['trade_no']}/pay", expect=400)
    assert paid["sub_msg"] == "trade is CANCEL; only a PROCESSING trade can be paid"


@pytest.mark.parametrize(
    ("fields", "sub_msg"),
    [
        ({"cancellation_express": "90m"}, "cancellation_express: must be longer than timeout_express"),
        (
            {"timeout_express": "1c", "cancellation_express": "1m"},
            "cancellation_express: must be longer than timeout_express",
        ),
        ({"cancellation_express": "2.5h"}, "cancellation_express: must be a number followed by m, h or d (e.g. 90m)"),
        ({"cancellation_express": "0d"}, "cancellation_express: must be a number followed by m, h or d (e.g. 90m)"),
    ],
)
def test_a_bad_cancellation_express_is_refused_and_writes_nothing(api, row_counts, fields, sub_msg):
    before = row_counts()
    assert api.post("/trade/pay", builders.direct("Lottery", **fields), expect=400)["sub_msg"] == sub_msg
    assert row_counts() == before


def test_empty_optional_email_counts_as_absent(api):
    trade_no = api.post("/trade/pay", builders.direct("PIX"), expect=200)["trade_no"]
    api.post(f"/sandbox/trades/{trade_no}/pay", expect=200)
    body = api.post("/trade/refund", builders.refund(trade_no, "100.50", user_info={"email": ""}), expect=200)
    assert body["refund_status"] == "SUCCESS"


@pytest.mark.parametrize(
    ("amount", "accepted"), [("0.49", False), ("0.50", True), ("50000.00", True), ("50000.01", False)]
)
def test_a_brl_card_payment_keeps_to_the_card_pages_range(api, row_counts, amount, accepted):
    token = api.post("/card/token", builders.card(), expect=200)["token"]
    card = {"token": token, "fingerprint": "fp-1", "issuer": "visa", "user_ip": "203.0.113.7"}
    before = row_counts()
    body = builders.direct("CreditCard", order_amount=amount, **card)
    if accepted:
        assert api.post("/trade/pay", body, expect=200)["trade_status"] == "PROCESSING"
    else:
        answer = api.post("/trade/pay", body, expect=400)
        assert answer["sub_msg"] == "order_amount: must be 0.5 to 50000 BRL for CreditCard"
        assert row_counts() == before
