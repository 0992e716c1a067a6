"""Our pages inside the shop's cross-site iframe (copy without clipboard permission, the message each page posts)
and the Mexican Spanish pages' CLDR amounts and times, on a desktop and a phone profile."""

import json
import re
import subprocess

import pytest
import requests
from playwright.sync_api import expect

from checkout.demo.client import Shop
from e2e.conftest import framed
from e2e.test_pages import card_vault, claims_of, direct, payout_session, pix_vault
from e2e.test_pay_methods import MEXICAN, PAID, PASTE_BUTTON
from tests import formats, processes

# What the copy button may say in Portuguese: copied, or which keys copy the selected text (a phone: touch).
COPIED = "Copiado"
BY_HAND = {"desktop": "Pressione Ctrl+C para copiar", "mobile": "Toque e segure o texto para copiá-lo"}


def received(page) -> dict:
    """The last message the shop's page got from its frame."""
    return json.loads(page.locator("#received").text_content())


def wait_for_message(shop_page, **expected) -> dict:
    pattern = "".join(f"(?=.*{re.escape(json.dumps(value))})" for value in expected.values())
    expect(shop_page.locator("#received")).to_have_text(re.compile(pattern))
    message = received(shop_page)
    assert {key: message["data"].get(key) for key in expected} == expected, message
    return message


def selected(frame, element_id: str) -> bool:
    """The field has the focus and all of its text is selected."""
    return frame.locator(f"#{element_id}").evaluate(
        "el => document.activeElement === el && el.selectionStart === 0 && el.selectionEnd === el.value.length"
    )


def test_copy_inside_a_cross_site_frame_without_clipboard_permission(profile, shop_api, shop):
    """The shop's iframe has no allow="clipboard-write": the Clipboard API is refused, execCommand copies."""
    trade = direct(shop_api, "PIX", f"frame-copy-{profile.name}")
    page = profile.new_page()
    frame = framed(page, shop, trade["pay_url"])
    expect(frame.locator("#pix-code")).to_have_value(trade["qr_code"])
    button = frame.locator('[data-copy="pix-code"]')  # the code's one copy action: "Copiar código Pix" on a phone
    expect(button).to_have_count(1)
    label = button.inner_text()
    assert label == ("Copiar código Pix" if profile.name == "mobile" else "Copiar")
    button.click()
    state = frame.locator("#pix-code-state")
    expect(state).to_have_text(COPIED)
    expect(button).to_have_text("Copiado")
    assert selected(frame, "pix-code")
    expect(state).to_have_text("", timeout=8_000)  # "Copied" for a few seconds, then the button is back
    expect(button).to_have_text(label)


def test_when_the_browser_refuses_every_copy_the_text_is_selected_and_the_page_says_how(profile, shop_api, shop):
    profile.add_init_script("document.execCommand = function () { return false; };")
    trade = direct(shop_api, "Boleto", f"frame-nocopy-{profile.name}")
    page = profile.new_page()
    frame = framed(page, shop, trade["pay_url"])
    frame.get_by_role("button", name="Copiar").click()
    # The button copies the line's 47 digits, kept out of sight beside the printed line: they show, selected.
    expect(frame.locator("#boleto-digits-state")).to_have_text(BY_HAND[profile.name])
    expect(frame.get_by_role("status").filter(has_text=BY_HAND[profile.name])).to_have_count(1)
    expect(frame.locator("#boleto-digits")).to_be_visible()
    assert selected(frame, "boleto-digits")
    digits = frame.locator("#boleto-digits").input_value()
    assert len(digits) == 47 and digits == re.sub(r"\D", "", frame.locator("#slip-digits").inner_text())


@pytest.fixture(scope="session")
def late_shop(server_env, live_server, shop) -> Shop:
    """A merchant of its own whose clock a test may move (the shop's stays where other tests expect it)."""
    out = subprocess.run(
        processes.checkout_command("merchants", "create", "--name", "Loja Atrasada", "--frame-origin", shop),
        env=server_env,
        capture_output=True,
        text=True,
        check=True,
    )
    return Shop(live_server, json.loads(out.stdout))


