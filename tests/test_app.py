"""The application factory: what every request shares."""

import pytest
from flask import session

from tests import builders


def test_no_request_opens_or_sets_a_cookie_session(app, client, api):
    created = api.post("/trade/pay", builders.direct("PIX"), expect=200)
    answer = client.post(
        "/trade/query",
        json={"app_id": api.app_id, "timestamp": builders.TIMESTAMP, "trade_no": created["trade_no"]},
        headers=api.auth,
    )
    assert answer.status_code == 200 and "Set-Cookie" not in answer.headers
    with app.test_request_context("/demo"):
        app.preprocess_request()
        with pytest.raises(RuntimeError):  # a NullSession: nothing can be kept in one by mistake
            session["checkout_url"] = "https://example.com"
