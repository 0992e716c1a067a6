"""Hand-off payments: the page's "Continue to" the bank or wallet, the sandbox page that plays it (Approve pays,
Decline refuses, each with its callback, back to the payment page), its CSRF, and its absence outside the sandbox."""

import re
from urllib.parse import urlsplit

import pytest

from checkout import clock
from checkout.pages import pay_journeys
from checkout.payins.models import Trade
from tests.pages.conftest import csrf_of, form_action
from tests.pages.country_payments import CASES, HANDOFF
from tests.pages.helpers import create, page_url, status_of

HANDOFFS = [name for name, case in CASES.items() if case.journey == HANDOFF]


def handoff_url(page) -> str:
    html = page.get_data(as_text=True)
    return re.search(r'class="button wide handoff" href="([^"]+)"', html).group(1).replace("&amp;", "&")


def open_handoff(customer, trade: dict, language: str = "en"):
    return customer.get(handoff_url(customer.get(page_url(trade, language))))


def decide(customer, handoff, decision: str, **kwargs):
    return customer.post(form_action(handoff, "/pages/pay/handoff"), {"decision": decision}, page=handoff, **kwargs)


def callbacks(outbox, trade: dict) -> list[dict]:
    return [payload for kind, _, payload in outbox(trade["trade_no"]) if kind == "payin.callback"]


@pytest.mark.parametrize(
    ("name", "button"),
    [
        ("tr-papara", "Continue to Papara"),
        ("ru-qiwi", "Continue to QIWI"),
        ("kr-naverpay", "Continue to Naver Pay"),
        ("my-tng", "Continue to Touch &#39;n Go eWallet"),
        ("tw-transfer", "Continue to FamilyMart FamiPort"),
        ("tw-otc", "Continue to CTBC Bank ATM"),
        ("tw-linepay", "Continue to LINE Pay"),
        ("ph-alipayplus", "Continue to Alipay+"),
        ("ar-khipu", "Continue to Khipu"),
        ("ec-transfer", "Continue to your bank"),
        ("ec-cash", "Continue to the cash payment network"),
    ],
)
def test_the_page_offers_to_continue_to_the_bank_or_wallet(customer, api, name, button):
    page = customer.get(page_url(create(api, name), "en"))
    html = page.get_data(as_text=True)
    assert f"{button}</a>" in html
    assert "/pages/pay/sandbox/paste" not in html  # nothing to paste: the bank or wallet confirms it


@pytest.mark.parametrize("name", HANDOFFS)
def test_approve_pays_the_trade_and_the_page_shows_it(customer, api, outbox, name):
    trade = create(api, name)
    handoff = open_handoff(customer, trade)
    assert handoff.status_code == 200
    answer = decide(customer, handoff, "approve")
    assert answer.status_code == 303
    assert urlsplit(answer.headers["Location"]).path == "/pages/pay"
    assert status_of(api, trade) == "SUCCESS"
    (callback,) = callbacks(outbox, trade)
    assert (callback["trade_status"], callback["trade_no"]) == ("SUCCESS", trade["trade_no"])
    shown = customer.get(answer.headers["Location"]).get_data(as_text=True)
    assert "Pagado" in shown or "Paid" in shown
    assert "Payment received. Thank you!" in customer.get(page_url(trade, "en")).get_data(as_text=True)


def test_the_sandbox_page_plays_the_wallet(customer, api):
    trade = create(api, "tr-papara")
    handoff = open_handoff(customer, trade)
    html = handoff.get_data(as_text=True)
    for text in (
        '<h1 id="handoff-title">Papara (sandbox)</h1>',
        "This sandbox page plays Papara: no real bank or wallet is reached and no money moves.",
        "<dd>Loja Exemplo</dd>",
        "<dd>Order 42</dd>",
        f"<dd>{trade['trade_no']}</dd>",
        '<button class="button" name="decision" value="approve">Approve</button>',
        '<button class="button secondary" name="decision" value="decline">Decline</button>',
    ):
        assert text in html, text
    # The amount as the payment page writes it (the country's format).
    amount = re.search(r'<p class="amount">([^<]+)</p>', customer.get(page_url(trade, "en")).get_data(as_text=True))
    assert f'<dd class="amount">{amount.group(1)}</dd>' in html and "400" in amount.group(1)
    khipu = open_handoff(customer, create(api, "ar-khipu", out_trade_no="k-1"), "es-MX").get_data(as_text=True)
    assert "Khipu (entorno de pruebas)" in khipu and "<dd>Khipu test bank (Argentina)</dd>" in khipu
    assert ">Aprobar</button>" in khipu and ">Rechazar</button>" in khipu


