"""Refusals that say what to do: each credential failure its own answer, logged under a known merchant, and
every missing field of a request reported at once."""

from __future__ import annotations

import base64
import json
from datetime import UTC, datetime

import pytest

from checkout import clock
from checkout.signing import payout_signature
from tests import builders

from .test_requestlog import logged

NOW = datetime(2026, 11, 27, 12, 0, 0, tzinfo=UTC)
NOW_UNIX = int(NOW.timestamp())

PAYOUT_UNKNOWN = (
    "unknown AppId: send the app_id shown in the dashboard under Developers (sandbox and production credentials differ)"
)
PAYOUT_BAD_SIGNATURE = (
    "invalid signature: drop the body's null and empty top-level fields, sort the rest by name, join each name and"
    " value with = and the pairs with &, append your app_key, and send the SHA-256 lowercase hex in Authorization"
)


def basic(text: str) -> dict:
    return {"Authorization": "Basic " + base64.b64encode(text.encode()).decode()}


def without_time(answer: dict) -> dict:
    assert isinstance(answer.pop("time"), int)
    return answer


@pytest.fixture
def frozen(monkeypatch):
    """The wall clock request freshness is judged by, fixed."""
    monkeypatch.setattr(clock, "real_now", lambda: NOW)


# --- the payin request log --------------------------------------------------------------------------------


def test_a_wrong_security_key_is_logged_under_its_merchant_without_the_key(app, client, merchant, row_counts):
    before = row_counts()
    wrong_key = "sk_" + "7" * 48
    response = client.post("/trade/query", json={"trade_no": "T1"}, headers=basic(f"{merchant['app_id']}:{wrong_key}"))
    assert response.status_code == 400
    assert row_counts() == before
    [row] = logged(app)
    assert (row.method, row.path, row.status) == ("POST", "/trade/query", 400)
    assert json.loads(row.request_body) == {"trade_no": "T1"}
    assert json.loads(row.response_body) == {
        "code": "40002",
        "msg": "Business Failed",
        "sub_code": "invalid-signature",
        "sub_msg": "invalid signature: wrong security_key for this app_id; send the security_key shown with it in"
        " the dashboard under Developers (a rotated key replaces the old one)",
    }
    kept = row.request_body + row.response_body + row.path
    assert wrong_key not in kept and merchant["security_key"] not in kept
    assert "7777777" not in kept


def test_an_app_id_that_differs_from_the_headers_is_logged_with_its_reason(app, api, other_api):
    api.post("/card/token", {**builders.card(), "app_id": other_api.app_id}, expect=400)
    [row] = logged(app)
    assert row.merchant_id is not None and (row.path, row.status) == ("/card/token", 400)
    assert json.loads(row.response_body)["sub_code"] == "app-not-match"
    assert "4111111111111111" not in row.request_body


@pytest.mark.parametrize(
    "headers",
    [{}, {"Authorization": "Bearer x"}, basic("app_unknown:sk_x"), basic("sk_pasted_in_place_of_the_app_id:x")],
)
def test_a_request_naming_no_known_merchant_is_not_logged(app, client, merchant, row_counts, headers, caplog):
    caplog.set_level("INFO", logger="checkout.api.operation")
    before = row_counts()
    response = client.post("/trade/query", json={"trade_no": "T1"}, headers=headers)
    assert response.status_code == 400
    assert row_counts() == before
    assert logged(app) == []
    # The operator's server log has one line per refusal, with the reason and never the credentials sent.
    [line] = [r.getMessage() for r in caplog.records if r.getMessage().startswith("refused POST /trade/query")]
    assert "sk_" not in line and "app_unknown" not in line


# --- the payout platform --------------------------------------------------------------------------------


def test_no_app_id_header(client, merchant, row_counts):
    body = builders.dry_run()
    before = row_counts()
    response = client.post(
        "/api/payout/dry-run", json=body, headers={"Authorization": payout_signature(body, merchant["app_key"])}
    )
    assert response.status_code == 401
    assert without_time(response.get_json()) == {
        "code": 4004100,
        "msg": "MerchantId or AppId is required",
        "data": {},
        "hint": "missing AppId header: send your app_id in the AppId header",
    }
    assert row_counts() == before


