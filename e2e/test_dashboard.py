"""The merchant dashboard in real Chromium, desktop and phone: a merchant's developer from sign-up to a
refund, its callbacks sent again, a payout, the keys, a logo and the clock; and one merchant's objects
closed to another."""

import subprocess
import uuid
from datetime import datetime

from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from checkout.demo.client import Shop
from e2e.conftest import _logo
from e2e.test_pages import direct, serious_violations
from tests import builders, processes

PASSWORD = "correct horse battery"


def look(page: Page, shot, name: str) -> None:
    """Every dashboard screen: axe-core finds nothing serious, and its screenshot goes to the gallery."""
    assert serious_violations(page) == []
    shot(page, name)


def sign_up(page: Page, live_server: str, shop_name: str) -> tuple[str, dict]:
    email = f"dev-{uuid.uuid4().hex[:8]}@shop.example"
    page.goto(f"{live_server}/dashboard/signup")
    page.get_by_label("Shop name").fill(shop_name)
    page.get_by_label("E-mail").fill(email)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Create account").click()
    expect(page.get_by_role("heading", name="Your API credentials")).to_be_visible()
    credentials = {
        "app_id": page.locator("#app-id").inner_text(),
        "security_key": page.locator("#security-key").inner_text(),
        "app_key": page.locator("#app-key").inner_text(),
    }
    return email, credentials


def fund(server_env: dict, app_id: str, amount: str) -> None:
    """The operator funds the merchant's USD balance, as `checkout merchants fund` does."""
    subprocess.run(
        processes.checkout_command("merchants", "fund", "--app-id", app_id, "--currency", "USD", "--amount", amount),
        env=server_env,
        capture_output=True,
        check=True,
    )


def reload_until(page: Page, locator, seconds: float = 20) -> None:
    """Reload until the page shows `locator` (what the worker does in the background shows on a reload)."""
    for _ in range(int(seconds * 2)):
        try:
            locator.first.wait_for(timeout=500)
            return
        except PlaywrightTimeout:
            page.reload()
    expect(locator.first).to_be_visible()


def go(page: Page, section: str) -> None:
    page.get_by_role("navigation", name="Dashboard").get_by_role("link", name=section, exact=True).click()
    expect(page.get_by_role("link", name=section, exact=True)).to_have_attribute("aria-current", "page")


def test_from_sign_up_to_a_refund_its_callbacks_a_payout_a_logo_and_the_clock(
    profile, live_server, server_env, shop, shot
):
    page = profile.new_page()
    page.goto(f"{live_server}/dashboard/signup")
    look(page, shot, "dashboard-signup")
    email, credentials = sign_up(page, live_server, "Loja da Ana")
    expect(
        page.get_by_text("this page is not shown again. You can see the keys again later under Developers")
    ).to_be_visible()
    copy = page.get_by_role("button", name="Copy security_key")  # shown by the dashboard's script
    copy.click()
    expect(page.get_by_role("status").filter(has_text="Copied")).to_have_count(1)
    look(page, shot, "dashboard-credentials")

    # The developer's integration: a Pix payment through the API, paid by the customer; a funded payout.
    api = Shop(live_server, credentials)
    trade_no = direct(api, "PIX", f"dash-{uuid.uuid4().hex[:8]}", notify_url=f"{shop}/notify")["trade_no"]
    api.payin(f"/sandbox/trades/{trade_no}/pay")
    fund(server_env, credentials["app_id"], "1000.00")
    payout = builders.payout(f"po-{uuid.uuid4().hex[:8]}", notify_url=f"{shop}/notify")
    transaction_id = api.payout("/payout", payout)["transaction_id"]
    detail = api.payout("/payout/detail", {"transaction_id": transaction_id, "timestamp": builders.now_unix()})

    page.get_by_role("link", name="Go to the dashboard").click()
    overview(page, shot, trade_no)
    refund_and_send_again(page, shot, trade_no)
    payout_page(page, shot, detail)
    go(page, "Vaults")
    look(page, shot, "dashboard-vaults")
    keys(page, shot, credentials, shop)
    logo(page, shot)
    clock_moved(page, shot)

    page.get_by_role("button", name="Log out").click()
    expect(page.get_by_role("heading", name="Log in to your dashboard")).to_be_visible()
    page.goto(f"{live_server}/dashboard/payments")
    page.get_by_label("E-mail").fill(email)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page).to_have_url(f"{live_server}/dashboard/payments")  # back where the login was asked for
    expect(page.get_by_role("link", name=trade_no)).to_be_visible()


