"""The provider's Virtual SPEI pages (payin/submit-a-payin/mexico/virtual-spei/): each page's request example
sent as it prints it, our answer held field by field to the page's response example, and the Virtual SPEI
notification held to its example and checked with the provider's own signature steps.

As elsewhere in this suite, only the curl wrapper is taken out, the app id placed and the example's masked
account id (`692W********MRW4`) replaced by the account the test opened. Beyond that:

- The "*" marks of required fields are not JSON: each example is first sent byte for byte, marks and all,
  and answers the documented `invalid-json` error; then without its marks (the JSON it means).
- The pages' answers carry no `code` and `msg`; ours are the payin envelope's, the documented fields
  beside them (docs/decisions.md). The `//` notes in the answer examples ("//Clabe", "//Bank name") are
  the pages' comments: the examples below are written without them.
- The cancel page's curl posts its example to `/virtual-account/spei/query` (its path, above it, says
  `/cancel`): sent there, it answers the account unchanged; sent to `/cancel`, it cancels.
"""

import json

from checkout import worker
from checkout.mexico import clabe
from checkout.virtualspei import service

from .helpers import INVALID_JSON, unmarked, verify_as_the_provider_says

# --- the pages' request examples -------------------------------------------------------------------

# create.md
CREATE_EXAMPLE = """{
    * "app_id": "{app_id}",
    * "notify_url": "http://merchant/callback/success",
    * "timestamp": "2022-01-01 03:54:01",
    * "customer" : {
    *     "identify": {
    *         "type": "RFC",
    *         "number": "MAMB780915969"
          },
    *     "buyer_id": "buyer_0101_0001",
    *     "name": "Test User Name",
    *     "email": "test@pagsmile.com"
      }
      }"""

# query.md
QUERY_EXAMPLE = """{
    * "app_id": "{app_id}",
    * "timestamp": "2022-01-01 03:54:01",
    * "account_id": "{account_id}"
      }"""

# usage.md
USAGE_EXAMPLE = """{
    * "app_id": "{app_id}",
    * "timestamp": "2022-01-01 03:54:01"
      }"""

# cancel.md
CANCEL_EXAMPLE = """{
    * "app_id": "{app_id}",
    * "timestamp": "2022-01-01 03:54:01",
    * "account_id": "{account_id}"
      }"""

# notification.md: the body the merchant's notify_url receives
NOTIFICATION_EXAMPLE = """{
    * "amount": "50.00",
    * "out_trade_no": "202201010354002",
    * "method": "SPEI",
    * "trade_status": "SUCCESS",
    * "trade_no": "2022022201111100011",
    * "currency": "MXN",
    * "app_id": "162************38",
    * "user": {
        "buyer_id": "",
    *     "email": "test@pagsmile.com",
    *     "identify": {
    *         "number": "MAMB780915969",
    *         "type": "RFC"
          },
          "ip": "0.0.0.0",
    *     "name": "test user name"
      },
    * "timestamp": "1645516741",
    * "transfer_account": {
    *     "account_id": "DP8F********ME4T",
    *     "account_number": "646************069",
    *     "beneficiary_name": "PAGSMILE MEXICO SA DE CV",
    *     "provider": "STP",
    *     "transfer_timestamp": 1645516741
      }
      }"""

# --- the pages' response examples --------------------------------------------------------------------

ACCOUNT_ANSWER = {  # create.md and query.md (200)
    "account_id": "692W********MRW4",
    "account_number": "6461xxxxxxxxxx0137",
    "buyer_id": "0001",
    "provider": "STP",
    "status": "ACTIVE",
    "beneficiary_name": "PAGSMILE MEXICO SA DE CV",
    "notify_url": "https://your-notify-url.com",
}
CANCEL_ANSWER = {**ACCOUNT_ANSWER, "status": "CANCELED"}  # cancel.md (200)
USAGE_ANSWER = {"used": 2000, "unused": 1000}  # usage.md (200)
POOL_RUN_OUT = {  # every page's 400
    "code": "40002",
    "msg": "Business Failed",
    "sub_code": "account-pool-run-out",
    "sub_msg": "account pool run out",
}
FIXED = ("provider", "status")
ENVELOPE = {"code": "10000", "msg": "Success"}


def _documented(body: dict, documented: dict) -> None:
    """Every field of the page's answer is ours too, of its type, the same where it never varies, in the
    page's order after the envelope's code and msg."""
    assert {k: body[k] for k in ENVELOPE} == ENVELOPE
    assert list(body)[2 : 2 + len(documented)] == list(documented)
    assert {name: type(body[name]) for name in documented} == {name: type(v) for name, v in documented.items()}
    assert {k: body[k] for k in FIXED} == {k: documented[k] for k in FIXED}
    assert clabe.validate(body["account_number"]) == body["provider"] == "STP"


def _sent_marked_then_unmarked(send_example, path: str, example: str, **replace: str) -> tuple[int, dict]:
    assert send_example(path, example, **replace) == (400, INVALID_JSON)
    return send_example(path, unmarked(example), **replace)


def test_the_create_example_opens_an_account_as_documented(send_example, row_counts):
    before = row_counts()
    assert send_example("/virtual-account/spei/create", CREATE_EXAMPLE) == (400, INVALID_JSON)
    assert row_counts() == before
    status, body = send_example("/virtual-account/spei/create", unmarked(CREATE_EXAMPLE))
    assert status == 200, body
    _documented(body, ACCOUNT_ANSWER)
    assert (body["buyer_id"], body["notify_url"]) == ("buyer_0101_0001", "http://merchant/callback/success")


