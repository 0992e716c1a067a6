"""Signatures: payout SHA-256 canonicalisation, payin callback HMAC, page tokens, return-URL JWS."""

import hashlib
import hmac
import json
import math
from datetime import UTC, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from joserfc import jws
from joserfc.errors import BadSignatureError

from checkout import clock, jsonbody, signing
from checkout.demo import client as merchant_side
from checkout.notifications import transport
from checkout.notifications.queries import Outgoing
from tests.strategies import PROPERTY, SHARED_FIXTURES, json_objects, json_scalars, shuffled, texts


def test_payout_canonical_drops_empty_sorts_and_renders_values():
    body = {
        "b": 2,
        "a": "x",
        "empty": "",
        "none": None,
        "zero": 0,
        "flag": False,
        "obj": {"z": 1, "y": [1, "two"]},
        "amount": "10.00",
    }
    assert signing.payout_canonical(body) == 'a=x&amount=10.00&b=2&flag=false&obj={"y":[1,"two"],"z":1}&zero=0'


def test_payout_signature_is_sha256_of_canonical_plus_key():
    body = {"custom_code": "c-1", "amount": "10.00", "timestamp": 1763700000}
    expected = hashlib.sha256(b"amount=10.00&custom_code=c-1&timestamp=1763700000" + b"key123").hexdigest()
    assert signing.payout_signature(body, "key123") == expected
    assert signing.verify_payout_signature(body, "key123", expected.upper())
    assert not signing.verify_payout_signature({**body, "amount": "10.01"}, "key123", expected)


def test_callback_signature_is_the_providers_hmac_of_the_raw_body():
    raw = b'{"trade_no":"1"}'
    expected = hmac.new(b"sk", raw, hashlib.sha256).hexdigest()
    assert signing.callback_signature(raw, "sk", 1700000000) == f"t=1700000000,v2={expected}"


def test_callback_signature_matches_the_providers_java_helper():
    # SignHelper.macSha256(content, salt) of the provider's security page: HmacSHA256 keyed with the salt
    # (the security key) over the body's UTF-8 bytes, each byte as two lowercase hex digits.
    raw = '{"amount":"12.01","trade_status":"SUCCESS","user":{"username":"José"}}'.encode()
    key = "sk_test"
    java_style = "".join(
        format((b & 0xFF) + 0x100, "x")[1:] for b in hmac.new(key.encode(), raw, hashlib.sha256).digest()
    )
    assert signing.callback_signature(raw, key, 1645516741) == f"t=1645516741,v2={java_style}"


def test_page_token_expires_on_the_sandbox_clock_and_is_bound_to_its_purpose():
    token = signing.page_token("secret", "vault", {"vault": "vt_1"})
    assert signing.read_page_token("secret", "vault", token, max_age=60) == {"vault": "vt_1"}
    with pytest.raises(signing.PageTokenError) as wrong_purpose:
        signing.read_page_token("secret", "pay", token, max_age=60)
    assert wrong_purpose.value.reason == "invalid"
    with pytest.raises(signing.PageTokenError):
        signing.read_page_token("secret", "vault", token[:-2] + "xx", max_age=60)
    clock.advance(61)
    with pytest.raises(signing.PageTokenError) as expired:
        signing.read_page_token("secret", "vault", token, max_age=60)
    assert expired.value.reason == "expired"


def test_a_page_token_is_verified_once_and_its_age_still_counted_on_each_read(monkeypatch):
    """Its signature is checked on the first read only (a page's assets and polls present it again), but
    every read counts its age anew, a tampered copy is still refused, and no reader changes what the next
    one gets."""
    token = signing.page_token("secret", "vault", {"vault": "vt_cache"})
    checks = []
    real = signing._serializer
    monkeypatch.setattr(signing, "_serializer", lambda *args: checks.append(args) or real(*args))
    first = signing.read_page_token("secret", "vault", token, max_age=60)
    first["vault"] = "changed by a reader"
    assert signing.read_page_token("secret", "vault", token, max_age=60) == {"vault": "vt_cache"}
    assert checks == [("secret", "vault")]
    with pytest.raises(signing.PageTokenError, match="invalid"):
        signing.read_page_token("secret", "vault", token[:-2] + "xx", max_age=60)
    with pytest.raises(signing.PageTokenError, match="invalid"):
        signing.read_page_token("another secret", "vault", token, max_age=60)
    clock.advance(61)
    try:
        with pytest.raises(signing.PageTokenError, match="expired"):
            signing.read_page_token("secret", "vault", token, max_age=60)
    finally:
        clock.reset()
    assert len(checks) == 3  # the two refused were checked; the expired one came from the first check


