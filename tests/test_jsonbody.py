"""Request bodies: text no column or signature can hold is refused in each API's own envelope."""

import pytest

from checkout import jsonbody
from tests import builders


def test_an_unpaired_surrogate_is_an_invalid_parameter_not_a_server_error(client, merchant, api, row_counts):
    before = row_counts()
    # A lone "\ud800" is a valid JSON escape, but not Unicode text: the payout signature cannot even be
    # computed over it (UTF-8), so it used to answer 500 before the signature was checked.
    payout = client.post(
        "/api/payout/status",
        data=b'{"payout_id": "TS1", "name": "\\ud800"}',
        content_type="application/json",
        headers={"AppId": merchant["app_id"], "Authorization": "x"},
    )
    assert (payout.status_code, payout.get_json()["code"], payout.get_json()["data"]) == (
        400,
        4001000,
        {"err": "name: must be valid Unicode (no unpaired surrogate escapes)"},
    )
    raw = builders.direct("PIX", customer={"name": "\ud800"})
    payin = api.post("/trade/pay", raw, expect=400)
    assert (payin["sub_code"], payin["sub_msg"]) == (
        "invalid-parameter",
        "customer.name: must be valid Unicode (no unpaired surrogate escapes)",
    )
    assert row_counts() == before
    # Escaped as a pair, the two halves are one character (U+1F600) and stay welcome.
    paired = api.post("/trade/pay", builders.direct("PIX", subject="\ud83d\ude00"), expect=200)
    assert paired["code"] == "10000"


def test_deep_nesting_is_refused_before_any_work_in_each_envelope(client, merchant, api, row_counts):
    """400 levels used to exhaust the stack in the signature check (HTTP 500 and a traceback per request)."""
    before = row_counts()
    deep = '{"payout_id": "TS1", "extra": ' + "[" * 400 + "]" * 400 + "}"
    payout = client.post(
        "/api/payout/status",
        data=deep.encode(),
        content_type="application/json",
        headers={"AppId": merchant["app_id"], "Authorization": "x"},
    )
    assert (payout.status_code, payout.get_json()["code"], payout.get_json()["data"]) == (
        400,
        4001000,
        {"err": "body: request body nests deeper than 32 levels"},
    )
    body = builders.direct("PIX")
    nested: list = []
    for _ in range(40):
        nested = [nested]
    payin = api.post("/trade/pay", {**body, "content": nested}, expect=400)
    assert (payin["code"], payin["sub_code"], payin["sub_msg"]) == (
        "40002",
        "invalid-json",
        "request body nests deeper than 32 levels",
    )
    assert row_counts() == before
    # 32 levels are still read (and then judged field by field).
    shallow: list = []
    for _ in range(30):
        shallow = [shallow]
    answer = api.post("/trade/pay", {**body, "content": shallow}, expect=400)
    assert answer["sub_msg"].startswith("content: ")


def test_nesting_past_the_parser_own_bound_is_too_deep_not_invalid(api):
    """Thousands of levels stop the parser itself (RecursionError): the answer still names the depth."""
    raw = f'{{"app_id": "{api.app_id}", "content": ' + "[" * 5000 + "]" * 5000 + "}"
    response = api.client.post("/trade/pay", data=raw, content_type="application/json", headers=api.auth)
    answer = response.get_json()
    assert response.status_code == 400
    assert (answer["sub_code"], answer["sub_msg"]) == ("invalid-json", "request body nests deeper than 32 levels")


@pytest.mark.parametrize(
    ("raw", "kind"),
    [
        (b"", "empty"),
        (b"  \n", "empty"),
        (b"{", "invalid-json"),
        (b'{"a": NaN}', "invalid-json"),
        (b"[]", "invalid-json"),
        (b'{"a": "\\u0000"}', "nul"),
        (b'{"\\ud800": 1}', "surrogate"),
        (b'{"a":' + b"[" * 32 + b"]" * 32 + b"}", "too-deep"),
        (b'{"a":' + b"[" * 2000 + b"]" * 2000 + b"}", "too-deep"),
        (b'{"a": "' + b"x" * (1024 * 1024) + b'"}', "too-large"),
    ],
)
def test_parse_object_names_the_fault(raw, kind):
    with pytest.raises(jsonbody.BodyError) as refused:
        jsonbody.parse_object(raw)
    assert refused.value.kind == kind


def test_parse_object_keeps_numbers_as_written():
    body = jsonbody.parse_object('{"a": 1.10, "b": 2, "c": [' + "[" * 30 + "]" * 30 + "]}")
    assert (type(body["a"]), body["a"].text, body["b"]) == (jsonbody.JsonNumber, "1.10", 2)
