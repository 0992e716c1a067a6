"""A virtual SPEI account in Chromium: opened through the API, its CLABE pasted (spaced, as copied) into the sandbox
transfer page with a comma amount, the transfer seen arriving on the page, in the API (usage, /trade/query) and at
the shop's notification receiver; another customer's CLABE refused on the page, which pays its own account only;
then the account cancelled and the page refusing its CLABE, writing nothing. Desktop and phone (H5), in the page's
Mexican Spanish."""

from __future__ import annotations

import json

from playwright.sync_api import expect
from sqlalchemy import create_engine, text

from checkout.demo.client import callback_is_genuine
from e2e.test_pages import serious_violations

RFC = "MAMB780915969"  # the provider's Mexican test customer
# What the customer types (a comma for the cents, as many bank apps take it), what arrives, what the page shows.
AMOUNTS = {"desktop": ("1234,56", "1234.56", "$1,234.56"), "mobile": ("87,05", "87.05", "$87.05")}
BENEFICIARY = "CHECKOUT SANDBOX MEXICO SA DE CV"  # the sandbox collector's Mexican entity, the CLABEs' account holder
CLABE_LABEL, AMOUNT_LABEL, SEND = "CLABE a la que transfieres", "Monto (MXN)", "Enviar transferencia"
# Any CLABE but the link's own, whoever's: one answer that tells nothing about it.
ELSEWHERE = "Esta página solo transfiere a la CLABE que te dio Loja Exemplo."


def spaced(number: str) -> str:
    """A CLABE as a bank's app shows it, and a customer copies it: bank, plaza, account, check digit."""
    return f"{number[:3]} {number[3:6]} {number[6:17]} {number[17]}"


def paste(page, label: str, value: str) -> None:
    """Put `value` on the clipboard and paste it into the field, as the customer does with a copied CLABE."""
    page.evaluate("text => navigator.clipboard.writeText(text)", value)
    field = page.get_by_label(label)
    field.fill("")
    field.focus()
    page.keyboard.press("ControlOrMeta+V")
    expect(field).to_have_value(value)


def send(page, number: str, amount: str) -> None:
    """The customer's transfer: the CLABE pasted as copied (spaced), the amount typed, the form sent."""
    paste(page, CLABE_LABEL, spaced(number))
    page.get_by_label(AMOUNT_LABEL).fill(amount)
    page.get_by_role("button", name=SEND).click()


def written(server_env: dict, app_id: str, buyer: str) -> dict[str, int]:
    """The rows a transfer to the customer's account writes: its trades, their history, the transfers, their
    notifications (only this customer's: other journeys' scheduled work may write the merchant's meanwhile)."""
    mine = "SELECT t.id, t.trade_no FROM trades t JOIN merchants m ON m.id = t.merchant_id WHERE m.app_id = :a AND t.buyer_id = :b"
    queries = {
        "trades": f"SELECT count(*) FROM ({mine}) x",
        "trade_events": f"SELECT count(*) FROM trade_events e JOIN ({mine}) x ON x.id = e.trade_id",
        "transfers": f"SELECT count(*) FROM virtual_spei_transfers v JOIN ({mine}) x ON x.id = v.trade_id",
        "outbox": f"SELECT count(*) FROM outbox o JOIN ({mine}) x ON x.trade_no = o.subject_id",
    }
    engine = create_engine(server_env["CHECKOUT_DATABASE_URL"])
    try:
        with engine.connect() as conn:
            return {
                name: conn.execute(text(sql), {"a": app_id, "b": buyer}).scalar_one() for name, sql in queries.items()
            }
    finally:
        engine.dispose()


def arrived_once(shop_api, account: dict, tracking_key: str, arrived: str, buyer: str) -> dict:
    """The merchant's view: exactly that amount, one SUCCESS trade under the page's tracking key."""
    number = account["account_number"]
    [received] = shop_api.payin("/virtual-account/spei/usage", {"account_id": account["account_id"]})["transfers"]
    assert {k: received[k] for k in ("account_id", "account_number", "out_trade_no", "trade_status", "amount")} == {
        "account_id": account["account_id"],
        "account_number": number,
        "out_trade_no": tracking_key,
        "trade_status": "SUCCESS",
        "amount": arrived,
    }
    assert received["currency"] == "MXN"
    trade = shop_api.payin("/trade/query", {"trade_no": received["trade_no"]})
    assert {k: trade[k] for k in ("trade_status", "order_amount", "order_currency", "method", "out_trade_no")} == {
        "trade_status": "SUCCESS",
        "order_amount": arrived,
        "order_currency": "MXN",
        "method": "SPEI",
        "out_trade_no": tracking_key,
    }
    assert (trade["buyer_id"], trade["refunded_amount"], trade["refundable_amount"]) == (buyer, "0.00", arrived)
    return received


