"""Bad input and credentials on the payin gateway: the envelope, 4xx, and nothing written."""

import base64

import pytest

from checkout.payins import queries
from tests import builders

NO_HEADER = "missing Authorization header: send HTTP Basic auth with your app_id and security_key"
NOT_BASIC = "Authorization header is not HTTP Basic: send 'Basic ' and the base64 of app_id:security_key"
UNKNOWN_APP = (
    "invalid signature: unknown app_id; send the app_id shown in the dashboard under Developers (sandbox and"
    " production credentials differ)"
)
WRONG_KEY = (
    "invalid signature: wrong security_key for this app_id; send the security_key shown with it in the dashboard"
    " under Developers (a rotated key replaces the old one)"
)


def refusal(sub_code: str, sub_msg: str) -> dict:
    return {"code": "40002", "msg": "Business Failed", "sub_code": sub_code, "sub_msg": sub_msg}


def test_no_credentials(client, merchant, row_counts):
    before = row_counts()
    response = client.post("/card/token", json={"app_id": merchant["app_id"], **builders.card()})
    assert response.status_code == 400
    assert response.get_json() == refusal("missing-signature-config", NO_HEADER)
    assert row_counts() == before


def basic(text: str) -> str:
    return "Basic " + base64.b64encode(text.encode()).decode()


@pytest.mark.parametrize(
    "header, sub_code, sub_msg",
    [
        ("   ", "missing-signature-config", NO_HEADER),
        ("Bearer abc", "missing-signature-config", NOT_BASIC),
        ("Basic", "missing-signature-config", NOT_BASIC),
        ("Basic !!!", "missing-signature-config", NOT_BASIC),
        (basic("no-colon"), "missing-signature-config", NOT_BASIC),
        ("Basic éé", "missing-signature-config", NOT_BASIC),
        (basic("app_unknown:sk_x"), "invalid-signature", UNKNOWN_APP),
        (basic(":sk_x"), "invalid-signature", UNKNOWN_APP),
        (basic("a" * 33 + ":sk_x"), "invalid-signature", UNKNOWN_APP),
    ],
)
def test_bad_authorization_headers(client, merchant, row_counts, header, sub_code, sub_msg):
    before = row_counts()
    response = client.post("/trade/query", json={}, headers={"Authorization": header})
    assert response.status_code == 400
    assert response.get_json() == refusal(sub_code, sub_msg)
    assert row_counts() == before


@pytest.mark.parametrize("key", ["sk_wrong", "", lambda key: key[:-1], lambda key: key + "0"])
def test_wrong_security_key(client, merchant, row_counts, key):
    # However close the key, the answer is the same and never repeats what was sent.
    key = key(merchant["security_key"]) if callable(key) else key
    before = row_counts()
    response = client.post("/trade/query", json={}, headers={"Authorization": basic(f"{merchant['app_id']}:{key}")})
    assert response.status_code == 400
    assert response.get_json() == refusal("invalid-signature", WRONG_KEY)
    assert row_counts() == before


def test_app_id_in_body_must_match_credentials(api, other_api, row_counts):
    before = row_counts()
    body = api.post("/card/token", {**builders.card(), "app_id": other_api.app_id}, expect=400)
    assert body == refusal(
        "app-not-match",
        "the body's app_id differs from the Authorization header's: send the same app_id in both",
    )
    assert row_counts() == before


@pytest.mark.parametrize(
    "data, sub_code, sub_msg",
    [
        (b"", "missing-arguments", "request body is empty; a JSON object is required"),
        (b"{not json", "invalid-json", "request body is not valid UTF-8 JSON"),
        (b"[1, 2]", "invalid-json", "request body must be a JSON object"),
        (b'"text"', "invalid-json", "request body must be a JSON object"),
        (b'{"order_amount": NaN}', "invalid-json", "request body is not valid UTF-8 JSON"),
        (b"\xff\xfe", "invalid-json", "request body is not valid UTF-8 JSON"),
    ],
)
def test_malformed_bodies(api, row_counts, data, sub_code, sub_msg):
    before = row_counts()
    response = api.client.post("/trade/pay", data=data, headers={**api.auth, "Content-Type": "application/json"})
    assert response.status_code == 400
    assert response.is_json
    assert (response.get_json()["sub_code"], response.get_json()["sub_msg"]) == (sub_code, sub_msg)
    assert row_counts() == before


def test_body_over_one_mebibyte_is_413_in_the_envelope(api):
    data = b'{"subject": "' + b"x" * (1024 * 1024) + b'"}'
    response = api.client.post("/trade/pay", data=data, headers={**api.auth, "Content-Type": "application/json"})
    assert response.status_code == 413
    assert response.get_json() == {
        "code": "40002",
        "msg": "Business Failed",
        "sub_code": "request-too-large",
        "sub_msg": "request body exceeds 1 MiB",
    }


