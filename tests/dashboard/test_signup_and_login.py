"""Sign-up, login, logout, CSRF and the login rate limit of the dashboard."""

from __future__ import annotations

import json
import re
from datetime import timedelta

import pytest

from checkout import clock
from checkout.dashboard import users
from checkout.db import db
from tests import builders
from tests.conftest import Api

from .helpers import PASSWORD


def credentials_in(html: str) -> dict:
    return {
        key: re.search(rf'id="{element}">([^<]+)<', html).group(1)
        for key, element in (("app_id", "app-id"), ("security_key", "security-key"), ("app_key", "app-key"))
    }


def test_sign_up_shows_credentials_that_work_on_the_api(app, visitor):
    answer = visitor.sign_up()
    assert answer.status_code == 200
    html = answer.get_data(as_text=True)
    assert "shown only once" not in html  # they are not: Developers shows them again after the password
    assert (
        "Copy these credentials now: this page is not shown again. You can see the keys again later under "
        "Developers, after typing your password." in html
    )
    credentials = credentials_in(html)
    paid = Api(app.test_client(), credentials).post("/trade/pay", builders.direct("PIX"), expect=200)
    assert paid["code"] == "10000"
    # Logged in already: the overview shows the new merchant and its payment.
    overview = visitor.get("/dashboard").get_data(as_text=True)
    assert "Loja da Ana" in overview and credentials["app_id"] in overview and paid["trade_no"] in overview


def test_every_dashboard_answer_has_the_strict_headers(visitor):
    for path in ("/dashboard/login", "/dashboard/signup"):
        headers = visitor.get(path).headers
        csp = headers["Content-Security-Policy"]
        assert "frame-ancestors 'none'" in csp and "script-src 'nonce-" in csp and "unsafe-inline" not in csp
        assert headers["Cache-Control"] == "no-store" and headers["X-Content-Type-Options"] == "nosniff"
    cookie = visitor.sign_up().headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and "Path=/dashboard" in cookie


def test_the_session_cookie_is_secure_behind_https(app_with):
    app = app_with(PUBLIC_URL="https://pay.example")
    answer = app.test_client().get("/dashboard/login", base_url="https://pay.example")
    assert "Secure" in answer.headers["Set-Cookie"]


def test_sign_up_is_refused_with_the_sandbox_off_or_the_switch_off(app_with):
    for overrides in ({"SANDBOX": False}, {"SANDBOX": False, "DASHBOARD_SIGNUP": True}, {"DASHBOARD_SIGNUP": "off"}):
        client = app_with(**overrides).test_client()
        assert client.get("/dashboard/signup").status_code == 404
        assert client.post("/dashboard/signup", data={}).status_code == 404
        assert client.get("/dashboard/login").status_code == 200


def test_a_post_without_its_csrf_token_is_refused_and_writes_nothing(app, visitor, row_counts):
    before = row_counts()
    data = {"email": "ana@shop.example", "password": PASSWORD, "shop_name": "Loja"}
    answer = visitor.client.post("/dashboard/signup", data=data)
    assert answer.status_code == 400
    assert row_counts() == before
    refused = visitor.client.post("/dashboard/login", data={"email": "x@y.z", "password": "p"})
    assert refused.status_code == 400 and "This form expired" in refused.get_data(as_text=True)
    assert row_counts() == before


def test_a_wrong_password_fails_like_an_unknown_email(visitor, make_browser):
    visitor.sign_up()
    wrong = make_browser().log_in("ana@shop.example", "wrong password!")
    unknown = make_browser("198.51.100.8").log_in("nobody@shop.example")
    message = "The e-mail or the password is not right."
    assert message in wrong.get_data(as_text=True) and message in unknown.get_data(as_text=True)
    assert wrong.status_code == unknown.status_code == 200
    assert make_browser().get("/dashboard").status_code == 302


def test_email_is_unique_whatever_its_case(visitor, make_browser):
    visitor.sign_up()
    again = make_browser().sign_up(email="ANA@Shop.Example")
    assert again.status_code == 400 and "already has an account" in again.get_data(as_text=True)
    assert make_browser().log_in("Ana@SHOP.example").status_code == 302


def test_log_in_and_out(visitor, make_browser):
    visitor.sign_up()
    other = make_browser()
    assert other.get("/dashboard").headers["Location"].startswith("/dashboard/login")
    assert other.log_in("ana@shop.example").status_code == 302
    assert other.get("/dashboard").status_code == 200
    # Logging out is a POST carrying the CSRF token; a GET does not log out.
    assert other.get("/dashboard/logout").status_code == 405
    assert other.client.post("/dashboard/logout", environ_base={"REMOTE_ADDR": other.address}).status_code == 400
    assert other.get("/dashboard").status_code == 200
    assert other.submit("/dashboard/logout", {}, form_at="/dashboard").status_code == 302
    assert other.get("/dashboard").status_code == 302


