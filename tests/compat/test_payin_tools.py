"""The provider's payin detail, refund and bank-list pages (payin/payin-detail.md, refund.md,
tools/supported-bank-list-query.md): their request examples sent as printed, their answers field by field.

Each example's own placeholders (`"app_id"`, `{{datetime}}`, `{{trade_no}}`, `{{out_trade_no}}`,
`{{$randomUUID}}`, `{{method}}`) are written here as the values they stand for ({app_id}, {timestamp}, ...);
nothing else is changed, except where the interface requires more, said at each example.
"""

import pytest

from tests import builders

QUERY_EXAMPLE = """{
    "app_id": "{app_id}",
    "timestamp": "{timestamp}",
    "out_trade_no": "{out_trade_no}",
    "trade_no": "{trade_no}"
}"""

QUERY_ANSWER = {
    "code": "10000",
    "msg": "Success",
    "trade_no": "",
    "out_trade_no": "",
    "trade_status": "",
    "order_currency": "",
    "order_amount": "",
    "customer": {"identify": {"number": "", "type": ""}, "email": "", "phone": ""},
    "refuse_detail": "",
    "create_time": "",
    "update_time": "",
}

# The page's example has no timestamp, which the interface requires ("exactly 19 chars"): the line is
# added. Its "email" placeholder stands for an address, which the interface requires to be valid.
REFUND_EXAMPLE = """{
    "app_id": "{app_id}",
    "timestamp": "{timestamp}",
    "content": "content",
    "trade_no": "{trade_no}",
    "refund_amount": 10,
    "refund_currency": "BRL",
    "out_trade_no": "{out_trade_no}",
    "user_info": {
      "identify": {
        "number": "number",
        "type": "type"
      },
      "name": "name",
      "email": "{email}"
      }
}"""

REFUND_ANSWER = {
    "code": "10000",
    "msg": "Success",
    "out_trade_no": "{out_trade_no}",
    "trade_no": "{trade_no}",
    "refund_currency": "{refund_currency}",
    "refund_amount": "{refund_amount}",
    "refund_status": "{refund_status}",
}

BANK_LIST_EXAMPLE = """{
    "app_id": "{app_id}",
    "timestamp": "{timestamp}",
    "method": "{method}"
}"""


def same_shape(ours: object, documented: object, path: str = "") -> None:
    """Every documented field is ours, with the documented type, nested objects included."""
    assert type(ours) is type(documented), path
    if isinstance(documented, dict):
        assert isinstance(ours, dict)
        for key, value in documented.items():
            assert key in ours, f"{path}{key} missing"
            same_shape(ours[key], value, f"{path}{key}.")


def pix_trade(api, amount: str = "12.01", out_trade_no: str = "202201010354002", **overrides) -> dict:
    return api.post(
        "/trade/pay", builders.direct("PIX", out_trade_no=out_trade_no, order_amount=amount, **overrides), expect=200
    )


def test_the_query_example(api, send_example):
    trade = pix_trade(api)
    status, body = send_example(
        "/trade/query", QUERY_EXAMPLE, out_trade_no=trade["out_trade_no"], trade_no=trade["trade_no"]
    )
    assert status == 200, body
    same_shape(body, QUERY_ANSWER)
    assert {k: body[k] for k in QUERY_ANSWER} == {
        "code": "10000",
        "msg": "Success",
        "trade_no": trade["trade_no"],
        "out_trade_no": "202201010354002",
        "trade_status": "PROCESSING",
        "order_currency": "BRL",
        "order_amount": "12.01",
        "customer": {
            "identify": {"number": builders.CPF, "type": "CPF"},
            "email": "ana@example.com",
            "phone": "+5511987654321",
            "name": "Ana Souza",  # ours, after the documented ones
        },
        "refuse_detail": "",
        "create_time": body["create_time"],
        "update_time": body["update_time"],
    }
    for name in ("create_time", "update_time"):  # yyyy-MM-dd HH:mm:ss, UTC
        assert len(body[name]) == 19 and body[name][4] == "-" and body[name][10] == " ", name


