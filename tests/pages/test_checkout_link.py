"""The provider's checkout link, `/?prepay_id=...[&return_url=...]`: the order's hosted checkout, or a clear page."""

import re
from urllib.parse import parse_qs, quote, urlsplit

import pytest

from checkout import clock, links, signing
from tests import builders
from tests.pages.conftest import form_action
from tests.payins.helpers import hosted

BROWSER = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
LANDING = "A payment service, running here"
NOT_FOUND = {
    "en": "We could not find this payment",
    "pt-BR": "Não encontramos este pagamento",
    "es-MX": "No encontramos este pago",
}


def opened_trade(app, location: str) -> str:
    """The trade_no the checkout page's token names (the page the link sends the customer to)."""
    parts = urlsplit(location)
    assert parts.path == "/pages/checkout", location
    token = parse_qs(parts.query)["token"][0]
    return signing.read_page_token(app.config["SECRET_KEY"], links.CHECKOUT_PAGE, token, 3600)["trade"]


def link(client, prepay_id: str, **params):
    query = "&".join(f"{key}={quote(value, safe='')}" for key, value in {"prepay_id": prepay_id, **params}.items())
    return client.get(f"/?{query}", headers={"Accept": BROWSER, "Accept-Language": "en"})


@pytest.mark.parametrize("trade_type", ["API", "WEB"])
def test_the_link_opens_that_orders_checkout(app, client, customer, api, trade_type):
    order = api.post("/trade/create", hosted(trade_type=trade_type), expect=200)
    answer = link(client, order["prepay_id"])
    assert answer.status_code == 303
    location = answer.headers["Location"]
    assert location.startswith("http://checkout.test/pages/checkout?token=")
    assert opened_trade(app, location) == order["trade_no"]
    assert answer.headers["Cache-Control"] == "no-store"
    assert answer.headers["Referrer-Policy"] == "same-origin"
    page = customer.get(location)
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "item name" in html and "12,01" in html  # the order's subject and amount (pt-BR: BRL)
    assert re.findall(r'data-method="([A-Za-z]+)"', html)[0] == "PIX"


def test_view_and_language_reach_the_page(app, client, api):
    order = api.post("/trade/create", hosted(trade_type="API"), expect=200)
    location = link(client, order["prepay_id"], view="h5", language="es-MX").headers["Location"]
    query = parse_qs(urlsplit(location).query)
    assert (query["view"], query["language"]) == (["h5"], ["es-MX"])
    page = client.get(location.removeprefix("http://checkout.test"))
    assert page.status_code == 200 and 'lang="es-MX"' in page.get_data(as_text=True)


def test_an_accepted_return_url_is_handed_to_the_page_and_receives_the_result(app, client, customer, api):
    order = api.post("/trade/create", hosted(trade_type="API", method="PIX"), expect=200)
    back = "https://shop.example/done?order=7"
    answer = link(client, order["prepay_id"], return_url=back)
    assert answer.status_code == 303
    assert parse_qs(urlsplit(answer.headers["Location"]).query)["return_url"] == [back]
    form = customer.get(answer.headers["Location"])
    html = form.get_data(as_text=True)
    hidden = re.search(r'name="return_url" value="([^"]+)"', html).group(1).replace("&amp;", "&")
    assert hidden == back
    fields = {
        "name": "Test User Name",
        "email": "test@pagsmile.com",
        "phone": "5511987654321",
        "document_type": "CPF",
        "document_number": "50284414727",
        "return_url": hidden,
    }
    done = customer.post(form_action(form, "/pages/checkout"), fields, page=form)
    assert done.status_code == 303
    api.post(f"/sandbox/trades/{order['trade_no']}/pay", expect=200)
    paid = customer.get(done.headers["Location"]).get_data(as_text=True)
    back_link = re.search(r'href="(https://shop\.example/done[^"]+)"', paid).group(1).replace("&amp;", "&")
    claims = parse_qs(urlsplit(back_link).query)
    assert claims["order"] == ["7"] and claims["token"][0].count(".") == 2


@pytest.mark.parametrize("bad", ["javascript:alert(1)", "https://user:pw@shop.example/x", "/relative"])
def test_a_refused_return_url_answers_the_invalid_link_page(client, api, bad):
    order = api.post("/trade/create", hosted(trade_type="API"), expect=200)
    answer = link(client, order["prepay_id"], return_url=bad, language="en")
    assert answer.status_code == 400 and answer.mimetype == "text/html"
    html = answer.get_data(as_text=True)
    assert "This link is not valid" in html and LANDING not in html
    assert "Location" not in answer.headers


def test_outside_the_sandbox_the_return_url_host_must_be_registered(app, client, api):
    order = api.post("/trade/create", hosted(trade_type="API"), expect=200)
    app.config["SANDBOX"] = False
    try:
        refused = link(client, order["prepay_id"], return_url="https://evil.example/x")
        allowed = link(client, order["prepay_id"], return_url="https://shop.example/back")
    finally:
        app.config["SANDBOX"] = True
    assert refused.status_code == 400 and "Este link não é válido" in refused.get_data(as_text=True)
    assert allowed.status_code == 303
    assert parse_qs(urlsplit(allowed.headers["Location"]).query)["return_url"] == ["https://shop.example/back"]


