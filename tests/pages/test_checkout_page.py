"""The hosted checkout page behind /trade/create's web_url: choose, complete, pay, go back."""

import re
from datetime import datetime, timedelta
from urllib.parse import parse_qs, quote, urlsplit

import pytest

from checkout import clock
from tests.pages.conftest import form_action
from tests.payins.helpers import hosted

from .helpers import choose


def methods_offered(page) -> list[str]:
    return re.findall(r'data-method="([A-Za-z]+)"', page.get_data(as_text=True))


@pytest.fixture
def web_url(api):
    return api.post("/trade/create", hosted(), expect=200)["web_url"]


def test_the_customer_chooses_pix_completes_the_form_and_sees_the_qr(customer, api, web_url):
    page = customer.get(web_url)
    assert page.status_code == 200
    assert methods_offered(page) == [
        "PIX",
        "Boleto",
        "Lottery",
        "DepositExpress",
        "OpenFinance",
        "Wallet",
        "CreditCard",
    ]
    form = choose(customer, page, "PIX")
    html = form.get_data(as_text=True)
    # What the merchant sent is pre-filled: name, e-mail and CPF; the phone is asked for.
    assert 'value="Test User Name"' in html and 'value="50284414727"' in html and 'value="test@pagsmile.com"' in html
    fields = {"name": "Test User Name", "email": "test@pagsmile.com", "phone": "5511987654321"}
    fields.update(document_type="CPF", document_number="50284414727")
    done = customer.post(form_action(form, "/pages/checkout"), fields, page=form)
    assert done.status_code == 303 and "/pages/pay?token=" in done.headers["Location"]
    query = api.post("/trade/query", {"out_trade_no": "202201010354002"}, expect=200)
    assert (query["trade_status"], query["method"]) == ("PROCESSING", "PIX")
    assert query["qr_code"].startswith("000201") and "5405" + "12.01" in query["qr_code"]
    paid = customer.get(done.headers["Location"])
    assert "copy and paste" in paid.get_data(as_text=True).lower() or "copia" in paid.get_data(as_text=True).lower()
    # Back on web_url after submitting: the payment page, not the picker again.
    assert "/pages/pay?token=" in customer.get(web_url).headers["Location"]


def test_a_missing_field_is_shown_and_nothing_changes(customer, api, web_url, row_counts):
    form = choose(customer, customer.get(web_url), "Boleto")
    before = row_counts()
    answer = customer.post(
        form_action(form, "/pages/checkout"),
        {
            "name": "Ana",
            "email": "ana@example.com",
            "phone": "5511987654321",
            "document_type": "CPF",
            "document_number": "50284414727",
            "zip_code": "38082365",
        },
        page=form,
    )
    assert answer.status_code == 422
    assert answer.get_data(as_text=True).count('class="error"') == 4  # state, city, street, number
    assert row_counts() == before
    assert api.post("/trade/query", {"out_trade_no": "202201010354002"}, expect=200)["trade_status"] == "INITIAL"


def test_an_invalid_cpf_is_refused_by_the_method_rules(customer, api, web_url):
    form = choose(customer, customer.get(web_url), "PIX")
    answer = customer.post(
        form_action(form, "/pages/checkout"),
        {
            "name": "Ana",
            "email": "ana@example.com",
            "phone": "5511987654321",
            "document_type": "CPF",
            "document_number": "50284414728",
        },
        page=form,
    )
    assert answer.status_code == 422
    assert "must be a valid CPF" in answer.get_data(as_text=True)
    assert api.post("/trade/query", {"out_trade_no": "202201010354002"}, expect=200)["trade_status"] == "INITIAL"


# A failed step is a declined card the customer may recover from: tests/pages/test_checkout_recovery.py.
@pytest.mark.parametrize(
    ("answer", "status", "page"), [("confirm", "SUCCESS", "/pages/pay?"), ("fail", "INITIAL", "/pages/checkout?")]
)
def test_a_card_goes_through_the_sandbox_3ds_step(customer, api, web_url, outbox, answer, status, page):
    form = choose(customer, customer.get(web_url), "CreditCard")
    card = {
        "card_no": "4111 1111 1111 1111",
        "exp": f"12/{clock.now().year + 2}",
        "cvv": "123",
        "holder": "Ana Souza",
        "name": "Ana Souza",
        "email": "ana@example.com",
    }
    step = customer.post(form_action(form, "/pages/checkout"), card, page=form)
    assert step.status_code == 303 and "/pages/checkout/3ds?" in step.headers["Location"]
    challenge = customer.get(step.headers["Location"])
    assert "Sandbox 3-D Secure" in challenge.get_data(as_text=True) or "3-D Secure" in challenge.get_data(as_text=True)
    assert api.post("/trade/query", {"out_trade_no": "202201010354002"}, expect=200)["trade_status"] == "INITIAL"
    done = customer.post(form_action(challenge, "/pages/checkout/3ds"), {"authentication": answer}, page=challenge)
    assert done.status_code == 303 and page in done.headers["Location"]
    query = api.post("/trade/query", {"out_trade_no": "202201010354002"}, expect=200)
    assert (query["trade_status"], query["method"]) == (status, "CreditCard" if status == "SUCCESS" else "")
    assert [p["trade_status"] for _, _, p in outbox(query["trade_no"])] == ([status] if status == "SUCCESS" else [])


