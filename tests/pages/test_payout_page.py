import json
from decimal import ROUND_HALF_UP, Decimal
from urllib.parse import parse_qs, urlsplit

import pytest
from babel.numbers import get_currency_symbol
from joserfc import jws
from sqlalchemy import func, select

from checkout import clock, signing, wiring
from checkout.db import db
from checkout.merchants.service import find_by_app_id
from checkout.payouts import service as payouts
from checkout.payouts.models import CustomCode, Payout
from checkout.payouts.schemas import PayoutRequest
from tests import builders, formats
from tests.pages.conftest import form_action

from .helpers import pix_form

RETURN = "https://shop.example/back"


@pytest.fixture
def session_url(payout_api, merchant, fund):
    fund(merchant, "USD", "1000.00")
    return payout_api.post("/checkout", builders.checkout_session(method=...), expect=200)["data"]["checkout_url"]


def test_page_shows_amount_fee_and_arrival_from_the_dry_run(customer, payout_api, session_url):
    page = customer.get(session_url)
    html = page.get_data(as_text=True)
    quote = payout_api.post("/payout/dry-run", builders.dry_run(amount="500.00", amount_type="arrival"), expect=200)[
        "data"
    ]
    # The payee's currency, at the quote's own rate (figures in detail: test_payout_one_pass.py).
    fee = (Decimal(quote["fee"]) * Decimal(quote["exchange_rate"])).quantize(Decimal("0.01"), ROUND_HALF_UP)
    assert f"Receba {formats.money('500.00', 'BRL', 'pt_BR')}" in html
    assert f"<dt>Tarifa</dt><dd>{formats.money(fee, 'BRL', 'pt_BR')}</dd>" in html
    assert get_currency_symbol("USD", "pt_BR") not in html  # no figure in the source currency
    assert "Tarifa e impostos pagos por Loja Exemplo." in html
    assert 'value="PIX"' in html and 'value="BANKTRANSFER"' in html and 'value="SPEI"' not in html


def test_confirming_creates_one_payout_and_returns_signed(customer, payout_api, app, merchant, session_url):
    page = customer.get(session_url)
    action = form_action(page, "/pages/payout")
    first = customer.post(action, pix_form(), page=page)
    second = customer.post(action, pix_form(), page=page)  # a double click, or the form sent again
    assert first.status_code == second.status_code == 303
    parts = urlsplit(first.headers["Location"])
    assert f"{parts.scheme}://{parts.netloc}{parts.path}" == RETURN
    claims = json.loads(
        jws.deserialize_compact(parse_qs(parts.query)["token"][0], signing.jws_key(merchant["app_key"])).payload
    )
    assert (claims["custom_code"], claims["status"], claims["aud"]) == ("co-1", "IN_PROCESSING", merchant["app_id"])
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Payout)) == 1
        assert db.session.scalars(select(CustomCode.custom_code)).all() == ["co-1"]  # the session's claim
    status = payout_api.post("/payout/status", {"custom_code": "co-1"}, expect=200)["data"]
    assert status["payout_id"] == claims["sub"]
    assert customer.get(session_url).status_code == 303  # a completed session shows its result


@pytest.mark.parametrize(
    "overrides, error",
    [
        ({"pix_key": "not-an-email"}, "Enter a valid e-mail address."),
        ({"document_id": "39053344704"}, "Enter a valid CPF (11 digits) or CNPJ (14 digits)."),
        ({"name": ""}, "This field is required."),
        ({"email": "ana.example.com"}, "Enter a valid e-mail address."),
    ],
)
def test_account_data_is_validated_like_the_api(customer, session_url, row_counts, overrides, error):
    page = customer.get(session_url + "&language=en")
    before = row_counts()
    answer = customer.post(form_action(page, "/pages/payout"), pix_form(**overrides), page=page)
    assert answer.status_code == 422 and error in answer.get_data(as_text=True)
    assert row_counts() == before


def test_bank_transfer_from_the_page(customer, session_url, payout_api):
    page = customer.get(session_url)
    answer = customer.post(
        form_action(page, "/pages/payout"),
        {
            "method": "BANKTRANSFER",
            "name": "Ana Souza",
            "document_id": builders.CPF,
            "bank_code": "341",
            "branch": "0001",
            "account_number": "123456",
            "account_digit": "7",
            "account_type": "CHECKING",
        },
        page=page,
    )
    assert answer.status_code == 303
    detail = payout_api.post("/payout/status", {"custom_code": "co-1"}, expect=200)["data"]
    assert detail["status"] == "IN_PROCESSING"


def test_insufficient_balance_is_explained(customer, payout_api):
    url = payout_api.post("/checkout", builders.checkout_session("poor"), expect=200)["data"]["checkout_url"]
    page = customer.get(url + "&language=en")
    answer = customer.post(form_action(page, "/pages/payout"), pix_form(), page=page)
    assert answer.status_code == 409
    assert "Loja Exemplo cannot send this payout now. Please contact them." in answer.get_data(as_text=True)


def test_spei_session_in_spanish(customer, payout_api, merchant, fund):
    fund(merchant, "USD", "1000.00")
    url = payout_api.post(
        "/checkout", builders.checkout_session("mx", country="MEX", payout_currency="MXN", method="SPEI"), expect=200
    )["data"]["checkout_url"]
    page = customer.get(url)
    assert "Recibe" in page.get_data(as_text=True) and 'lang="es-MX"' in page.get_data(as_text=True)
    bad = customer.post(
        form_action(page, "/pages/payout"), {"method": "SPEI", "name": "Ana", "clabe": "002010077777777772"}, page=page
    )
    assert bad.status_code == 422
    assert "El último dígito de esta CLABE no coincide: revisa los 18 dígitos." in bad.get_data(as_text=True)
    ok = customer.post(
        form_action(page, "/pages/payout"), {"method": "SPEI", "name": "Ana", "clabe": builders.CLABE}, page=page
    )
    assert ok.status_code == 303


def test_expired_session(customer, session_url):
    clock.advance(1801)
    assert customer.get(session_url).status_code == 410


def test_a_session_whose_code_a_payout_took_ends_on_a_clear_page(app, customer, payout_api, merchant, session_url):
    """A session opened before migration 0008 could lose its custom_code to a racing /api/payout; its page
    then says so (410), on showing and on sending, instead of answering its form with 409 forever."""
    page = customer.get(session_url + "&language=en")
    with app.app_context():  # the old race's outcome: a direct payout that never met the session's claim
        merchant_row = find_by_app_id(db.session, merchant["app_id"])
        order = PayoutRequest.model_validate(builders.payout("co-1"))
        payouts.submit(
            db.session,
            merchant_row,
            order,
            mid_rates=app.config["PAYOUT_MID_RATES"],
            markup_bps=50,
            bank=wiring.payout_bank(),
            checkout_session=True,
        )
        db.session.commit()
    taken = payout_api.post("/payout/status", {"custom_code": "co-1"}, expect=200)["data"]["payout_id"]
    shown = customer.get(session_url + "&language=en")
    assert shown.status_code == 410
    assert "This payout link can no longer be used" in shown.get_data(as_text=True)
    sent = customer.post(form_action(page, "/pages/payout"), pix_form(), page=page)
    assert sent.status_code == 410 and "another payout" in sent.get_data(as_text=True)
    with app.app_context():
        assert db.session.scalars(select(Payout.transaction_id)).all() == [taken]