def test_no_authorization_header_is_logged_under_the_app_id(app, client, merchant, row_counts):
    before = row_counts()
    response = client.post("/api/payout/dry-run", json=builders.dry_run(), headers={"AppId": merchant["app_id"]})
    assert response.status_code == 401
    answer = without_time(response.get_json())
    assert answer == {
        "code": 4004101,
        "msg": "Authorization is required",
        "data": {},
        "hint": "missing Authorization header: send the SHA-256 signature of the body made with your app_key",
    }
    assert row_counts() == before
    [row] = logged(app)
    assert (row.path, row.status) == ("/api/payout/dry-run", 401)
    assert json.loads(row.response_body)["code"] == 4004101


def test_an_unknown_app_id(app, client, merchant, row_counts):
    before = row_counts()
    response = client.post(
        "/api/payout/dry-run", json=builders.dry_run(), headers={"AppId": "app_x", "Authorization": "0" * 64}
    )
    assert response.status_code == 401
    assert without_time(response.get_json()) == {
        "code": 4004003,
        "msg": "permission denied",
        "data": {},
        "hint": PAYOUT_UNKNOWN,
    }
    assert row_counts() == before
    assert logged(app) == []


@pytest.mark.parametrize("signature", ["0" * 64, "not hex", "é" * 64])
def test_a_bad_signature_is_logged_without_it(app, client, merchant, row_counts, signature):
    body = builders.dry_run()
    before = row_counts()
    headers = {"AppId": merchant["app_id"], "Authorization": signature}
    response = client.post("/api/payout/dry-run", json=body, headers=headers)
    assert response.status_code == 401
    answer = without_time(response.get_json())
    assert answer == {"code": 4004003, "msg": "permission denied", "data": {}, "hint": PAYOUT_BAD_SIGNATURE}
    assert row_counts() == before
    [row] = logged(app)
    assert (row.path, row.status) == ("/api/payout/dry-run", 401)
    assert json.loads(row.response_body)["hint"] == PAYOUT_BAD_SIGNATURE
    kept = row.request_body + row.response_body
    assert merchant["app_key"] not in kept and payout_signature(body, merchant["app_key"]) not in kept


def test_a_signature_made_with_the_wrong_key_says_the_same(client, merchant):
    body = builders.dry_run()
    close = merchant["app_key"][:-1] + ("0" if merchant["app_key"][-1] != "0" else "1")
    headers = {"AppId": merchant["app_id"], "Authorization": payout_signature(body, close)}
    answer = client.post("/api/payout/dry-run", json=body, headers=headers).get_json()
    assert (answer["code"], answer["hint"]) == (4004003, PAYOUT_BAD_SIGNATURE)


def test_a_stale_timestamp_says_the_allowed_skew_and_the_servers_time(app, payout_api, frozen, row_counts):
    before = row_counts()
    answer = payout_api.post("/payout/dry-run", builders.dry_run(timestamp=NOW_UNIX - 301), expect=400)
    assert answer == {
        "code": 4001000,
        "msg": "invalid parameter",
        "time": NOW_UNIX,
        "data": {"err": "request has expired"},
        "hint": f"timestamp {NOW_UNIX - 301} is 301 s from the server's time {NOW_UNIX} and at most 300 s are"
        " allowed: send the current unix time in seconds (check your clock)",
    }
    assert row_counts() == before
    [row] = logged(app)
    assert json.loads(row.response_body)["data"] == {"err": "request has expired"}


def test_a_timestamp_ahead_within_the_window_is_accepted(payout_api, frozen):
    assert payout_api.post("/payout/dry-run", builders.dry_run(timestamp=NOW_UNIX + 300), expect=200)["code"] == 200


def test_a_stale_detail_request_keeps_the_providers_code(payout_api, frozen):
    answer = payout_api.post("/payout/detail", {"transaction_id": "P1", "timestamp": NOW_UNIX + 16}, expect=400)
    assert answer == {
        "code": 4001009,
        "msg": "request has expired",
        "time": NOW_UNIX,
        "data": {},
        "hint": f"timestamp {NOW_UNIX + 16} is 16 s from the server's time {NOW_UNIX} and at most 15 s are"
        " allowed: send the current unix time in seconds (check your clock)",
    }