def test_the_query_example_of_a_refused_trade_says_why(api, send_example, work):
    token = api.post("/card/token", builders.card(builders.DECLINED_CARD), expect=200)["token"]
    card = {"token": token, "fingerprint": "fp", "issuer": "visa", "user_ip": "127.0.0.1"}
    trade = api.post("/trade/pay", builders.direct("CreditCard", out_trade_no="refused-1", **card), expect=200)
    work()  # the card is decided by the worker
    status, body = send_example("/trade/query", QUERY_EXAMPLE, out_trade_no="refused-1", trade_no=trade["trade_no"])
    assert status == 200, body
    same_shape(body, QUERY_ANSWER)
    assert (body["trade_status"], body["refuse_detail"]) == ("REFUSED", "card declined by the issuer")


def test_the_query_failure_is_the_documented_envelope(send_example, client):
    status, body = send_example("/trade/query", QUERY_EXAMPLE, out_trade_no="x", trade_no="y")
    assert (status, body["code"], body["msg"]) == (400, "40002", "Business Failed")
    wrong = client.post("/trade/query", data=QUERY_EXAMPLE, headers={"Authorization": "Basic eDp5"})
    assert (wrong.status_code, wrong.get_json()) == (
        400,
        {
            "code": "40002",
            "msg": "Business Failed",
            "sub_code": "invalid-signature",
            # The provider's words first, then what to do about it.
            "sub_msg": "invalid signature: unknown app_id; send the app_id shown in the dashboard under Developers"
            " (sandbox and production credentials differ)",
        },
    )


@pytest.mark.parametrize(
    "method, refund_status",
    [
        ("PIX", "SUCCESS"),  # refunded at once
        ("Boleto", "PROCESSING"),  # no bank_info: the customer's bank data is asked for by e-mail
    ],
)
def test_the_refund_example(api, send_example, outbox, method, refund_status):
    # 10, the example's refund_amount, is all of the trade: no out_request_no is needed (the example has none).
    trade = api.post("/trade/pay", builders.direct(method, out_trade_no="refund-1", order_amount="10.00"), expect=200)
    api.post(f"/sandbox/trades/{trade['trade_no']}/pay", expect=200)
    status, body = send_example(
        "/trade/refund",
        REFUND_EXAMPLE,
        trade_no=trade["trade_no"],
        out_trade_no="refund-1",
        email="customer@example.com",
    )
    assert status == 200, body
    same_shape(body, REFUND_ANSWER)
    assert {k: body[k] for k in REFUND_ANSWER} == {
        "code": "10000",
        "msg": "Success",
        "out_trade_no": "refund-1",
        "trade_no": trade["trade_no"],
        "refund_currency": "BRL",
        "refund_amount": "10.00",
        "refund_status": refund_status,
    }
    emails = [target for kind, target, _ in outbox(body["refund_no"]) if kind == "refund.email"]
    assert emails == (["customer@example.com"] if refund_status == "PROCESSING" else [])


def test_the_refund_failure_is_the_documented_envelope(api, send_example):
    trade = pix_trade(api, amount="10.00", out_trade_no="refund-2")  # not paid yet
    status, body = send_example(
        "/trade/refund", REFUND_EXAMPLE, trade_no=trade["trade_no"], out_trade_no="refund-2", email="c@example.com"
    )
    assert (status, body["code"], body["msg"], body["sub_code"]) == (
        400,
        "40002",
        "Business Failed",
        "trade-status-invalid",
    )


@pytest.mark.parametrize("method", ["Khipu", "Cash", "BankTransfer"])
def test_the_bank_list_example(api, send_example, method):
    """The page's answer example is not JSON ("data"."bank_id"); its table decides: data.bank_id,
    data.bank_name, data.detail (strings), and min_amount (a string, Khipu only) beside data."""
    status, body = send_example("/trade/bank-list", BANK_LIST_EXAMPLE, method=method)
    assert status == 200, body
    assert (body["code"], body["msg"]) == ("10000", "Success")
    assert isinstance(body["data"], list) and body["data"]
    for bank in body["data"]:
        assert all(isinstance(bank[k], str) for k in ("bank_id", "bank_name", "detail")), bank
    if method == "Khipu":
        assert body["min_amount"] == "200"  # the page's example value, in CLP
    else:
        assert "min_amount" not in body
    # Each bank_id is what a direct payment's `bank` takes.
    bank = body["data"][0]
    order = builders.direct(
        method,
        out_trade_no=f"listed-{method}",
        bank=bank["bank_id"],
        order_currency=bank["currency"],
        order_amount="1500",
    )
    assert api.post("/trade/pay", order, expect=200)["trade_status"] == "PROCESSING"
