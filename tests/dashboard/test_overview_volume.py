"""The overview's payin volume: paid payments and refunds of the last 30 days, per currency, the merchant's own."""

from __future__ import annotations

import re
from datetime import timedelta

from sqlalchemy import update

from checkout import clock
from checkout.db import db
from checkout.payins.models import Trade
from tests import builders


def paid(api, out_trade_no: str, amount: str, currency: str = "BRL") -> str:
    trade_no = api.post(
        "/trade/pay", builders.direct("PIX", out_trade_no, order_amount=amount, order_currency=currency), expect=200
    )["trade_no"]
    api.post(f"/sandbox/trades/{trade_no}/pay", {}, expect=200)
    return trade_no


def volume(html: str) -> list[list[str]]:
    rows = re.findall(r'<tr class="volume-row">(.*?)</tr>', html, re.S)
    return [re.findall(r"<t[hd][^>]*>([^<]*)</t[hd]>", row) for row in rows]


def test_paid_payments_and_refunds_of_the_last_30_days(app, api, other_api, alice):
    first = paid(api, "v-1", "50.00")
    paid(api, "v-2", "25.50")
    api.post("/trade/pay", builders.direct("PIX", "v-unpaid", order_amount="999.00"), expect=200)
    old = paid(api, "v-old", "700.00")
    paid(other_api, "theirs", "1000.00")
    api.post(
        "/trade/refund",
        {"trade_no": first, "out_request_no": "r1", "refund_amount": "10.00", "refund_currency": "BRL"},
        expect=200,
    )
    with app.app_context():
        with clock.merchant(None):
            long_ago = clock.now() - timedelta(days=31)
        db.session.execute(update(Trade).where(Trade.trade_no == old).values(created_at=long_ago))
        db.session.commit()
    html = alice.get("/dashboard?language=en").get_data(as_text=True)
    assert volume(html) == [["BRL", "2", "75.50 BRL", "1", "10.00 BRL"]]
    html = alice.get("/dashboard?language=pt-BR").get_data(as_text=True)
    assert volume(html) == [["BRL", "2", "75,50 BRL", "1", "10,00 BRL"]]


def test_no_paid_payments_says_so(api, alice):
    api.post("/trade/pay", builders.direct("PIX", "v-unpaid"), expect=200)
    html = alice.get("/dashboard?language=en").get_data(as_text=True)
    assert 'id="volume-empty">No paid payments in the last 30 days.' in html