def test_decline_refuses_the_trade_with_its_reason_and_callback(customer, api, outbox):
    trade = create(api, "tr-papara")
    answer = decide(customer, open_handoff(customer, trade), "decline")
    assert answer.status_code == 303 and urlsplit(answer.headers["Location"]).path == "/pages/pay"
    query = api.post("/trade/query", {"trade_no": trade["trade_no"]}, expect=200)
    assert (query["trade_status"], query["refuse_detail"]) == ("REFUSED", "declined by the customer at Papara")
    (callback,) = callbacks(outbox, trade)
    assert (callback["trade_status"], callback["reason"]) == ("REFUSED", "declined by the customer at Papara")
    html = customer.get(page_url(trade, "en")).get_data(as_text=True)
    assert "This payment was refused." in html and "Nothing was charged" in html
    # Decided: the sandbox page now leads back to the payment page.
    done = customer.get(answer.headers["Location"].replace("/pages/pay?", "/pages/pay/handoff?"))
    assert done.status_code == 303 and urlsplit(done.headers["Location"]).path == "/pages/pay"


def test_a_paid_trade_cannot_be_declined(customer, api, outbox, row_counts):
    trade = create(api, "ru-qiwi")
    handoff = open_handoff(customer, trade)
    assert decide(customer, handoff, "approve").status_code == 303
    before = row_counts()
    refused = decide(customer, handoff, "decline")  # the same page, still open in another tab
    html = refused.get_data(as_text=True)
    assert refused.status_code == 409
    assert "This payment is no longer waiting for an answer: nothing was changed." in html
    assert "Back to the payment page" in html and 'value="decline"' not in html
    assert status_of(api, trade) == "SUCCESS" and row_counts() == before
    assert [c["trade_status"] for c in callbacks(outbox, trade)] == ["SUCCESS"]


def test_an_expired_trade_cannot_be_approved(customer, api):
    trade = create(api, "ec-cash", timeout_express="5m")
    handoff = open_handoff(customer, trade)
    clock.advance(301)
    assert decide(customer, handoff, "approve").status_code == 409
    assert status_of(api, trade) == "PROCESSING"  # the worker's expiry job ends it, not the customer


@pytest.mark.parametrize(
    ("tamper", "status"),
    [
        ({"origin": "https://evil.example"}, 403),
        ({"csrf": "0" * 40}, 403),
        ({"csrf": ""}, 403),
        ({"decision": "maybe"}, 400),
    ],
)
def test_decisions_need_the_pages_csrf_and_origin(customer, api, row_counts, tamper, status):
    trade = create(api, "tr-papara")
    handoff = open_handoff(customer, trade)
    before = row_counts()
    form = {"decision": tamper.get("decision", "approve"), "csrf": tamper.get("csrf", csrf_of(handoff))}
    origin = tamper.get("origin", "http://checkout.test")
    answer = customer.post(form_action(handoff, "/pages/pay/handoff"), form, origin=origin)
    assert answer.status_code == status
    assert status_of(api, trade) == "PROCESSING" and row_counts() == before


def test_only_hand_off_trades_have_the_page(customer, api):
    voucher = create(api, "co-baloto")
    assert customer.get(page_url(voucher).replace("/pages/pay?", "/pages/pay/handoff?")).status_code == 404


def test_outside_the_sandbox_there_is_no_hand_off_page(app, customer, api):
    trade = create(api, "tr-papara")
    url = handoff_url(customer.get(page_url(trade, "en")))
    handoff = customer.get(url)
    app.config["SANDBOX"] = False
    try:
        gone = customer.get(url)
        assert gone.status_code == 404 and "We could not find this payment" in gone.get_data(as_text=True)
        assert decide(customer, handoff, "approve").status_code == 404
        page = customer.get(page_url(trade, "en")).get_data(as_text=True)
        assert "Continue to Papara" not in page and "Complete the payment with Papara." in page
    finally:
        app.config["SANDBOX"] = True
    assert status_of(api, trade) == "PROCESSING"


@pytest.mark.parametrize("method", ["CreditCard", "", "PIXAutomatic"])
def test_a_card_a_vault_debit_or_a_checkout_with_no_method_has_no_hand_off(method):
    """Decided by the acquirer or the payer's bank, never by a sandbox bank page: no journey, so the hand-off page
    answers its 404 page for them."""
    assert pay_journeys.journey(Trade(method=method, currency="BRL", details={"response": {}})) is None