def test_five_failures_lock_the_account_from_any_address(visitor, make_browser):
    visitor.sign_up()
    for n in range(5):
        assert make_browser(f"203.0.113.{n}").log_in("ana@shop.example", "wrong password!").status_code == 200
    locked = make_browser("203.0.113.99").log_in("ana@shop.example")  # the right password, now refused
    assert locked.status_code == 429
    text = locked.get_data(as_text=True)
    assert "Try again in 15 minutes" in text and "UTC" in text


def test_five_failures_lock_the_address_for_any_account(visitor, make_browser):
    visitor.sign_up()
    attacker = make_browser("203.0.113.50")
    for n in range(5):
        assert attacker.log_in(f"guess{n}@shop.example", "whatever!!").status_code == 200
    assert attacker.log_in("ana@shop.example").status_code == 429
    assert make_browser("203.0.113.51").log_in("ana@shop.example").status_code == 302


def test_the_lock_follows_real_time_not_the_sandbox_clock(app, visitor, make_browser):
    visitor.sign_up()
    for _ in range(5):
        make_browser("203.0.113.60").log_in("ana@shop.example", "wrong password!")
    clock.advance(3600)  # the sandbox clock moves; the lock does not
    assert make_browser("203.0.113.61").log_in("ana@shop.example").status_code == 429
    with app.app_context():
        later = clock.real_now() + timedelta(minutes=16)
        users.check_limit(db.session, email="ana@shop.example", address="203.0.113.61", now=later)  # no Locked


def test_cli_creates_a_user_and_refuses_duplicates(app, merchant, run_cli, make_browser):
    created = run_cli(
        "users", "create", "--app-id", merchant["app_id"], "--email", "Ops@Shop.example", "--password", PASSWORD
    )
    assert created.exit_code == 0, created.output
    assert created.stdout.strip().startswith("{")
    assert json.loads(created.stdout) == {"app_id": merchant["app_id"], "email": "ops@shop.example"}
    again = run_cli(
        "users", "create", "--app-id", merchant["app_id"], "--email", "ops@shop.example", "--password", PASSWORD
    )
    assert again.exit_code != 0 and "already exists" in again.output
    unknown = run_cli("users", "create", "--app-id", "app_nope", "--email", "x@shop.example", "--password", PASSWORD)
    assert unknown.exit_code != 0 and "no merchant" in unknown.output
    short = run_cli(
        "users", "create", "--app-id", merchant["app_id"], "--email", "y@shop.example", "--password", "short"
    )
    assert short.exit_code != 0 and "10 characters" in short.output
    assert make_browser().log_in("ops@shop.example").status_code == 302


def test_login_returns_to_the_page_that_asked_for_it_inside_the_dashboard_only(app, api, make_browser):
    from .helpers import add_user

    add_user(app, api.credentials, "a@shop.example")
    browser = make_browser()
    sent = browser.get("/dashboard/payments?status=SUCCESS")
    assert sent.status_code == 302
    login_at = sent.headers["Location"]
    assert login_at.startswith("/dashboard/login?next=")
    page = browser.get(login_at).get_data(as_text=True)
    assert 'action="/dashboard/login?next=/dashboard/payments?status%3DSUCCESS"' in page
    answer = browser.submit(login_at, {"email": "a@shop.example", "password": PASSWORD})
    assert answer.headers["Location"] == "/dashboard/payments?status=SUCCESS"

    elsewhere = make_browser("198.51.100.8")
    answer = elsewhere.submit(
        "/dashboard/login?next=//evil.example/", {"email": "a@shop.example", "password": PASSWORD}
    )
    assert answer.status_code == 302 and answer.headers["Location"] == "/dashboard"


@pytest.mark.parametrize(
    "fields",
    [
        {"email": "ana\x00@shop.example"},
        {"shop_name": "Loja\x00da Ana"},
    ],
)
def test_a_nul_in_sign_up_is_refused_by_the_form_and_writes_nothing(visitor, row_counts, fields):
    """PostgreSQL refuses a NUL in text: it must stop at the form (it gave a 500 there), on both databases."""
    before = row_counts()
    answer = visitor.sign_up(**fields)
    assert answer.status_code == 400  # the form again, the field marked
    assert "This field must not contain NUL characters." in answer.get_data(as_text=True)
    assert row_counts() == before


def test_a_nul_in_the_login_e_mail_is_refused_by_the_form(visitor, make_browser):
    visitor.sign_up()
    answer = make_browser().log_in("ana@shop.example\x00")
    assert answer.status_code == 400
    assert "This field must not contain NUL characters." in answer.get_data(as_text=True)
