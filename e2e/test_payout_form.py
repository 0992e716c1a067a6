"""The payout checkout form in Chromium: every method the pages offer completed with one round of errors."""

import re
import time
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal

import pytest
from playwright.sync_api import expect

from e2e.test_pages import claims_of, serious_violations
from tests import formats
from tests.translations.catalogues import LOCALES, TEXTS

CPF = "39053344705"
CLABE = "002010077777777771"  # Banamex's published example
# The payout API's English rules, and the lead-in the page once put before them.
API_ENGLISH = re.compile(r"is required for this method|must be |digits only|Confira este campo|Revisa este campo")
# The page texts whose English is not also their Portuguese (placeholders left out).
PORTUGUESE = LOCALES.index("pt_BR")
ENGLISH = [
    english
    for english, shown in TEXTS.items()
    if "%(" not in english and len(english) > 6 and english != shown[PORTUGUESE]
]


@dataclass
class Method:
    """A session's country and method, what its form looks like wrong or empty, and its fix."""

    name: str
    session: dict
    method: str
    wrong: dict  # input id -> value (a select's value for a <select>)
    errors: dict  # input id -> the message shown under it
    right: dict
    language: str = "pt-BR"
    extra: dict = field(default_factory=dict)


BRAZIL = {"country": "BRA", "payout_currency": "BRL", "payout_amount": "500.00"}
REQUIRED = "Este campo é obrigatório."
DOCUMENT = "Informe um CPF (11 dígitos) ou CNPJ (14 dígitos) válido."
METHODS = [
    Method(
        "pix-cpf",
        BRAZIL,
        "PIX",
        wrong={"name": "", "document_id": "123", "pix_key_type": "CPF", "pix_key": "111", "email": "ana.example"},
        errors={
            "name": REQUIRED,
            "document_id": DOCUMENT,
            "pix_key": "Este CPF não é válido: informe os 11 dígitos.",
            "email": "Informe um e-mail válido.",
        },
        right={"name": "Ana Souza", "document_id": "390.533.447-05", "pix_key": CPF, "email": "ana@example.com"},
    ),
    Method(
        "pix-phone",
        BRAZIL,
        "PIX",
        wrong={"name": "", "document_id": "", "pix_key_type": "PHONE", "pix_key": "+55 00 1234"},
        errors={
            "name": REQUIRED,
            "document_id": REQUIRED,
            "pix_key": "Informe um celular brasileiro com DDD.",
        },
        right={"name": "Ana Souza", "document_id": CPF, "pix_key": "(11) 98765-4321"},
    ),
    Method(
        "banktransfer",
        BRAZIL,
        "BANKTRANSFER",
        wrong={"name": "", "document_id": "39053344704", "branch": "12", "account_number": "", "account_digit": "AB"},
        errors={
            "name": REQUIRED,
            "document_id": DOCUMENT,
            "branch": "Informe os 4 dígitos da agência, sem o dígito verificador.",
            "account_number": REQUIRED,
            "account_digit": "Informe o dígito da conta: 1 ou 2 dígitos, ou X.",
        },
        right={
            "name": "Ana Souza",
            "document_id": CPF,
            "bank_code": "341",
            "branch": "0001",
            "account_number": "123456",
            "account_digit": "7",
            "account_type": "SAVINGS",
        },
    ),
    Method(
        "spei",
        {"country": "MEX", "payout_currency": "MXN", "payout_amount": "2000.00"},
        "SPEI",
        wrong={"name": "", "clabe": "002010077777777772"},
        errors={
            "name": "Este campo es obligatorio.",
            "clabe": "El último dígito de esta CLABE no coincide: revisa los 18 dígitos.",
        },
        right={"name": "Ana López", "clabe": CLABE},
        language="es-MX",
    ),
    Method(
        "wallet",
        {"payout_currency": "USD", "payout_amount": "50.00"},
        "WALLET",
        wrong={"name": "", "wallet_channel": "PAYPAL", "wallet_account": "ana", "email": "x@"},
        errors={
            "name": "This field is required.",
            "wallet_account": "Enter the e-mail address of your PayPal account.",
            "email": "Enter a valid e-mail address.",
        },
        right={"name": "Ana López", "wallet_account": "ana@example.com", "email": ""},
        language="en",
    ),
]


def session_of(shop_api, shop, code: str, method: Method) -> dict:
    return shop_api.payout(
        "/checkout",
        {
            "user_id": "u1",
            "custom_code": code,
            "fee_bear": "merchant",
            "source_currency": "USD",
            "notify_url": f"{shop}/notify",
            "return_url": f"{shop}/back",
            "additional_remark": "withdrawal",
            **method.session,
        },
    )


def fill(page, values: dict) -> None:
    for element_id, value in values.items():
        control = page.locator(f"#{element_id}")
        if control.evaluate("e => e.tagName") == "SELECT":
            control.select_option(value)
        else:
            control.fill(value)


