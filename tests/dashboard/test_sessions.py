"""Dashboard sessions: bounded from the login, ended for every copy of the cookie by a logout or a new
password."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from itsdangerous import TimestampSigner

from checkout import clock

from .helpers import PASSWORD, Browser

COOKIE = "checkout_dashboard"


def copy_of(browser: Browser, make_browser) -> Browser:
    """Another client holding the same cookie (the same address and browser: session protection agrees)."""
    thief = make_browser(browser.address)
    cookie = browser.client.get_cookie(COOKIE, path="/dashboard")
    thief.client.set_cookie(COOKIE, cookie.value, path="/dashboard")
    return thief


@pytest.fixture
def later(monkeypatch):
    """Moves real time: the clock's real_now (the login time, the rate limits) and the cookie signer's."""
    shift = [timedelta(0)]

    def real_now() -> datetime:
        return datetime.now(UTC) + shift[0]

    monkeypatch.setattr(clock, "real_now", real_now)
    monkeypatch.setattr(TimestampSigner, "get_timestamp", lambda _self: int(real_now().timestamp()))

    def move(hours: float) -> None:
        shift[0] = timedelta(hours=hours)

    return move


def test_a_copied_cookie_is_refused_after_logout(alice, make_browser):
    thief = copy_of(alice, make_browser)
    assert thief.get("/dashboard").status_code == 200
    assert alice.submit("/dashboard/logout", {}, form_at="/dashboard").status_code == 302
    refused = thief.get("/dashboard")
    assert refused.status_code == 302 and refused.headers["Location"].startswith("/dashboard/login")
    # Logging in again starts a new session; the copy stays refused.
    assert alice.log_in("a@shop.example").status_code == 302
    assert alice.get("/dashboard").status_code == 200
    assert thief.get("/dashboard").status_code == 302


def test_a_session_ends_twelve_hours_after_the_login_though_a_message_signed_it_again(alice, later):
    later(11)
    saved = alice.submit("/dashboard/settings/language", {"default_language": "en"}, form_at="/dashboard/settings")
    assert saved.status_code == 302
    assert "Default language saved." in alice.get("/dashboard/settings").get_data(as_text=True)  # cookie signed at 11 h
    later(11.99)
    assert alice.get("/dashboard").status_code == 200
    later(12.01)
    refused = alice.get("/dashboard")
    assert refused.status_code == 302 and refused.headers["Location"].startswith("/dashboard/login")
    assert alice.log_in("a@shop.example").status_code == 302  # a new login, a new 12 hours
    assert alice.get("/dashboard").status_code == 200


def test_a_new_password_from_the_command_line_ends_every_session(app, alice, make_browser, run_cli):
    thief = copy_of(alice, make_browser)
    done = run_cli("users", "set-password", "--email", "A@shop.example", "--password", "a brand new password")
    assert done.exit_code == 0, done.output
    assert done.stdout.strip() == '{"email": "a@shop.example"}'
    assert alice.get("/dashboard").status_code == 302 and thief.get("/dashboard").status_code == 302
    assert make_browser("198.51.100.9").log_in("a@shop.example", PASSWORD).status_code == 200  # the old one fails
    assert make_browser("198.51.100.9").log_in("a@shop.example", "a brand new password").status_code == 302
    unknown = run_cli("users", "set-password", "--email", "nobody@shop.example", "--password", "a brand new password")
    assert unknown.exit_code != 0 and "no dashboard user" in unknown.output
    short = run_cli("users", "set-password", "--email", "a@shop.example", "--password", "short")
    assert short.exit_code != 0 and "10 characters" in short.output
