"""Request bodies: text no column or signature can hold is refused in each API's own envelope."""

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
