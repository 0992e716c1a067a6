"""The sandbox SPEI transfer page: a customer pastes a CLABE and an amount, as into its bank's app; a virtual
SPEI account of the page's merchant is paid, anything else is refused on the page and changes nothing."""

from __future__ import annotations

import re

import pytest

from checkout.mexico import clabe
from checkout.payins.methods.answers import SPEI_BANK, SPEI_PLAZA
from tests.pages.conftest import form_action
from tests.pages.test_no_english import NAMES, english_left, visible_text
from tests.translations.catalogues import LOCALES
from tests.virtualspei.builders import open_account

PATH = "/pages/spei/transfer"


def _english(url: str) -> str:
    return f"{url}&language=en"


def _spaced(number: str) -> str:
    """The CLABE as a bank's app groups it: bank, plaza, account and check digit."""
    return f"{number[:3]} {number[3:6]} {number[6:17]} {number[17]}"


def transfer_key(page) -> str:
    """The form's hidden tracking key, as the browser posts it back."""
    return re.search(r'name="transfer" value="([^"]+)"', page.get_data(as_text=True)).group(1)


def _send(customer, page, clabe_text: str, amount: str, **headers):
    fields = {"clabe": clabe_text, "amount": amount, "transfer": transfer_key(page)}
    return customer.post(form_action(page, PATH), fields, page=page, **headers)


def test_the_page_takes_a_pasted_clabe_and_pays_the_account(api, customer, outbox):
    account = open_account(api)
    page = customer.get(account["transfer_url"])
    assert page.status_code == 200
    assert 'lang="es-MX"' in page.get_data(as_text=True)  # a Mexican page: Spanish unless asked otherwise
    page = customer.get(_english(account["transfer_url"]))
    done = _send(customer, page, _spaced(account["account_number"]), "123,45")
    html = done.get_data(as_text=True)
    assert done.status_code == 200, html
    assert "Transfer sent" in html and "MX$123.45" in html
    assert f'id="sent-clabe">{account["account_number"]}<' in html
    [listed] = api.post("/virtual-account/spei/usage", {}, expect=200)["transfers"]
    assert (listed["account_id"], listed["amount"], listed["trade_status"]) == (
        account["account_id"],
        "123.45",
        "SUCCESS",
    )
    assert f'id="sent-tracking-key">{listed["out_trade_no"]}<' in html
    [(kind, _, payload)] = outbox(listed["trade_no"])
    assert (kind, payload["trade_status"], payload["amount"]) == ("payin.callback", "SUCCESS", "123.45")
    assert payload["transfer_account"]["account_id"] == account["account_id"]


def test_a_cancelled_clabe_is_refused_on_the_page(api, customer, row_counts):
    account = open_account(api)
    api.post("/virtual-account/spei/cancel", {"account_id": account["account_id"]}, expect=200)
    url = open_account(api, "buyer-2")["transfer_url"]  # the merchant's page link, from its active account
    page = customer.get(_english(url))
    before = row_counts()
    refused = _send(customer, page, account["account_number"], "10")
    assert refused.status_code == 422
    assert "This CLABE was cancelled: it takes no more transfers." in refused.get_data(as_text=True)
    assert row_counts() == before
    spanish = _send(customer, customer.get(url), account["account_number"], "10")
    assert "Esta CLABE fue cancelada" in spanish.get_data(as_text=True)


def test_another_merchants_clabe_is_refused_on_this_merchants_page(api, other_api, customer, row_counts):
    theirs = open_account(other_api)
    page = customer.get(_english(open_account(api)["transfer_url"]))
    before = row_counts()
    refused = _send(customer, page, theirs["account_number"], "10")
    assert refused.status_code == 422
    assert "No account of Loja Exemplo has this CLABE." in refused.get_data(as_text=True)
    assert row_counts() == before
    assert other_api.post("/virtual-account/spei/usage", {}, expect=200)["transfers"] == []


VALID = clabe.build(SPEI_BANK, SPEI_PLAZA, "12345678901")


@pytest.mark.parametrize(
    ("clabe_text", "amount", "errors"),
    [
        ("", "", ["This field is required.", "This field is required."]),
        (VALID[:17], "10", ["A CLABE has 18 digits."]),
        (VALID[:17] + str((int(VALID[17]) + 1) % 10), "10", ["This is not a valid CLABE: check its digits."]),
        (VALID, "0", ["Enter an amount in pesos, such as 123.45."]),
        (VALID, "12.345", ["Enter an amount in pesos, such as 123.45."]),
        (VALID, "1,000.00", ["Enter an amount in pesos, such as 123.45."]),
        (VALID, "ten", ["Enter an amount in pesos, such as 123.45."]),
        (VALID, "1\x00", ["This field must not contain NUL characters."]),
    ],
)
def test_bad_input_is_refused_on_its_field_and_writes_nothing(api, customer, row_counts, clabe_text, amount, errors):
    page = customer.get(_english(open_account(api)["transfer_url"]))
    before = row_counts()
    refused = _send(customer, page, clabe_text, amount)
    html = refused.get_data(as_text=True)
    assert refused.status_code == 422
    assert [error for error in errors if error in html] == errors
    assert row_counts() == before


def test_a_post_needs_the_pages_csrf_value_and_our_origin(api, customer, row_counts):
    account = open_account(api)
    page = customer.get(account["transfer_url"])
    before = row_counts()
    fields = {"clabe": account["account_number"], "amount": "10"}
    assert (
        customer.post(form_action(page, PATH), fields, origin="https://elsewhere.example", page=page).status_code == 403
    )
    assert customer.post(form_action(page, PATH), {**fields, "csrf": "0" * 40}).status_code == 403
    assert row_counts() == before


def test_a_bad_link_answers_the_error_page(api, customer):
    url = open_account(api)["transfer_url"]
    assert customer.get(url[:-4] + "AAAA").status_code == 400
    assert customer.get(PATH).status_code == 400


def test_the_page_is_absent_when_the_sandbox_is_off(app, api, customer, monkeypatch):
    url = open_account(api)["transfer_url"]
    monkeypatch.setitem(app.config, "SANDBOX", False)
    assert customer.get(url).status_code == 404


@pytest.mark.parametrize("locale", LOCALES)
def test_no_english_is_left_on_the_translated_page(api, other_api, customer, locale):
    account = open_account(api)
    api.post("/virtual-account/spei/cancel", {"account_id": account["account_id"]}, expect=200)
    url = f"{open_account(api, 'buyer-2')['transfer_url']}&language={locale}"
    page = customer.get(url)
    shown = {
        "form": page,
        "errors": _send(customer, page, "1", "x"),
        "cancelled": _send(customer, page, account["account_number"], "1"),
        "elsewhere": _send(customer, page, open_account(other_api)["account_number"], "1"),
        "sent": _send(customer, page, open_account(api, "buyer-3")["account_number"], "1"),
    }
    for name, response in shown.items():
        assert response.status_code in (200, 422), name
        html = response.get_data(as_text=True)
        assert f'lang="{locale.replace("_", "-")}"' in html, name
        text = visible_text(html)
        for data in NAMES:  # the beneficiary: the sandbox collector's name
            text = text.replace(data, "")
        assert english_left(text, locale) == [], name
