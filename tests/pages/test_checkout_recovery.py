"""A declined card on the hosted checkout: the reason in the customer's words, another card or method, bounded attempts."""

import re
from html import unescape

import pytest
from flask import g

from checkout import clock
from checkout.pages import card_outcomes
from checkout.payins import card_attempts
from tests.pages.conftest import form_action
from tests.payins.helpers import hosted

from .helpers import choose

OUT = "202201010354002"
DECLINED = "4000 0000 0000 0119"  # the sandbox issuer declines it
NO_FUNDS = "4000 0000 0000 9995"
GOOD = "4111 1111 1111 1111"


def card(number: str, **extra) -> dict:
    return {
        "card_no": number,
        "exp": f"12/{clock.now().year + 2}",
        "cvv": "123",
        "holder": "Ana Souza",
        "name": "Ana Souza",
        "email": "ana@example.com",
        **extra,
    }


def pay_by_card(customer, form, number: str, answer: str = "confirm", **extra):
    """Type a card on the checkout's card form and answer the 3-D Secure step: the 303 that follows."""
    step = customer.post(form_action(form, "/pages/checkout"), card(number, **extra), page=form)
    assert step.status_code == 303 and "/pages/checkout/3ds?" in step.headers["Location"]
    challenge = customer.get(step.headers["Location"])
    done = customer.post(form_action(challenge, "/pages/checkout/3ds"), {"authentication": answer}, page=challenge)
    assert done.status_code == 303
    return done


def in_language(url: str, language: str) -> str:
    return re.sub(r"language=[^&]+", f"language={language}", url)


def alert(page) -> str:
    html = page.get_data(as_text=True)
    box = re.search(r'<div class="alert decline" role="alert" id="card-declined">(.*?)</div>', html, re.S).group(1)
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", box))).strip()


def methods_offered(page) -> list[str]:
    return re.findall(r'data-method="([A-Za-z]+)" href', page.get_data(as_text=True))


def test_a_declined_card_stays_on_the_page_and_another_card_pays(customer, api, outbox):
    web_url = api.post("/trade/create", hosted(), expect=200)["web_url"]
    form = choose(customer, customer.get(web_url), "CreditCard")
    done = pay_by_card(customer, form, NO_FUNDS)
    assert "/pages/checkout?" in done.headers["Location"] and "method=CreditCard" in done.headers["Location"]
    again = customer.get(done.headers["Location"])
    html = again.get_data(as_text=True)
    assert again.status_code == 200
    assert alert(again) == (
        "Seu cartão não tem saldo suficiente. Nada foi cobrado no cartão VISA •••• 9995. "
        "Você pode tentar outro cartão (restam 2 tentativas) ou pagar de outra forma."
    )
    # The card form is empty and ready, its number focused; the customer's name and e-mail stay.
    number = re.search(r'<input [^>]*id="card_no"[^>]*>', html).group(0)
    assert " autofocus " in number and 'value=""' in number
    assert 'name="cvv"' in html and 'value="Ana Souza"' in html and 'value="ana@example.com"' in html
    assert "CreditCard<" not in html and ">Cartão<" in html
    # The other methods, one tap away.
    assert methods_offered(again) == ["PIX", "Boleto", "Lottery", "DepositExpress", "OpenFinance", "Wallet"]
    query = api.post("/trade/query", {"out_trade_no": OUT}, expect=200)
    assert (query["trade_status"], query["method"], query["refuse_detail"]) == ("INITIAL", "", "")
    assert [(e["from_status"], e["trade_status"], e["reason"]) for e in query["status_history"]] == [
        (None, "INITIAL", None),
        ("INITIAL", "INITIAL", "insufficient funds (card attempt 1 of 3)"),
    ]
    assert outbox(query["trade_no"]) == []

    paid = pay_by_card(customer, again, GOOD)
    assert "/pages/pay?token=" in paid.headers["Location"]
    query = api.post("/trade/query", {"out_trade_no": OUT}, expect=200)
    assert (query["trade_status"], query["method"]) == ("SUCCESS", "CreditCard")
    assert [p["trade_status"] for _, _, p in outbox(query["trade_no"])] == ["SUCCESS"]
    assert "Seu cartão" not in customer.get(paid.headers["Location"]).get_data(as_text=True)


def test_a_failed_3ds_step_is_a_decline_in_the_customers_words(customer, api):
    web_url = api.post("/trade/create", hosted(), expect=200)["web_url"]
    form = choose(customer, customer.get(web_url), "CreditCard")
    done = pay_by_card(customer, form, GOOD, answer="fail")
    again = customer.get(in_language(done.headers["Location"], "en"))
    assert alert(again) == (
        "The purchase was not confirmed with your bank. Nothing was charged to VISA •••• 1111. "
        "You can try another card (2 attempts left) or pay another way."
    )


