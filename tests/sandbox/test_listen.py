"""The stream `checkout listen` reads: a merchant's own messages after a cursor, at least once, and the
local answer reported back onto the delivery."""

import base64
import hashlib
import hmac
import json

from checkout.db import db
from checkout.notifications.models import OutboxMessage
from tests import builders
from tests.notifications.helpers import message_of

UNREACHABLE = "http://10.255.255.1/notify"  # a private address: a remote sandbox never sends to it


def paid(api, out_trade_no="order-1", notify_url=UNREACHABLE) -> str:
    trade_no = api.post(
        "/trade/pay", builders.direct("PIX", out_trade_no=out_trade_no, notify_url=notify_url), expect=200
    )["trade_no"]
    api.post(f"/sandbox/trades/{trade_no}/pay", expect=200)
    return trade_no


def poll(api, after=None, wait=0):
    query = f"?wait={wait}" + ("" if after is None else f"&after={after}")
    response = api.client.get("/sandbox/notifications/stream" + query, headers=api.auth)
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def report(api, delivery_id, **result):
    response = api.client.post(f"/sandbox/notifications/stream/{delivery_id}/result", json=result, headers=api.auth)
    return response.status_code, response.get_json()


def test_a_new_listener_starts_after_what_is_stored_and_hears_what_follows(app, api, merchant):
    paid(api, "before")
    start = poll(api)
    assert start["code"] == "10000" and start["messages"] == []
    trade_no = paid(api, "after")
    batch = poll(api, start["cursor"])
    [message] = batch["messages"]
    stored = message_of(app, trade_no)
    assert message["id"] == stored.notify_id and message["kind"] == "payin.callback"
    assert message["target"] == UNREACHABLE and message["subject"] == trade_no
    # The body the worker sends, byte for byte, and its signature verifiable with the security key.
    raw = message["body"].encode("utf-8")
    assert raw == json.dumps(stored.payload, separators=(",", ":"), ensure_ascii=False).encode()
    assert json.loads(raw)["trade_status"] == "SUCCESS" and json.loads(raw)["out_trade_no"] == "after"
    t, v2 = (part.split("=", 1)[1] for part in message["headers"]["Pagsmile-Signature"].split(","))
    expected = hmac.new(merchant["security_key"].encode(), raw, hashlib.sha256).hexdigest()
    assert hmac.compare_digest(v2, expected) and t.isdigit()
    assert message["headers"]["X-Notify-Id"] == stored.notify_id
    assert message["headers"]["Content-Type"] == "application/json; charset=utf-8"
    assert int(batch["cursor"]) == stored.id


def test_a_cursor_not_acknowledged_brings_the_same_messages_again_and_never_after_it(api):
    start = poll(api)["cursor"]
    paid(api, "one")
    first = poll(api, start)
    again = poll(api, start)  # the listener stopped before handling the batch: it resumes from `start`
    assert [m["id"] for m in again["messages"]] == [m["id"] for m in first["messages"]] != []
    assert again["cursor"] == first["cursor"]
    assert poll(api, first["cursor"])["messages"] == []  # handled: never again
    paid(api, "two")
    [later] = poll(api, first["cursor"])["messages"]
    assert json.loads(later["body"])["out_trade_no"] == "two"


def test_one_merchant_never_sees_another_merchants_messages(api, other_api):
    start = poll(other_api)["cursor"]
    paid(api, "mine")
    batch = poll(other_api, start)
    assert batch["messages"] == []
    assert int(batch["cursor"]) >= int(start)  # the cursor still moves past what is not theirs
    assert len(poll(api, start)["messages"]) == 1


def test_bad_credentials_answer_the_payin_error_and_write_nothing(app, api, client, row_counts):
    paid(api)
    [delivery] = api.get("/sandbox/deliveries")["deliveries"]
    before = row_counts()
    wrong = "Basic " + base64.b64encode(f"{api.app_id}:not-the-key".encode()).decode()
    answer = client.get("/sandbox/notifications/stream?wait=0", headers={"Authorization": wrong})
    assert answer.status_code == 400
    assert answer.get_json()["code"] == "40002" and answer.get_json()["sub_code"] == "invalid-signature"
    result = {"status_code": 200, "response": "success"}
    refused = client.post(
        f"/sandbox/notifications/stream/{delivery['id']}/result", json=result, headers={"Authorization": wrong}
    )
    assert refused.status_code == 400 and refused.get_json()["sub_code"] == "invalid-signature"
    none = client.get("/sandbox/notifications/stream?wait=0")
    assert none.status_code == 400 and none.get_json()["sub_code"] == "missing-signature-config"
    assert row_counts() == before
    assert api.get("/sandbox/deliveries")["deliveries"][0]["status"] == "pending"


def test_a_forward_acknowledged_marks_the_delivery_delivered_and_shows_on_it(app, api):
    trade_no = paid(api)
    delivery_id = message_of(app, trade_no).notify_id
    status, body = report(api, delivery_id, status_code=200, response="success", duration_ms=12)
    assert status == 200 and body["status"] == "delivered" and body["attempts"] == 1
    [attempt] = body["attempt_log"]
    assert attempt["via"] == "listen" and attempt["succeeded"] is True and attempt["manual"] is True
    assert attempt["status_code"] == 200 and attempt["response"] == "success" and attempt["duration_ms"] == 12
    assert api.get("/sandbox/deliveries")["deliveries"][0]["status"] == "delivered"


def test_a_forward_refused_locally_is_recorded_and_leaves_the_schedule_alone(app, api):
    trade_no = paid(api)
    before = message_of(app, trade_no)
    status, body = report(api, before.notify_id, status_code=500, response="boom", duration_ms=3)
    assert status == 200 and body["status"] == "pending" and body["attempts"] == 1
    assert body["last_error"] is None  # the service's own attempts keep their last error
    [attempt] = body["attempt_log"]
    assert attempt["succeeded"] is False and attempt["error"] == "answered 500 without the body 'success'"
    _, body = report(api, before.notify_id, error="ConnectionError: connection refused")
    assert body["attempt_log"][1]["error"] == "ConnectionError: connection refused"
    after = message_of(app, trade_no)
    assert after.next_attempt_at == before.next_attempt_at and after.first_dispatch_at is None


def test_a_result_for_another_merchants_delivery_is_not_found(app, api, other_api):
    trade_no = paid(api)
    status, body = report(other_api, message_of(app, trade_no).notify_id, status_code=200, response="success")
    assert status == 400 and body["sub_code"] == "delivery-not-exist"
    assert message_of(app, trade_no).status == "pending"


def test_stream_parameters_are_checked(api):
    response = api.client.get("/sandbox/notifications/stream?after=abc&wait=0", headers=api.auth)
    assert response.status_code == 400
    assert response.get_json()["sub_code"] == "invalid-parameter"
    assert response.get_json()["sub_msg"].startswith("after")
    too_long = api.client.get("/sandbox/notifications/stream?wait=26", headers=api.auth).get_json()
    assert (too_long["sub_code"], too_long["sub_msg"]) == ("invalid-parameter", "wait: must be at most 25")


def test_an_empty_poll_waits_and_answers_with_the_cursor(app, api, monkeypatch):
    from checkout.sandbox import listen

    monkeypatch.setattr(listen, "POLL_EVERY", 0.05)
    start = poll(api)["cursor"]
    batch = poll(api, start, wait=1)
    assert batch["messages"] == [] and batch["cursor"] == start
    with app.app_context():
        assert db.session.query(OutboxMessage).count() == 0
