"""Local habits on the hosted pages: one copy action per value, amounts as the page's country writes them, the
collector as the customer's bank app shows it, payout figures that add up, and documents typed as printed."""

import html
import re

import pytest
from sqlalchemy import select

from checkout.db import db
from checkout.pages.forms import PRINTED_DOCUMENTS, document_pattern, without_punctuation
from checkout.payouts.accounts.common import DOCUMENTS
from checkout.payouts.models import Payout
from tests import builders
from tests.pages.conftest import form_action, input_value
from tests.virtualspei.builders import open_account

from .helpers import create, page_url, pix_form, send_transfer

MX = {"order_currency": "MXN", "customer": {"identify": {"type": "RFC", "number": "ABCD800101XYZ"}}}
MEXICAN_COLLECTOR = "CHECKOUT SANDBOX MEXICO SA DE CV"


def trade_of(api, method: str, **extra) -> dict:
    return api.post("/trade/pay", builders.direct(method, **extra), expect=200)


def text_of(response) -> str:
    return html.unescape(response.get_data(as_text=True))


def copy_targets(page_html: str) -> list[str]:
    return re.findall(r'data-copy="([^"]+)"', page_html)


# 1. One copy action per thing to copy


@pytest.mark.parametrize("view", ["h5", "web"])
def test_pix_has_one_copy_action_for_its_code(customer, api, view):
    trade = trade_of(api, "PIX")
    page = text_of(customer.get(f"{trade['pay_url']}&view={view}"))
    assert copy_targets(page) == ["pix-code"]
    button = re.search(
        r'<button type="button" class="button ([a-z]+)" data-copy="pix-code"[^>]*>([^<]+)</button>', page
    )
    assert button.groups() == (("wide", "Copiar código Pix") if view == "h5" else ("secondary", "Copiar"))


@pytest.mark.parametrize("view", ["h5", "web"])
def test_pix_automatico_has_one_copy_action_for_its_code(customer, api, view):
    from checkout import clock

    vault = api.post("/vault/create", builders.pix_vault(clock.brazil_today()), expect=200)
    page = text_of(customer.get(f"{vault['checkout_url']}&view={view}"))
    assert copy_targets(page) == ["pix-code"]
    assert ("Copiar código Pix</button>" in page) == (view == "h5")


@pytest.mark.parametrize(
    "method, extra",
    [("DepositExpress", {"bank": "caixa"}), ("SPEI", MX), ("Wallet", {"channel": "PicPay"})],
)
@pytest.mark.parametrize("view", ["h5", "web"])
def test_each_value_has_one_copy_action(customer, api, method, extra, view):
    trade = trade_of(api, method, **extra)
    targets = copy_targets(text_of(customer.get(f"{trade.get('pay_url') or trade['wallet_url']}&view={view}")))
    assert targets and len(targets) == len(set(targets)), targets


# 2. Amounts as the page's country writes them


def test_exact_amount_in_brazil_is_written_with_a_comma(customer, api):
    trade = trade_of(api, "DepositExpress", bank="caixa", order_amount="1234.56")
    page = customer.get(trade["pay_url"])
    assert input_value(page, "dep-amount") == "1234,56"  # what a Brazilian bank app's amount field takes
    assert "<dt>Valor exato (R$)</dt>" in text_of(page)
    assert 'aria-label="Valor exato (R$)"' in text_of(page)


def test_exact_amount_in_mexico_is_written_with_a_point(customer, api):
    page = customer.get(trade_of(api, "SPEI", **MX)["pay_url"])
    assert input_value(page, "spei-amount") == "100.50"
    assert "<dt>Monto exacto (MXN)</dt>" in text_of(page)


def test_exact_amount_in_english_names_the_currency(customer, api):
    page = customer.get(
        trade_of(api, "DepositExpress", bank="caixa", order_amount="120.00")["pay_url"] + "&language=en"
    )
    assert input_value(page, "dep-amount") == "120.00"
    assert "<dt>Exact amount (R$)</dt>" in text_of(page)


