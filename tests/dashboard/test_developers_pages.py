"""Developers area: the notification deliveries list and detail, and the signature helper."""

from __future__ import annotations

import hashlib
import json
import logging
import re

import pytest

from checkout import signing
from checkout.dashboard import developers
from tests import builders


def paid(api, out_trade_no: str) -> str:
    trade_no = api.post("/trade/pay", builders.direct("PIX", out_trade_no), expect=200)["trade_no"]
    api.post(f"/sandbox/trades/{trade_no}/pay", expect=200)
    return trade_no


def notify_ids(api, subject: str) -> list[str]:
    return [d["id"] for d in api.get("/sandbox/deliveries")["deliveries"] if d["subject"] == subject]


def rows(html: str) -> list[str]:
    return re.findall(r'<tr id="delivery-row-([^"]+)"', html)


def test_deliveries_newest_first_with_a_link_to_the_payment(alice, api, other_api):
    first, second = paid(api, "order-1"), paid(api, "order-2")
    theirs = paid(other_api, "order-b")
    [one], [two] = notify_ids(api, first), notify_ids(api, second)
    answer = alice.get("/dashboard/developers/deliveries")
    html = answer.get_data(as_text=True)
    assert answer.status_code == 200
    assert rows(html) == [two, one]
    assert f'href="/dashboard/payments/{second}"' in html and f'href="/dashboard/payments/{first}"' in html
    assert theirs not in html and notify_ids(other_api, theirs)[0] not in html
    row = html[html.index(f'id="delivery-row-{two}"') :].split("</tr>")[0]
    assert "Payment SUCCESS" in row and "payin.callback" in row and builders.NOTIFY in row and ">Pending<" in row
    assert re.search(r'class="num">0</td>', row)
    assert 'aria-current="page">Notification deliveries<' in html


def test_deliveries_filter_by_status_and_page_to_older(alice, api, monkeypatch):
    monkeypatch.setattr(developers, "PAGE", 2)
    ids = [notify_ids(api, paid(api, f"order-{n}"))[0] for n in range(3)]
    first = alice.get("/dashboard/developers/deliveries?status=pending").get_data(as_text=True)
    assert rows(first) == [ids[2], ids[1]]
    older = re.search(r'id="deliveries-older" href="([^"]+)"', first).group(1).replace("&amp;", "&")
    assert "status=pending" in older
    second = alice.get(older).get_data(as_text=True)
    assert rows(second) == [ids[0]] and 'id="deliveries-older"' not in second
    assert rows(alice.get("/dashboard/developers/deliveries?status=delivered").get_data(as_text=True)) == []


def test_deliveries_bad_filters_answer_a_page(alice):
    for query in ("status=lost", "before=abc", "before=" + "9" * 30):
        answer = alice.get(f"/dashboard/developers/deliveries?{query}")
        assert answer.status_code == 400 and answer.mimetype == "text/html"
        assert 'id="bad-filter"' in answer.get_data(as_text=True)


def test_a_delivery_detail_shows_its_attempts_and_send_again(alice, api):
    trade_no = paid(api, "order-1")
    [notify_id] = notify_ids(api, trade_no)
    html = alice.get(f"/dashboard/developers/deliveries/{notify_id}").get_data(as_text=True)
    assert f'id="delivery-{notify_id}"' in html and "Not sent yet." in html
    assert f'action="/dashboard/developers/deliveries/{notify_id}/resend' in html
    assert f'value="/dashboard/developers/deliveries/{notify_id}"' in html  # back here after sending
    assert f'href="/dashboard/payments/{trade_no}"' in html
    assert "&#34;trade_status&#34;: &#34;SUCCESS&#34;" in html  # the body sent


def test_another_merchants_delivery_is_not_found(alice, other_api):
    [theirs] = notify_ids(other_api, paid(other_api, "order-b"))
    assert alice.get(f"/dashboard/developers/deliveries/{theirs}").status_code == 404
    assert alice.get("/dashboard/developers/deliveries/no-such-id").status_code == 404


# --- signature helper ----------------------------------------------------------------------------

BODY = {"amount": "100.00", "custom_code": "po-1", "method": "PIX", "remark": "", "fee": 0, "urgent": False}


def check(alice, body: str, signature: str = ""):
    return alice.submit("/dashboard/developers/signature", {"body": body, "signature": signature})


def test_the_helper_shows_the_canonical_string_but_never_signs_for_the_user(alice, api):
    answer = check(alice, json.dumps(BODY, indent=2))
    html = answer.get_data(as_text=True)
    canonical = "amount=100.00&custom_code=po-1&fee=0&method=PIX&urgent=false"
    assert answer.status_code == 200
    assert re.search(r'id="signature-canonical"[^>]*>([^<]*)<', html).group(1) == canonical.replace("&", "&amp;")
    # The signature itself would let a dashboard session sign any payout without knowing the app_key.
    expected = signing.payout_signature(BODY, api.credentials["app_key"])
    assert expected not in html and 'id="signature-expected"' not in html
    assert api.credentials["app_key"] not in html and api.credentials["security_key"] not in html
    assert f'base64("{api.app_id}:" + security_key)' in html


