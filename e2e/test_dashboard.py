"""The merchant dashboard in real Chromium, desktop and phone: sign up, pay through the API, move the clock, log out and in."""

import uuid
from datetime import datetime

from playwright.sync_api import expect

from checkout.demo.client import Shop
from e2e.test_pages import direct, serious_violations

PASSWORD = "correct horse battery"


def test_sign_up_pay_move_the_clock_log_out_and_in(profile, live_server, shot):
    page = profile.new_page()
    email = f"ana-{uuid.uuid4().hex[:8]}@shop.example"

    page.goto(f"{live_server}/dashboard/signup")
    assert serious_violations(page) == []
    shot(page, "dashboard-signup")
    page.get_by_label("Shop name").fill("Loja da Ana")
    page.get_by_label("E-mail").fill(email)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Create account").click()

    expect(page.get_by_role("heading", name="Your API credentials")).to_be_visible()
    expect(page.get_by_text("shown only once")).to_be_visible()
    credentials = {
        "app_id": page.locator("#app-id").inner_text(),
        "security_key": page.locator("#security-key").inner_text(),
        "app_key": page.locator("#app-key").inner_text(),
    }
    assert serious_violations(page) == []
    shot(page, "dashboard-credentials")

    trade_no = direct(Shop(live_server, credentials), "PIX", f"dash-{uuid.uuid4().hex[:8]}")["trade_no"]

    page.get_by_role("link", name="Go to the dashboard").click()
    expect(page.get_by_role("heading", name="Loja da Ana")).to_be_visible()
    expect(page.get_by_text(trade_no)).to_be_visible()
    expect(page.get_by_text("150.00 BRL")).to_be_visible()
    assert serious_violations(page) == []
    shot(page, "dashboard-overview")
    page.emulate_media(color_scheme="dark")
    assert serious_violations(page) == []  # the dark scheme keeps AA contrast too
    shot(page, "dashboard-overview-dark")
    page.emulate_media(color_scheme="light")

    before = datetime.fromisoformat(page.locator("#business-time").get_attribute("datetime"))
    page.get_by_role("button", name="+1 day").click()
    after = datetime.fromisoformat(page.locator("#business-time").get_attribute("datetime"))
    assert 86400 <= (after - before).total_seconds() < 86400 + 300
    shot(page, "dashboard-clock-moved")

    page.get_by_role("button", name="Log out").click()
    expect(page.get_by_role("heading", name="Log in to your dashboard")).to_be_visible()
    page.goto(f"{live_server}/dashboard")
    expect(page).to_have_url(f"{live_server}/dashboard/login?next=%2Fdashboard")

    page.get_by_label("E-mail").fill(email)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_text(trade_no)).to_be_visible()
    assert serious_violations(page) == []


def test_a_wrong_password_and_the_keyboard(profile, live_server, shot):
    page = profile.new_page()
    page.goto(f"{live_server}/dashboard/login")
    page.keyboard.press("Tab")
    expect(page.get_by_role("link", name="Skip to content")).to_be_focused()
    page.get_by_label("E-mail").fill(f"nobody-{uuid.uuid4().hex[:8]}@shop.example")
    page.get_by_label("Password").fill("not the password")
    page.get_by_label("Password").press("Enter")
    expect(page.get_by_role("alert")).to_have_text("The e-mail or the password is not right.")
    assert serious_violations(page) == []
    shot(page, "dashboard-login-failed")