@pytest.mark.parametrize(
    "name, typed, label",
    [
        ("ar-transfer", "1500,00", "Monto exacto (ARS)"),
        ("bo-transfer", "250,75", "Monto exacto (Bs)"),
        ("pa-transfer", "45.10", "Monto exacto (USD)"),
    ],
)
def test_bank_details_amount_in_the_countrys_writing(customer, api, name, typed, label):
    page = customer.get(page_url(create(api, name)))
    assert input_value(page, "bank-amount") == typed
    assert f"<dt>{label}</dt>" in text_of(page)


# 3. The collector as the customer's bank app shows it


def test_spei_names_the_mexican_collector_and_says_what_the_bank_app_shows(customer, api):
    page = customer.get(trade_of(api, "SPEI", **MX)["pay_url"])
    assert input_value(page, "spei-beneficiary") == MEXICAN_COLLECTOR
    assert (
        f'<p class="note collector">La app de tu banco mostrará como beneficiario a {MEXICAN_COLLECTOR}, '
        "que cobra este pago por cuenta de Loja Exemplo.</p>"
    ) in text_of(page)


def test_pix_says_who_the_bank_app_shows_as_receiver(customer, api):
    page = customer.get(trade_of(api, "PIX")["pay_url"])
    assert (
        '<p class="note collector">O app do seu banco vai mostrar como recebedor Checkout Sandbox Pagamentos, '
        "que recebe este pagamento para Loja Exemplo.</p>"
    ) in text_of(page)


def test_deposit_says_who_the_bank_app_shows_as_beneficiary(customer, api):
    page = customer.get(trade_of(api, "DepositExpress", bank="caixa")["pay_url"])
    assert input_value(page, "dep-holder") == "Checkout Sandbox Pagamentos"
    assert (
        "O app do seu banco vai mostrar como favorecido Checkout Sandbox Pagamentos, "
        "que recebe este pagamento para Loja Exemplo."
    ) in text_of(page)


def test_bank_details_name_the_local_collector_as_the_api_does(customer, api):
    trade = create(api, "ar-transfer")
    page = customer.get(page_url(trade))
    assert '"name":"Checkout Sandbox Pagos S.A."' in trade["instruction"]
    assert input_value(page, "bank-holder") == "Checkout Sandbox Pagos S.A."
    assert (
        "La app de tu banco mostrará como beneficiario a Checkout Sandbox Pagos S.A., "
        "que cobra este pago por cuenta de Loja Exemplo."
    ) in text_of(page)


def test_virtual_spei_account_and_its_transfer_page_name_the_mexican_collector(customer, api):
    account = open_account(api)
    assert account["beneficiary_name"] == MEXICAN_COLLECTOR
    sent = send_transfer(customer, customer.get(account["transfer_url"]), account["account_number"], "250.00")
    assert f"<dt>Beneficiario</dt><dd>{MEXICAN_COLLECTOR}</dd>" in text_of(sent)


# 4. Payout figures that add up to the cent


@pytest.fixture
def session_of(payout_api, merchant, fund):
    fund(merchant, "USD", "1000.00")

    def make(**overrides) -> str:
        body = builders.checkout_session("co-1", method=..., **overrides)
        return payout_api.post("/checkout", body, expect=200)["data"]["checkout_url"]

    return make


def figures_of(page_html: str, method: str) -> list[tuple[str, str]]:
    quote = re.search(rf'<div class="quote" data-method="{method}">(.*?)</div>', page_html, re.DOTALL).group(1)
    return re.findall(r"<dt>([^<]+)</dt><dd[^>]*>([^<]+)</dd>", quote)


def test_mexican_payout_figures_add_up_to_the_session_amount(customer, session_of):
    """2,000.00 MXN asked, the payee bearing fee and taxes: 2,000.00 sent (it once read 2,000.15, each figure
    converted back from dollars on its own), and sent - fee - taxes = what arrives, to the cent."""
    url = session_of(fee_bear="beneficiary", country="MEX", payout_currency="MXN", payout_amount="2000.00")
    assert figures_of(text_of(customer.get(url)), "SPEI") == [
        ("Recibes", "$1,970.33"),
        ("Monto enviado", "$2,000.00"),
        ("Comisión", "$25.62"),
        ("Impuestos", "$4.05"),
    ]


def test_brazilian_payout_figures_add_up_in_reais(customer, session_of):
    page = text_of(customer.get(session_of(fee_bear="beneficiary")))
    assert figures_of(page, "BANKTRANSFER") == [
        ("Você recebe", "R$\xa0490,23"),
        ("Valor enviado", "R$\xa0500,00"),
        ("Tarifa", "R$\xa07,89"),
        ("Impostos", "R$\xa01,88"),
    ]


