"""The payout list (payout/payout-list.md) and account balance (payout/account-balance.md) pages' examples."""

from datetime import timedelta

from checkout import clock
from tests import builders

# The list page's example body: its required-field marks and comments left out, every other byte kept.
LIST_EXAMPLE = """{
   "start_time": "2021-07-01 00:00:00",
   "end_time": "2021-08-01 00:00:00",
   "page_size": 5,
   "page_num": 1,
   "timestamp": 1628512575
}"""
BALANCE_EXAMPLE = """{
   "timestamp": 1642075807
}"""
# The documented list record's fields (bank_id only for a paid PIX payout).
LIST_RECORD = [
    "reference_id",
    "transaction_id",
    "user_name",
    "amount",
    "source_amount",
    "settlement_amount",
    "source_currency",
    "arrival_amount",
    "arrival_currency",
    "exchange_rate",
    "tax",
    "fee",
    "fee_user",
    "transaction_status",
    "create_time",
    "update_time",
]


def _fresh(example: str, stamp: str) -> str:
    return example.replace(stamp, str(builders.now_unix()))


def test_the_list_example_as_published_has_expired(send_payout_example):
    status, answer = send_payout_example("/api/payout/list", LIST_EXAMPLE)
    assert status == 400
    assert (answer["code"], answer["msg"], answer["data"]) == (4001009, "request has expired", {})


def test_the_list_example_with_a_fresh_timestamp_lists_the_period(send_payout_example):
    status, answer = send_payout_example("/api/payout/list", _fresh(LIST_EXAMPLE, "1628512575"))
    assert status == 200
    assert (answer["code"], answer["msg"], type(answer["time"]), answer["data"]) == (200, "success", int, [])


def test_a_listed_payout_carries_the_documented_record(send_payout_example, api, payout_api, merchant, fund):
    fund(merchant, "USD", "1000.00")
    paid = payout_api.post("/payout", builders.payout("custom_codexxxx"), expect=200)["data"]
    api.post("/sandbox/clock", {"advance_seconds": 360}, expect=200)  # the sandbox bank pays it
    today = clock.now().strftime("%Y-%m-%d")
    tomorrow = (clock.now() + timedelta(days=1)).strftime("%Y-%m-%d")
    example = (
        _fresh(LIST_EXAMPLE, "1628512575")
        .replace("2021-07-01 00:00:00", f"{today} 00:00:00")
        .replace("2021-08-01 00:00:00", f"{tomorrow} 00:00:00")
    )
    status, answer = send_payout_example("/api/payout/list", example)
    assert status == 200
    [record] = answer["data"]
    assert {key: type(record[key]) for key in LIST_RECORD} == {
        **dict.fromkeys(LIST_RECORD, str),
        "create_time": int,
        "update_time": int,
    }
    assert {key: record[key] for key in LIST_RECORD[:14]} == {
        "reference_id": "custom_codexxxx",
        "transaction_id": paid["id"],
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
        "transaction_status": "PAID",
    }
    assert 360 <= record["update_time"] - record["create_time"] <= 362  # paid on the sandbox clock, 360 s on
    assert record["bank_id"].startswith("E")  # the PIX end-to-end id, "only supported by pix payout"


def test_the_balance_example_as_published_has_expired(send_payout_example):
    status, answer = send_payout_example("/api/balance", BALANCE_EXAMPLE)
    assert status == 400
    assert (answer["code"], answer["msg"], answer["data"]) == (
        4001000,
        "invalid parameter",
        {"err": "request has expired"},
    )


def test_the_balance_example_with_a_fresh_timestamp_answers_each_currency(send_payout_example, merchant, fund):
    fund(merchant, "USD", "551.38")
    fund(merchant, "BRL", "99002.23")
    status, answer = send_payout_example("/api/balance", _fresh(BALANCE_EXAMPLE, "1642075807"))
    assert status == 200
    assert (answer["code"], answer["msg"], type(answer["time"])) == (200, "success", int)
    assert answer["data"] == [
        {"currency": "USD", "amount": "551.38"},
        {"currency": "GBP", "amount": "0.00"},
        {"currency": "EUR", "amount": "0.00"},
        {"currency": "BRL", "amount": "99002.23"},
        {"currency": "MXN", "amount": "0.00"},
    ]


def test_the_balance_refuses_a_wrong_signature_as_documented(client, merchant):
    body = _fresh(BALANCE_EXAMPLE, "1642075807")
    headers = {
        "AppId": merchant["app_id"],
        "Authorization": "d6181db0d6548b94b162e75d095b59147172d914699f83b2bd17951a671b6302",
    }
    response = client.post("/api/balance", data=body, headers={**headers, "Content-Type": "application/json"})
    assert response.status_code == 401
    answer = response.get_json()
    assert (answer["code"], answer["msg"], answer["data"]) == (4004003, "permission denied", {})
