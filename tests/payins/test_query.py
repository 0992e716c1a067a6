from checkout import clock, worker
from tests import builders


def test_query_returns_history_amounts_and_refunds(api):
    created = api.post("/trade/pay", builders.direct("PIX", order_amount="80.00"), expect=200)
    api.post(f"/sandbox/trades/{created['trade_no']}/pay", expect=200)
    refund = api.post("/trade/refund", builders.refund(created["trade_no"], "20.00", out_request_no="r1"), expect=200)
    body = api.post("/trade/query", {"out_trade_no": "order-1"}, expect=200)
    assert (body["trade_no"], body["trade_status"], body["method"]) == (created["trade_no"], "REFUNDED", "PIX")
    assert (body["order_amount"], body["order_currency"], body["refunded_amount"], body["refundable_amount"]) == (
        "80.00",
        "BRL",
        "20.00",
        "60.00",
    )
    assert [(h["from_status"], h["trade_status"]) for h in body["status_history"]] == [
        (None, "PROCESSING"),
        ("PROCESSING", "SUCCESS"),
        ("SUCCESS", "REFUNDED"),
    ]
    assert body["refunds"] == [
        {
            "refund_no": refund["refund_no"],
            "out_request_no": "r1",
            "refund_amount": "20.00",
            "refund_currency": "BRL",
            "refund_status": "SUCCESS",
            "create_time": body["refunds"][0]["create_time"],
        }
    ]
    assert body["qr_code"] == created["qr_code"]
    assert (body["refuse_detail"], body["customer"]) == (
        "",
        {
            "identify": {"number": builders.CPF, "type": "CPF"},
            "email": "ana@example.com",
            "phone": "+5511987654321",
            "name": "Ana Souza",
        },
    )


def test_query_answers_the_providers_fields_first(api):
    created = api.post("/trade/pay", builders.direct("PIX"), expect=200)
    body = api.post("/trade/query", {"trade_no": created["trade_no"]}, expect=200)
    assert list(body)[:11] == [
        "code",
        "msg",
        "trade_no",
        "out_trade_no",
        "trade_status",
        "order_currency",
        "order_amount",
        "customer",
        "refuse_detail",
        "create_time",
        "update_time",
    ]


def test_query_is_scoped_to_the_merchant(api, other_api):
    created = api.post("/trade/pay", builders.direct("PIX"), expect=200)
    body = other_api.post("/trade/query", {"trade_no": created["trade_no"]}, expect=400)
    assert (body["sub_code"], body["sub_msg"]) == ("trade-not-exist", "trade does not exist")


def test_query_with_mismatched_ids_finds_nothing(api):
    created = api.post("/trade/pay", builders.direct("PIX"), expect=200)
    body = api.post("/trade/query", {"trade_no": created["trade_no"], "out_trade_no": "other"}, expect=400)
    assert body["sub_code"] == "trade-not-exist"


def test_refused_pre_authorization_shows_its_reason(api):
    token = api.post("/card/token", builders.card(builders.DECLINED_CARD), expect=200)["token"]
    created = api.post("/trade/pre-authorization", builders.pre_authorization(token), expect=200)
    body = api.post("/trade/query", {"trade_no": created["trade_no"]}, expect=200)
    assert (body["trade_status"], body["failure_reason"]) == ("REFUSED", "card declined by the issuer")
    assert body["refuse_detail"] == "card declined by the issuer"
    assert body["refundable_amount"] == "0.00"
    # A card trade knows no payer beyond the card: the provider's shape, empty.
    assert body["customer"] == {"identify": {"number": "", "type": ""}, "email": "", "phone": "", "name": ""}


def test_refuse_detail_is_for_refused_trades_only(app, api):
    """An expired trade has its reason in failure_reason (ours); refuse_detail is the provider's "Refuse only"."""
    created = api.post("/trade/pay", builders.direct("PIX", timeout_express="5m"), expect=200)
    clock.advance(301)
    worker.run_once(app)
    body = api.post("/trade/query", {"trade_no": created["trade_no"]}, expect=200)
    assert (body["trade_status"], body["refuse_detail"]) == ("EXPIRED", "")
    assert body["failure_reason"]


def test_sandbox_pay_rules(api):
    created = api.post("/trade/pay", builders.direct("PIX", timeout_express="10m"), expect=200)
    clock.advance(601)
    expired = api.post(f"/sandbox/trades/{created['trade_no']}/pay", expect=400)
    assert (expired["sub_code"], expired["sub_msg"]) == ("trade-expired", "the trade expired before it was paid")
    unknown = api.post("/sandbox/trades/nope/pay", expect=400)
    assert unknown["sub_code"] == "trade-not-exist"
    token = api.post("/card/token", builders.card(), expect=200)["token"]
    card = api.post(
        "/trade/pay",
        builders.direct(
            "CreditCard", out_trade_no="c", token=token, fingerprint="f", issuer="visa", user_ip="198.51.100.1"
        ),
        expect=200,
    )
    body = api.post(f"/sandbox/trades/{card['trade_no']}/pay", expect=400)
    assert body["sub_code"] == "method-not-payable"
    other = api.post("/trade/pay", builders.direct("Boleto", out_trade_no="b"), expect=200)
    api.post(f"/sandbox/trades/{other['trade_no']}/pay", expect=200)
    twice = api.post(f"/sandbox/trades/{other['trade_no']}/pay", expect=400)
    assert twice["sub_msg"] == "trade is SUCCESS; only a PROCESSING trade can be paid"