def overview(page: Page, shot, trade_no: str) -> None:
    expect(page.get_by_role("heading", name="Loja da Ana")).to_be_visible()
    expect(page.get_by_role("link", name=trade_no)).to_be_visible()
    expect(page.get_by_text("150.00 BRL").first).to_be_visible()  # the recent payment (and the payin volume)
    expect(page.locator("#balance-chart")).to_be_visible()
    look(page, shot, "dashboard-overview")
    page.emulate_media(color_scheme="dark")
    look(page, shot, "dashboard-overview-dark")  # the dark scheme keeps AA contrast too
    page.emulate_media(color_scheme="light")


def refund_and_send_again(page: Page, shot, trade_no: str) -> None:
    """The payment in the list, newest first; part of it refunded from its page; its callbacks, each
    attempt with the receiver's answer, and one sent again."""
    go(page, "Payments")
    expect(page.locator("#payments-table .payment-row").first).to_contain_text(trade_no)
    look(page, shot, "dashboard-payments")
    page.get_by_role("link", name=trade_no).click()
    expect(page.locator("#trade-status")).to_have_text("Paid")
    expect(page.locator("#refund-amount")).to_have_value("")  # the form starts empty
    page.locator("#refund-amount").fill("40.25")
    page.locator("#refund-submit").click()
    # A second step: nothing is refunded until the box naming the amount is ticked.
    expect(page.locator("label[for=refund-confirm]")).to_contain_text("Refund R$40.25 to ")
    expect(page.locator("#trade-no-refunds")).to_be_visible()
    look(page, shot, "dashboard-refund-confirm")
    page.locator("#refund-confirm").check()
    page.get_by_role("button", name="Confirm the refund").click()
    expect(page.locator("#trade-refunds .refund-row")).to_contain_text("R$40.25")
    expect(page.locator("#trade-status")).to_have_text("Refunded in part: R$40.25 of R$150.00")
    expect(page.locator("#trade-refundable")).to_contain_text("109.75")

    paid = page.locator(".delivery").filter(has=page.locator(".attempt", has_text="delivered")).first
    reload_until(page, paid)
    attempts = paid.locator(".attempt")
    before = attempts.count()
    expect(attempts.first).to_contain_text("success")
    paid.get_by_role("button", name="Send again").click()
    expect(page.get_by_role("status").filter(has_text="Queued")).to_have_text(
        "Queued: it will be sent again within a few seconds. Reload the page to see the attempt."
    )
    resent = page.locator(".delivery").filter(has=page.locator(".attempt", has_text="resent"))
    reload_until(page, resent)  # the worker sends it, not the request
    expect(resent.first.locator(".attempt")).to_have_count(before + 1)
    look(page, shot, "dashboard-payment")


def payout_page(page: Page, shot, detail: dict) -> None:
    """The payout's page, from the list, with the figures `/payout/detail` answers."""
    transaction_id = detail["transaction_id"]
    go(page, "Payouts")
    expect(page.locator(f"#payout-{transaction_id}")).to_be_visible()
    look(page, shot, "dashboard-payouts")
    page.get_by_role("link", name=transaction_id).click()
    expect(page.locator("#payout-transaction-id")).to_have_text(transaction_id)
    expect(page.locator("#payout-source-amount")).to_have_text(f"{detail['source_amount']} USD")
    look(page, shot, "dashboard-payout")


