"""The sandbox inbox in real Chromium: a newcomer with no receiver of their own gives the inbox as notify_url
and sees the signed callback arrive under Developers, verified."""

import uuid

from playwright.sync_api import expect

from checkout.demo.client import Shop
from e2e.test_dashboard import go, look, reload_until, sign_up
from e2e.test_pages import direct


def test_a_callback_to_the_sandbox_inbox_shows_in_the_dashboard_verified(profile, live_server, shot):
    page = profile.new_page()
    _, credentials = sign_up(page, live_server, "Loja da Inbox")
    api = Shop(live_server, credentials)
    inbox_url = f"{live_server}/sandbox/inbox/{credentials['app_id']}"
    trade_no = direct(api, "PIX", f"inbox-{uuid.uuid4().hex[:8]}", notify_url=inbox_url)["trade_no"]
    api.payin(f"/sandbox/trades/{trade_no}/pay")

    go(page, "Developers")
    page.get_by_role("link", name="Sandbox inbox").click()
    expect(page.locator("#inbox-url")).to_have_text(inbox_url)
    reload_until(page, page.locator("#inbox-table").get_by_text("verified", exact=True))
    row = page.locator("#inbox-table tbody tr").first
    row.get_by_text("Show").click()
    expect(row.locator("pre")).to_contain_text(f'"trade_no":"{trade_no}"')
    expect(row.locator("pre")).to_contain_text("Pagsmile-Signature: t=")
    look(page, shot, "dashboard-sandbox-inbox")