def notified_as_documented(notified, merchant: dict, account: dict, received: dict, buyer: str) -> None:
    """The Virtual SPEI notification, as the shop's receiver got it: signed with the security key, the
    documented fields and `transfer_account`."""
    tracking_key, arrived, number = received["out_trade_no"], received["amount"], account["account_number"]
    arrival = notified(lambda headers, raw: json.loads(raw).get("trade_no") == received["trade_no"])
    assert arrival is not None, "no notification reached the shop"
    headers, raw = arrival
    headers = {name.lower(): value for name, value in headers.items()}
    assert callback_is_genuine(headers["pagsmile-signature"], raw, merchant["security_key"])
    sent = json.loads(raw)
    assert {k: sent[k] for k in ("app_id", "out_trade_no", "method", "trade_status", "amount", "currency")} == {
        "app_id": merchant["app_id"],
        "out_trade_no": tracking_key,
        "method": "SPEI",
        "trade_status": "SUCCESS",
        "amount": arrived,
        "currency": "MXN",
    }
    assert {k: sent["user"][k] for k in ("buyer_id", "email", "identify", "ip", "name")} == {
        "buyer_id": buyer,
        "email": "maria@example.mx",
        "identify": {"number": RFC, "type": "RFC"},
        "ip": "0.0.0.0",
        "name": "María López",
    }
    stamp = sent["transfer_account"].pop("transfer_timestamp")
    assert isinstance(stamp, int) and stamp == received["transfer_timestamp"]
    assert sent["transfer_account"] == {
        "account_id": account["account_id"],
        "account_number": number,
        "beneficiary_name": BENEFICIARY,
        "provider": "STP",
    }


def open_account(shop_api, shop: str, buyer: str) -> dict:
    return shop_api.payin(
        "/virtual-account/spei/create",
        {
            "notify_url": f"{shop}/notify",
            "customer": {
                "buyer_id": buyer,
                "name": "María López",
                "email": "maria@example.mx",
                "identify": {"type": "RFC", "number": RFC},
            },
        },
    )


def test_a_pasted_clabe_pays_the_account_and_once_cancelled_is_refused(
    profile, shot, shop_api, shop, merchant, server_env, notified
):
    typed, arrived, shown = AMOUNTS[profile.name]
    buyer = f"spei-e2e-{profile.name}"
    account = open_account(shop_api, shop, buyer)
    assert (account["status"], account["provider"], account["beneficiary_name"]) == ("ACTIVE", "STP", BENEFICIARY)
    number = account["account_number"]

    profile.grant_permissions(["clipboard-read", "clipboard-write"])
    page = profile.new_page()
    page.goto(account["transfer_url"])
    # A Mexican page: Spanish whatever the browser's language (en-US here); the phone layout on a phone.
    expect(page.locator("html")).to_have_attribute("lang", "es-MX")
    expect(page.locator("body")).to_have_class(f"view-{'h5' if profile.name == 'mobile' else 'web'}")
    expect(page.get_by_role("heading", level=1)).to_have_text("Transferencia SPEI")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")  # nothing runs off the side
    assert serious_violations(page) == []
    shot(page, "spei-transfer")

    send(page, number, typed)
    expect(page.get_by_role("status")).to_have_text("Loja Exemplo recibió tu transferencia.")
    expect(page.get_by_role("heading", name="Transferencia enviada")).to_be_visible()
    expect(page.locator(".result-amount")).to_have_text(shown)
    expect(page.locator("#sent-clabe")).to_have_text(number)
    tracking_key = page.locator("#sent-tracking-key").inner_text()
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    shot(page, "spei-transfer-sent")

    received = arrived_once(shop_api, account, tracking_key, arrived, buyer)
    notified_as_documented(notified, merchant, account, received, buyer)

    # The link is this customer's: another customer's CLABE of the same shop is refused, and nothing is written.
    neighbour_buyer = f"{buyer}-neighbour"
    neighbour = open_account(shop_api, shop, neighbour_buyer)
    before = written(server_env, merchant["app_id"], buyer)
    assert before == {"trades": 1, "trade_events": 2, "transfers": 1, "outbox": 1}
    profile.expected_statuses.add(422)
    expect(page.get_by_role("heading", name="Hacer otra transferencia SPEI")).to_be_visible()
    send(page, neighbour["account_number"], typed)
    expect(page.locator("#clabe-error")).to_have_text(ELSEWHERE)
    expect(page.get_by_role("heading", name="Transferencia enviada")).to_have_count(0)
    shot(page, "spei-transfer-elsewhere")
    assert written(server_env, merchant["app_id"], buyer) == before
    assert written(server_env, merchant["app_id"], neighbour_buyer) == dict.fromkeys(before, 0)
    usage = shop_api.payin("/virtual-account/spei/usage", {"account_id": neighbour["account_id"]})
    assert usage["transfers"] == []

    # Cancelled, the CLABE takes nothing more: the page, still open, says so on the field, and writes nothing.
    cancelled = shop_api.payin("/virtual-account/spei/cancel", {"account_id": account["account_id"]})
    assert cancelled["status"] == "CANCELED" and "transfer_url" not in cancelled
    send(page, number, typed)
    error = page.locator("#clabe-error")
    expect(error).to_have_text("Esta CLABE fue cancelada: ya no recibe transferencias.")
    expect(page.get_by_label(CLABE_LABEL)).to_have_attribute("aria-invalid", "true")
    expect(page.get_by_role("heading", name="Transferencia enviada")).to_have_count(0)
    shot(page, "spei-transfer-cancelled")
    assert written(server_env, merchant["app_id"], buyer) == before
    after = shop_api.payin("/virtual-account/spei/usage", {"account_id": account["account_id"]})["transfers"]
    assert after == [received]