@pytest.mark.parametrize(
    "timestamp, rule",
    [
        ("2026-11-21T10:00:00", "timestamp: must be yyyy-MM-dd HH:mm:ss"),
        ("2026-13-21 10:00:00", "timestamp: must be yyyy-MM-dd HH:mm:ss"),
        ("2026-11-21 10:00", "timestamp: must be yyyy-MM-dd HH:mm:ss (19 characters)"),
    ],
)
def test_bad_timestamps(api, timestamp, rule):
    body = api.post("/card/token", {**builders.card(), "timestamp": timestamp}, expect=400)
    assert (body["sub_code"], body["sub_msg"]) == ("invalid-parameter", rule)


def test_app_id_over_32_characters(api):
    body = api.post("/card/token", {**builders.card(), "app_id": "a" * 33}, expect=400)
    assert body["sub_msg"] == "app_id: String should have at most 32 characters"


def test_wrong_type(api):
    body = api.post("/card/token", builders.card(card={"card_no": 4111111111111111}), expect=400)
    assert body["sub_msg"] == "card.card_no: Input should be a valid string"


def test_unknown_path_and_wrong_verb_answer_the_envelope(client):
    missing = client.post("/trade/nothing")
    assert missing.status_code == 404 and missing.get_json()["sub_code"] == "not-found"
    verb = client.get("/trade/pay")
    assert verb.status_code == 405 and verb.get_json()["sub_code"] == "method-not-allowed"


@pytest.mark.parametrize("path", ["/trade/pay", "/api/payout", "/sandbox/clock"])
def test_wrong_verb_names_the_allowed_methods(client, path):
    # RFC 9110: a 405 carries Allow; schemathesis' unsupported_method check found it missing.
    response = client.open(path, method="TRACE")
    assert response.status_code == 405 and response.is_json
    assert "POST" in {method.strip() for method in response.headers["Allow"].split(",")}


def test_unexpected_failure_answers_the_envelope(app, api, monkeypatch):

    def explode(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(queries, "read", explode)
    app.config["PROPAGATE_EXCEPTIONS"] = False
    try:
        response = api.client.post(
            "/trade/query",
            json={"app_id": api.app_id, "timestamp": builders.TIMESTAMP, "trade_no": "1"},
            headers=api.auth,
        )
    finally:
        app.config["PROPAGATE_EXCEPTIONS"] = None
    assert response.status_code == 500
    assert response.get_json() == {
        "code": "20000",
        "msg": "Service Currently Unavailable",
        "sub_code": "system-error",
        "sub_msg": "system error",
    }


def test_nul_characters_are_refused_before_reaching_the_database(api, row_counts):
    before = row_counts()
    body = api.post("/trade/pay", builders.direct("PIX", out_trade_no="a\x00b"), expect=400)
    assert (body["sub_code"], body["sub_msg"]) == ("invalid-parameter", "out_trade_no: must not contain NUL characters")
    nested = api.post("/trade/pay", builders.direct("PIX", customer={"name": "A\x00"}), expect=400)
    assert nested["sub_msg"] == "customer.name: must not contain NUL characters"
    path = api.post("/sandbox/trades/a%00b/pay", expect=400)
    assert path["sub_msg"] == "path: must not contain NUL characters"
    raw = base64.b64encode(b"app\x00x:key").decode()
    header = api.client.post("/trade/query", json={}, headers={"Authorization": f"Basic {raw}"})
    assert header.get_json()["sub_code"] == "invalid-signature"
    assert row_counts() == before


def test_deeply_nested_json_is_refused(api):
    data = b'{"a":' + b"[" * 100000 + b"]" * 100000 + b"}"
    response = api.client.post("/trade/pay", data=data, headers={**api.auth, "Content-Type": "application/json"})
    assert response.status_code == 400 and response.get_json()["sub_code"] == "invalid-json"


def test_merchants_cannot_touch_each_others_trades_and_vaults(api, other_api):
    trade_no = api.post("/trade/pay", builders.direct("PIX"), expect=200)["trade_no"]
    assert other_api.post(f"/sandbox/trades/{trade_no}/pay", expect=400)["sub_code"] == "trade-not-exist"
    token = api.post("/card/token", builders.card(), expect=200)["token"]
    vault = api.post("/vault/create", builders.card_vault(token), expect=200)["token"]
    assert other_api.post(f"/sandbox/vaults/{vault}/approve", expect=400)["sub_code"] == "vault-not-exist"
    assert api.post("/trade/query", {"trade_no": trade_no}, expect=200)["trade_status"] == "PROCESSING"


def test_non_ascii_basic_credentials(client, merchant):
    response = client.post("/trade/query", json={}, headers={"Authorization": "Basic éé"})
    assert response.status_code == 400 and response.get_json()["sub_code"] == "missing-signature-config"
