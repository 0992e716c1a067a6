"""The overview: one merchant's own balances, payments, payouts and sandbox clock, nobody else's."""

from __future__ import annotations

from decimal import Decimal

from babel import numbers

from checkout import clock
from tests import builders

from .helpers import add_user


def test_a_user_sees_only_its_own_merchant(app, api, other_api, fund, make_browser):
    add_user(app, api.credentials, "a@shop.example")
    add_user(app, other_api.credentials, "b@shop.example")
    mine = api.post("/trade/pay", builders.direct("PIX", "order-a"), expect=200)["trade_no"]
    theirs = other_api.post("/trade/pay", builders.direct("PIX", "order-b"), expect=200)["trade_no"]
    fund(api.credentials, "USD", "1234.56")
    fund(other_api.credentials, "BRL", "999.99")

    alice = make_browser()
    alice.log_in("a@shop.example")
    html = alice.get("/dashboard").get_data(as_text=True)
    assert "Loja Exemplo" in html and api.app_id in html
    assert mine in html and f"{numbers.format_decimal(Decimal('1234.56'), locale='en')}</span> USD" in html
    assert theirs not in html and "999.99" not in html and other_api.app_id not in html and "Outra Loja" not in html
    amount = numbers.format_currency(Decimal("100.50"), "BRL", locale="en")  # "R$100.50": CLDR's symbol
    assert f'<td class="num">{amount}</td>' in html  # the payment's amount, to the cent, with its symbol


def test_the_clock_buttons_move_only_this_merchants_clock(app, api, other_api, make_browser):
    add_user(app, api.credentials, "a@shop.example")
    alice = make_browser()
    alice.log_in("a@shop.example")
    before_mine, before_theirs = api.get("/sandbox/clock")["now"], other_api.get("/sandbox/clock")["now"]
    assert alice.submit("/dashboard/clock", {"seconds": "86400"}, form_at="/dashboard").status_code == 302
    assert alice.submit("/dashboard/clock", {"seconds": "3600"}, form_at="/dashboard").status_code == 302
    mine, theirs = api.get("/sandbox/clock"), other_api.get("/sandbox/clock")
    assert mine["offset_seconds"] == 90000 and mine["now"] - before_mine >= 90000
    assert theirs["offset_seconds"] == 0 and theirs["now"] - before_theirs < 600
    assert clock.shared_offset_seconds() == 0
    # Only the two steps the buttons offer, and only with the CSRF token.
    assert alice.submit("/dashboard/clock", {"seconds": "999999"}, form_at="/dashboard").status_code == 400
    no_token = alice.client.post(
        "/dashboard/clock", data={"seconds": "3600"}, environ_base={"REMOTE_ADDR": alice.address}
    )
    assert no_token.status_code == 400
    assert api.get("/sandbox/clock")["offset_seconds"] == 90000


def test_the_overview_needs_a_login(client):
    answer = client.get("/dashboard")
    assert answer.status_code == 302 and "/dashboard/login" in answer.headers["Location"]
    assert client.post("/dashboard/clock", data={"seconds": "3600"}).status_code == 302


def test_the_dashboard_speaks_the_browsers_language(visitor):
    assert "Entrar" in visitor.get("/dashboard/login", headers={"Accept-Language": "pt-BR"}).get_data(as_text=True)
    assert "Iniciar sesión" in visitor.get("/dashboard/login?language=es-MX").get_data(as_text=True)


def test_the_api_description_leaves_the_dashboard_out(client):
    assert not [path for path in client.get("/openapi.json").get_json()["paths"] if path.startswith("/dashboard")]
