"""Every field of every page form with text no database can keep: a page answers, never a 500, nothing written.
Run on PostgreSQL too, where a NUL used to reach the database and fail there."""

import pytest

from tests import builders
from tests.pages.conftest import form_action
from tests.pages.helpers import card_form, choose, pix_form
from tests.payins.helpers import hosted
from tests.translations.catalogues import TEXTS

# A browser cannot send an unpaired surrogate in a form (it encodes UTF-8, and werkzeug decodes invalid
# bytes to U+FFFD), so NUL is the text a form can carry that no database keeps.
HOSTILE = {"nul": "Ana\x00Souza"}
MESSAGES = {"nul": "This field must not contain NUL characters."}


def _answer_is_a_page_refusing(answer, fault):
    html = answer.get_data(as_text=True)
    assert answer.status_code in (200, 400, 422), answer.status_code  # the form again, with the field marked
    assert answer.mimetype == "text/html"
    english = MESSAGES[fault]
    assert any(text in html for text in (english, *TEXTS[english]))  # in the page's language


@pytest.mark.parametrize("fault", list(HOSTILE))
@pytest.mark.parametrize("field", list(card_form()))
def test_card_entry(customer, api, row_counts, field, fault):
    page = customer.get(api.post("/card/session", {"country": "BRA"}, expect=200)["card_url"])
    before = row_counts()
    answer = customer.post(form_action(page, "/pages/card"), card_form(**{field: HOSTILE[fault]}), page=page)
    _answer_is_a_page_refusing(answer, fault)
    assert row_counts() == before


@pytest.mark.parametrize("fault", list(HOSTILE))
@pytest.mark.parametrize("field", [*pix_form(), "email", "phone"])
def test_payout_checkout(customer, payout_api, merchant, fund, row_counts, field, fault):
    fund(merchant, "USD", "1000.00")
    url = payout_api.post("/checkout", builders.checkout_session(method=...), expect=200)["data"]["checkout_url"]
    page = customer.get(url)
    before = row_counts()
    answer = customer.post(form_action(page, "/pages/payout"), pix_form(**{field: HOSTILE[fault]}), page=page)
    _answer_is_a_page_refusing(answer, fault)
    assert row_counts() == before


CHECKOUT_FIELDS = {
    "name": "Test User Name",
    "email": "test@pagsmile.com",
    "phone": "5511987654321",
    "document_type": "CPF",
    "document_number": "50284414727",
}


@pytest.mark.parametrize("fault", list(HOSTILE))
@pytest.mark.parametrize("field", list(CHECKOUT_FIELDS))
def test_hosted_checkout(customer, api, row_counts, field, fault):
    web_url = api.post("/trade/create", hosted(), expect=200)["web_url"]
    form = choose(customer, customer.get(web_url), "PIX")
    before = row_counts()
    answer = customer.post(form_action(form, "/pages/checkout"), {**CHECKOUT_FIELDS, field: HOSTILE[fault]}, page=form)
    _answer_is_a_page_refusing(answer, fault)
    assert row_counts() == before


@pytest.mark.parametrize("return_url", ["https://shop.example/\x00", "https://shop.example/" + "a" * 600])
def test_a_hostile_return_url_on_the_checkout_page(customer, api, row_counts, return_url):
    web_url = api.post("/trade/create", hosted(), expect=200)["web_url"]
    form = choose(customer, customer.get(web_url), "PIX")
    before = row_counts()
    answer = customer.post(
        form_action(form, "/pages/checkout"), {**CHECKOUT_FIELDS, "return_url": return_url}, page=form
    )
    assert answer.status_code < 500 and answer.mimetype == "text/html"
    assert row_counts() == before


def test_a_csrf_value_outside_ascii_is_refused_not_a_fault(customer, api):
    web_url = api.post("/trade/create", hosted(), expect=200)["web_url"]
    form = choose(customer, customer.get(web_url), "PIX")
    answer = customer.post(form_action(form, "/pages/checkout"), {**CHECKOUT_FIELDS, "csrf": "é" * 40})
    assert (answer.status_code, answer.mimetype) == (403, "text/html")