def shown_errors(page) -> dict:
    return dict(
        page.locator("p.error").evaluate_all("els => els.map(e => [e.id.replace(/-error$/, ''), e.textContent])")
    )


@pytest.mark.parametrize("method", METHODS, ids=[m.name for m in METHODS])
def test_completed_with_one_round_of_errors(profile, shot, shop_api, shop, merchant, method):
    profile.expected_statuses.add(422)  # the form answered with its errors
    code = f"form-{method.name}-{profile.name}"
    session = session_of(shop_api, shop, code, method)
    page = profile.new_page()
    page.goto(session["checkout_url"])
    expect(page.locator("html")).to_have_attribute("lang", method.language)
    card = page.locator(f"input[name=method][value={method.method}]")
    if not card.is_checked():  # chosen with the keyboard, as the cards are radio buttons
        page.locator("input[name=method]:checked").focus()
        page.keyboard.press("ArrowRight")
    expect(card).to_be_checked()
    expect(page.locator(f"fieldset[data-method={method.method}]")).to_be_visible()
    fill(page, method.wrong)
    page.locator("button[data-once]").click()

    # The page's own findings and, where it has some, the server's on the rest (asked without sending the
    # form), or the server's answer to the form: every problem in this one round.
    expect(page.locator("p.error")).to_have_count(len(method.errors))
    expect(page.locator("form[aria-busy]")).to_have_count(0)
    assert shown_errors(page) == method.errors
    expect(card).to_be_checked()  # the choice and the answers stay as they were sent
    text = page.locator("body").inner_text()
    assert not API_ENGLISH.search(text)
    if method.language != "en":
        assert [english for english in ENGLISH if re.search(rf"\b{re.escape(english)}\b", text)] == []
    if method.method == "BANKTRANSFER" and profile.name == "mobile":
        width = page.viewport_size["width"]
        for element_id in ("branch", "account_number", "account_digit"):
            box = page.locator(f"#{element_id}").bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= width, element_id
    assert serious_violations(page) == []
    shot(page, f"payout-{method.name}-errors")

    fill(page, method.right)
    shot(page, f"payout-{method.name}-fixed")
    page.locator("button[data-once]").click()
    expect(page.get_by_role("heading", name="Back at the shop")).to_be_visible()
    claims = claims_of(page.url, merchant["app_key"])
    assert (claims["custom_code"], claims["status"]) == (code, "IN_PROCESSING")
    status = shop_api.payout("/payout/status", {"custom_code": code})
    assert status["payout_id"] == claims["sub"]


def test_figures_and_deadline_a_payee_reads(profile, shot, shop_api, shop):
    """What arrives, the fee and the IOF in reais, who pays them, and the expiry in Brasília time."""
    method = METHODS[0]
    session = session_of(shop_api, shop, f"form-figures-{profile.name}", method)
    page = profile.new_page()
    page.goto(session["checkout_url"])
    figures = shop_api.payout(
        "/payout/dry-run",
        {
            "source_currency": "USD",
            "arrival_currency": "BRL",
            "amount": "500.00",
            "amount_type": "arrival_amount",
            "fee_bear": "merchant",
            "method": "PIX",
            "country": "BRA",
            "timestamp": int(time.time()),
        },
    )
    rate = Decimal(figures["exchange_rate"])

    def reais(value: str) -> str:
        return formats.money((Decimal(value) * rate).quantize(Decimal("0.01"), ROUND_HALF_UP), "BRL", "pt_BR")

    quote = page.locator(".quote[data-method=PIX]")
    expect(quote.locator("dd.receive")).to_have_text(formats.money("500.00", "BRL", "pt_BR"))
    expect(quote.locator("dd").nth(1)).to_have_text(reais(figures["fee"]))
    expect(quote.locator("dd").nth(2)).to_have_text(reais(figures["tax"]))
    expect(quote.locator(".note")).to_have_text("Tarifa e impostos pagos por Loja Exemplo.")
    expect(page.locator(".quote[data-method=BANKTRANSFER]")).to_be_hidden()
    said = formats.deadline(session["expire_time"], "America/Sao_Paulo", "pt_BR")
    expect(page.locator(".deadline")).to_have_text(f"Esta página expira às {said.time} ({said.zone}).")
    page.locator("#pix_key_type").select_option("PHONE")
    expect(page.locator("#pix_key")).to_have_attribute("placeholder", "+55 11 98765-4321")
    # The document as printed on the card: said in its hint, taken by the browser's own check.
    expect(page.locator("#document_id-hint")).to_have_text(
        "Com ou sem pontos, traços e barras, como 123.456.789-09 ou 12.345.678/0001-95."
    )
    for printed in ("390.533.447-05", "11.222.333/0001-81", "39053344705"):
        page.locator("#document_id").fill(printed)
        assert page.locator("#document_id").evaluate("el => el.checkValidity()"), printed
    page.locator("#document_id").fill("390.533.447")
    assert not page.locator("#document_id").evaluate("el => el.checkValidity()")
    shot(page, "payout-figures")
