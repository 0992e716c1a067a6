"""The payout checkout page in one pass: every problem of a form at once, in the page's language; the payee's
figures in their currency; the expiry time in the session's country's zone."""

import html
import re
from datetime import UTC, datetime
from decimal import ROUND_HALF_UP, Decimal

import pytest
from babel.dates import get_timezone, get_timezone_name
from babel.numbers import get_currency_symbol, parse_decimal
from sqlalchemy import select

from checkout.db import db
from checkout.pages.i18n import zone_name
from checkout.payouts.models import CheckoutSession
from tests import builders, formats
from tests.pages.conftest import form_action

LANGUAGES = ("en", "pt-BR", "es-MX")
REQUIRED = ("This field is required.", "Este campo é obrigatório.", "Este campo es obligatorio.")
DOCUMENT = (
    "Enter a valid CPF (11 digits) or CNPJ (14 digits).",
    "Informe um CPF (11 dígitos) ou CNPJ (14 dígitos) válido.",
    "Ingresa un CPF (11 dígitos) o CNPJ (14 dígitos) válido.",
)
EMAIL = ("Enter a valid e-mail address.", "Informe um e-mail válido.", "Ingresa un correo electrónico válido.")
CPF_KEY = (
    "This CPF is not valid: enter its 11 digits.",
    "Este CPF não é válido: informe os 11 dígitos.",
    "Este CPF no es válido: ingresa sus 11 dígitos.",
)
PHONE_KEY = (
    "Enter a Brazilian mobile number with its area code.",
    "Informe um celular brasileiro com DDD.",
    "Ingresa un celular brasileño con su código de área.",
)
BANK = ("Choose your bank from the list.", "Escolha o seu banco na lista.", "Elige tu banco de la lista.")
BRANCH = (
    "Enter the branch's 4 digits, without its check digit.",
    "Informe os 4 dígitos da agência, sem o dígito verificador.",
    "Ingresa los 4 dígitos de la sucursal, sin su dígito verificador.",
)
ACCOUNT = (
    "Enter the account number: 4 to 18 digits.",
    "Informe o número da conta: de 4 a 18 dígitos.",
    "Ingresa el número de cuenta: de 4 a 18 dígitos.",
)
DIGIT = (
    "Enter the check digit: 1 or 2 digits, or X.",
    "Informe o dígito da conta: 1 ou 2 dígitos, ou X.",
    "Ingresa el dígito verificador: 1 o 2 dígitos, o X.",
)
CHOOSE = ("Choose one of the options.", "Escolha uma das opções.", "Elige una de las opciones.")
CLABE = ("A CLABE has 18 digits.", "A CLABE tem 18 dígitos.", "La CLABE tiene 18 dígitos.")
# What the payout API's English rules look like, and the lead-in the page once put before them.
API_ENGLISH = re.compile(r"is required for this method|must be |digits only|Confira este campo|Revisa este campo")


@pytest.fixture
def session_of(payout_api, merchant, fund):
    fund(merchant, "USD", "1000.00")

    def make(code: str = "co-1", **overrides) -> str:
        body = builders.checkout_session(code, method=..., **overrides)
        return payout_api.post("/checkout", body, expect=200)["data"]["checkout_url"]

    return make


def errors_of(answer) -> dict[str, str]:
    """Each input's error message, by the input's id."""
    found = re.findall(r'<p class="error" id="([a-z_]+)-error">([^<]*)</p>', answer.get_data(as_text=True))
    return {field: html.unescape(message) for field, message in found}


def send(customer, url: str, language: str, form: dict):
    page = customer.get(f"{url}&language={language}")
    return customer.post(form_action(page, "/pages/payout"), form, page=page)


# What a browser sends from a form left empty: every text empty, each select on its first option.
EMPTY = {
    "name": "",
    "document_id": "",
    "email": "",
    "pix_key_type": "CPF",
    "pix_key": "",
    "bank_code": "001",
    "branch": "",
    "account_number": "",
    "account_digit": "",
    "account_type": "CHECKING",
    "clabe": "",
}


