import pytest

from tests import builders

USER = {
    "user_info": {"identify": {"number": "39053344705", "type": "CPF"}, "name": "Ana Souza", "email": "ana@example.com"}
}
BANK = {"bank_info": {"bank_id": "341", "bank_name": "Itaú", "agency": "0001", "type": "checking", "number": "12345-6"}}


def paid(api, method="PIX", amount="100.00", out_trade_no="order-1", **overrides) -> str:
    trade_no = api.post(
        "/trade/pay", builders.direct(method, out_trade_no=out_trade_no, order_amount=amount, **overrides), expect=200
    )["trade_no"]
    api.post(f"/sandbox/trades/{trade_no}/pay", expect=200)
    return trade_no


def test_full_refund_of_a_pix_payment(api, outbox):
    trade_no = paid(api)
    body = api.post("/trade/refund", builders.refund(trade_no, "100.00"), expect=200)
    assert (body["code"], body["refund_status"], body["refund_amount"]) == ("10000", "SUCCESS", "100.00")
    query = api.post("/trade/query", {"trade_no": trade_no}, expect=200)
    assert (query["trade_status"], query["refunded_amount"], query["refundable_amount"]) == (
        "REFUNDED",
        "100.00",
        "0.00",
    )
    assert [p["trade_status"] for _, _, p in outbox(trade_no)] == ["SUCCESS", "REFUNDED"]


def test_refund_by_out_trade_no(api):
    paid(api, out_trade_no="shop-77")
    body = api.post(
        "/trade/refund", {**builders.refund(None, "100.00"), "trade_no": None, "out_trade_no": "shop-77"}, expect=200
    )
    assert (body["out_trade_no"], body["refund_status"]) == ("shop-77", "SUCCESS")


def test_partial_refunds_up_to_the_paid_amount(api, outbox):
    trade_no = paid(api, amount="100.00")
    first = api.post("/trade/refund", builders.refund(trade_no, "30.00", out_request_no="r1"), expect=200)
    second = api.post("/trade/refund", builders.refund(trade_no, "69.99", out_request_no="r2"), expect=200)
    assert (first["refund_status"], second["refund_status"]) == ("SUCCESS", "SUCCESS")
    over = api.post("/trade/refund", builders.refund(trade_no, "0.02", out_request_no="r3"), expect=400)
    assert (over["sub_code"], over["sub_msg"]) == (
        "refund-amount-exceeded",
        "refund_amount exceeds the refundable amount, 0.01 BRL",
    )
    last = api.post("/trade/refund", builders.refund(trade_no, "0.01", out_request_no="r4"), expect=200)
    assert last["refund_status"] == "SUCCESS"
    query = api.post("/trade/query", {"trade_no": trade_no}, expect=200)
    assert query["trade_status"] == "REFUNDED"
    assert [r["refund_amount"] for r in query["refunds"]] == ["30.00", "69.99", "0.01"]
    # History and refunds are read joined (a row per pair): each still appears once, in order.
    assert [h["trade_status"] for h in query["status_history"]] == [
        "PROCESSING",
        "SUCCESS",
        "REFUNDED",
        "REFUNDED",
        "REFUNDED",
    ]
    assert (query["refunded_amount"], query["refundable_amount"]) == ("100.00", "0.00")
    assert [p["trade_status"] for _, _, p in outbox(trade_no)] == [
        "SUCCESS",
        "REFUNDED",
        "REFUNDED",
        "REFUNDED",
    ]


def test_partial_refund_requires_out_request_no(api, row_counts):
    trade_no = paid(api)
    before = row_counts()
    body = api.post("/trade/refund", builders.refund(trade_no, "10.00"), expect=400)
    assert (body["code"], body["sub_msg"]) == (
        "40001",
        "missing required argument: out_request_no (required for a partial refund)",
    )
    assert row_counts() == before


def test_repeated_out_request_no_returns_the_same_refund(api, row_counts):
    trade_no = paid(api)
    first = api.post("/trade/refund", builders.refund(trade_no, "10.00", out_request_no="r1"), expect=200)
    before = row_counts()
    again = api.post("/trade/refund", builders.refund(trade_no, "10.00", out_request_no="r1"), expect=200)
    assert again == first
    assert row_counts() == before
    different = api.post("/trade/refund", builders.refund(trade_no, "11.00", out_request_no="r1"), expect=400)
    assert different["sub_msg"] == "out_request_no: already used for a refund of 10.00 BRL"