def test_pse_asks_which_bank_pays_and_names_it_in_the_reason(customer, api, outbox, row_counts):
    trade = create(api, "co-pse")
    handoff = open_handoff(customer, trade, "es-MX")
    html = handoff.get_data(as_text=True)
    assert '<label for="bank">Tu banco</label>' in html
    assert '<option value="">Elige tu banco</option>' in html and '<option value="007">Bancolombia</option>' in html
    before = row_counts()
    unchosen = decide(customer, handoff, "approve")  # no bank: asked again, nothing written
    assert unchosen.status_code == 422 and "Elige tu banco." in unchosen.get_data(as_text=True)
    foreign = customer.post(
        form_action(handoff, "/pages/pay/handoff"), {"decision": "approve", "bank": "9999"}, page=handoff
    )
    assert foreign.status_code == 422
    assert status_of(api, trade) == "PROCESSING" and row_counts() == before
    answer = customer.post(
        form_action(handoff, "/pages/pay/handoff"), {"decision": "decline", "bank": "007"}, page=handoff
    )
    assert answer.status_code == 303
    query = api.post("/trade/query", {"trade_no": trade["trade_no"]}, expect=200)
    assert (query["trade_status"], query["refuse_detail"]) == (
        "REFUSED",
        "declined by the customer at PSE (Bancolombia)",
    )
    (callback,) = callbacks(outbox, trade)
    assert callback["reason"] == "declined by the customer at PSE (Bancolombia)"


def test_going_back_without_paying_keeps_the_payment_waiting_and_says_so(customer, api, row_counts):
    trade = create(api, "cl-webpay")
    handoff = open_handoff(customer, trade, "es-MX")
    back = re.search(r'<p class="leave"><a href="([^"]+)">Regresar sin pagar</a>', handoff.get_data(as_text=True))
    before = row_counts()
    page = customer.get(back.group(1).replace("&amp;", "&"))
    html = page.get_data(as_text=True)
    assert page.status_code == 200 and row_counts() == before and status_of(api, trade) == "PROCESSING"
    assert "Volviste de WebPay sin pagar. No se cobró nada: puedes continuar a WebPay de nuevo." in html
    assert "Continuar a WebPay</a>" in html and "Esperando tu pago…" in html
    # Said only to who came back from the bank: the page's own link does not say it.
    assert "sin pagar" not in customer.get(page_url(trade, "es-MX")).get_data(as_text=True)
    voucher = customer.get(page_url(create(api, "co-baloto", out_trade_no="b-1"), "es-MX") + "&left=1")
    assert "sin pagar" not in voucher.get_data(as_text=True)


@pytest.mark.parametrize(("name", "wallet"), [("br-picpay", "PicPay"), ("co-nequi", "Nequi"), ("mx-todito", "Todito")])
def test_an_app_link_wallet_is_played_by_the_sandbox_page_too(customer, api, outbox, name, wallet):
    trade = create(api, name)
    page = customer.get(page_url(trade, "en")).get_data(as_text=True)
    assert f"Continue to {wallet}</a>" in page and "/pages/pay/sandbox/paste" not in page
    handoff = open_handoff(customer, trade)
    assert f'<h1 id="handoff-title">{wallet} (sandbox)</h1>' in handoff.get_data(as_text=True)
    assert decide(customer, handoff, "approve").status_code == 303
    assert status_of(api, trade) == "SUCCESS"
    assert [c["trade_status"] for c in callbacks(outbox, trade)] == ["SUCCESS"]


def test_codi_shows_its_own_steps_and_a_labelled_numeric_reference(customer, api):
    trade = create(api, "mx-codi")
    html = customer.get(page_url(trade, "es-MX")).get_data(as_text=True)
    for text in (
        '<h2 id="how-title">Paga con CoDi</h2>',
        "<li>Abre la app de tu banco y elige CoDi.</li>",
        "<li>Escanea este código con tu teléfono.</li>",
        "<dt>Referencia numérica</dt>",
        f'value="{trade["reference"]}" aria-label="Referencia numérica"',
    ):
        assert text in html, text
    assert "Ve a CoDi" not in html  # not a cash store's steps
    phone = customer.get(page_url(trade, "es-MX") + "&view=h5").get_data(as_text=True)
    assert "toma una captura de pantalla del código" in phone
