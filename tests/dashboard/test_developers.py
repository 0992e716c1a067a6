"""Developers area: keys behind the password, rotation effective at once, the login limit, CSRF."""

from __future__ import annotations

import re
import threading

import pytest
from sqlalchemy import select

from checkout.dashboard import developers as dev
from checkout.db import db, heard_on
from checkout.merchants import service
from checkout.merchants.models import Merchant
from tests import builders
from tests.conftest import Api, PayoutApi
from tests.db.helpers import heard

from .helpers import PASSWORD, add_user, csrf, failures

WRONG = "not my password at all"


def stored_keys(app, app_id: str) -> tuple[str, str]:
    with app.app_context():
        merchant = db.session.scalar(select(Merchant).where(Merchant.app_id == app_id))
        return merchant.security_key, merchant.app_key


def code(html: str, element_id: str) -> str | None:
    found = re.search(rf'id="{element_id}">([^<]*)<', html)
    return found.group(1) if found else None


def test_the_keys_page_shows_the_app_id_and_hides_the_keys(alice, api):
    html = alice.get("/dashboard/developers").get_data(as_text=True)
    assert code(html, "app-id") == api.app_id
    assert api.credentials["security_key"] not in html and api.credentials["app_key"] not in html
    assert 'id="reveal-form"' in html and 'id="rotate-form"' in html
    assert 'aria-current="page">Developers<' in html


def test_the_password_again_shows_the_keys_in_that_answer_only(alice, api):
    answer = alice.submit("/dashboard/developers/keys/reveal", {"password": PASSWORD}, form_at="/dashboard/developers")
    html = answer.get_data(as_text=True)
    assert answer.status_code == 200
    assert code(html, "security-key") == api.credentials["security_key"]
    assert code(html, "app-key") == api.credentials["app_key"]
    assert code(html, "basic-header") == "Authorization: " + api.auth["Authorization"]
    assert "Cache-Control" in answer.headers and "no-store" in answer.headers["Cache-Control"]
    # Never kept: the next page, and the session cookie, know nothing of them.
    again = alice.get("/dashboard/developers").get_data(as_text=True)
    assert api.credentials["security_key"] not in again and api.credentials["app_key"] not in again
    cookie = alice.client.get_cookie("checkout_dashboard", path="/dashboard")
    assert api.credentials["security_key"] not in cookie.value and api.credentials["app_key"] not in cookie.value


def test_a_wrong_password_shows_an_error_and_counts_as_a_failed_login(alice, api):
    answer = alice.submit("/dashboard/developers/keys/reveal", {"password": WRONG}, form_at="/dashboard/developers")
    html = answer.get_data(as_text=True)
    assert answer.status_code == 400
    assert "This is not your password." in html and 'aria-describedby="password-error"' in html
    assert api.credentials["security_key"] not in html and api.credentials["app_key"] not in html
    assert failures(alice.client.application) == 1


def test_five_wrong_passwords_lock_it_like_the_login_page(alice, app, api, make_browser):
    for _ in range(5):
        assert (
            alice.submit(
                "/dashboard/developers/keys/reveal", {"password": WRONG}, form_at="/dashboard/developers"
            ).status_code
            == 400
        )
    locked = alice.submit("/dashboard/developers/keys/reveal", {"password": PASSWORD}, form_at="/dashboard/developers")
    assert locked.status_code == 429
    html = locked.get_data(as_text=True)
    assert "Too many attempts" in html and api.credentials["security_key"] not in html
    rotate = alice.submit(
        "/dashboard/developers/keys/rotate",
        {"rotate_password": PASSWORD, "confirm": "y"},
        form_at="/dashboard/developers",
    )
    assert rotate.status_code == 429
    assert stored_keys(app, api.app_id) == (api.credentials["security_key"], api.credentials["app_key"])
    # The same limit as the login page: this account cannot log in from another address either.
    elsewhere = make_browser("203.0.113.9")
    assert elsewhere.log_in("a@shop.example").status_code == 429


def test_revealing_needs_the_csrf_token(alice, api):
    answer = alice.client.post(
        "/dashboard/developers/keys/reveal",
        data={"password": PASSWORD},
        environ_base={"REMOTE_ADDR": alice.address},
    )
    html = answer.get_data(as_text=True)
    assert answer.status_code == 400 and "This form expired" in html
    assert api.credentials["security_key"] not in html and api.credentials["app_key"] not in html


def shown_keys_version(alice) -> str:
    page = alice.get("/dashboard/developers").get_data(as_text=True)
    return re.search(r'name="keys" value="([0-9a-f]{16})"', page).group(1)


def rotate(alice, **data):
    return alice.submit(
        "/dashboard/developers/keys/rotate",
        {"rotate_password": PASSWORD, "confirm": "y", "keys": shown_keys_version(alice), **data},
        form_at="/dashboard/developers",
    )


