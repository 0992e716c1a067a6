"""Each payin method's payment page, paid in Chromium with only what the page shows, on a desktop and a phone."""

import io
import re
from datetime import date

import zxingcpp
from babel.dates import format_date
from PIL import Image
from playwright.sync_api import expect

from checkout.brazil import boleto
from checkout.mexico import clabe
from e2e.test_pages import CPF, ORDER, direct, serious_violations
from tests import formats

PAID = {"pt": "Pagamento recebido. Obrigado!", "es": "Pago recibido. ¡Gracias!"}
PASTE_BUTTON = {"pt": "Testes: pagar com o que colei", "es": "Pruebas: pagar con lo que pegué"}
PAY_NOW = {"pt": "Testes: pagar agora", "es": "Pruebas: pagar ahora"}
MEXICAN = {
    "order_currency": "MXN",
    "customer": {
        "name": "Ana López",
        "email": "ana@example.com",
        "phone": "+525512345678",
        "identify": {"type": "RFC", "number": "LOAA800101XY1"},
    },
}
CHILEAN = {
    "order_currency": "CLP",
    "order_amount": "1000",
    "customer": {
        "name": "Ana Rojas",
        "email": "ana@example.com",
        "phone": "+56912345678",
        "identify": {"type": "RUT", "number": "123456785"},
    },
}
# direct()'s 150.00 in pesos as the Mexican pages write it; CHILEAN's amount as Chile's CLDR locale writes it.
MEXICAN_ORDER = formats.money("150.00", "MXN", "es_MX")
CHILEAN_ORDER = formats.money(CHILEAN["order_amount"], "CLP", "es_CL")


def open_page(profile, url: str):
    profile.grant_permissions(["clipboard-read", "clipboard-write"])
    page = profile.new_page()
    page.goto(url)
    expect(page.locator("main h1")).to_be_visible()
    return page


def copied(page, button) -> str:
    """Press a copy button and read back what the clipboard holds."""
    button.click()
    expect(button).to_have_text(re.compile(r"Copiado|Copied"))
    return page.evaluate("navigator.clipboard.readText()")


def checked(page, shot, name: str) -> None:
    """The page as the customer first sees it: axe-core finds nothing serious; a picture for the record."""
    assert serious_violations(page) == [], name
    shot(page, f"pay-{name}")


def pay_by_pasting(page, code: str, lang: str) -> None:
    page.locator(".paste input[name=code]").fill(code)
    page.get_by_role("button", name=PASTE_BUTTON[lang]).click()
    # The paid page replaces this one (whose copy button may still say "Copied" meanwhile).
    expect(page.locator(".pay-result [role=status]")).to_have_text(PAID[lang], timeout=15_000)


def expect_result(page, amount: str, method: str) -> None:
    result = page.locator(".pay-result")
    expect(result).to_contain_text(amount)
    expect(result).to_contain_text(method)
    expect(result).to_contain_text("Loja Exemplo")


def barcode_of(page) -> tuple[str, str]:
    """The bar code image the page shows, fetched as the browser does and read back."""
    source = page.locator(".barcode img").evaluate("image => image.src")  # absolute, as the browser asked
    answer = page.request.get(source)
    assert answer.ok and answer.headers["content-type"] == "image/png"
    (found,) = zxingcpp.read_barcodes(Image.open(io.BytesIO(answer.body())))
    return found.text, found.format.name


def groups_whole(page, selector: str) -> list[str]:
    """The groups of a grouped number (split at spaces) each on one line, and the number inside its box: a phone
    wraps it between groups, never inside one. Answers the groups broken across lines (none, when all is well)."""
    return page.locator(selector).evaluate(
        """element => {
          const node = element.firstChild, text = node.textContent, broken = [];
          let at = 0;
          for (const group of text.split(" ")) {
            const range = document.createRange();
            range.setStart(node, at);
            range.setEnd(node, at + group.length);
            if (range.getClientRects().length > 1) broken.push(group);
            at += group.length + 1;
          }
          if (element.scrollWidth > element.clientWidth + 1) broken.push("overflow");
          return broken;
        }"""
    )


def test_pix(profile, shop_api, shot):
    trade = direct(shop_api, "PIX", f"pm-pix-{profile.name}")
    page = open_page(profile, trade["pay_url"])
    expect(page.locator(".amount")).to_have_text(ORDER)
    button = page.locator("[data-copy=pix-code]")
    expect(button).to_have_count(1)  # one copy action for the one code
    if profile.name == "mobile":  # the phone leads with the copy button; the QR waits, folded
        expect(page.get_by_role("button", name="Copiar código Pix")).to_have_class(re.compile(r"\bwide\b"))
        expect(page.locator("details.fold .qr-box")).to_be_hidden()
    else:
        expect(button).to_have_text("Copiar")
        expect(page.locator(".qr-box svg")).to_be_visible()
    expect(page.locator(".note.collector")).to_have_text(
        "O app do seu banco vai mostrar como recebedor Checkout Sandbox Pagamentos, que recebe este pagamento para "
        "Loja Exemplo."
    )
    checked(page, shot, "pix")
    code = copied(page, button)
    assert code == trade["qr_code"]
    pay_by_pasting(page, code, "pt")
    expect_result(page, ORDER, "Pix")
    assert "/pages/pay?" in page.url