def test_refund_more_than_paid(api):
    trade_no = paid(api, amount="50.00")
    body = api.post("/trade/refund", builders.refund(trade_no, "50.01"), expect=400)
    assert (body["sub_code"], body["sub_msg"]) == (
        "refund-amount-exceeded",
        "refund_amount exceeds the refundable amount, 50.00 BRL",
    )


def test_unpaid_trade_cannot_be_refunded(api):
    trade_no = api.post("/trade/pay", builders.direct("PIX"), expect=200)["trade_no"]
    body = api.post("/trade/refund", builders.refund(trade_no, "100.50"), expect=400)
    assert (body["sub_code"], body["sub_msg"]) == (
        "trade-status-invalid",
        "trade is PROCESSING; only a paid trade can be refunded",
    )


def test_unknown_and_foreign_trades(api, other_api):
    trade_no = paid(api)
    foreign = other_api.post("/trade/refund", builders.refund(trade_no, "1.00", out_request_no="x"), expect=400)
    assert (foreign["sub_code"], foreign["sub_msg"]) == ("trade-not-exist", "trade does not exist")
    neither = api.post("/trade/refund", builders.refund(None, "1.00"), expect=400)
    assert (neither["code"], neither["sub_msg"]) == ("40001", "missing required argument: trade_no or out_trade_no")


@pytest.mark.parametrize(
    "overrides, sub_msg",
    [
        ({"refund_currency": "USD"}, "refund_currency: must be the trade's currency, BRL"),
        ({"refund_amount": "0"}, "refund_amount: must be between 0.01 and 99999999999999.99"),
        ({"refund_amount": "1.001"}, "refund_amount: at most 2 decimal places for BRL"),
        ({"out_request_no": "x" * 17}, "out_request_no: String should have at most 16 characters"),
        ({"refund_reason": "r" * 129}, "refund_reason: String should have at most 128 characters"),
        ({"timestamp": "2026-11-21 1:00:00"}, "timestamp: must be yyyy-MM-dd HH:mm:ss (19 characters)"),
        ({"user_info": {"email": "nope"}}, "user_info.email: must be an e-mail address"),
        ({"bank_info": {"agency": "9" * 65}}, "bank_info.agency: String should have at most 64 characters"),
    ],
)
def test_refund_field_rules(api, overrides, sub_msg):
    trade_no = paid(api)
    body = api.post(
        "/trade/refund", builders.merge(builders.refund(trade_no, "1.00", out_request_no="r1"), overrides), expect=400
    )
    assert body["sub_msg"] == sub_msg


def test_boleto_refund_needs_the_customer(api):
    trade_no = paid(api, "Boleto")
    body = api.post("/trade/refund", builders.refund(trade_no, "100.00"), expect=400)
    assert (body["code"], body["sub_msg"]) == (
        "40001",
        "missing required argument: user_info.identify.number (required to refund a Boleto payment)",
    )


def test_boleto_refund_with_bank_data_succeeds(api, outbox):
    trade_no = paid(api, "Boleto")
    body = api.post("/trade/refund", builders.refund(trade_no, "100.00", **USER, **BANK), expect=200)
    assert body["refund_status"] == "SUCCESS"
    assert [k for k, _, _ in outbox(body["refund_no"])] == []


@pytest.mark.parametrize("field", ["number", "account"])
def test_the_account_number_alone_is_bank_data(api, outbox, field):
    """bank_info.number is the provider's name; account, ours from before, is still read."""
    trade_no = paid(api, "Boleto")
    body = api.post("/trade/refund", builders.refund(trade_no, "100.00", **USER, bank_info={field: "123"}), expect=200)
    assert (body["refund_status"], outbox(body["refund_no"])) == ("SUCCESS", [])


def test_the_refund_answers_the_providers_fields_first(api):
    trade_no = paid(api)
    body = api.post("/trade/refund", builders.refund(trade_no, "100.00"), expect=200)
    assert list(body)[:7] == [
        "code",
        "msg",
        "out_trade_no",
        "trade_no",
        "refund_currency",
        "refund_amount",
        "refund_status",
    ]