def test_a_malformed_timestamp_names_its_rule(payout_api):
    answer = payout_api.post("/payout/dry-run", builders.dry_run(timestamp="now"), expect=400)
    assert (answer["code"], answer["data"]) == (4001000, {"err": "timestamp: Input should be a valid integer"})
    assert "hint" not in answer


# --- every missing field at once ------------------------------------------------------------------------


def card_payment(api, **overrides) -> dict:
    token = api.post("/card/token", builders.card(), expect=200)["token"]
    extra = {"token": token, "fingerprint": "fp", "issuer": "visa", "user_ip": "127.0.0.1"}
    return builders.direct("CreditCard", **extra, **overrides)


def test_a_card_payments_missing_fields_come_back_together(app, api, row_counts):
    body = card_payment(api)
    del body["customer"]["phone"], body["address"]["city"], body["token"], body["user_ip"]
    before = row_counts()
    answer = api.post("/trade/pay", body, expect=400)
    assert answer == {
        "code": "40001",
        "msg": "Missing Required Arguments",
        "sub_code": "missing-arguments",
        "sub_msg": "missing required arguments: customer.phone, address.city, token, user_ip",
    }
    assert row_counts() == before


def test_missing_and_invalid_fields_together_answer_as_the_first_missing_one(api):
    body = card_payment(api, order_amount="x")
    del body["subject"], body["token"]
    answer = api.post("/trade/pay", body, expect=400)
    assert (answer["code"], answer["sub_code"]) == ("40001", "missing-arguments")
    assert (
        answer["sub_msg"] == "missing required arguments: subject, token; order_amount: must be a plain decimal number"
    )


def test_a_card_payment_that_passes_the_model_still_lists_each_card_field(api):
    body = card_payment(api)
    del body["fingerprint"], body["issuer"]
    answer = api.post("/trade/pay", body, expect=400)
    assert answer["sub_msg"] == "missing required arguments: fingerprint, issuer"


def test_one_missing_field_reads_as_before(api):
    body = card_payment(api)
    del body["subject"]
    assert api.post("/trade/pay", body, expect=400)["sub_msg"] == "missing required argument: subject"


def test_invalid_fields_come_back_together(api):
    answer = api.post("/trade/pay", card_payment(api, order_amount="x", subject=""), expect=400)
    assert (answer["code"], answer["sub_code"]) == ("40002", "invalid-parameter")
    assert (
        answer["sub_msg"]
        == "order_amount: must be a plain decimal number; subject: String should have at least 1 character"
    )


def test_a_payout_lists_its_missing_fields_in_err(payout_api):
    body = builders.dry_run()
    del body["country"], body["method"]
    answer = payout_api.post("/payout/dry-run", body, expect=400)
    assert (answer["code"], answer["msg"]) == (4001000, "invalid parameter")
    assert answer["data"] == {"err": "method: is required; country: is required"}


def test_an_unusable_payout_body_is_logged_under_the_app_id_it_names(app, client, merchant, row_counts):
    before = row_counts()
    headers = {"AppId": merchant["app_id"], "Authorization": "0" * 64, "Content-Type": "application/json"}
    response = client.post("/api/payout/dry-run", data=b"{nope", headers=headers)
    assert response.status_code == 400
    assert row_counts() == before
    [row] = logged(app)
    assert (row.path, row.status, row.request_body) == ("/api/payout/dry-run", 400, "[not JSON: 5 bytes, not kept]")
    assert json.loads(row.response_body)["data"] == {"err": "body: request body is not valid UTF-8 JSON"}


def test_a_card_payment_with_only_invalid_model_fields_answers_those_first(api):
    # The card fields are listed beside the model's missing fields only, so this answers as it always did.
    body = builders.direct("CreditCard", installments=0)
    answer = api.post("/trade/pay", body, expect=400)
    assert (answer["code"], answer["sub_code"]) == ("40002", "invalid-parameter")
    assert answer["sub_msg"] == "installments: Input should be greater than or equal to 1"