def test_boleto(profile, shop_api, shot):
    trade = direct(shop_api, "Boleto", f"pm-boleto-{profile.name}")
    page = open_page(profile, trade["pay_url"])
    # The due day's last minute, as a date and an hour in Brasília's zone; days away, so no countdown.
    due = format_date(date.fromisoformat(trade["due_date"]), "medium", locale="pt_BR")
    expect(page.locator(".pay-by")).to_have_text(f"Pague até {due}, 23:59 (horário de Brasília)")
    expect(page.locator("[data-countdown]")).to_have_count(0)
    # The typed line in FEBRABAN's groups (5.5 5.6 5.6 1 14), wrapping between them on a phone.
    expect(page.locator("#slip-digits")).to_have_text(boleto.formatted(trade["bank_code"]))
    assert groups_whole(page, "#slip-digits") == []
    expect(page.locator(".amount-due")).to_have_text(ORDER)
    checked(page, shot, "boleto")
    digits, symbology = barcode_of(page)
    line = copied(page, page.locator(".copy-only [data-copy=boleto-digits]"))
    assert symbology == "ITF" and len(digits) == 44 and digits == boleto.barcode_from_linha(line)
    pdf = page.request.get(page.get_by_role("link", name="Baixar PDF").evaluate("link => link.href"))
    assert pdf.headers["content-type"] == "application/pdf" and pdf.body().startswith(b"%PDF")
    assert len(pdf.body()) < 30_000  # text and vector bars, not a picture of a page
    pay_by_pasting(page, boleto.formatted(line), "pt")
    expect_result(page, ORDER, "Boleto")


def test_spei(profile, shop_api, shot):
    trade = direct(shop_api, "SPEI", f"pm-spei-{profile.name}", **MEXICAN)
    page = open_page(profile, trade["pay_url"])
    expect(page.get_by_role("heading", name="Paga por transferencia SPEI")).to_be_visible()
    shown = page.locator("#clabe").input_value()
    assert clabe.validate(shown) == "STP"
    expect(page.locator("#spei-beneficiary")).to_have_value("CHECKOUT SANDBOX MEXICO SA DE CV")
    expect(page.locator("#spei-amount")).to_have_value("150.00")
    expect(page.get_by_role("textbox", name="Monto exacto (MXN)")).to_have_value("150.00")
    expect(page.locator(".note.collector")).to_have_text(
        "La app de tu banco mostrará como beneficiario a CHECKOUT SANDBOX MEXICO SA DE CV, que cobra este pago por "
        "cuenta de Loja Exemplo."
    )
    checked(page, shot, "spei")
    pay_by_pasting(page, copied(page, page.locator(".copy [data-copy=clabe]")), "es")
    expect_result(page, MEXICAN_ORDER, "SPEI")


def test_oxxo(profile, shop_api, shot):
    trade = direct(shop_api, "OXXO", f"pm-oxxo-{profile.name}", **MEXICAN)
    page = open_page(profile, trade["pay_url"])
    # OXXO's 26 digits in fours, the amount with its currency, the store, the fee, and the deadline (five days
    # away: a date and an hour in Mexico City's zone, no countdown).
    digits = trade["barcode"]
    expect(page.locator("#slip-digits")).to_have_text(" ".join(digits[at : at + 4] for at in range(0, 26, 4)))
    assert groups_whole(page, "#slip-digits") == []
    expect(page.locator(".amount-due")).to_have_text(re.compile(rf"^{re.escape(MEXICAN_ORDER)}\s+MXN$"))
    expect(page.locator(".place")).to_have_text("Cualquier tienda OXXO")
    expect(page.locator(".note.fee")).to_have_text("OXXO cobra una comisión en caja, además de este monto.")
    expect(page.locator(".pay-by")).to_have_text(
        re.compile(r"^Paga a más tardar el \d{1,2} \w+ 20\d\d, \d{1,2}:\d\d\W*[ap]\.\W*m\. \(hora central\)$")
    )
    expect(page.locator("[data-countdown]")).to_have_count(0)
    checked(page, shot, "oxxo")
    assert copied(page, page.locator(".copy-only [data-copy=barcode]")) == digits  # the digits alone
    assert barcode_of(page) == (digits, "Code128")
    pay_by_pasting(page, digits, "es")
    expect_result(page, MEXICAN_ORDER, "OXXO")