def test_boleto_refund_without_bank_data_emails_the_customer(api, outbox):
    trade_no = paid(api, "Boleto")
    body = api.post("/trade/refund", builders.refund(trade_no, "40.00", out_request_no="r1", **USER), expect=200)
    assert body["refund_status"] == "PROCESSING"
    [(kind, target, payload)] = outbox(body["refund_no"])
    assert (kind, target, payload["template"], payload["refund_amount"], payload["trade_no"]) == (
        "refund.email",
        "ana@example.com",
        "refund-bank-data",
        "40.00",
        trade_no,
    )
    query = api.post("/trade/query", {"trade_no": trade_no}, expect=200)
    assert (query["trade_status"], query["refundable_amount"]) == ("REFUNDED", "60.00")


def test_card_refund_needs_no_user_info(api, work):
    token = api.post("/card/token", builders.card(), expect=200)["token"]
    trade_no = api.post(
        "/trade/pay",
        builders.direct("CreditCard", token=token, fingerprint="fp", issuer="visa", user_ip="198.51.100.1"),
        expect=200,
    )["trade_no"]
    work()  # the card is charged
    body = api.post("/trade/refund", builders.refund(trade_no, "100.50"), expect=200)
    assert body["refund_status"] == "SUCCESS"


def test_clp_refund_has_no_decimals_and_chile_refunds_nothing(api, row_counts):
    trade_no = paid(api, "Khipu", amount="15000", bank="bancoestado", order_currency="CLP")
    before = row_counts()
    body = api.post(
        "/trade/refund",
        builders.refund(trade_no, "0.50", refund_currency="CLP", out_request_no="r", **USER, **BANK),
        expect=400,
    )
    assert body["sub_msg"] == "refund_amount: at most 0 decimal places for CLP"
    whole = api.post(
        "/trade/refund", builders.refund(trade_no, "15000", refund_currency="CLP", **USER, **BANK), expect=400
    )
    assert (whole["sub_code"], whole["sub_msg"]) == ("refund-not-supported", "Khipu payments in CLP cannot be refunded")
    assert row_counts() == before
    query = api.post("/trade/query", {"trade_no": trade_no}, expect=200)
    assert (query["trade_status"], query["refundable_amount"]) == ("SUCCESS", "0")  # nothing a refund could take


@pytest.mark.parametrize(
    ("method", "fields", "amount", "refund", "answer"),
    [
        (
            "OpenFinance",
            {"bank": "75e2b9f4-4f60-4d07-916c-fde1163d43bc"},
            "100.00",
            "100.00",
            "OpenFinance payments in BRL cannot be refunded",
        ),
        (
            "Wallet",
            {"channel": "MercadoPago"},
            "100.00",
            "100.00",
            "Wallet (MercadoPago) payments in BRL cannot be refunded",
        ),
        (
            "Wallet",
            {"channel": "PicPay"},
            "100.00",
            "40.00",
            "Wallet (PicPay) payments in BRL are refunded only in full",
        ),
        ("Wallet", {"channel": "PicPay"}, "100.00", "100.00", None),
        ("Wallet", {"channel": "AME"}, "100.00", "40.00", None),
        ("Boleto", {}, "100.00", "40.00", None),
    ],
)
def test_refunds_follow_the_providers_summary(api, row_counts, method, fields, amount, refund, answer):
    trade_no = paid(api, method, amount=amount, **fields)
    before = row_counts()
    body = builders.refund(trade_no, refund, out_request_no="r1", **USER, **BANK)
    if answer is None:
        assert api.post("/trade/refund", body, expect=200)["refund_amount"] == refund
    else:
        refused = api.post("/trade/refund", body, expect=400)
        assert (refused["sub_code"], refused["sub_msg"]) == ("refund-not-supported", answer)
        assert row_counts() == before


def test_refund_a_hair_above_the_paid_amount(api):
    trade_no = api.post("/trade/pay", builders.direct("PIX", order_amount="100.00"), expect=200)["trade_no"]
    api.post(f"/sandbox/trades/{trade_no}/pay", expect=200)
    body = api.post("/trade/refund", builders.refund(trade_no, "100.00000000000000000000000000001"), expect=400)
    assert body["sub_msg"] == "refund_amount: at most 2 decimal places for BRL"
