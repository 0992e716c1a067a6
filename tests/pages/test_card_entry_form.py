"""Card entry's form: one expiry input, every error at once, the server's brand rules, the script's messages."""

import re
from html import unescape

import pytest
from sqlalchemy import select
from werkzeug.datastructures import MultiDict

from checkout import clock
from checkout.cards.models import CardToken
from checkout.pages.payin_forms import BRAZILIAN_DOCUMENT, CardForm, CheckoutForm, parse_expiry
from checkout.pages.widgets import constraints
from tests.pages.conftest import form_action
from tests.pages.helpers import card_form, page_data
from tests.payins.helpers import hosted


@pytest.fixture
def card_url(api):
    return api.post("/card/session", {"country": "BRA"}, expect=200)["card_url"]


def attribute(html: str, element_id: str, name: str) -> str | None:
    tag = re.search(rf'<(?:input|select)[^>]*\bid="{element_id}"[^>]*>', html).group(0)
    found = re.search(rf'\s{name}="([^"]*)"', tag)
    return unescape(found.group(1)) if found else None


def error_of(html: str, element_id: str) -> str:
    return unescape(re.search(rf'<p class="error" id="{element_id}-error">([^<]*)</p>', html).group(1))


@pytest.mark.parametrize(
    "typed, parsed",
    [
        ("12/28", (2028, 12)),
        ("12 / 28", (2028, 12)),
        ("1228", (2028, 12)),
        ("12/2028", (2028, 12)),
        (" 03/31 ", (2031, 3)),
        ("13/28", (2028, 13)),  # shaped like a date: the form's month rule answers
        ("1/28", None),
        ("12-28", None),
        ("122", None),
        ("12/028", None),
        ("MM/YY", None),
        ("", None),
        (None, None),
    ],
)
def test_expiry_forms(typed, parsed):
    assert parse_expiry(typed) == parsed


def validated(app, **fields) -> CardForm:
    with app.test_request_context(method="POST"):
        form = CardForm(formdata=MultiDict(card_form(**fields)))
        form.validate()
        return form


def test_this_month_is_accepted_and_the_last_refused_on_the_sandbox_clock(app):
    clock.advance(75 * 24 * 3600)  # another month than the real one, maybe another year
    today = clock.now().date()
    last = (today.year - 1, 12) if today.month == 1 else (today.year, today.month - 1)
    accepted = validated(app, exp=f"{today.month:02d}/{today.year % 100:02d}")
    assert accepted.errors == {} and accepted.expiry == (today.year, today.month)
    refused = validated(app, exp=f"{last[1]:02d}/{last[0]}")
    assert refused.errors == {"exp": ["This card has expired."]}


@pytest.mark.parametrize(
    "typed, error",
    [
        ("13/30", "The month must be 01 to 12."),
        ("00/30", "The month must be 01 to 12."),
        ("12-30", "Enter the date as MM/YY."),
        ("", "This field is required."),
    ],
)
def test_a_wrong_expiry_says_why(app, typed, error):
    assert validated(app, exp=typed).errors == {"exp": [error]}


def test_an_expiry_too_far_away_is_refused_by_the_form_not_the_service(app):
    year = clock.now().year + 21
    assert validated(app, exp=f"01/{year}").errors == {"exp": ["This date is too far in the future."]}


def test_each_accepted_form_reaches_the_token(customer, card_url, session):
    year = clock.now().year + 2
    for typed in (f"07/{year % 100}", f"07 / {year % 100}", f"07{year % 100}", f"07/{year}"):
        page = customer.get(card_url)
        answer = customer.post(form_action(page, "/pages/card"), card_form(exp=typed), page=page)
        assert answer.status_code == 200, typed
        token = page_data(answer)["message"]["token"]
        card = session.scalar(select(CardToken).where(CardToken.token == token))
        assert (card.exp_year, card.exp_month) == (year, 7), typed


def test_the_card_form_prefills_no_expiry(customer, card_url):
    html = customer.get(card_url).get_data(as_text=True)
    assert attribute(html, "exp", "value") == ""
    assert attribute(html, "exp", "placeholder") == "MM/AA"
    assert attribute(html, "exp", "autocomplete") == "cc-exp"
    assert "exp_month" not in html and "exp_year" not in html and "<select" not in html


def test_an_empty_submit_answers_every_required_message_at_once_and_no_expired(customer, card_url, row_counts):
    page = customer.get(card_url)
    before = row_counts()
    answer = customer.post(form_action(page, "/pages/card"), {}, page=page)
    html = answer.get_data(as_text=True)
    assert answer.status_code == 422
    for field in ("card_no", "exp", "cvv", "holder"):
        assert error_of(html, field) == "Este campo é obrigatório.", field
        assert attribute(html, field, "aria-invalid") == "true"
        assert f"{field}-error" in attribute(html, field, "aria-describedby").split()
    assert re.findall(r'<p class="error"[^>]*>([^<]*)</p>', html) == ["Este campo é obrigatório."] * 4  # no "expired"
    assert row_counts() == before


def test_every_wrong_field_is_answered_in_one_pass(customer, card_url):
    page = customer.get(card_url)
    wrong = card_form(card_no="4111 1111 1111 1112", exp="01/20", cvv="12", holder="")
    html = customer.post(form_action(page, "/pages/card"), wrong, page=page).get_data(as_text=True)
    assert [error_of(html, f) for f in ("card_no", "exp", "cvv", "holder")] == [
        "Este número de cartão não é válido.",
        "Este cartão está vencido.",
        "3 ou 4 dígitos.",
        "Este campo é obrigatório.",
    ]


