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


@pytest.mark.parametrize(
    ("language", "event", "failing", "next_at"),
    [
        ("en", "Payment SUCCESS", "Failing", "Next attempt at {} UTC."),
        ("pt-BR", "Pagamento SUCCESS", "Falhando", "Próxima tentativa em {} UTC."),
    ],
)
def test_a_failing_receiver_is_failing_after_its_first_attempt_with_the_next_time(
    app, api, make_browser, monkeypatch, language, event, failing, next_at
):
    from checkout import clock
    from checkout.notifications.result import Result

    transport = Transport()
    transport.script = [Result(succeeded=False, status_code=500, response="oops", duration_ms=4)]
    monkeypatch.setattr(notify_transport, "post", transport)
    add_user(app, api.credentials, "a@shop.example")
    trade_no = resend.paid_pix(api)
    alice = make_browser()
    alice.log_in("a@shop.example")
    [notify_id] = [d["id"] for d in api.get("/sandbox/deliveries")["deliveries"] if d["subject"] == trade_no]
    html = alice.get(f"/dashboard/payments/{trade_no}?language={language}").get_data(as_text=True)
    pending = {"en": "Pending", "pt-BR": "Pendente"}[language]
    assert f'<span class="event">{event}</span> <span class="status status-pending">{pending}</span>' in html
    worker.run_once(app)
    message = resend.stored(app, notify_id)
    assert message.status == "pending" and message.attempts == 1
    when = clock.as_utc(message.next_attempt_at).strftime("%Y-%m-%d %H:%M:%S")
    html = alice.get(f"/dashboard/payments/{trade_no}?language={language}").get_data(as_text=True)
    assert f'<span class="event">{event}</span> <span class="status status-failing">{failing}</span>' in html
    assert f'<p class="next-attempt">{next_at.format(when)}</p>' in html
    listing = alice.get(f"/dashboard/developers/deliveries?language={language}").get_data(as_text=True)
    assert f'status-failing">{failing}</span>' in listing and next_at.format(when) in listing


def test_a_test_notification_goes_through_the_outbox_signed_and_listed(app, api, make_browser, receiver):
    from checkout import signing

    add_user(app, api.credentials, "a@shop.example")
    alice = make_browser()
    alice.log_in("a@shop.example")
    page = alice.get("/dashboard/developers/deliveries?language=pt-BR").get_data(as_text=True)
    assert 'id="test-notification-submit">Enviar uma notificação de teste</button>' in page
    answer = alice.submit(
        "/dashboard/developers/deliveries/test",
        {"notify_url": receiver.url},
        form_at="/dashboard/developers/deliveries",
    )
    assert answer.status_code == 302
    notify_id = answer.headers["Location"].rsplit("/", 1)[1]
    assert receiver.requests == []  # queued, never sent in the request
    listing = alice.get("/dashboard/developers/deliveries").get_data(as_text=True)
    row = listing[listing.index(f'id="delivery-row-{notify_id}"') :].split("</tr>")[0]
    assert "Test notification" in row and receiver.url in row and ">Pending<" in row
    worker.run_once(app)
    [sent] = receiver.requests
    body = sent["json"]
    assert (body["test"], body["trade_status"], body["amount"], body["currency"], body["notify_id"]) == (
        True,
        "SUCCESS",
        "10.00",
        "BRL",
        notify_id,
    )
    assert body["trade_no"].startswith("test_")
    timestamp = int(sent["headers"]["Pagsmile-Signature"].split(",")[0][2:])
    expected = signing.callback_signature(sent["raw"], api.credentials["security_key"], timestamp)
    assert sent["headers"]["Pagsmile-Signature"] == expected
    detail = alice.get(f"/dashboard/developers/deliveries/{notify_id}").get_data(as_text=True)
    assert 'id="delivery-event">Test notification<' in detail and 'status-delivered">Delivered<' in detail


@pytest.mark.parametrize(("url", "message"), [("", "This field is required."), ("ftp://x", "Enter an http")])
def test_a_test_notification_needs_a_web_address_and_writes_nothing(app, api, make_browser, row_counts, url, message):
    add_user(app, api.credentials, "a@shop.example")
    alice = make_browser()
    alice.log_in("a@shop.example")
    before = row_counts()
    answer = alice.submit(
        "/dashboard/developers/deliveries/test", {"notify_url": url}, form_at="/dashboard/developers/deliveries"
    )
    assert answer.status_code == 400 and message in answer.get_data(as_text=True)
    assert {k: v for k, v in row_counts().items() if k != "request_log"} == {
        k: v for k, v in before.items() if k != "request_log"
    }
