"""The payout form served from a rendered copy: a nonce of its own each time, the time now, and a copy made
again whenever what it shows changes."""

import json
import re

import pytest

from checkout import clock
from checkout.db import db
from checkout.merchants import service as merchants
from checkout.merchants.models import Merchant
from checkout.pages import rendered
from tests import builders


@pytest.fixture
def session_url(payout_api, merchant, fund):
    fund(merchant, "USD", "1000.00")
    return payout_api.post("/checkout", builders.checkout_session(method=...), expect=200)["data"]["checkout_url"]


def nonce_of(response) -> str:
    return re.search(r"script-src 'nonce-([^']+)'", response.headers["Content-Security-Policy"]).group(1)


def page_data(response) -> dict:
    html = response.get_data(as_text=True)
    return json.loads(re.search(r'<script type="application/json" id="page-data">(.*?)</script>', html).group(1))


def test_each_response_has_its_own_nonce_and_time_in_the_same_page(customer, session_url):
    first = customer.get(session_url)
    clock.advance(90)
    second = customer.get(session_url)
    one, two = first.get_data(as_text=True), second.get_data(as_text=True)
    assert first.status_code == second.status_code == 200
    assert nonce_of(first) != nonce_of(second)
    assert f'<script nonce="{nonce_of(first)}" src=' in one and f'<script nonce="{nonce_of(second)}" src=' in two
    assert rendered.NONCE not in two and rendered.NOW not in two
    assert page_data(second)["now"] - page_data(first)["now"] in (90, 91)
    assert page_data(second)["deadline"] == page_data(first)["deadline"]
    # Nothing else differs.
    assert one.replace(nonce_of(first), "N").replace(str(page_data(first)["now"]), "T") == two.replace(
        nonce_of(second), "N"
    ).replace(str(page_data(second)["now"]), "T")


def test_a_renamed_merchant_shows_at_once(app, customer, merchant, session_url):
    assert "Loja Exemplo" in customer.get(session_url).get_data(as_text=True)
    with app.app_context():
        db.session.query(Merchant).filter_by(app_id=merchant["app_id"]).update({"name": "Loja Nova"})
        db.session.commit()
    merchants.forget()
    html = customer.get(session_url).get_data(as_text=True)
    assert "Loja Nova" in html and "Loja Exemplo" not in html


def test_language_and_layout_each_have_their_copy(customer, session_url):
    english = customer.get(session_url + "&language=en").get_data(as_text=True)
    portuguese = customer.get(session_url + "&language=pt-BR").get_data(as_text=True)
    phone = customer.get(session_url + "&language=en&view=h5").get_data(as_text=True)
    assert "Receive" in english and "Receba" in portuguese and "Receba" not in english
    assert 'class="view-h5"' in phone and 'class="view-h5"' not in english


def test_an_expired_session_is_not_served_from_its_copy(customer, session_url):
    assert customer.get(session_url).status_code == 200
    clock.advance(1801)
    assert customer.get(session_url).status_code == 410


def test_copies_are_bounded_and_age_out():
    pages = rendered.Pages(size=2, seconds=60)
    made = []

    def render(name):
        return lambda: made.append(name) or f"<p>{name} {rendered.NONCE}</p>"

    assert pages.get("a", render("a"), nonce="n1", now=1) == "<p>a n1</p>"
    assert pages.get("a", render("a"), nonce="n2", now=2) == "<p>a n2</p>"
    pages.get("b", render("b"), nonce="n", now=1)
    pages.get("c", render("c"), nonce="n", now=1)  # "a" is the least recently used: dropped
    pages.get("a", render("a"), nonce="n", now=1)
    assert made == ["a", "b", "c", "a"]
    stale = rendered.Pages(size=2, seconds=0)
    stale.get("a", render("a"), nonce="n", now=1)
    stale.get("a", render("a"), nonce="n", now=1)
    assert made[-2:] == ["a", "a"]


def test_find_answers_a_kept_copy_in_time_and_renders_nothing():
    pages = rendered.Pages(size=2, seconds=60)
    assert pages.find("a", nonce="n", now=1) is None
    pages.get("a", lambda: f'<p>{rendered.NONCE} "{rendered.NOW}"</p>', nonce="n1", now=1)
    assert pages.find("a", nonce="n2", now=1700000000) == "<p>n2 1700000000</p>"
    stale = rendered.Pages(size=2, seconds=0)
    stale.get("a", lambda: "<p>a</p>", nonce="n", now=1)
    assert stale.find("a", nonce="n", now=1) is None