def test_deposit_express(profile, shop_api, shot):
    trade = direct(shop_api, "DepositExpress", f"pm-dep-{profile.name}", bank="bradesco")
    page = open_page(profile, trade["pay_url"])
    expect(page.locator("#dep-bank")).to_have_value("Banco Bradesco")
    expect(page.locator("#dep-agency")).to_have_value("3381")
    expect(page.locator("#dep-account")).to_have_value("0184522-1")
    expect(page.locator("#dep-holder")).to_have_value("Checkout Sandbox Pagamentos")
    expect(page.locator("#dep-cnpj")).to_have_value("11.222.333/0001-81")
    assert copied(page, page.locator(".copy [data-copy=dep-account]")) == "0184522-1"
    assert copied(page, page.locator(".copy [data-copy=dep-amount]")) == "150,00"  # as a Brazilian app takes it
    checked(page, shot, "deposit-express")
    page.get_by_role("button", name=PAY_NOW["pt"]).click()
    expect(page.get_by_role("status")).to_have_text(PAID["pt"])
    expect_result(page, ORDER, "Depósito bancário")


def test_wallet(profile, shop_api, shot):
    trade = direct(shop_api, "Wallet", f"pm-wallet-{profile.name}", channel="PicPay")
    page = open_page(profile, trade["wallet_url"])
    if profile.name == "mobile":
        app = page.get_by_role("link", name="Abrir PicPay")
        expect(app).to_have_attribute("href", trade["app_link_url"])
        expect(page.get_by_text("Não tem o app PicPay neste celular?")).to_have_text(
            "Não tem o app PicPay neste celular? Instale pela loja de apps e toque no botão de novo, ou copie o "
            "link deste pagamento para pagar em outro celular:"
        )
    else:  # a custom scheme does nothing on a desktop: its QR is scanned with the phone
        expect(page.locator(".qr-box svg")).to_be_visible()
        expect(page.get_by_text("Sem o app neste aparelho? Abra o link desta página no celular:")).to_be_visible()
    expect(page.locator("#wallet-link")).to_have_value(trade["wallet_url"])
    checked(page, shot, "wallet")
    page.get_by_role("button", name=PAY_NOW["pt"]).click()
    expect(page.get_by_role("status")).to_have_text(PAID["pt"])
    expect_result(page, ORDER, "PicPay")
    assert "/pages/pay?" in page.url  # a paid wallet page is the payment page, not /pages/wallet


def test_chilean_cash_in_spanish(profile, shop_api, shot):
    trade = direct(shop_api, "Cash", f"pm-cash-cl-{profile.name}", **CHILEAN)
    page = open_page(profile, trade["pay_url"])
    expect(page.locator("html")).to_have_attribute("lang", "es-MX")
    expect(page.locator(".amount")).to_have_text(CHILEAN_ORDER)
    expect(page.get_by_role("heading", name="Paga con Pago en efectivo")).to_be_visible()
    expect(page.locator(".steps")).to_contain_text("Ve a una tienda participante")
    reference = copied(page, page.locator(".copy [data-copy=reference]"))
    assert reference == trade["reference"]
    # The amount with its currency ("$" alone is several countries'), the deadline two days away as a date and an
    # hour in Chile's zone.
    expect(page.locator(".amount-due")).to_have_text(re.compile(rf"^{re.escape(CHILEAN_ORDER)}\s+CLP$"))
    expect(page.locator(".pay-by")).to_have_text(
        re.compile(r"^Paga a más tardar el \d{1,2}-\d{2}-20\d\d, \d{1,2}:\d\d \(hora de Chile\)$")
    )
    checked(page, shot, "cash-chile")
    pay_by_pasting(page, reference, "es")
    expect_result(page, CHILEAN_ORDER, "Pago en efectivo")


def test_a_wrong_code_is_refused_on_the_page(profile, shop_api):
    profile.expected_statuses.add(422)
    trade = direct(shop_api, "Boleto", f"pm-wrong-{profile.name}")
    other = direct(
        shop_api,
        "Boleto",
        f"pm-other-{profile.name}",
        customer={
            "name": "Bia",
            "phone": "+5511987654322",
            "email": "bia@example.com",
            "identify": {"type": "CPF", "number": CPF},
        },
    )
    page = open_page(profile, trade["pay_url"])
    page.locator(".paste input[name=code]").fill(other["bank_code"])
    page.get_by_role("button", name=PASTE_BUTTON["pt"]).click()
    expect(page.locator(".paste .error")).to_have_text(re.compile(r"^Este não é o código deste pagamento"))
    expect(page.get_by_role("status")).to_have_text("Aguardando o seu pagamento…")
    assert shop_api.payin("/trade/query", {"trade_no": trade["trade_no"]})["trade_status"] == "PROCESSING"
