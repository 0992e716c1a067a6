import re
from datetime import date, timedelta

import pytest
from babel.dates import format_date

from checkout import clock
from checkout.brazil import boleto, brcode
from tests import builders, formats
from tests.pages.conftest import form_action, input_value

from .helpers import card_form, page_data


@pytest.fixture
def card_url(api):
    return api.post("/card/session", {"country": "BRA"}, expect=200)["card_url"]


def test_card_entry_tokenizes_and_hands_the_token_to_the_parent(customer, api, card_url):
    page = customer.get(card_url)
    assert page.status_code == 200 and "Número do cartão" in page.get_data(as_text=True)
    answer = customer.post(form_action(page, "/pages/card"), card_form(), page=page, **{"Sec-Fetch-Dest": "iframe"})
    assert answer.status_code == 200
    message = page_data(answer)["message"]
    assert message["type"] == "checkout.card_token" and message["token"].startswith("tok_")
    assert (message["first_six_digits"], message["last_four_digits"], message["brand"]) == ("411111", "1111", "visa")
    assert "4111111111111111" not in answer.get_data(as_text=True)
    vault = api.post("/vault/create", builders.card_vault(message["token"]), expect=200)
    assert vault["card"]["last_four_digits"] == "1111"


@pytest.mark.parametrize(
    "overrides, error",
    [
        ({"card_no": "4111 1111 1111 1112"}, "Este número de cartão não é válido."),
        ({"exp": f"01/{clock.now().year % 100:02d}"}, "Este cartão está vencido."),
        ({"cvv": "12"}, "3 ou 4 dígitos."),
        ({"holder": ""}, "Este campo é obrigatório."),
    ],
)
def test_card_entry_validates(customer, card_url, row_counts, overrides, error):
    if overrides.get("exp", "").startswith("01/") and clock.now().month == 1:
        pytest.skip("January: no past month in the current year")
    page = customer.get(card_url)
    before = row_counts()
    answer = customer.post(form_action(page, "/pages/card"), card_form(**overrides), page=page)
    assert answer.status_code == 422 and error in answer.get_data(as_text=True)
    assert row_counts() == before


def test_pix_payment_page(customer, api):
    trade = api.post("/trade/pay", builders.direct("PIX", order_amount="1234.56", timeout_express="30m"), expect=200)
    page = customer.get(trade["pay_url"])
    html = page.get_data(as_text=True)
    assert formats.money("1234.56", "BRL", "pt_BR") in html and "<svg" in html
    assert input_value(page, "pix-code") == trade["qr_code"]
    assert brcode.parse(input_value(page, "pix-code"))["54"] == "1234.56"
    data = page_data(page)
    assert data["status"] == "PROCESSING" and data["deadline"] - clock.unix(clock.now()) in range(1790, 1801)
    status = customer.get(data["poll"]).get_json()
    assert status["status"] == "PROCESSING"


def test_paying_from_the_sandbox_button(customer, api):
    trade = api.post("/trade/pay", builders.direct("PIX", return_url="https://shop.example/back"), expect=200)
    page = customer.get(trade["pay_url"])
    answer = customer.post(form_action(page, "/pages/pay/sandbox?"), page=page)
    assert answer.status_code == 303
    paid = customer.get(answer.headers["Location"])
    assert "Pagamento recebido" in paid.get_data(as_text=True)
    assert 'href="https://shop.example/back?token=' in paid.get_data(as_text=True)
    assert customer.get(page_data(page)["poll"]).get_json()["status"] == "SUCCESS"


def test_boleto_page(customer, api):
    trade = api.post("/trade/pay", builders.direct("Boleto"), expect=200)
    page = customer.get(trade["pay_url"] + "&language=en")
    html = page.get_data(as_text=True)
    assert re.search(r'<span class="linha" id="slip-digits">([^<]*)</span>', html).group(1) == boleto.formatted(
        trade["bank_code"]
    )
    assert input_value(page, "boleto-digits") == trade["bank_code"]  # what its copy button copies
    due = date.fromisoformat(trade["due_date"])
    assert due == clock.brazil_today() + timedelta(days=3)
    # The due day's last minute, in the page's language's CLDR date.
    assert f">Pay by {format_date(due, 'medium', locale='en')}, 11:59\u202fPM (Brasilia Time)<" in html


def test_deposit_express_page(customer, api):
    trade = api.post("/trade/pay", builders.direct("DepositExpress", bank="caixa"), expect=200)
    html = customer.get(trade["pay_url"]).get_data(as_text=True)
    for text in ("Caixa Econômica Federal", "0630", "00034011-2", "Checkout Sandbox Pagamentos", "11.222.333/0001-81"):
        assert text in html, text


def test_expired_trade_shows_as_expired(customer, api):
    trade = api.post("/trade/pay", builders.direct("PIX", timeout_express="5m"), expect=200)
    clock.advance(301)
    html = customer.get(trade["pay_url"] + "&language=en").get_data(as_text=True)
    assert "This payment has expired" in html