def test_the_return_url_appended_to_web_url_receives_the_signed_result(customer, api, merchant):
    web_url = api.post("/trade/create", hosted(method="PIX"), expect=200)["web_url"]
    back = "https://shop.example/done?order=1"
    form = customer.get(f"{web_url}&return_url={quote(back, safe='')}")
    assert "Test User Name" in form.get_data(as_text=True)  # method given: straight to its form
    fields = {
        "name": "Test User Name",
        "email": "test@pagsmile.com",
        "phone": "5511987654321",
        "document_type": "CPF",
        "document_number": "50284414727",
    }
    hidden = re.search(r'name="return_url" value="([^"]+)"', form.get_data(as_text=True)).group(1)
    done = customer.post(form_action(form, "/pages/checkout"), {**fields, "return_url": hidden}, page=form)
    trade_no = api.post("/trade/query", {"out_trade_no": "202201010354002"}, expect=200)["trade_no"]
    api.post(f"/sandbox/trades/{trade_no}/pay", expect=200)
    paid = customer.get(done.headers["Location"]).get_data(as_text=True)
    link = re.search(r'href="(https://shop\.example/done[^"]+)"', paid).group(1).replace("&amp;", "&")
    query = parse_qs(urlsplit(link).query)
    assert query["order"] == ["1"] and query["token"][0].count(".") == 2


def test_a_hostile_return_url_is_refused_with_a_page(customer, web_url):
    answer = customer.get(f"{web_url}&return_url={quote('javascript:alert(1)', safe='')}")
    assert answer.status_code == 400 and answer.mimetype == "text/html"


def test_mexican_pesos_offer_the_mexican_methods(customer, api):
    web_url = api.post("/trade/create", hosted(order_currency="MXN", regions=["MEX"]), expect=200)["web_url"]
    assert methods_offered(customer.get(web_url)) == [
        "Wallet",
        "Cash",
        "BankTransfer",
        "SPEI",
        "CoDi",
        "OXXO",
        "OXXOPay",
        "CreditCard",
    ]


def test_an_expired_checkout_says_so(customer, api, web_url):
    clock.advance(2 * 24 * 3600)
    page = customer.get(web_url)
    assert page.status_code == 200 and 'class="status bad"' in page.get_data(as_text=True)
    assert methods_offered(page) == []


def test_cancellation_express_cancels_a_submitted_checkout_left_unpaid(customer, api, work, outbox):
    """The page's cancellation_express: a processing order nobody pays is cancelled, counted from creation."""
    web_url = api.post("/trade/create", hosted(timeout_express="30m", cancellation_express="2h"), expect=200)["web_url"]
    form = choose(customer, customer.get(web_url), "PIX")
    fields = {"name": "Test User Name", "email": "test@pagsmile.com", "phone": "5511987654321"}
    fields.update(document_type="CPF", document_number="50284414727")
    assert customer.post(form_action(form, "/pages/checkout"), fields, page=form).status_code == 303
    query = api.post("/trade/query", {"out_trade_no": "202201010354002"}, expect=200)
    created, cancelled = (datetime.fromisoformat(query[k]) for k in ("create_time", "expire_time"))
    assert cancelled - created == timedelta(hours=2)
    # Half a minute short of the deadline (real time goes on between the requests; a second's margin made
    # this test fail on a loaded machine), then past it.
    clock.advance(2 * 3600 - 30)
    work()
    assert api.post("/trade/query", {"out_trade_no": "202201010354002"}, expect=200)["trade_status"] == "PROCESSING"
    clock.advance(30)
    work()
    query = api.post("/trade/query", {"out_trade_no": "202201010354002"}, expect=200)
    assert (query["trade_status"], query["failure_reason"]) == ("CANCEL", "not paid within cancellation_express")
    assert [(p["trade_status"], p["reason"]) for _, _, p in outbox(query["trade_no"])] == [
        ("CANCEL", "not paid within cancellation_express")
    ]


@pytest.mark.parametrize(
    ("kind", "typed", "digits"),
    [("CPF", "502.844.147-27", "50284414727"), ("CNPJ", " 11.222.333/0001-81 ", "11222333000181")],
)
def test_a_document_typed_as_printed_is_taken_as_its_digits(customer, api, web_url, kind, typed, digits):
    form = choose(customer, customer.get(web_url), "PIX")
    fields = {"name": "Ana", "email": "ana@example.com", "phone": "5511987654321"}
    fields.update(document_type=kind, document_number=typed)
    done = customer.post(form_action(form, "/pages/checkout"), fields, page=form)
    assert done.status_code == 303 and "/pages/pay?token=" in done.headers["Location"]
    query = api.post("/trade/query", {"out_trade_no": "202201010354002"}, expect=200)
    assert query["trade_status"] == "PROCESSING"
    assert query["customer"]["identify"] == {"type": kind, "number": digits}