def test_the_same_rotation_form_sent_twice_rotates_once(alice, app, api):
    form = {"rotate_password": PASSWORD, "confirm": "y", "keys": shown_keys_version(alice)}
    first = alice.submit("/dashboard/developers/keys/rotate", form, form_at="/dashboard/developers")
    assert first.status_code == 200
    after_first = stored_keys(app, api.app_id)
    assert after_first != (api.credentials["security_key"], api.credentials["app_key"])
    again = alice.submit("/dashboard/developers/keys/rotate", form, form_at="/dashboard/developers")  # a reload
    assert again.status_code == 409 and 'id="already-rotated"' in again.get_data(as_text=True)
    assert stored_keys(app, api.app_id) == after_first
    assert after_first[0] not in again.get_data(as_text=True)


def test_two_rotations_sent_at_once_rotate_once(app, api, make_browser, database_url, monkeypatch):
    """Both were shown the same keys and both pass the form's check before either has written: the
    rotation itself swaps the keys only if they are still those, so the second answers 409."""
    if not database_url.startswith("postgresql"):
        pytest.skip("SQLite runs one write transaction at a time: the two cannot overlap (see the next test)")
    add_user(app, api.credentials, "a@shop.example")
    browsers = [make_browser(f"198.51.100.{n}") for n in (7, 8)]
    forms = []
    for browser in browsers:
        assert browser.log_in("a@shop.example").status_code == 302
        page = browser.get("/dashboard/developers").get_data(as_text=True)
        version = re.search(r'name="keys" value="([0-9a-f]{16})"', page).group(1)
        forms.append({"csrf_token": csrf(page), "rotate_password": PASSWORD, "confirm": "y", "keys": version})
    barrier = threading.Barrier(2)
    real_rotate = dev.rotate

    def rotate_together(*args, **kwargs):
        barrier.wait(timeout=30)  # both have read the keys and passed the form's check
        return real_rotate(*args, **kwargs)

    monkeypatch.setattr(dev, "rotate", rotate_together)
    answers: list = [None, None]

    def send(n: int) -> None:
        answers[n] = browsers[n].client.post(
            "/dashboard/developers/keys/rotate", data=forms[n], environ_base={"REMOTE_ADDR": browsers[n].address}
        )

    threads = [threading.Thread(target=send, args=(n,)) for n in (0, 1)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert sorted(a.status_code for a in answers) == [200, 409]
    shown = next(a for a in answers if a.status_code == 200).get_data(as_text=True)
    assert stored_keys(app, api.app_id) == (code(shown, "security-key"), code(shown, "app-key"))
    assert 'id="already-rotated"' in next(a for a in answers if a.status_code == 409).get_data(as_text=True)


def test_a_rotation_from_keys_already_replaced_changes_nothing(app, api):
    """The swap at the SQL level: the keys are replaced only where they are still the ones the form saw."""
    with app.app_context():
        merchant = db.session.scalar(select(Merchant).where(Merchant.app_id == api.app_id))
        merchant_id, seen = merchant.id, (merchant.security_key, merchant.app_key)
        first = dev.rotate(db.session, merchant_id, seen)
        db.session.commit()
        with pytest.raises(dev.AlreadyRotated):
            dev.rotate(db.session, merchant_id, seen)
        db.session.rollback()
    assert stored_keys(app, api.app_id) == (first["security_key"], first["app_key"])


def test_rotation_refuses_the_old_keys_at_once_and_takes_the_new(alice, app, client, api, fund):
    fund(api.credentials, "USD", "1000.00")
    trade_no = api.post("/trade/pay", builders.direct("PIX", "order-1"), expect=200)["trade_no"]
    old_payout = PayoutApi(client, api.credentials)
    assert old_payout.post("/payout/dry-run", builders.dry_run())["code"] == 200  # cached in this process

    answer = rotate(alice)
    html = answer.get_data(as_text=True)
    assert answer.status_code == 200 and 'id="rotated"' in html
    security_key, app_key = stored_keys(app, api.app_id)
    assert security_key != api.credentials["security_key"] and app_key != api.credentials["app_key"]
    assert (code(html, "security-key"), code(html, "app-key")) == (security_key, app_key)

    refused = api.post("/trade/query", {"trade_no": trade_no}, expect=400)
    assert (refused["code"], refused["sub_code"]) == ("40002", "invalid-signature")
    assert old_payout.post("/payout/dry-run", builders.dry_run())["code"] == 4004003

    new = {**api.credentials, "security_key": security_key, "app_key": app_key}
    assert Api(client, new).post("/trade/query", {"trade_no": trade_no}, expect=200)["trade_status"] == "PROCESSING"
    assert PayoutApi(client, new).post("/payout/dry-run", builders.dry_run(), expect=200)["code"] == 200


def test_rotation_in_another_process_is_seen_by_the_next_request_here(app, client, api, monkeypatch):
    """Another process rotates: this one's cache is not told, yet the old key is refused at once (on
    PostgreSQL once the rotation is heard, which its commit announces)."""
    trade_no = api.post("/trade/pay", builders.direct("PIX", "order-1"), expect=200)["trade_no"]
    api.post("/trade/query", {"trade_no": trade_no}, expect=200)  # this process now holds the merchant
    stamp = (service._cache[api.app_id][2] or (None, None))[1]
    with app.app_context():
        monkeypatch.setattr(service, "forget", lambda app_id=None: None)  # not this process's cache
        merchant = service.find_by_app_id(db.session, api.app_id)
        rotated = service.credentials(service.rotate_keys(db.session, merchant.id))
        db.session.commit()
        changes = heard_on(db.engine)
        assert changes is None or heard(changes, f"merchants:{merchant.id}", stamp)
    assert api.post("/trade/query", {"trade_no": trade_no}, expect=400)["sub_code"] == "invalid-signature"
    assert Api(client, rotated).post("/trade/query", {"trade_no": trade_no}, expect=200)["trade_no"] == trade_no


def test_rotation_needs_the_confirmation_and_the_right_password(alice, app, api):
    unconfirmed = rotate(alice, confirm="")
    assert unconfirmed.status_code == 400
    assert "Tick this box to confirm." in unconfirmed.get_data(as_text=True)
    wrong = rotate(alice, rotate_password=WRONG)
    assert wrong.status_code == 400 and "This is not your password." in wrong.get_data(as_text=True)
    assert failures(app) == 1
    assert stored_keys(app, api.app_id) == (api.credentials["security_key"], api.credentials["app_key"])


def test_rotation_needs_the_csrf_token(alice, app, api):
    answer = alice.client.post(
        "/dashboard/developers/keys/rotate",
        data={"rotate_password": PASSWORD, "confirm": "y"},
        environ_base={"REMOTE_ADDR": alice.address},
    )
    assert answer.status_code == 400
    assert stored_keys(app, api.app_id) == (api.credentials["security_key"], api.credentials["app_key"])


def test_rotation_changes_only_the_users_own_merchant(app, api, other_api, make_browser):
    add_user(app, other_api.credentials, "b@shop.example")
    bob = make_browser()
    bob.log_in("b@shop.example")
    assert rotate(bob).status_code == 200
    assert stored_keys(app, api.app_id) == (api.credentials["security_key"], api.credentials["app_key"])
    assert stored_keys(app, other_api.app_id) != (
        other_api.credentials["security_key"],
        other_api.credentials["app_key"],
    )


def test_the_pages_need_a_login(client):
    for path in (
        "/dashboard/developers",
        "/dashboard/developers/deliveries",
        "/dashboard/developers/requests",
        "/dashboard/developers/signature",
    ):
        answer = client.get(path)
        assert answer.status_code == 302 and "/dashboard/login" in answer.headers["Location"]


ROTATE_ELSEWHERE = """
import json, sys
from checkout import create_app
from checkout.db import db
from checkout.merchants import service
app = create_app({"DATABASE_URL": sys.argv[1], "SECRET_KEY": "x", "TESTING": True})
with app.app_context():
    merchant = service.find_by_app_id(db.session, sys.argv[2])
    print(json.dumps(service.credentials(service.rotate_keys(db.session, merchant.id))))
    db.session.commit()
"""


def test_rotation_by_a_real_other_process_is_refused_here_at_once(app, client, api, payout_api, database_url):
    import json
    import subprocess
    import sys
    from pathlib import Path

    trade_no = api.post("/trade/pay", builders.direct("PIX", "order-1"), expect=200)["trade_no"]
    api.post("/trade/query", {"trade_no": trade_no}, expect=200)  # this process caches the merchant
    payout_api.post("/payout/dry-run", builders.dry_run(), expect=200)
    done = subprocess.run(
        [sys.executable, "-c", ROTATE_ELSEWHERE, database_url, api.app_id],
        capture_output=True,
        text=True,
        check=True,
        cwd=Path(__file__).resolve().parents[2],
        timeout=60,
    )
    rotated = json.loads(done.stdout.strip().splitlines()[-1])
    assert api.post("/trade/query", {"trade_no": trade_no}, expect=400)["sub_code"] == "invalid-signature"
    assert payout_api.post("/payout/dry-run", builders.dry_run())["code"] == 4004003
    assert Api(client, rotated).post("/trade/query", {"trade_no": trade_no}, expect=200)["trade_no"] == trade_no
    assert PayoutApi(client, rotated).post("/payout/dry-run", builders.dry_run(), expect=200)["code"] == 200