@pytest.mark.parametrize("index, language", list(enumerate(LANGUAGES)))
def test_an_empty_pix_form_answers_every_error_at_once(customer, session_of, row_counts, index, language):
    url = session_of()
    before = row_counts()
    answer = send(customer, url, language, {**EMPTY, "method": "PIX"})
    assert answer.status_code == 422
    assert errors_of(answer) == {"name": REQUIRED[index], "document_id": REQUIRED[index], "pix_key": REQUIRED[index]}
    assert row_counts() == before


@pytest.mark.parametrize("index, language", list(enumerate(LANGUAGES)))
def test_a_wrong_pix_form_answers_every_error_at_once(customer, session_of, row_counts, index, language):
    url = session_of()
    before = row_counts()
    form = {**EMPTY, "method": "PIX", "document_id": "123", "email": "ana.example.com", "pix_key": "39053344704"}
    answer = send(customer, url, language, form)
    assert answer.status_code == 422
    assert errors_of(answer) == {
        "name": REQUIRED[index],
        "document_id": DOCUMENT[index],
        "email": EMAIL[index],
        "pix_key": CPF_KEY[index],
    }
    if language != "en":
        assert not API_ENGLISH.search(answer.get_data(as_text=True))
    phone = send(customer, url, language, {**form, "pix_key_type": "PHONE", "pix_key": "+55 00 1234"})
    assert errors_of(phone)["pix_key"] == PHONE_KEY[index]
    assert row_counts() == before


@pytest.mark.parametrize("index, language", list(enumerate(LANGUAGES)))
def test_a_wrong_bank_transfer_form_answers_every_error_at_once(customer, session_of, row_counts, index, language):
    url = session_of()
    before = row_counts()
    form = {
        **EMPTY,
        "method": "BANKTRANSFER",
        "name": "Ana Souza",
        "document_id": "39053344704",
        "bank_code": "999",
        "branch": "12",
        "account_number": "12a",
        "account_digit": "ABC",
        "account_type": "LOAN",
    }
    answer = send(customer, url, language, form)
    assert answer.status_code == 422
    assert errors_of(answer) == {
        "document_id": DOCUMENT[index],
        "bank_code": BANK[index],
        "branch": BRANCH[index],
        "account_number": ACCOUNT[index],
        "account_digit": DIGIT[index],
        "account_type": CHOOSE[index],
    }
    if language != "en":
        assert not API_ENGLISH.search(answer.get_data(as_text=True))
    assert row_counts() == before


@pytest.mark.parametrize("index, language", list(enumerate(LANGUAGES)))
def test_a_wrong_spei_form_answers_every_error_at_once(customer, session_of, row_counts, index, language):
    url = session_of("mx", country="MEX", payout_currency="MXN")
    before = row_counts()
    answer = send(customer, url, language, {"method": "SPEI", "name": "", "email": "x@", "clabe": "0020100777"})
    assert answer.status_code == 422
    assert errors_of(answer) == {"name": REQUIRED[index], "email": EMAIL[index], "clabe": CLABE[index]}
    assert row_counts() == before


def test_fixing_every_error_completes_in_the_next_submit(customer, session_of):
    url = session_of()
    page = customer.get(url)
    action = form_action(page, "/pages/payout")
    assert customer.post(action, {**EMPTY, "method": "PIX"}, page=page).status_code == 422
    # As people write them: a CPF with its dots and dash, a phone with spaces and brackets.
    fixed = {**EMPTY, "method": "PIX", "name": "Ana Souza", "document_id": "390.533.447-05"}
    answer = customer.post(action, {**fixed, "pix_key_type": "PHONE", "pix_key": "(11) 98765-4321"}, page=page)
    assert answer.status_code == 303