@pytest.mark.parametrize(
    ("accept_language", "lang"), [("en-US,en;q=0.9", "en"), ("pt-BR,pt;q=0.9", "pt-BR"), ("es-MX", "es-MX")]
)
@pytest.mark.parametrize(
    "prepay_id",
    ["pp_0123456789abcdef01234567", "", "<script>alert(1)</script>", "pp_" + "a" * 62, "pp_1 OR 1=1"],
)
def test_an_unknown_or_malformed_prepay_id_gets_a_not_found_page_in_the_customers_language(
    client, api, prepay_id, accept_language, lang
):
    api.post("/trade/create", hosted(trade_type="API"), expect=200)  # one order exists: never this one
    answer = client.get(
        f"/?prepay_id={quote(prepay_id, safe='')}", headers={"Accept": BROWSER, "Accept-Language": accept_language}
    )
    assert answer.status_code == 404 and answer.mimetype == "text/html"
    html = answer.get_data(as_text=True)
    assert NOT_FOUND[lang] in html and f'<html lang="{lang}"' in html
    assert LANDING not in html and "item name" not in html
    assert "Location" not in answer.headers
    assert "default-src 'none'" in answer.headers["Content-Security-Policy"]


def test_ids_other_than_a_checkouts_prepay_id_open_nothing(app, client, api):
    order = api.post("/trade/create", hosted(trade_type="API"), expect=200)
    token = api.post("/card/token", builders.card(), expect=200)["token"]
    authorization = api.post("/trade/pre-authorization", builders.pre_authorization(token), expect=200)
    direct = api.post("/trade/pay", builders.direct("PIX", out_trade_no="direct-1"), expect=200)
    direct_prepay = api.post("/trade/query", {"trade_no": direct["trade_no"]}, expect=200)["prepay_id"]
    assert direct_prepay.startswith("pp_") and authorization["prepay_id"].startswith("pp_")
    for other in (
        order["trade_no"],
        order["out_trade_no"],
        order["prepay_id"].upper(),
        authorization["prepay_id"],  # a prepay_id, of a card pre-authorization: no page to pay it on
        direct_prepay,  # a direct payment's: its page is pay_url
    ):
        assert link(client, other).status_code == 404, other
    assert link(client, order["prepay_id"]).status_code == 303


def test_one_merchants_prepay_id_opens_only_its_own_order(app, client, api, other_api):
    mine = api.post("/trade/create", hosted(trade_type="API", subject="Mine"), expect=200)
    theirs = other_api.post("/trade/create", hosted(trade_type="API", subject="Theirs"), expect=200)
    assert mine["out_trade_no"] == theirs["out_trade_no"]  # the same merchant order number, two merchants
    for order, subject, other in ((mine, "Mine", "Theirs"), (theirs, "Theirs", "Mine")):
        location = link(client, order["prepay_id"]).headers["Location"]
        assert opened_trade(app, location) == order["trade_no"]
        html = client.get(location.removeprefix("http://checkout.test")).get_data(as_text=True)
        assert subject in html and other not in html


def test_an_expired_order_answers_410_in_its_pages_language(app, client, api, work):
    order = api.post("/trade/create", hosted(trade_type="API", timeout_express="30m"), expect=200)
    clock.advance(31 * 60)
    # Past its deadline before the worker marks it, and after: the same page.
    for _ in range(2):
        answer = link(client, order["prepay_id"])
        assert answer.status_code == 410 and answer.mimetype == "text/html"
        html = answer.get_data(as_text=True)
        # A Brazilian order's pages speak Portuguese, whatever the browser asks (as its checkout page does).
        assert "Este link expirou" in html and '<html lang="pt-BR"' in html and LANDING not in html
        work()
    assert api.post("/trade/query", {"trade_no": order["trade_no"]}, expect=200)["trade_status"] == "EXPIRED"
    english = link(client, order["prepay_id"], language="en")
    assert english.status_code == 410 and "This link has expired" in english.get_data(as_text=True)


def test_an_order_still_open_one_minute_before_its_deadline_opens(client, api):
    order = api.post("/trade/create", hosted(trade_type="API", timeout_express="30m"), expect=200)
    clock.advance(29 * 60)
    assert link(client, order["prepay_id"]).status_code == 303


def test_a_submitted_order_leads_to_its_payment_page(app, client, customer, api):
    order = api.post("/trade/create", hosted(trade_type="API", method="Boleto"), expect=200)
    form = customer.get(link(client, order["prepay_id"]).headers["Location"])
    fields = {
        "name": "Ana Souza",
        "email": "ana@example.com",
        "phone": "5511987654321",
        "document_type": "CPF",
        "document_number": "50284414727",
        "zip_code": "38082365",
        "state": "SP",
        "city": "São Paulo",
        "street": "Avenida Paulista",
        "street_number": "1000",
    }
    assert customer.post(form_action(form, "/pages/checkout"), fields, page=form).status_code == 303
    again = customer.get(link(client, order["prepay_id"]).headers["Location"])
    assert again.status_code == 303 and "/pages/pay?token=" in again.headers["Location"]


@pytest.mark.parametrize("accept", [BROWSER, "application/json"])
def test_the_address_without_prepay_id_stays_the_landing_page(client, api, accept):
    api.post("/trade/create", hosted(trade_type="API"), expect=200)
    answer = client.get("/?view=h5", headers={"Accept": accept})
    assert answer.status_code == 200
    if accept == BROWSER:
        assert LANDING in answer.get_data(as_text=True)
    else:
        assert answer.get_json()["service"] == "checkout"