# 5. The wallet page on a phone


def test_wallet_on_a_phone_says_what_to_do_without_the_app(customer, api):
    trade = trade_of(api, "Wallet", channel="PicPay")
    url = trade.get("pay_url") or trade["wallet_url"]
    phone = text_of(customer.get(f"{url}&view=h5"))
    desktop = text_of(customer.get(f"{url}&view=web"))
    assert (
        "Não tem o app PicPay neste celular? Instale pela loja de apps e toque no botão de novo, "
        "ou copie o link deste pagamento para pagar em outro celular:"
    ) in phone
    assert "no celular:" not in phone
    assert "Sem o app neste aparelho? Abra o link desta página no celular:" in desktop
    assert 'class="qr-box"' in desktop


# 6. Documents typed with their usual punctuation

PRINTED = [(country, kind) for country, kinds in PRINTED_DOCUMENTS.items() for kind in kinds]
BARE = {
    ("BRA", "CPF"): "12345678909",
    ("BRA", "CNPJ"): "12345678000195",
    ("MEX", "RFC"): "GODE561231GR8",
    ("MEX", "CURP"): "GODE561231HDFRRN09",
    ("ARG", "CUIT"): "20123456789",
    ("CHL", "RUT"): "123456785",
    ("COL", "CC"): "1020304050",
    ("COL", "NIT"): "9001234567",
    ("PER", "DNI"): "45678912",
    ("PER", "RUC"): "20123456789",
    ("URY", "CI"): "12345672",
    ("URY", "RUT"): "212345670018",
}


@pytest.mark.parametrize("country, kind", PRINTED, ids=[f"{c}-{k}" for c, k in PRINTED])
def test_each_countrys_document_typed_as_printed_is_accepted(country, kind):
    printed = PRINTED_DOCUMENTS[country][kind].example
    pattern = document_pattern(country)
    assert re.fullmatch(pattern, printed)  # the browser's check of the typed value
    assert re.fullmatch(pattern, BARE[country, kind])  # digits alone, too
    assert without_punctuation(printed) == BARE[country, kind]  # what the server checks and sends
    rule = DOCUMENTS.get(country, {}).get(kind)
    if rule:  # the payout API's own rule for it takes the filtered value
        assert re.fullmatch(rule[0], BARE[country, kind])


def test_the_payout_page_takes_a_cpf_and_a_cnpj_as_printed(app, customer, session_of):
    url = session_of()
    page = customer.get(url)
    page_html = text_of(page)
    field = re.search(r'<input[^>]*id="document_id"[^>]*>', page_html).group(0)
    assert f'pattern="{document_pattern("BRA")}"' in field
    assert (
        '<small class="hint" id="document_id-hint">Com ou sem pontos, traços e barras, como 123.456.789-09 ou '
        "12.345.678/0001-95.</small>"
    ) in page_html
    sent = customer.post(
        form_action(page, "/pages/payout"),
        pix_form(document_id="390.533.447-05", pix_key_type="CNPJ", pix_key="11.222.333/0001-81"),
        page=page,
    )
    assert sent.status_code == 303
    with app.app_context():
        payout = db.session.scalar(select(Payout))
        assert (payout.document_id, payout.account) == ("39053344705", "11222333000181")


def test_a_cnpj_as_printed_is_the_payees_document(app, customer, session_of):
    page = customer.get(session_of())
    sent = customer.post(form_action(page, "/pages/payout"), pix_form(document_id="11.222.333/0001-81"), page=page)
    assert sent.status_code == 303
    with app.app_context():
        assert db.session.scalar(select(Payout.document_id)) == "11222333000181"


def test_a_document_of_the_wrong_length_is_refused_as_typed(customer, session_of):
    page = customer.get(session_of())
    answer = customer.post(form_action(page, "/pages/payout"), pix_form(document_id="390.533.447"), page=page)
    assert answer.status_code == 422
    assert (
        '<p class="error" id="document_id-error">Informe um CPF (11 dígitos) ou CNPJ (14 dígitos) válido.</p>'
        in text_of(answer)
    )