def test_pix_key_types_in_peoples_words(customer, session_of):
    url = session_of()
    options = {
        "en": ["CPF", "CNPJ", "Mobile phone", "E-mail", "Random key"],
        "pt-BR": ["CPF", "CNPJ", "Celular", "E-mail", "Chave aleatória"],
        "es-MX": ["CPF", "CNPJ", "Celular", "Correo electrónico", "Llave aleatoria"],
    }
    for language, labels in options.items():
        page = customer.get(f"{url}&language={language}").get_data(as_text=True)
        select = re.search(r'<select[^>]*id="pix_key_type".*?</select>', page, re.DOTALL).group(0)
        assert re.findall(r'value="([A-Z]+)"', select) == ["CPF", "CNPJ", "PHONE", "EMAIL", "EVP"]
        assert [html.unescape(label) for label in re.findall(r">([^<]+)</option>", select)] == labels
        assert 'placeholder="123.456.789-09"' in page  # the example of the type shown first


def test_fee_and_arrival_in_the_payees_currency(customer, payout_api, session_of):
    """A USD-funded 500.00 BRL session: what arrives, the fee and the IOF in reais at the quote's rate."""
    url = session_of(fee_bear="beneficiary")
    quote = payout_api.post(
        "/payout/dry-run",
        builders.dry_run(amount="500.00", amount_type="arrival", fee_bear="beneficiary"),
        expect=200,
    )["data"]
    rate = Decimal(quote["exchange_rate"])

    def reais(value: str) -> str:
        return formats.money((Decimal(value) * rate).quantize(Decimal("0.01"), ROUND_HALF_UP), "BRL", "pt_BR")

    page = customer.get(url).get_data(as_text=True)
    pix = re.search(r'<div class="quote" data-method="PIX">(.*?)</div>', page, re.DOTALL).group(1)
    arrival = formats.money(quote["arrival_amount"], "BRL", "pt_BR")
    assert f'<dd class="receive">{arrival}</dd>' in pix
    assert f"<dt>Valor enviado</dt><dd>{formats.money('500.00', 'BRL', 'pt_BR')}</dd>" in pix
    assert f"<dt>Tarifa</dt><dd>{reais(quote['fee'])}</dd>" in pix
    assert f"<dt>Impostos</dt><dd>{reais(quote['tax'])}</dd>" in pix
    assert "A tarifa e os impostos são descontados do valor enviado." in pix
    assert get_currency_symbol("USD", "pt_BR") not in page  # no figure in the source currency


def expiry_of(app, zone: str, language: str) -> str:
    """The session's expiry as the page's sentence says it in `zone`: its time and the zone's CLDR name."""
    with app.app_context():
        expires = db.session.scalar(select(CheckoutSession.expires_at))
    said = formats.deadline(expires.replace(tzinfo=expires.tzinfo or UTC), zone, language)
    return f"{said.time} ({said.zone})"


def test_expiry_in_brasilia_time_whatever_the_language(app, customer, session_of):
    url = session_of()
    pt = customer.get(url).get_data(as_text=True)
    en = customer.get(url + "&language=en").get_data(as_text=True)
    assert f"Esta página expira às {expiry_of(app, 'America/Sao_Paulo', 'pt_BR')}." in pt
    assert f"This page expires at {expiry_of(app, 'America/Sao_Paulo', 'en')}." in html.unescape(en)


def test_expiry_in_mexico_city_time(app, customer, session_of):
    url = session_of("mx", country="MEX", payout_currency="MXN")
    es = customer.get(url).get_data(as_text=True)
    en = html.unescape(customer.get(url + "&language=en").get_data(as_text=True))
    assert f"Esta página vence a las {expiry_of(app, 'America/Mexico_City', 'es_MX')}." in es
    assert f"This page expires at {expiry_of(app, 'America/Mexico_City', 'en')}." in en


def test_method_choice_as_cards_with_marks(customer, session_of):
    page = customer.get(session_of()).get_data(as_text=True)
    cards = re.findall(r'<label class="method-card"><input[^>]*value="([A-Z]+)"[^>]*><svg class="mark', page)
    assert cards == ["PIX", "BANKTRANSFER"]


