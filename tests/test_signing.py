import hashlib
import hmac
import json

import pytest
from joserfc import jws
from joserfc.errors import BadSignatureError

from checkout import clock, signing


def test_payout_canonical_drops_empty_sorts_and_renders_values():
    body = {"b": 2, "a": "x", "empty": "", "none": None, "zero": 0, "flag": False,
            "obj": {"z": 1, "y": [1, "two"]}, "amount": "10.00"}
    assert signing.payout_canonical(body) == 'a=x&amount=10.00&b=2&flag=false&obj={"y":[1,"two"],"z":1}&zero=0'


def test_payout_signature_is_sha256_of_canonical_plus_key():
    body = {"custom_code": "c-1", "amount": "10.00", "timestamp": 1763700000}
    expected = hashlib.sha256(b"amount=10.00&custom_code=c-1&timestamp=1763700000" + b"key123").hexdigest()
    assert signing.payout_signature(body, "key123") == expected
    assert signing.verify_payout_signature(body, "key123", expected.upper())
    assert not signing.verify_payout_signature({**body, "amount": "10.01"}, "key123", expected)


def test_callback_signature_is_hmac_of_timestamp_dot_body():
    raw = b'{"trade_no":"1"}'
    expected = hmac.new(b"sk", b"1700000000." + raw, hashlib.sha256).hexdigest()
    assert signing.callback_signature(raw, "sk", 1700000000) == f"t=1700000000,v1={expected}"


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


def test_return_token_is_hs256_jws_with_the_contract_claims():
    token = signing.return_token("merchant-key-0123456789", issuer="http://checkout.test", app_id="app_1",
                                 subject="vt_1", status="ACTIVE", reference={"out_trade_no": "o-1"})
    decoded = jws.deserialize_compact(token, signing.jws_key("merchant-key-0123456789"))
    claims = json.loads(decoded.payload)
    assert decoded.protected["alg"] == "HS256"
    assert {k: claims[k] for k in ("iss", "aud", "sub", "status", "out_trade_no")} == {
        "iss": "http://checkout.test", "aud": "app_1", "sub": "vt_1", "status": "ACTIVE", "out_trade_no": "o-1"}
    assert claims["exp"] - claims["iat"] == 600 and len(claims["jti"]) == 32
    with pytest.raises(BadSignatureError):
        jws.deserialize_compact(token, signing.jws_key("another-key-0123456789"))


def test_page_tokens_issued_after_the_clock_moved_are_fresh():
    clock.advance(3600)
    token = signing.page_token("secret", "card", {"merchant": 1})
    assert signing.read_page_token("secret", "card", token, max_age=60) == {"merchant": 1}