@pytest.mark.parametrize(
    "number, brand",
    [
        ("4111 1111 1111 1111", "visa"),
        ("5555 5555 5555 4444", "mastercard"),
        ("2223 0000 4841 0010", "mastercard"),
        ("3782 822463 10005", "amex"),
        ("6362 9700 0045 7013", "elo"),
        ("6062 8254 4223 0070", "hipercard"),
        ("3056 9309 0259 04", "diners"),
        ("6011 1111 1111 1117", "discover"),
        ("3530 1113 3330 0000", "jcb"),
        ("4111", None),
        ("", None),
    ],
)
def test_the_brand_follows_the_services_rules(app, number, brand):
    assert validated(app, card_no=number).brand == brand


def test_a_brand_the_service_refuses_is_said_on_the_number(app):
    # Luhn-valid, 16 digits, no brand of the service's (a UnionPay-like 62 prefix).
    assert validated(app, card_no="6200 0000 0000 0005").errors == {"card_no": ["This card brand is not accepted."]}


def test_the_security_code_follows_the_brand(customer, card_url):
    page = customer.get(card_url)
    amex = card_form(card_no="3782 822463 10005", cvv="123")
    html = customer.post(form_action(page, "/pages/card"), amex, page=page).get_data(as_text=True)
    assert error_of(html, "cvv") == "O código do American Express tem 4 dígitos."
    # The page names the brand the server saw: its mark shown, the others hidden; the hint for Amex.
    assert re.search(r'<span class="brand-mark" data-brand="amex" data-name="American Express">', html)
    assert re.search(r'<span class="brand-mark" data-brand="visa" data-name="Visa" hidden>', html)
    assert '<span data-cvv="4">4 dígitos na frente</span>' in html
    assert '<span data-cvv="3" hidden>' in html


def test_the_scripts_messages_are_the_servers_in_portuguese(customer, card_url):
    """Each data-msg-* the field macro writes is, word for word, what the server answers for that fault."""
    html = customer.get(card_url).get_data(as_text=True)
    assert attribute(html, "exp", "pattern") == parse_expiry.__globals__["EXPIRY"].pattern
    cases = {
        ("holder", "data-msg-required"): {"holder": ""},
        ("cvv", "data-msg-pattern"): {"cvv": "1a3"},
        ("cvv", "data-msg-other"): {"cvv": "1234"},
        ("exp", "data-msg-pattern"): {"exp": "1-2-30"},
        ("exp", "data-msg-month"): {"exp": "13/30"},
        ("exp", "data-msg-expired"): {"exp": "01/20"},
        ("exp", "data-msg-far"): {"exp": f"01/{clock.now().year + 30}"},
        ("card_no", "data-msg-invalid"): {"card_no": "4111 1111 1111 1112"},
        ("card_no", "data-msg-required"): {"card_no": ""},
    }
    for (field, name), wrong in cases.items():
        page = customer.get(card_url)
        answer = customer.post(form_action(page, "/pages/card"), card_form(**wrong), page=page)
        assert attribute(html, field, name) == error_of(answer.get_data(as_text=True), field), (field, name)
        assert not attribute(html, field, name).isascii() or name == "data-msg-pattern", (field, name)


def test_the_checkouts_e_mail_message_is_the_servers(customer, api):
    web_url = api.post("/trade/create", hosted(), expect=200)["web_url"]
    picker = customer.get(web_url).get_data(as_text=True)
    link = re.search(r'data-method="PIX" href="([^"]+)"', picker).group(1).replace("&amp;", "&")
    form = customer.get(link)
    html = form.get_data(as_text=True)
    assert attribute(html, "email", "type") == "email"
    fields = {"name": "Ana", "email": "ana@", "phone": "5511987654321", "document_type": "CPF"}
    answer = customer.post(form_action(form, "/pages/checkout"), {**fields, "document_number": "12"}, page=form)
    refused = answer.get_data(as_text=True)
    assert attribute(html, "email", "data-msg-type") == error_of(refused, "email") == "Informe um e-mail válido."
    # The browser's pattern takes the CPF as printed; 12 digits or 10 are refused before any request.
    pattern = attribute(html, "document_number", "pattern")
    assert pattern == BRAZILIAN_DOCUMENT
    assert [bool(re.fullmatch(pattern, typed)) for typed in ("390.533.447-05", "39053344705", "3905334470", "12")] == [
        True,
        True,
        False,
        False,
    ]
    assert attribute(html, "document_number", "data-msg-pattern") == error_of(refused, "document_number")


def test_constraints_come_from_the_validators(app):
    with app.test_request_context():
        form = CheckoutForm(formdata=None)
        assert constraints(form.email) == {
            "data-msg-required": "This field is required.",
            "data-msg-type": "Enter a valid e-mail address.",
        }
        assert constraints(form.cvv) == {
            "data-msg-required": "This field is required.",
            "pattern": "^[0-9]{3,4}$",
            "data-msg-pattern": "3 or 4 digits.",
        }
        assert constraints(form.account_number) == {}  # Optional, Length without a message
