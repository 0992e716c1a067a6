"""The sandbox inbox: the service delivers to its own inbox in-process, keeps what anyone posts there with its
signature checked, bounded, and shows each merchant only its own."""

import base64
import hashlib
import hmac
import json

from checkout import worker
from checkout.db import db
from checkout.notifications import inbox
from checkout.notifications.models import InboxMessage
from tests import builders
from tests.conftest import PUBLIC_URL


def _inbox_url(api) -> str:
    return f"{PUBLIC_URL}/sandbox/inbox/{api.app_id}"


def _kept(app) -> list[InboxMessage]:
    with app.app_context():
        return list(db.session.query(InboxMessage).order_by(InboxMessage.id))


def test_the_worker_delivers_to_its_own_inbox_in_process_signed(app, api, merchant):
    # checkout.test resolves nowhere: only the in-process path reaches this inbox.
    trade_no = api.post(
        "/trade/pay", builders.direct("PIX", out_trade_no="inbox-1", notify_url=_inbox_url(api)), expect=200
    )["trade_no"]
    api.post(f"/sandbox/trades/{trade_no}/pay", expect=200)
    worker.run_once(app)
    [delivery] = api.get("/sandbox/deliveries")["deliveries"]
    assert delivery["status"] == "delivered" and delivery["target"] == _inbox_url(api)
    [attempt] = delivery["attempt_log"]
    assert (attempt["status_code"], attempt["response"], attempt["succeeded"]) == (200, "success", True)
    [kept] = _kept(app)
    assert kept.signature_valid is True and kept.notify_id == delivery["id"]
    assert json.loads(kept.body)["trade_no"] == trade_no and json.loads(kept.body)["trade_status"] == "SUCCESS"
    assert kept.headers["X-Notify-Id"] == delivery["id"] and kept.headers["Pagsmile-Signature"].startswith("t=")


def test_own_inbox_is_recognised_by_the_public_url_only():
    config = {"SANDBOX": True, "PUBLIC_URL": "https://sandbox.example"}
    assert inbox.own_app_id("https://sandbox.example/sandbox/inbox/app_1", config) == "app_1"
    assert inbox.own_app_id("https://other.example/sandbox/inbox/app_1", config) is None
    assert inbox.own_app_id("https://sandbox.example/sandbox/inbox/app_1/x", config) is None
    assert inbox.own_app_id("https://sandbox.example/sandbox/inbox/app_1", {**config, "SANDBOX": False}) is None
    assert inbox.own_app_id("http://127.0.0.1:8000/sandbox/inbox/app_1", {"SANDBOX": True}) is None


def test_a_post_is_kept_with_its_signature_checked_and_answered_success(app, api, merchant, client):
    body = json.dumps({"notify_id": "n-1", "trade_status": "SUCCESS"}).encode()
    digest = hmac.new(merchant["security_key"].encode(), body, hashlib.sha256).hexdigest()
    signed = client.post(f"/sandbox/inbox/{api.app_id}", data=body, headers={"Pagsmile-Signature": f"t=1,v2={digest}"})
    assert signed.status_code == 200 and signed.get_data() == b"success"
    forged = client.post(f"/sandbox/inbox/{api.app_id}", data=body, headers={"Pagsmile-Signature": "t=1,v2=00"})
    assert forged.status_code == 200
    basic = "Basic " + base64.b64encode(b"someone:secret").decode()
    client.post(f"/sandbox/inbox/{api.app_id}", data=body, headers={"Authorization": basic})
    assert [(m.notify_id, m.signature_valid) for m in _kept(app)] == [("n-1", True), ("n-1", False), ("n-1", False)]
    assert "Authorization" not in _kept(app)[2].headers  # a Basic header (a key) is never kept
    unknown = client.post("/sandbox/inbox/no-such-app", data=body)
    assert unknown.status_code == 404 and unknown.get_data() == b"no such inbox"
    assert len(_kept(app)) == 3


def test_a_payout_notification_is_checked_with_the_app_key(app, api, merchant, client):
    from checkout import signing

    payload = {"notify_id": "p-1", "status": "PAID", "amount": 10}
    headers = {"Authorization": signing.payout_signature(payload, merchant["app_key"])}
    client.post(f"/sandbox/inbox/{api.app_id}", data=json.dumps(payload).encode(), headers=headers)
    assert [m.signature_valid for m in _kept(app)] == [True]


def test_the_inbox_keeps_the_newest_only(app, api, client, monkeypatch):
    monkeypatch.setattr(inbox, "KEEP", 3)
    for number in range(5):
        client.post(f"/sandbox/inbox/{api.app_id}", data=json.dumps({"notify_id": f"n-{number}"}).encode())
    assert [m.notify_id for m in _kept(app)] == ["n-2", "n-3", "n-4"]