@pytest.mark.parametrize(
    "zone, locale",
    [
        ("America/Sao_Paulo", "en"),
        ("America/Sao_Paulo", "pt_BR"),
        ("America/Mexico_City", "es_MX"),
        ("America/Mexico_City", "en"),
        ("America/Bogota", "es_MX"),
    ],
)
def test_zone_names_come_from_cldr(zone, locale):
    """CLDR's long generic name of the zone, begun in lower case inside a Portuguese or Spanish sentence."""
    cldr = get_timezone_name(get_timezone(zone), "long", locale=locale)
    name = zone_name(zone, locale, datetime(2026, 1, 15, 12, tzinfo=UTC))
    assert name[1:] == cldr[1:] and name[:1] == (cldr[:1] if locale == "en" else cldr[:1].lower()), (name, cldr)


@pytest.mark.parametrize("locale", ["en", "pt_BR", "es_MX"])
def test_utc_is_named_at_the_moment_for_cldr_has_no_region_for_it(locale):
    moment = datetime(2026, 1, 15, 12, tzinfo=UTC)
    regionless = get_timezone_name(get_timezone("UTC"), "long", locale=locale)  # CLDR's name for no region
    at_the_moment = get_timezone_name(moment.astimezone(get_timezone("UTC")), "long", locale=locale)
    assert regionless != at_the_moment
    assert zone_name("UTC", locale, moment).lower() == at_the_moment.lower()


@pytest.mark.parametrize(
    "overrides, locale",
    [
        ({"fee_bear": "beneficiary"}, "pt_BR"),
        ({"fee_bear": "beneficiary", "country": "MEX", "payout_currency": "MXN", "payout_amount": "2000.00"}, "es_MX"),
    ],
)
def test_the_payees_figures_add_up_to_the_cent(customer, session_of, overrides, locale):
    """Sent = received + fee + taxes as the page writes them, though each is converted and rounded on its own
    (2,000.00 MXN asked once showed 1,970.33 received, 25.77 fee and 4.05 taxes, 0.15 apart)."""
    page = customer.get(session_of(**overrides)).get_data(as_text=True)
    for quote in re.findall(r'<div class="quote" data-method="[A-Z]+">(.*?)</div>', page, re.DOTALL):
        figures = [
            parse_decimal(re.sub(r"[^\d.,]", "", value), locale=locale)
            for value in re.findall(r"<dd[^>]*>([^<]+)</dd>", quote)
        ]
        received, sent, fee, *tax = figures
        assert received + fee + sum(tax) == sent, quote


def test_the_page_script_can_ask_for_the_servers_findings_without_sending(customer, session_of, row_counts):
    """What the form's script asks when it has found problems of its own: the server's findings on every input,
    as JSON, the same messages the 422 page would show; a form without any is not sent by this request either."""
    url = session_of()
    page = customer.get(f"{url}&language=pt-BR")
    before = row_counts()
    wrong = {**EMPTY, "method": "PIX", "document_id": "123", "email": "ana.example.com", "pix_key": "39053344704"}
    checked = customer.post(form_action(page, "/pages/payout"), wrong, page=page, **{"X-Checkout-Check": "1"})
    assert checked.status_code == 200 and checked.is_json
    assert checked.get_json() == {
        "errors": {"name": REQUIRED[1], "document_id": DOCUMENT[1], "email": EMAIL[1], "pix_key": CPF_KEY[1]}
    }
    right = {
        **wrong,
        "name": "Ana Souza",
        "document_id": builders.CPF,
        "pix_key": builders.CPF,
        "email": "ana@example.com",
    }
    clean = customer.post(form_action(page, "/pages/payout"), right, page=page, **{"X-Checkout-Check": "1"})
    assert clean.get_json() == {"errors": {}}
    assert row_counts() == before
    foreign = customer.post(form_action(page, "/pages/payout"), wrong, page=page, origin="https://evil.example")
    assert foreign.status_code == 403