def test_return_token_is_hs256_jws_with_the_contract_claims():
    token = signing.return_token(
        "merchant-key-0123456789",
        issuer="http://checkout.test",
        app_id="app_1",
        subject="vt_1",
        status="ACTIVE",
        reference={"out_trade_no": "o-1"},
    )
    decoded = jws.deserialize_compact(token, signing.jws_key("merchant-key-0123456789"))
    claims = json.loads(decoded.payload)
    assert decoded.protected["alg"] == "HS256"
    assert {k: claims[k] for k in ("iss", "aud", "sub", "status", "out_trade_no")} == {
        "iss": "http://checkout.test",
        "aud": "app_1",
        "sub": "vt_1",
        "status": "ACTIVE",
        "out_trade_no": "o-1",
    }
    assert claims["exp"] - claims["iat"] == 600 and len(claims["jti"]) == 32
    with pytest.raises(BadSignatureError):
        jws.deserialize_compact(token, signing.jws_key("another-key-0123456789"))


def test_page_tokens_issued_after_the_clock_moved_are_fresh():
    clock.advance(3600)
    token = signing.page_token("secret", "card", {"merchant": 1})
    assert signing.read_page_token("secret", "card", token, max_age=60) == {"merchant": 1}


# --- properties of the payout signature ----------------------------------------------------------------

APP_KEY = "k3y-for-properties"
# Nested JSON bodies are slow to generate; 30 of them per property keep the suite fast.
BODIES = settings(PROPERTY, max_examples=30)


def design_canonical(body: dict) -> str:
    """design.md, written out again: kept top-level keys sorted, `key=value` joined by `&`; strings as they
    are, numbers as their JSON text, booleans true/false, objects and arrays as compact sorted JSON."""

    def text(value) -> str:
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, str):
            return value
        if isinstance(value, (dict, list)):
            return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        return json.dumps(value)

    return "&".join(f"{key}={text(body[key])}" for key in sorted(body) if body[key] is not None and body[key] != "")


