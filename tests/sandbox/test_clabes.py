"""POST /sandbox/clabes/<clabe>/transfer: a customer's bank pays into a virtual SPEI account; the transfer
becomes a paid trade, its Virtual SPEI notification queued in the same transaction."""

from __future__ import annotations

import re
import time

import pytest

from checkout.mexico import clabe
from checkout.payins.methods.answers import SPEI_BANK, SPEI_PLAZA
from tests.builders import NOTIFY
from tests.virtualspei.builders import RFC, open_account, transfer


def _refusal(code: str, sub_code: str, sub_msg: str) -> dict:
    msg = "Missing Required Arguments" if code == "40001" else "Business Failed"
    return {"code": code, "msg": msg, "sub_code": sub_code, "sub_msg": sub_msg}


def test_a_transfer_becomes_a_paid_trade(api):
    account = open_account(api)
    paid = transfer(api, account["account_number"], "123.45")
    assert re.fullmatch(r"SBX[0-9]{24}", paid["out_trade_no"])
    assert paid == {
        "code": "10000",
        "msg": "Success",
        "trade_no": paid["trade_no"],
        "out_trade_no": paid["out_trade_no"],
        "trade_status": "SUCCESS",
        "amount": "123.45",
        "currency": "MXN",
        "account_id": account["account_id"],
        "account_number": account["account_number"],
    }
    trade = api.post("/trade/query", {"trade_no": paid["trade_no"]}, expect=200)
    assert {k: trade[k] for k in ("out_trade_no", "trade_status", "method", "order_amount", "order_currency")} == {
        "out_trade_no": paid["out_trade_no"],
        "trade_status": "SUCCESS",
        "method": "SPEI",
        "order_amount": "123.45",
        "order_currency": "MXN",
    }
    assert trade["buyer_id"] == "buyer-1"
    assert trade["customer"] == {
        "identify": {"number": RFC, "type": "RFC"},
        "email": "juan@example.mx",
        "phone": "",
        "name": "Juan Pérez",
    }
    assert [(s["from_status"], s["trade_status"]) for s in trade["status_history"]] == [
        (None, "PROCESSING"),
        ("PROCESSING", "SUCCESS"),
    ]
    assert trade["refundable_amount"] == "123.45"  # a SPEI payment in MXN takes refunds


def test_the_virtual_spei_notification_is_queued_with_the_trade(api, merchant, outbox):
    account = open_account(api)
    before = int(time.time())
    paid = transfer(api, account["account_number"], "50")
    [(kind, target, payload)] = outbox(paid["trade_no"])
    assert (kind, target) == ("payin.callback", NOTIFY)
    stamp = payload["transfer_account"]["transfer_timestamp"]
    assert isinstance(stamp, int) and before - 1 <= stamp <= time.time() + 1
    assert abs(int(payload["timestamp"]) - stamp) <= 1  # the transfer's moment, then the trade's change
    assert payload == {
        "notify_id": payload["notify_id"],
        "app_id": merchant["app_id"],
        "trade_no": paid["trade_no"],
        "out_trade_no": paid["out_trade_no"],
        "out_request_no": "",
        "trade_status": "SUCCESS",
        "amount": "50.00",
        "currency": "MXN",
        "method": "SPEI",
        "channel": "",
        "timestamp": payload["timestamp"],
        "user": {
            "buyer_id": "buyer-1",
            "email": "juan@example.mx",
            "identify": {"number": RFC, "type": "RFC"},
            "ip": "0.0.0.0",
            "name": "Juan Pérez",
            "username": "Juan Pérez",
            "phone": "",
        },
        "order_amount": "50.00",
        "order_currency": "MXN",
        "transfer_account": {
            "account_id": account["account_id"],
            "account_number": account["account_number"],
            "beneficiary_name": "CHECKOUT SANDBOX MEXICO SA DE CV",
            "provider": "STP",
            "transfer_timestamp": stamp,
        },
    }


def test_any_number_of_transfers_of_any_amount_each_make_their_own_trade(api):
    account = open_account(api)
    amounts = ["0.01", "8", "99999999.99"]
    paid = [transfer(api, account["account_number"], amount) for amount in amounts]
    assert len({p["trade_no"] for p in paid}) == len({p["out_trade_no"] for p in paid}) == 3
    assert [p["amount"] for p in paid] == ["0.01", "8.00", "99999999.99"]


def test_a_cancelled_account_refuses_transfers_and_nothing_is_written(api, row_counts):
    account = open_account(api)
    api.post("/virtual-account/spei/cancel", {"account_id": account["account_id"]}, expect=200)
    before = row_counts()
    assert transfer(api, account["account_number"], expect=400) == _refusal(
        "40002",
        "account-not-active",
        f"account {account['account_id']} is CANCELED: a cancelled CLABE takes no transfers",
    )
    assert row_counts() == before


UNKNOWN = clabe.build(SPEI_BANK, SPEI_PLAZA, "99999999999")


@pytest.mark.parametrize(
    ("path_clabe", "body", "code", "sub_code", "sub_msg"),
    [
        ("646180", {"amount": "1"}, "40002", "invalid-parameter", "clabe: must be a CLABE of 18 digits"),
        (
            UNKNOWN[:-1] + str((int(UNKNOWN[-1]) + 1) % 10),
            {"amount": "1"},
            "40002",
            "invalid-parameter",
            "clabe: CLABE check digit is wrong",
        ),
        (UNKNOWN, {"amount": "1"}, "40002", "account-not-exist", "clabe: no account of this merchant has this CLABE"),
        (None, {}, "40001", "missing-arguments", "missing required argument: amount"),
        (None, {"amount": "0"}, "40002", "invalid-parameter", "amount: must be between 0.01 and 99999999.99"),
        (None, {"amount": "1.234"}, "40002", "invalid-parameter", "amount: at most 2 decimal places"),
        (None, {"amount": "-5"}, "40002", "invalid-parameter", "amount: must be between 0.01 and 99999999.99"),
        (None, {"amount": "12,50"}, "40002", "invalid-parameter", "amount: must be a plain decimal number"),
    ],
)
def test_bad_transfers_answer_their_exact_error_and_write_nothing(
    api, row_counts, path_clabe, body, code, sub_code, sub_msg
):
    account = open_account(api)
    before = row_counts()
    answer = api.post(f"/sandbox/clabes/{path_clabe or account['account_number']}/transfer", body, expect=400)
    assert answer == _refusal(code, sub_code, sub_msg)
    assert row_counts() == before


def test_a_transfer_needs_the_merchants_credentials(api, client, row_counts):
    account = open_account(api)
    before = row_counts()
    response = client.post(f"/sandbox/clabes/{account['account_number']}/transfer", json={"amount": "1"})
    assert response.status_code == 400 and response.get_json()["sub_code"] == "missing-signature-config"
    assert row_counts() == before