def test_attempts_exhausted_on_a_card_only_order_refuse_it_with_one_callback(customer, api, outbox):
    web_url = api.post("/trade/create", hosted(method="CreditCard"), expect=200)["web_url"]
    form = customer.get(web_url)
    for attempt in (1, 2):
        done = pay_by_card(customer, form, DECLINED)
        form = customer.get(in_language(done.headers["Location"], "en"))
        assert alert(form).endswith(
            f"You can try another card ({3 - attempt} attempt{'s' if attempt == 1 else ''} left)."
        )
        assert methods_offered(form) == []  # the merchant asked for cards only
    done = pay_by_card(customer, form, DECLINED)
    assert "/pages/pay?token=" in done.headers["Location"]
    query = api.post("/trade/query", {"out_trade_no": OUT}, expect=200)
    reason = "card declined by the issuer (card attempt 3 of 3)"
    assert (query["trade_status"], query["refuse_detail"]) == ("REFUSED", reason)
    assert [(p["trade_status"], p["reason"]) for _, _, p in outbox(query["trade_no"])] == [("REFUSED", reason)]
    assert [e["trade_status"] for e in query["status_history"]] == [
        "INITIAL",
        "INITIAL",
        "INITIAL",
        "PROCESSING",
        "REFUSED",
    ]


def test_attempts_exhausted_leave_the_other_methods_and_pix_pays(customer, api, outbox):
    web_url = api.post("/trade/create", hosted(), expect=200)["web_url"]
    form = choose(customer, customer.get(web_url), "CreditCard")
    for _ in range(card_attempts.MAX_CARD_ATTEMPTS):
        done = pay_by_card(customer, form, DECLINED)
        form = customer.get(in_language(done.headers["Location"], "es-MX"))
    # No card any more: the picker, with the reason and what is left.
    assert "method=CreditCard" not in done.headers["Location"]
    assert alert(form) == (
        "Tu banco rechazó esta tarjeta. No se hizo ningún cargo a la tarjeta VISA •••• 0119. "
        "Ese fue el último intento con tarjeta para este pedido. Aún puedes pagar de otra forma."
    )
    assert methods_offered(form) == ["PIX", "Boleto", "Lottery", "DepositExpress", "OpenFinance", "Wallet"]
    trade_no = api.post("/trade/query", {"out_trade_no": OUT}, expect=200)["trade_no"]
    assert outbox(trade_no) == []
    pix = choose(customer, form, "PIX")
    fields = {"name": "Ana Souza", "email": "ana@example.com", "phone": "5511987654321"}
    fields.update(document_type="CPF", document_number="50284414727")
    assert customer.post(form_action(pix, "/pages/checkout"), fields, page=pix).status_code == 303
    api.post(f"/sandbox/trades/{trade_no}/pay", expect=200)
    query = api.post("/trade/query", {"out_trade_no": OUT}, expect=200)
    assert (query["trade_status"], query["method"]) == ("SUCCESS", "PIX")
    assert [p["trade_status"] for _, _, p in outbox(trade_no)] == ["SUCCESS"]


def test_a_card_cannot_be_submitted_once_its_attempts_are_spent(customer, api):
    web_url = api.post("/trade/create", hosted(), expect=200)["web_url"]
    form = choose(customer, customer.get(web_url), "CreditCard")
    stale = form
    for _ in range(card_attempts.MAX_CARD_ATTEMPTS):
        form = customer.get(pay_by_card(customer, form, DECLINED).headers["Location"])
    answer = customer.post(form_action(stale, "/pages/checkout"), card(GOOD), page=stale)
    assert answer.status_code == 400 and answer.mimetype == "text/html"


MESSAGES = {
    "insufficient_funds": (
        "Your card has insufficient funds.",
        "Seu cartão não tem saldo suficiente.",
        "Tu tarjeta no tiene fondos suficientes.",
    ),
    "card_declined": (
        "Your bank declined this card.",
        "Seu banco recusou este cartão.",
        "Tu banco rechazó esta tarjeta.",
    ),
    "expired_card": (
        "Your bank says this card has expired.",
        "Seu banco informa que este cartão está vencido.",
        "Tu banco indica que esta tarjeta está vencida.",
    ),
    "incorrect_cvc": (
        "The security code is incorrect.",
        "O código de segurança está incorreto.",
        "El código de seguridad es incorrecto.",
    ),
    "authentication_failed": (
        "The purchase was not confirmed with your bank.",
        "A compra não foi confirmada com o seu banco.",
        "La compra no se confirmó con tu banco.",
    ),
    "something_else": ("Your card was declined.", "Seu cartão foi recusado.", "Tu tarjeta fue rechazada."),
}


@pytest.mark.parametrize("code", sorted(MESSAGES))
@pytest.mark.parametrize(("column", "locale"), [(0, "en"), (1, "pt_BR"), (2, "es_MX")])
def test_each_decline_in_the_customers_words(app, code, column, locale):
    with app.test_request_context("/"):
        g.page_locale = locale
        assert card_outcomes.decline_message(code) == MESSAGES[code][column]