def test_the_helper_says_when_a_signature_matches(alice, api):
    good = signing.payout_signature(BODY, api.credentials["app_key"])
    html = check(alice, json.dumps(BODY), good.upper()).get_data(as_text=True)
    assert "Your signature matches." in html and "does not match" not in html


@pytest.mark.parametrize(
    ("signed", "reason"),
    [
        (lambda text, key: text + key, "raw"),
        (lambda text, key: "method=PIX&amount=100.00&custom_code=po-1&fee=0&urgent=false" + key, "order"),
        (lambda text, key: "amount=100.00&custom_code=po-1&fee=0&method=PIX&urgent=false", "no_key"),
    ],
)
def test_the_helper_says_why_a_signature_does_not_match(alice, api, signed, reason):
    body = {"method": "PIX", "amount": "100.00", "custom_code": "po-1", "fee": 0, "urgent": False}
    text = json.dumps(body, indent=1)
    signature = hashlib.sha256(signed(text, api.credentials["app_key"]).encode()).hexdigest()
    html = check(alice, text, signature).get_data(as_text=True)
    assert "Your signature does not match." in html
    assert f'id="signature-reason-{reason}"' in html


def test_the_helper_tells_a_signature_made_with_the_security_key(alice, api):
    canonical = signing.payout_canonical(BODY)
    signature = hashlib.sha256((canonical + api.credentials["security_key"]).encode()).hexdigest()
    html = check(alice, json.dumps(BODY), signature).get_data(as_text=True)
    assert 'id="signature-reason-security_key"' in html


def test_invalid_json_answers_the_page_with_an_error(alice):
    for text in ("{not json", "[1, 2]", '{"amount": NaN}'):
        answer = check(alice, text)
        html = answer.get_data(as_text=True)
        assert answer.status_code == 400
        assert "This is not a JSON object." in html and 'aria-describedby="body-error"' in html
        assert 'id="signature-expected"' not in html


@pytest.mark.parametrize("text", ['{"a": "\\ud800"}', '{"a": "x\\u0000y"}'])
def test_text_the_payout_api_refuses_is_refused_by_the_helper(alice, text):
    answer = check(alice, text)
    html = answer.get_data(as_text=True)
    assert answer.status_code == 400
    assert "This body holds a NUL character or an unpaired surrogate escape (such as \\ud800)" in html
    assert 'id="signature-canonical"' not in html


@pytest.mark.parametrize("levels", [33, 400, 900, 5000])
def test_a_body_nested_past_the_limit_is_refused_in_one_log_line_at_most(alice, levels, caplog):
    """400 to 900 levels used to reach the recursive canonical form: a 500 and a traceback of ~2,000 lines."""
    text = '{"a":' + "[" * (levels - 1) + "]" * (levels - 1) + "}"
    answer = check(alice, text)
    html = answer.get_data(as_text=True)
    assert answer.status_code == 400
    assert "This body nests objects or arrays deeper than 32 levels; the payout API refuses it." in html
    assert not [record for record in caplog.records if record.levelno >= logging.WARNING]


def test_a_body_nested_to_the_limit_is_signed(alice):
    text = '{"a":' + "[" * 31 + "]" * 31 + "}"
    html = check(alice, text).get_data(as_text=True)
    assert re.search(r'id="signature-canonical"[^>]*>([^<]*)<', html).group(1) == "a=" + "[" * 31 + "]" * 31


def test_the_helper_needs_the_csrf_token(alice):
    answer = alice.client.post(
        "/dashboard/developers/signature", data={"body": "{}"}, environ_base={"REMOTE_ADDR": alice.address}
    )
    assert answer.status_code == 400 and 'id="signature-expected"' not in answer.get_data(as_text=True)


def test_keys_and_ids_have_copy_buttons_loaded_with_the_pages_nonce(api, alice):
    from tests.dashboard.test_payment_detail import paid

    answer = alice.get("/dashboard/developers?language=pt-BR")
    html = answer.get_data(as_text=True)
    assert (
        '<button type="button" class="copy" data-copy="app-id" data-copied="Copiado" aria-label="Copiar app_id" '
        "hidden>Copiar</button>" in html
    )
    nonce = re.search(r"script-src 'nonce-([^']+)'", answer.headers["Content-Security-Policy"]).group(1)
    assert f'<script nonce="{nonce}" src="/static/js/dashboard.js" defer></script>' in html
    assert alice.get("/static/js/dashboard.js").status_code == 200
    trade_no = paid(api)
    page = alice.get(f"/dashboard/payments/{trade_no}").get_data(as_text=True)
    assert 'data-copy="trade-no" data-copied="Copied" aria-label="Copy trade_no"' in page
    assert 'data-copy="trade-out-trade-no"' in page
