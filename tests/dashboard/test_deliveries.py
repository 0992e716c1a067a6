"""Sending a notification again from the dashboard: queued for the worker, the merchant's own only, with its CSRF
token, back home."""

from __future__ import annotations

import pytest

from checkout import worker
from checkout.dashboard.web import back_to
from checkout.notifications import transport as notify_transport
from tests import builders
from tests.notifications import test_resend as resend
from tests.notifications.conftest import Receiver
from tests.notifications.helpers import Transport

from .helpers import add_user


@pytest.fixture
def receiver():
    instance = Receiver()
    yield instance
    instance.close()


def paid_pix(api, receiver, out_trade_no: str) -> tuple[str, str]:
    trade_no = api.post(
        "/trade/pay", builders.direct("PIX", out_trade_no=out_trade_no, notify_url=receiver.url), expect=200
    )["trade_no"]
    api.post(f"/sandbox/trades/{trade_no}/pay", expect=200)
    [delivery] = [d for d in api.get("/sandbox/deliveries")["deliveries"] if d["subject"] == trade_no]
    return trade_no, delivery["id"]


def test_send_again_answers_at_once_and_the_worker_sends_it_once(app, api, make_browser, monkeypatch):
    transport = Transport()  # a receiver that would hang holds only the worker's sending thread
    monkeypatch.setattr(notify_transport, "post", transport)
    add_user(app, api.credentials, "a@shop.example")
    trade_no = resend.paid_pix(api)
    worker.run_once(app)
    [before] = [d for d in api.get("/sandbox/deliveries")["deliveries"] if d["subject"] == trade_no]
    alice = make_browser()
    alice.log_in("a@shop.example")
    for _ in range(2):  # pressed twice before the worker's round: queued once
        answer = alice.submit(
            f"/dashboard/developers/deliveries/{before['id']}/resend",
            {"back": "/dashboard/payments?status=SUCCESS"},
            form_at="/dashboard",
        )
        assert answer.status_code == 302
        assert answer.headers["Location"] == f"/dashboard/payments?status=SUCCESS#delivery-{before['id']}"
    assert len(transport.sent) == 1  # the first delivery only: nothing was sent in the requests
    page = alice.get("/dashboard").get_data(as_text=True)
    assert "Queued: it will be sent again within a few seconds. Reload the page to see the attempt." in page
    assert resend.delivery(api, before["id"])["status"] == "pending"
    worker.run_once(app)
    assert transport.sent == [before["payload"], before["payload"]]
    assert transport.sent[1]["trade_status"] == "SUCCESS" and transport.sent[1]["out_trade_no"] == "order-1"
    after = resend.delivery(api, before["id"])
    assert after["status"] == "delivered"
    assert [(a["number"], a["manual"], a["succeeded"]) for a in after["attempt_log"]] == [
        (1, False, True),
        (2, True, True),
    ]
    worker.run_once(app)
    assert len(transport.sent) == 2


def test_another_merchants_notification_is_not_found_and_not_sent(app, api, other_api, receiver, make_browser):
    add_user(app, api.credentials, "a@shop.example")
    _trade_no, theirs = paid_pix(other_api, receiver, "order-b")
    alice = make_browser()
    alice.log_in("a@shop.example")
    answer = alice.submit(f"/dashboard/developers/deliveries/{theirs}/resend", {}, form_at="/dashboard")
    assert answer.status_code == 404
    assert receiver.requests == []


def test_send_again_needs_the_csrf_token(app, api, receiver, make_browser):
    add_user(app, api.credentials, "a@shop.example")
    _trade_no, notify_id = paid_pix(api, receiver, "order-1")
    alice = make_browser()
    alice.log_in("a@shop.example")
    answer = alice.client.post(
        f"/dashboard/developers/deliveries/{notify_id}/resend", environ_base={"REMOTE_ADDR": alice.address}
    )
    assert answer.status_code == 400
    assert receiver.requests == []


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("/dashboard/payments/T1", "/dashboard/payments/T1"),
        ("/dashboard?x=1", "/dashboard?x=1"),
        ("//evil.example/dashboard", "/dashboard/developers"),
        ("/dashboardevil", "/dashboard/developers"),
        ("https://evil.example/dashboard", "/dashboard/developers"),
        ("/dashboard/\\evil", "/dashboard/developers"),
        ("/dashboard/\r\nSet-Cookie:x", "/dashboard/developers"),
        (None, "/dashboard/developers"),
    ],
)
def test_actions_return_only_inside_the_dashboard(value, expected):
    assert back_to(value, "/dashboard/developers") == expected