def changed(value):
    """Another value of the same JSON type whose JSON text differs."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if isinstance(value, float):
        return math.nextafter(value, 0.0) if value else 1.0  # distinct floats have distinct shortest reprs
    if isinstance(value, str):
        return value + "x"
    if value is None:
        return False
    if isinstance(value, list):
        return [*value, None]
    if not value:
        return {"": None}
    key = sorted(value)[0]
    return {**value, key: changed(value[key])}


def kept_keys(body: dict) -> list[str]:
    return sorted(key for key, value in body.items() if value is not None and value != "")


@BODIES
@given(json_objects())
def test_any_object_signs_by_the_design_rule_and_verifies(body):
    canonical = signing.payout_canonical(body)
    assert canonical == design_canonical(body)
    signature = signing.payout_signature(body, APP_KEY)
    assert signature == hashlib.sha256((canonical + APP_KEY).encode()).hexdigest()
    assert signing.verify_payout_signature(body, APP_KEY, signature)
    assert signing.verify_payout_signature(body, APP_KEY, f" {signature.upper()} ")
    assert not signing.verify_payout_signature(body, APP_KEY + "x", signature)
    assert not signing.verify_payout_signature(body, APP_KEY, signature[:-1] + ("0" if signature[-1] != "0" else "1"))


@BODIES
@given(
    json_objects(),
    st.randoms(use_true_random=False),
    st.dictionaries(texts, st.sampled_from([None, ""]), min_size=1, max_size=3),
)
def test_key_order_and_dropped_values_never_change_the_signature(body, random, empties):
    signature = signing.payout_signature(body, APP_KEY)
    assert signing.payout_signature(shuffled(body, random), APP_KEY) == signature  # at every depth
    # Top-level null and "" are dropped; 0, false, [] and {} are values and are kept.
    extra = {key: value for key, value in empties.items() if key not in body}
    assert signing.payout_signature({**body, **extra}, APP_KEY) == signature
    for kept in (0, False, [], {}):
        fresh = "\x00" * 11  # generated keys carry no NUL, so this one is not in the body
        assert signing.payout_signature({**body, fresh: kept}, APP_KEY) != signature


@BODIES
@given(json_objects(min_size=1), st.data())
def test_changing_any_kept_value_changes_the_signature(body, data):
    keys = kept_keys(body)
    if not keys:
        body = {**body, "amount": "10.00"}
        keys = ["amount"]
    key = data.draw(st.sampled_from(keys), label="changed key")
    signature = signing.payout_signature(body, APP_KEY)
    tampered = {**body, key: changed(body[key])}
    assert signing.payout_canonical(tampered) != signing.payout_canonical(body)
    assert signing.payout_signature(tampered, APP_KEY) != signature
    assert not signing.verify_payout_signature(tampered, APP_KEY, signature)


def read_as_the_service_does(app, raw: bytes) -> dict:
    with app.test_request_context("/api/payout", method="POST", data=raw, content_type="application/json"):
        return jsonbody.read_object()


@BODIES
@given(json_objects(), st.randoms(use_true_random=False), st.booleans(), st.sampled_from([None, 2]))
def test_a_body_signed_by_the_client_verifies_once_the_service_has_read_it(app, body, random, ascii_only, indent):
    """The client signs its own dict and sends json.dumps of it; the service signs what it parsed, with
    numbers as written (1e-07 stays 1e-07), so both sides must reach the same canonical text."""
    raw = json.dumps(shuffled(body, random), ensure_ascii=ascii_only, indent=indent).encode()
    received = read_as_the_service_does(app, raw)
    assert signing.payout_canonical(received) == design_canonical(body)
    client_signature = merchant_side.payout_signature(body, APP_KEY)
    assert signing.verify_payout_signature(received, APP_KEY, client_signature)


@BODIES
@given(json_objects())
def test_payout_notifications_verify_as_the_merchant_receives_them(payload):
    """The dispatcher signs the payload and sends body_of(payload); the merchant parses that body with a
    plain json.loads and signs the result: the two must agree."""
    sent = transport.body_of(payload)
    outgoing = Outgoing(
        id=1,
        merchant_id=1,
        kind="payout.notification",
        target="http://127.0.0.1:9/",
        subject="TS1",
        held_until=datetime.now(UTC),
        body=sent,
        payload=payload,
        app_key=APP_KEY,
        security_key=None,
    )
    authorization = transport.headers_for(outgoing)["Authorization"]
    assert merchant_side.payout_signature(json.loads(sent), APP_KEY) == authorization


# Unpaired surrogates (JSON "\ud800") and NUL characters are valid JSON escapes but no text column or
# UTF-8 signature can take them.
hostile_text = st.text(
    st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF) | st.sampled_from("\x00aé€😀"), max_size=4
)


def unstorable(value) -> bool:
    """Whether a NUL or an unpaired surrogate hides in any key or string of a JSON value."""
    if isinstance(value, str):
        return "\x00" in value or any(0xD800 <= ord(c) <= 0xDFFF for c in value)
    if isinstance(value, dict):
        return any(unstorable(key) or unstorable(item) for key, item in value.items())
    return isinstance(value, list) and any(unstorable(item) for item in value)


@settings(SHARED_FIXTURES, max_examples=30)
@given(json_objects(json_scalars | hostile_text, keys=texts | hostile_text))
def test_any_json_object_is_verified_or_refused_never_a_server_error(client, merchant, body):
    raw = json.dumps(body).encode()
    # What the server reads: a high and a low surrogate drawn side by side travel as one escaped pair,
    # which JSON reads back as one valid character, so the client must sign and judge that text.
    body = json.loads(raw)
    try:
        signature = merchant_side.payout_signature(body, merchant["app_key"])
    except UnicodeEncodeError:
        signature = "0" * 64  # the client cannot sign it either
    response = client.post(
        "/api/payout/status",
        data=raw,
        content_type="application/json",
        headers={"AppId": merchant["app_id"], "Authorization": signature},
    )
    answer = response.get_json()
    assert response.status_code in (200, 400), answer
    if unstorable(body):
        assert answer["code"] == 4001000, answer
        assert answer["data"]["err"].endswith(
            (": must not contain NUL characters", ": must be valid Unicode (no unpaired surrogate escapes)")
        ), answer
    else:
        assert answer["code"] != 4004003, answer  # the signature the client computed was accepted


# --- the payin callback HMAC ---------------------------------------------------------------------------------


@PROPERTY
@given(st.binary(max_size=256), st.text(min_size=1, max_size=40), st.integers(min_value=0, max_value=2**40))
def test_callback_signature_verifies_for_any_body(raw, security_key, timestamp):
    header = signing.callback_signature(raw, security_key, timestamp)
    expected = hmac.new(security_key.encode(), raw, hashlib.sha256).hexdigest()
    assert header == f"t={timestamp},v2={expected}"
    assert merchant_side.callback_is_genuine(header, raw, security_key)
    assert merchant_side.callback_is_genuine(f"t={timestamp}, v2={expected}", raw, security_key)  # the docs' spacing
    assert not merchant_side.callback_is_genuine(header, raw + b" ", security_key)
    assert not merchant_side.callback_is_genuine(header, raw, security_key + "x")
    assert not merchant_side.callback_is_genuine(f"t={timestamp},v1={expected}", raw, security_key)
    if raw:
        flipped = bytes([raw[0] ^ 1]) + raw[1:]
        assert not merchant_side.callback_is_genuine(header, flipped, security_key)