def keys(page: Page, shot, credentials: dict, shop: str) -> None:
    """The keys, shown after the password is entered again."""
    go(page, "Developers")
    page.locator("#password").fill(PASSWORD)
    page.locator("#reveal-submit").click()
    expect(page.locator("#security-key")).to_have_text(credentials["security_key"])
    expect(page.locator("#app-key")).to_have_text(credentials["app_key"])
    expect(page.get_by_role("button", name="Copy app_key")).to_be_visible()
    look(page, shot, "dashboard-developers")
    # A test notification to the merchant's receiver: queued, sent by the worker, listed with the others.
    page.locator("#dev-nav-developer_deliveries").click()
    page.get_by_label("Your notify_url").fill(f"{shop}/notify")
    page.get_by_role("button", name="Send a test notification").click()
    expect(page.locator("#delivery-event")).to_have_text("Test notification")
    reload_until(page, page.locator(".attempt", has_text="delivered"))
    look(page, shot, "dashboard-test-notification")


# Whether an image drew, once it has loaded or failed (visible only says it has a box).
LOADED = """(img) => img.complete ? img.naturalWidth > 0 : new Promise((done) => {
    img.addEventListener("load", () => done(img.naturalWidth > 0));
    img.addEventListener("error", () => done(false));
})"""


def logo(page: Page, shot) -> None:
    """A logo, seen at once in both previews of the payment page."""
    go(page, "Settings")
    page.locator("#logo-file").set_input_files(files=[{"name": "logo.png", "mimeType": "image/png", "buffer": _logo()}])
    page.locator("#logo-upload").click()
    expect(page.get_by_role("status").filter(has_text="Logo saved.")).to_be_visible()
    for preview in ("#preview-web", "#preview-h5"):
        picture = page.frame_locator(preview).locator("img")
        expect(picture).to_be_visible()
        assert picture.evaluate(LOADED)
    look(page, shot, "dashboard-settings")


def clock_moved(page: Page, shot) -> None:
    go(page, "Overview")
    before = datetime.fromisoformat(page.locator("#business-time").get_attribute("datetime"))
    page.get_by_role("button", name="+1 day").click()
    after = datetime.fromisoformat(page.locator("#business-time").get_attribute("datetime"))
    assert 86400 <= (after - before).total_seconds() < 86400 + 300
    shot(page, "dashboard-clock-moved")


def test_a_second_merchant_cannot_open_the_first_merchants_objects(profile, live_server, server_env, shot):
    page = profile.new_page()
    _email, first = sign_up(page, live_server, "Primeira Loja")
    api = Shop(live_server, first)
    trade_no = direct(api, "PIX", f"first-{uuid.uuid4().hex[:8]}")["trade_no"]
    fund(server_env, first["app_id"], "500.00")
    transaction_id = api.payout("/payout", builders.payout(f"po-{uuid.uuid4().hex[:8]}"))["transaction_id"]
    page.goto(f"{live_server}/dashboard/payments/{trade_no}")
    expect(page.locator("#trade-no")).to_have_text(trade_no)
    page.get_by_role("button", name="Log out").click()

    sign_up(page, live_server, "Segunda Loja")
    profile.expected_statuses.add(404)
    for path in (f"payments/{trade_no}", f"payouts/{transaction_id}"):
        answer = page.goto(f"{live_server}/dashboard/{path}")
        assert answer.status == 404
        expect(page.locator("h1")).to_contain_text("not found")
        expect(page.locator("main")).not_to_contain_text(first["app_id"])
    shot(page, "dashboard-not-yours")
    page.goto(f"{live_server}/dashboard/payments")
    expect(page.locator("#payments-empty")).to_be_visible()
    expect(page.locator("main")).not_to_contain_text(trade_no)


def test_a_wrong_password_and_the_keyboard(profile, live_server, shot):
    page = profile.new_page()
    page.goto(f"{live_server}/dashboard/login")
    page.keyboard.press("Tab")
    expect(page.get_by_role("link", name="Skip to content")).to_be_focused()
    page.get_by_label("E-mail").fill(f"nobody-{uuid.uuid4().hex[:8]}@shop.example")
    page.get_by_label("Password").fill("not the password")
    page.get_by_label("Password").press("Enter")
    expect(page.get_by_role("alert")).to_have_text("The e-mail or the password is not right.")
    look(page, shot, "dashboard-login-failed")
