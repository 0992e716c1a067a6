"""The sandbox SPEI transfer page: a customer pastes a CLABE and an amount, as into its bank's app; the one
virtual SPEI account its link was handed out for is paid, anything else is refused on the page, telling nothing
about other accounts, and changes nothing."""

from __future__ import annotations

import re

import pytest
from sqlalchemy import select

from checkout import signing
from checkout.db import db
from checkout.merchants.models import Merchant
from checkout.mexico import clabe
from checkout.payins.methods.answers import SPEI_BANK, SPEI_PLAZA
from tests.pages.conftest import form_action
from tests.pages.helpers import NAMES, english_left, visible_text
from tests.translations.catalogues import LOCALES
from tests.virtualspei.builders import open_account

from .helpers import ELSEWHERE, PATH, in_english, send_transfer, spaced


def test_the_page_takes_a_pasted_clabe_and_pays_the_account(api, customer, outbox):
    account = open_account(api)
    page = customer.get(account["transfer_url"])
    assert page.status_code == 200
    assert 'lang="es-MX"' in page.get_data(as_text=True)  # a Mexican page: Spanish unless asked otherwise
    page = customer.get(in_english(account["transfer_url"]))
    done = send_transfer(customer, page, spaced(account["account_number"]), "123,45")
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


def errors_of(response) -> list[str]:
    return re.findall(r'<p class="error"[^>]*>([^<]*)</p>', response.get_data(as_text=True))


def _bare(response, typed: str) -> str:
    return re.sub(r'nonce(="|-)[^"\']+', "", response.get_data(as_text=True).replace(typed, ""))


def test_the_link_names_its_own_account_and_no_other(app, api, merchant):
    one, two = open_account(api, "buyer-1"), open_account(api, "buyer-2")
    with app.app_context():
        merchant_id = db.session.scalar(select(Merchant.id).where(Merchant.app_id == merchant["app_id"]))
    for account in (one, two):
        token = account["transfer_url"].split("token=")[1]
        payload = signing.read_page_token(app.config["SECRET_KEY"], "spei-transfer", token, 60)
        assert payload == {"merchant": merchant_id, "account": account["account_id"]}


def test_a_cancelled_clabe_is_refused_on_its_own_link(api, customer, row_counts):
    account = open_account(api)
    api.post("/virtual-account/spei/cancel", {"account_id": account["account_id"]}, expect=200)
    page = customer.get(in_english(account["transfer_url"]))  # handed out before the cancel: still opens
    assert page.status_code == 200
    before = row_counts()
    refused = send_transfer(customer, page, account["account_number"], "10")
    assert refused.status_code == 422
    assert errors_of(refused) == ["This CLABE was cancelled: it takes no more transfers."]
    assert row_counts() == before
    spanish = send_transfer(customer, customer.get(account["transfer_url"]), account["account_number"], "10")
    assert errors_of(spanish) == ["Esta CLABE fue cancelada: ya no recibe transferencias."]


def test_any_other_clabe_gets_one_refusal_that_tells_nothing_about_it(api, other_api, customer, row_counts):
    """Another customer's CLABE (active or cancelled), another merchant's, and a valid CLABE of no account are
    refused alike on a customer's link: nobody pays into another's account or learns which CLABEs exist."""
    mine = open_account(api, "buyer-1")
    neighbour = open_account(api, "buyer-2")
    gone = open_account(api, "buyer-3")
    api.post("/virtual-account/spei/cancel", {"account_id": gone["account_id"]}, expect=200)
    theirs = open_account(other_api)
    nobodys = clabe.build(SPEI_BANK, SPEI_PLAZA, "12345678901")
    page = customer.get(in_english(mine["transfer_url"]))
    before = row_counts()
    typed = [neighbour["account_number"], gone["account_number"], theirs["account_number"], nobodys]
    answers = [send_transfer(customer, page, number, "10") for number in typed]
    assert [a.status_code for a in answers] == [422] * 4
    assert [errors_of(a) for a in answers] == [[ELSEWHERE]] * 4
    # The same page whatever the CLABE was, bar the CLABE typed back into its field and the response's nonce.
    pages = {_bare(a, number) for a, number in zip(answers, typed, strict=True)}
    assert len(pages) == 1
    assert row_counts() == before
    assert api.post("/virtual-account/spei/usage", {}, expect=200)["transfers"] == []
    assert other_api.post("/virtual-account/spei/usage", {}, expect=200)["transfers"] == []
    # Each customer's own link pays its own CLABE.
    paid = send_transfer(
        customer, customer.get(in_english(neighbour["transfer_url"])), neighbour["account_number"], "10"
    )
    assert paid.status_code == 200
    listed = api.post("/virtual-account/spei/usage", {}, expect=200)["transfers"]
    assert [t["account_id"] for t in listed] == [neighbour["account_id"]]


def test_a_link_that_names_no_account_or_an_unknown_one_opens_no_page(app, api, merchant, customer):
    open_account(api)
    with app.app_context():
        merchant_id = db.session.scalar(select(Merchant.id).where(Merchant.app_id == merchant["app_id"]))
    secret = app.config["SECRET_KEY"]
    merchant_wide = signing.page_token(secret, "spei-transfer", {"merchant": merchant_id})
    assert customer.get(f"{PATH}?token={merchant_wide}").status_code == 400
    unknown = signing.page_token(secret, "spei-transfer", {"merchant": merchant_id, "account": "NOSUCHACCOUNT000"})
    assert customer.get(f"{PATH}?token={unknown}").status_code == 404


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
    page = customer.get(in_english(open_account(api)["transfer_url"]))
    before = row_counts()
    refused = send_transfer(customer, page, clabe_text, amount)
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
    cancelled = open_account(api)
    api.post("/virtual-account/spei/cancel", {"account_id": cancelled["account_id"]}, expect=200)
    gone = customer.get(f"{cancelled['transfer_url']}&language={locale}")
    account = open_account(api, "buyer-2")
    page = customer.get(f"{account['transfer_url']}&language={locale}")
    shown = {
        "form": page,
        "errors": send_transfer(customer, page, "1", "x"),
        "cancelled": send_transfer(customer, gone, cancelled["account_number"], "1"),
        "elsewhere": send_transfer(customer, page, open_account(other_api)["account_number"], "1"),
        "sent": send_transfer(customer, page, account["account_number"], "1"),
    }
    for name, response in shown.items():
        assert response.status_code in (200, 422), name
        html = response.get_data(as_text=True)
        assert f'lang="{locale.replace("_", "-")}"' in html, name
        text = visible_text(html)
        for data in NAMES:  # the beneficiary: the sandbox collector's name
            text = text.replace(data, "")
        assert english_left(text, locale) == [], name