@pytest.mark.parametrize(
    ("number", "holder", "message"),
    [
        ("4000 0000 0000 0069", "Ana Souza", "Your bank says this card has expired."),
        ("4000 0000 0000 0127", "Ana Souza", "The security code is incorrect."),
        (GOOD, "FUND", "Your card has insufficient funds."),
        (GOOD, "OTHE", "Your bank declined this card."),
        (GOOD, "EXPI", "Your bank says this card has expired."),
        (GOOD, "SECU", "The security code is incorrect."),
    ],
)
def test_each_sandbox_decline_reaches_the_page(customer, api, number, holder, message):
    web_url = api.post("/trade/create", hosted(), expect=200)["web_url"]
    form = choose(customer, customer.get(web_url), "CreditCard")
    done = pay_by_card(customer, form, number, holder=holder)
    assert alert(customer.get(in_language(done.headers["Location"], "en"))).startswith(message)


def options(page) -> list[tuple[str, str]]:
    select = re.search(r'<select [^>]*name="installments"[^>]*>(.*?)</select>', page.get_data(as_text=True), re.S)
    return [(v, unescape(t)) for v, t in re.findall(r'value="(\d+)">([^<]+)</option>', select.group(1))]


def test_a_brazilian_card_offers_instalments_shown_up_to_the_result(customer, api, outbox):
    web_url = api.post("/trade/create", hosted(order_amount="100.00"), expect=200)["web_url"]
    form = choose(customer, customer.get(web_url), "CreditCard")
    nbsp = "\xa0"
    assert options(form) == [
        ("1", f"1x de R${nbsp}100,00 sem juros"),
        ("2", f"2x de R${nbsp}50,00 sem juros"),
        ("3", f"3x de R${nbsp}33,33 (última de R${nbsp}33,34) sem juros"),
        ("4", f"4x de R${nbsp}25,00 sem juros"),
        ("5", f"5x de R${nbsp}20,00 sem juros"),
        ("6", f"6x de R${nbsp}16,66 (última de R${nbsp}16,70) sem juros"),
        ("7", f"7x de R${nbsp}14,28 (última de R${nbsp}14,32) sem juros"),
        ("8", f"8x de R${nbsp}12,50 sem juros"),
        ("9", f"9x de R${nbsp}11,11 (última de R${nbsp}11,12) sem juros"),
        ("10", f"10x de R${nbsp}10,00 sem juros"),
        ("11", f"11x de R${nbsp}9,09 (última de R${nbsp}9,10) sem juros"),
        ("12", f"12x de R${nbsp}8,33 (última de R${nbsp}8,37) sem juros"),
    ]
    step = customer.post(form_action(form, "/pages/checkout"), card(GOOD, installments="3"), page=form)
    challenge = customer.get(step.headers["Location"])
    assert f'<dd class="instalments">3x de R${nbsp}33,33 (última de R${nbsp}33,34) sem juros</dd>' in unescape(
        challenge.get_data(as_text=True)
    )
    done = customer.post(form_action(challenge, "/pages/checkout/3ds"), {"authentication": "confirm"}, page=challenge)
    result = unescape(customer.get(done.headers["Location"]).get_data(as_text=True))
    assert f'<dd class="instalments">3x de R${nbsp}33,33 (última de R${nbsp}33,34) sem juros</dd>' in result
    assert api.post("/trade/query", {"out_trade_no": OUT}, expect=200)["trade_status"] == "SUCCESS"


def test_instalments_in_english_and_spanish_and_none_for_a_small_amount(customer, api):
    web_url = api.post("/trade/create", hosted(order_amount="120.00"), expect=200)["web_url"]
    form = choose(customer, customer.get(in_language(web_url + "&language=en", "en")), "CreditCard")
    assert options(form)[0] == ("1", "1x of R$120.00, interest-free")
    assert options(form)[-1] == ("12", "12x of R$10.00, interest-free")
    form = customer.get(in_language(form.request.url, "es-MX"))
    assert options(form)[-1] == ("12", "12x de BRL\xa010.00 sin intereses")  # es-MX writes BRL so
    small = api.post("/trade/create", hosted(out_trade_no="small", order_amount="9.99"), expect=200)["web_url"]
    assert 'name="installments"' not in choose(customer, customer.get(small), "CreditCard").get_data(as_text=True)


def test_an_instalment_count_not_offered_is_refused_on_the_page(customer, api):
    web_url = api.post("/trade/create", hosted(), expect=200)["web_url"]  # 12.01: 1x or 2x
    form = choose(customer, customer.get(web_url), "CreditCard")
    answer = customer.post(form_action(form, "/pages/checkout"), card(GOOD, installments="3"), page=form)
    assert answer.status_code == 422 and 'id="installments-error"' in answer.get_data(as_text=True)


def test_a_card_refused_by_its_last_attempt_says_so_on_the_result_page(customer, api):
    web_url = api.post("/trade/create", hosted(method="CreditCard"), expect=200)["web_url"]
    form = customer.get(web_url)
    for _ in range(card_attempts.MAX_CARD_ATTEMPTS):
        done = pay_by_card(customer, form, NO_FUNDS)
        form = customer.get(done.headers["Location"])
    text = unescape(form.get_data(as_text=True))
    assert (
        '<p class="card-refusal">Seu cartão não tem saldo suficiente. '
        "Essa foi a última tentativa com cartão para este pedido.</p>"
    ) in text
