"""Card numbers and security codes are never kept: not in any column of any table after the hosted card paths
and the card API, not in the HTML of a refused card form."""

from __future__ import annotations

import json
import re

from sqlalchemy import select

from checkout import clock
from checkout.api import requestlog
from checkout.db import Base, db
from tests import builders
from tests.pages.conftest import form_action
from tests.pages.helpers import choose
from tests.payins.helpers import hosted

PAN = "4111 1111 1111 1111"
CVV = "739"  # a code no fixture uses, so that finding it means it was kept


def stored_text(app) -> str:
    """Every value of every row of every table, as text (JSON columns as their JSON)."""
    parts = []
    with app.app_context():
        for table in Base.metadata.sorted_tables:
            for row in db.session.execute(select(table)).all():
                parts.extend(json.dumps(v, default=str) if isinstance(v, (dict, list)) else str(v) for v in row)
    return "\n".join(parts)


def assert_no_card_data(app) -> None:
    assert requestlog.of(app).flush()  # the API request log's rows are written by its own thread: wait for them
    text = stored_text(app)
    assert PAN.replace(" ", "") not in text and PAN not in text
    assert f'"{CVV}"' not in text
    assert not re.search(r'"cvv":\s*"(?!\*+")', text)  # the API request log keeps the key, its value masked


def _card_fields(**overrides) -> dict:
    fields = {"card_no": PAN, "exp": f"12/{str(clock.now().year + 2)[2:]}", "cvv": CVV, "holder": "Ana Souza"}
    return {**fields, **overrides}


def test_a_checkout_paused_at_3ds_or_expired_there_keeps_no_card_data(app, customer, api, work):
    body = hosted(out_trade_no="pan-1", timeout_express="5m")
    form = choose(customer, customer.get(api.post("/trade/create", body, expect=200)["web_url"]), "CreditCard")
    fields = {**_card_fields(), "name": "Ana Souza", "email": "ana@example.com"}
    step = customer.post(form_action(form, "/pages/checkout"), fields, page=form)
    assert step.status_code == 303 and "/pages/checkout/3ds?" in step.headers["Location"]
    challenge = customer.get(step.headers["Location"]).get_data(as_text=True)
    assert "1111" in challenge and PAN not in challenge  # the step names the card by its last four only
    assert_no_card_data(app)
    clock.advance(301)
    work()
    assert api.post("/trade/query", {"out_trade_no": "pan-1"}, expect=200)["trade_status"] != "INITIAL"
    assert_no_card_data(app)
    clock.reset()


def test_the_card_entry_page_and_the_card_api_keep_no_card_data(app, customer, api):
    url = api.post("/card/session", {"country": "BRA"}, expect=200)["card_url"]
    page = customer.get(url)
    assert customer.post(form_action(page, "/pages/card"), _card_fields(cvv="12"), page=page).status_code == 422
    assert customer.post(form_action(page, "/pages/card"), _card_fields(), page=page).status_code in (200, 303)
    api.post("/card/token", builders.card(PAN.replace(" ", ""), card={"cvv": CVV}), expect=200)
    assert_no_card_data(app)


def test_a_refused_card_form_never_writes_the_number_or_the_code_back(customer, api):
    url = api.post("/card/session", {"country": "BRA"}, expect=200)["card_url"]
    page = customer.get(url)
    refused = customer.post(form_action(page, "/pages/card"), _card_fields(cvv="12"), page=page)
    assert refused.status_code == 422
    html = refused.get_data(as_text=True)
    assert re.search(r'<input[^>]*id="card_no"[^>]*value=""', html)
    assert re.search(r'<input[^>]*id="cvv"[^>]*value=""', html)
    assert PAN not in html and PAN.replace(" ", "") not in html and 'value="12"' not in html
    assert re.search(r'<input[^>]*id="holder"[^>]*value="Ana Souza"', html)  # the rest is kept for the customer