def test_each_kind_of_page_tells_the_shop_what_it_shows(profile, shop_api, shop, late_shop):
    kind = profile.name
    vault = pix_vault(shop_api, shop, f"frame-msg-{kind}")
    consent = card_vault(shop_api, shop)
    cases = [
        (vault["checkout_url"], "pix_authorization", "PENDING"),
        (consent["checkout_url"], "card_consent", "PENDING"),
        (shop_api.payin("/card/session", {"country": "BRA"})["card_url"], "card_entry", "open"),
        (direct(shop_api, "Boleto", f"frame-msg-{kind}")["pay_url"], "payment", "PROCESSING"),
        (payout_session(shop_api, shop, f"frame-msg-{kind}")["checkout_url"], "payout", "open"),
    ]
    page = profile.new_page()
    origin = shop_api.base
    for url, name, status in cases:
        framed(page, shop, url)
        message = wait_for_message(page, type="checkout.page", page=name, status=status)
        assert message == {
            "origin": origin,
            "data": {"type": "checkout.page", "page": name, "status": status, "token": None},
        }
    # The same session after the payer's bank said yes: a result page, whose token the shop gets.
    shop_api.payin(f"/sandbox/vaults/{vault['token']}/approve")
    framed(page, shop, vault["checkout_url"])
    message = wait_for_message(page, type="checkout.vault", status="ACTIVE")
    assert message["origin"] == origin and message["data"]["token"].count(".") == 2
    # An error page of a session whose merchant is known: its payout link expired.
    late = late_shop.payout(
        "/checkout",
        {
            "user_id": "u1",
            "custom_code": f"frame-late-{kind}",
            "fee_bear": "merchant",
            "source_currency": "USD",
            "payout_currency": "BRL",
            "payout_amount": "10.00",
            "notify_url": f"{shop}/notify",
            "return_url": f"{shop}/back",
            "additional_remark": "withdrawal",
            "country": "BRA",
            "timeout": 60,
        },
    )
    requests.post(f"{late_shop.base}/sandbox/clock", json={"advance_seconds": 61}, headers=late_shop.basic, timeout=15)
    profile.expected_statuses.add(410)
    frame = framed(page, shop, late["checkout_url"])
    expect(frame.get_by_role("heading", name="Este link expirou")).to_be_visible()
    assert wait_for_message(page, type="checkout.error", status="expired")["data"]["token"] is None


def test_mexican_pages_show_cldr_amounts_and_times(profile, shop_api, shop):
    trade = direct(shop_api, "SPEI", f"es-spei-{profile.name}", order_amount="1234.50", **MEXICAN)
    page = profile.new_page()
    page.goto(trade["pay_url"])
    expect(page.locator("html")).to_have_attribute("lang", "es-MX")
    expect(page.locator(".amount")).to_have_text(formats.money("1234.50", "MXN", "es_MX"))
    expect(page.locator("#clabe")).to_have_value(trade["clabe"])
    session = shop_api.payout(
        "/checkout",
        {
            "user_id": "u3",
            "custom_code": f"es-payout-{profile.name}",
            "fee_bear": "beneficiary",
            "source_currency": "USD",
            "payout_currency": "MXN",
            "payout_amount": "2000.00",
            "notify_url": f"{shop}/notify",
            "return_url": f"{shop}/back",
            "additional_remark": "retiro",
            "country": "MEX",
        },
    )
    page.goto(session["checkout_url"])
    expect(page.get_by_role("heading", name="Recibe tu dinero")).to_be_visible()
    figures = page.locator(".quote:not([hidden]) dd")
    shown = [formats.money(value, "MXN", "es_MX") for value in ("1970.33", "2000.00", "25.62", "4.05")]
    expect(figures).to_have_text(shown)  # the session's amount sent; received + fee + taxes = sent
    said = formats.deadline(session["expire_time"], "America/Mexico_City", "es_MX")
    expect(page.locator(".deadline")).to_have_text(f"Esta página vence a las {said.time} ({said.zone}).")
    assert ".." not in page.locator("main").inner_text()


def test_a_pix_paid_inside_the_shops_frame_tells_the_shop_with_its_signed_result(profile, shop_api, shop, merchant):
    """The customer copies the code the framed page shows (no clipboard permission: the browser's own copy),
    pays it in the sandbox with that code alone, and the shop's page gets checkout.payment with the token."""
    trade = direct(shop_api, "PIX", f"frame-pay-{profile.name}")
    page = profile.new_page()
    frame = framed(page, shop, trade["pay_url"])
    button = frame.locator('[data-copy="pix-code"]')
    button.click()
    expect(frame.locator("#pix-code-state")).to_have_text(COPIED)
    copied = frame.locator("#pix-code").evaluate("el => el.value.substring(el.selectionStart, el.selectionEnd)")
    assert copied == trade["qr_code"]
    frame.locator(".paste input[name=code]").fill(copied)
    frame.get_by_role("button", name=PASTE_BUTTON["pt"]).click()
    # The paid page replaces this one (whose copy button may still say "Copiado" meanwhile).
    expect(frame.locator(".pay-result [role=status]")).to_have_text(PAID["pt"], timeout=15_000)
    message = wait_for_message(page, type="checkout.payment", status="SUCCESS")
    claims = claims_of(f"{shop}/back?token={message['data']['token']}", merchant["security_key"])
    assert (claims["sub"], claims["status"], claims["out_trade_no"]) == (
        trade["trade_no"],
        "SUCCESS",
        trade["out_trade_no"],
    )
