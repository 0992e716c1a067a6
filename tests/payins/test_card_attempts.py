"""The hosted checkout's card attempts: a decline keeps the order payable, the last one refuses it, once."""

from decimal import Decimal

import pytest
from flask import current_app
from sqlalchemy import select

from checkout import links, wiring
from checkout.cards.models import CardToken
from checkout.db import db
from checkout.errors import InvalidField
from checkout.payins import card_attempts, checkout, instalments, methods
from checkout.payins.models import Trade
from tests.payins.helpers import hosted

DECLINED, NO_FUNDS, GOOD = "4000000000000119", "4000000000009995", "4111111111111111"


@pytest.fixture
def order(api):
    """Open a hosted checkout (`method` given: that one only); answers a function paying it by one card."""

    def place(**overrides):
        trade_no = api.post("/trade/create", hosted(**overrides), expect=200)["trade_no"]

        def pay(number: str, authenticated: bool = True, count: int = 1) -> Trade:
            body = {"card_no": number, "cvv": "123", "valid_thru_year": "2031", "valid_thru_month": "12"}
            token = api.post("/card/token", {"card": {**body, "holder": {"name": "Ana Souza"}}}, expect=200)["token"]
            with current_app.test_request_context("/"):
                trade = db.session.scalar(select(Trade).where(Trade.trade_no == trade_no))
                card = db.session.scalar(select(CardToken).where(CardToken.token == token))
                customer, address = checkout.customer_of({"name": "Ana Souza", "email": "ana@example.com"})
                payment = checkout.payment_of(
                    trade,
                    method="CreditCard",
                    channel=None,
                    customer=customer,
                    address=address,
                    token=token,
                    issuer=card.brand,
                    user_ip="127.0.0.1",
                    installments=count,
                )
                checkout.submit(
                    db.session,
                    trade,
                    payment,
                    links.current(),
                    methods.collector(current_app.config),
                    card=card,
                    acquirer=wiring.acquirer(),
                    authenticated=authenticated,
                )
                db.session.commit()
                return trade

        return trade_no, pay

    return place


def test_a_decline_then_a_success_sends_one_success_callback(app, order, outbox, api):
    with app.app_context():
        trade_no, pay = order()
        assert pay(NO_FUNDS).status == "INITIAL"
        assert outbox(trade_no) == []
        paid = pay(GOOD)
        assert (paid.status, paid.method, paid.failure_reason) == ("SUCCESS", "CreditCard", None)
        assert [e["code"] for e in paid.details["card_attempts"]] == ["insufficient_funds"]
    assert [(p["trade_status"], p["method"]) for _, _, p in outbox(trade_no)] == [("SUCCESS", "CreditCard")]
    history = api.post("/trade/query", {"trade_no": trade_no}, expect=200)["status_history"]
    assert [(h["from_status"], h["trade_status"], h["reason"]) for h in history] == [
        (None, "INITIAL", None),
        ("INITIAL", "INITIAL", "insufficient funds (card attempt 1 of 3)"),
        ("INITIAL", "PROCESSING", "submitted on the hosted checkout"),
        ("PROCESSING", "SUCCESS", None),
    ]


def test_attempts_exhausted_on_a_card_only_order_refuse_it_once(app, order, outbox):
    with app.app_context():
        trade_no, pay = order(method="CreditCard")
        assert pay(DECLINED).status == "INITIAL"
        assert pay(GOOD, authenticated=False).status == "INITIAL"
        refused = pay(NO_FUNDS)
        assert (refused.status, refused.failure_reason) == ("REFUSED", "insufficient funds (card attempt 3 of 3)")
        assert [e["code"] for e in refused.details["card_attempts"]] == [
            "card_declined",
            "authentication_failed",
            "insufficient_funds",
        ]
    assert [(p["trade_status"], p["reason"]) for _, _, p in outbox(trade_no)] == [
        ("REFUSED", "insufficient funds (card attempt 3 of 3)")
    ]


def test_attempts_exhausted_with_other_methods_withdraw_the_card_only(app, order, outbox):
    with app.app_context():
        trade_no, pay = order()
        for _ in range(card_attempts.MAX_CARD_ATTEMPTS):
            trade = pay(DECLINED)
        assert trade.status == "INITIAL"
        assert checkout.offered(trade) == ["PIX", "Boleto", "Lottery", "DepositExpress", "OpenFinance", "Wallet"]
        assert trade.events[-1].reason == "card declined by the issuer (card attempt 3 of 3); card no longer offered"
        assert card_attempts.left(trade) == 0
    assert outbox(trade_no) == []


def test_the_chosen_instalments_are_kept_and_checked(app, order):
    with app.app_context():
        _, pay = order(order_amount="120.00")
        assert pay(GOOD, count=12).details["installments"] == 12
        _, pay = order(out_trade_no="another", order_amount="12.01")
        with pytest.raises(InvalidField, match="installments"):
            pay(GOOD, count=3)  # 4.00 an instalment: under R$ 5,00


@pytest.mark.parametrize(
    ("amount", "counts", "last"),
    [
        ("120.00", list(range(1, 13)), (12, 1000, 1000)),
        ("100.00", list(range(1, 13)), (3, 3333, 3334)),
        ("12.01", [1, 2], (2, 600, 601)),
        ("9.99", [1], (1, 999, 999)),
        ("60.00", list(range(1, 13)), (12, 500, 500)),
        ("59.99", list(range(1, 12)), (11, 545, 549)),
    ],
)
def test_instalments_up_to_12_of_at_least_5_reais_adding_up_to_the_cent(amount, counts, last):
    minor = int(Decimal(amount) * 100)
    plan = instalments.plan(minor, "BRL")
    assert [option.count for option in plan] == counts
    assert all(option.each_minor * (option.count - 1) + option.last_minor == minor for option in plan)
    count = last[0]
    assert instalments.split(minor, count) == instalments.Instalment(*last)


def test_no_instalments_outside_brazil():
    assert instalments.plan(12000, "MXN") == []
    assert instalments.offered(12000, "MXN", 1) and not instalments.offered(12000, "MXN", 2)