def _opened(send_example) -> dict:
    status, body = send_example("/virtual-account/spei/create", unmarked(CREATE_EXAMPLE))
    assert status == 200, body
    return body


def test_the_query_example_answers_the_account_as_documented(send_example):
    opened = _opened(send_example)
    status, body = _sent_marked_then_unmarked(
        send_example, "/virtual-account/spei/query", QUERY_EXAMPLE, account_id=opened["account_id"]
    )
    assert status == 200, body
    _documented(body, ACCOUNT_ANSWER)
    # The page link is signed with the second it was made; what it opens must be the same account.
    assert {**body, "transfer_url": None} == {**opened, "transfer_url": None}
    assert body["transfer_url"].split(".")[0] == opened["transfer_url"].split(".")[0]


def test_the_cancel_example_cancels_the_account_as_documented(send_example):
    opened = _opened(send_example)
    # Where the page's curl sends it: a query, which changes nothing.
    status, body = send_example(
        "/virtual-account/spei/query", unmarked(CANCEL_EXAMPLE), account_id=opened["account_id"]
    )
    assert (status, body["status"]) == (200, "ACTIVE")
    status, body = _sent_marked_then_unmarked(
        send_example, "/virtual-account/spei/cancel", CANCEL_EXAMPLE, account_id=opened["account_id"]
    )
    assert status == 200, body
    _documented(body, CANCEL_ANSWER)
    assert body["account_id"] == opened["account_id"] and body["account_number"] == opened["account_number"]


def test_the_usage_example_answers_as_documented(send_example):
    _opened(send_example)
    status, body = _sent_marked_then_unmarked(send_example, "/virtual-account/spei/usage", USAGE_EXAMPLE)
    assert status == 200, body
    assert {k: body[k] for k in ENVELOPE} == ENVELOPE
    assert list(body)[2:4] == list(USAGE_ANSWER)
    assert {k: type(body[k]) for k in USAGE_ANSWER} == dict.fromkeys(USAGE_ANSWER, int)
    assert (body["used"], body["unused"]) == (1, service.POOL_SIZE - 1)


def test_a_run_out_pool_answers_the_pages_error_exactly(send_example, row_counts, monkeypatch):
    monkeypatch.setattr(service, "POOL_SIZE", 0)
    before = row_counts()
    assert send_example("/virtual-account/spei/create", unmarked(CREATE_EXAMPLE)) == (400, POOL_RUN_OUT)
    assert row_counts() == before


def _types(value):
    """The example's shape: each key's type, nested objects as their own shapes."""
    if isinstance(value, dict):
        return {key: _types(item) for key, item in value.items()}
    return type(value)


def test_a_transfer_is_notified_as_the_notification_page_shows_and_signed_as_every_callback(
    app, api, merchant, send_example, receiver
):
    documented = json.loads(unmarked(NOTIFICATION_EXAMPLE))
    status, opened = send_example(
        "/virtual-account/spei/create",
        unmarked(CREATE_EXAMPLE).replace("http://merchant/callback/success", receiver.url),
    )
    assert status == 200, opened
    paid = api.post(f"/sandbox/clabes/{opened['account_number']}/transfer", {"amount": "50.00"}, expect=200)
    worker.run_once(app)
    receiver.wait_for(1)
    [request] = receiver.requests
    assert verify_as_the_provider_says(
        request["headers"]["Pagsmile-Signature"], request["raw"], merchant["security_key"]
    )
    assert request["headers"]["Content-Type"].startswith("application/json")
    sent = request["json"]
    shape = _types(sent)
    # Every documented field, of the example's type, nested ones too (ours may follow each).
    for name, kind in _types(documented).items():
        if isinstance(kind, dict):
            assert {key: shape[name][key] for key in kind} == kind, name
        else:
            assert shape[name] is kind, name
    assert {k: sent[k] for k in ("amount", "method", "trade_status", "currency")} == {
        "amount": "50.00",
        "method": "SPEI",
        "trade_status": "SUCCESS",
        "currency": "MXN",
    }
    assert (sent["trade_no"], sent["out_trade_no"], sent["app_id"]) == (
        paid["trade_no"],
        paid["out_trade_no"],
        merchant["app_id"],
    )
    assert {k: sent["user"][k] for k in documented["user"]} == {
        "buyer_id": "buyer_0101_0001",
        "email": "test@pagsmile.com",
        "identify": {"number": "MAMB780915969", "type": "RFC"},
        "ip": "0.0.0.0",
        "name": "Test User Name",
    }
    account = sent["transfer_account"]
    assert {k: account[k] for k in ("account_id", "account_number", "provider")} == {
        "account_id": opened["account_id"],
        "account_number": opened["account_number"],
        "provider": documented["transfer_account"]["provider"],
    }
    assert account["beneficiary_name"] == opened["beneficiary_name"]
    assert account["transfer_timestamp"] >= int(sent["timestamp"]) - 1
    # Tampered, or checked with another key, the documented check fails.
    assert not verify_as_the_provider_says(
        request["headers"]["Pagsmile-Signature"], request["raw"].replace(b"50.00", b"50.01"), merchant["security_key"]
    )
