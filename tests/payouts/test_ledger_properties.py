"""Ledger properties: random histories of top-ups, payouts, bank steps and refunds keep every book exact."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date

import pytest
from hypothesis import event, example, given, settings
from hypothesis import strategies as st
from sqlalchemy import func, select

from checkout import clock, money, wiring
from checkout.db import db
from checkout.errors import IllegalState, InvalidField, Refused
from checkout.merchants import service as merchants
from checkout.payouts import balances, ledger, lifecycle, service
from checkout.payouts.models import Payout
from checkout.payouts.schemas import PayoutRequest
from checkout.providers.sandbox import REJECTED_IN_SANDBOX
from tests import builders
from tests.strategies import PROPERTY

FUNDED = ("USD", "EUR", "BRL", "MXN")


@dataclass(frozen=True)
class Route:
    country: str
    method: str
    arrival: str
    sources: tuple[str, ...]
    partial_refunds: bool
    fields: dict


ROUTES = {
    "pix": Route(
        "BRA",
        "PIX",
        "BRL",
        ("USD", "EUR", "BRL"),
        True,
        {"account": builders.CPF, "account_type": "CPF", "document_id": builders.CPF, "document_type": "CPF"},
    ),
    "spei": Route("MEX", "SPEI", "MXN", ("USD", "MXN"), False, {"account": builders.CLABE}),
    # CLP has no minor unit: arrival amounts with cents are refused, refunds are whole pesos.
    "chile": Route(
        "CHL",
        "BANKTRANSFER",
        "CLP",
        ("USD", "EUR"),
        False,
        {"bank_code": "001", "account": "12345678", "account_type": "CHECKING", "document_id": "12345678-5"},
    ),
}

# Whole units mostly: an amount of a few cents rarely covers the fee, and nothing happens after it.
amounts = st.integers(min_value=1, max_value=1_500).map(lambda units: units * 100) | st.integers(1, 1_500_00)
# Every balance currency starts funded (or the first payouts in it would only ever be refused).
opening_funds = st.fixed_dictionaries(
    {currency: st.integers(min_value=100, max_value=5_000).map(lambda units: units * 100) for currency in FUNDED}
)
payouts = st.tuples(
    st.just("payout"),
    st.sampled_from(sorted(ROUTES)),
    st.integers(min_value=0, max_value=2),
    amounts,
    st.sampled_from(["source", "arrival"]),
    st.sampled_from(["merchant", "beneficiary"]),
    st.sampled_from([False, False, False, True]),
)  # True: the beneficiary's bank rejects it
refunds = st.tuples(
    st.just("refund"),
    st.integers(min_value=0, max_value=15),
    st.none() | st.integers(min_value=1, max_value=100),
    st.booleans(),
)
# Multiples of 30 s: the model's idea of "due" stays 30 s away from the service's, whose clock also carries
# the wall time the example takes. 360 s takes a new payout to its end; a day moves postings to another UTC day.
clock_moves = st.tuples(st.just("clock"), st.sampled_from([30, 60, 300, 360, 3600, 86400]))
operations = st.lists(
    st.one_of(
        payouts,
        clock_moves,
        refunds,
        st.tuples(st.just("fund"), st.sampled_from(FUNDED), amounts),
        st.tuples(st.just("step"), st.integers(min_value=0, max_value=15)),
        payouts,
        clock_moves,
        refunds,
    ),
    min_size=4,
    max_size=12,
)


@dataclass
class Expected:
    """What the model expects of one payout: its status and when the sandbox bank moves it next."""

    transaction_id: str
    route: Route
    currency: str
    rejected: bool
    source: int
    settlement: int
    fee: int
    tax: int
    arrival: int
    status: str = lifecycle.IN_PROCESSING
    due: int | None = None  # model seconds
    refunded: int = 0  # arrival minor units sent back
    credited: int = 0  # source minor units back in the available balance


@dataclass
class Model:
    """The merchant's history as the test understands it, independently of the ledger."""

    funded: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    payouts: list[Expected] = field(default_factory=list)
    elapsed: int = 0

    def step(self, payout: Expected, decided_after: int) -> None:
        if payout.status == lifecycle.IN_PROCESSING:
            payout.status, payout.due = lifecycle.PROCESSING, payout.due + decided_after
        elif payout.status == lifecycle.PROCESSING:
            payout.status = lifecycle.REJECTED if payout.rejected else lifecycle.PAID
            payout.due = None

    def books(self) -> dict[tuple[str, str], int]:
        """Every account's expected balance, per currency."""
        books: dict[tuple[str, str], int] = defaultdict(int)
        for currency, amount in self.funded.items():
            books[currency, ledger.AVAILABLE] += amount
            books[currency, ledger.FUNDING] -= amount
        for p in self.payouts:
            books[p.currency, ledger.AVAILABLE] += p.credited
            books[p.currency, ledger.PAID_OUT] -= p.credited
            if p.status == lifecycle.REJECTED:
                continue
            books[p.currency, ledger.AVAILABLE] -= p.source
            books[p.currency, ledger.FEES] += p.fee
            books[p.currency, ledger.TAXES] += p.tax
            in_bank = p.status in (lifecycle.IN_PROCESSING, lifecycle.PROCESSING)
            books[p.currency, ledger.IN_TRANSIT if in_bank else ledger.PAID_OUT] += p.settlement
        return dict(books)


def raw_sums(session, merchant) -> dict[tuple[str, str], int]:
    """SUM(amount_minor) straight from ledger_entries, per currency and account."""
    rows = session.execute(
        select(ledger.LedgerEntry.currency, ledger.LedgerEntry.account, func.sum(ledger.LedgerEntry.amount_minor))
        .where(ledger.LedgerEntry.merchant_id == merchant.id)
        .group_by(ledger.LedgerEntry.currency, ledger.LedgerEntry.account)
    )
    return {(currency, account): int(total) for currency, account, total in rows}


def check_books(session, merchant, model: Model) -> None:
    """After every operation: each account, in each currency, holds exactly what the model says, and all of
    a currency's accounts add up to zero."""
    sums = raw_sums(session, merchant)
    expected = model.books()
    assert {key: amount for key, amount in sums.items() if amount or key in expected} == {
        key: amount for key, amount in expected.items() if amount or key in sums
    }
    per_currency: dict[str, int] = defaultdict(int)
    for (currency, _), amount in sums.items():
        per_currency[currency] += amount
    assert set(per_currency.values()) <= {0}, per_currency
    assert all(amount >= 0 for (_, account), amount in sums.items() if account == ledger.AVAILABLE), sums


def check_transactions_and_history(session, merchant, first_day: date) -> None:
    """Once the history is over: balanced transactions, ledger.balance of every account, the daily history."""
    # Every transaction is balanced, has two legs at least, and stays in one merchant and currency.
    mine = select(ledger.LedgerEntry.transaction_id).where(ledger.LedgerEntry.merchant_id == merchant.id)
    for transaction_id, total, legs, currencies, owners in session.execute(
        select(
            ledger.LedgerEntry.transaction_id,
            func.sum(ledger.LedgerEntry.amount_minor),
            func.count(),
            func.count(ledger.LedgerEntry.currency.distinct()),
            func.count(ledger.LedgerEntry.merchant_id.distinct()),
        )
        .where(ledger.LedgerEntry.transaction_id.in_(mine))
        .group_by(ledger.LedgerEntry.transaction_id)
    ):
        assert (total, currencies, owners) == (0, 1, 1) and legs >= 2, transaction_id
    # ledger.balance reads the per-day totals; they must add up to the entries, account by account.
    sums = raw_sums(session, merchant)
    for currency, account in sums:
        assert ledger.balance(session, merchant, currency, account) == sums[currency, account]
    today = clock.as_utc(clock.now()).date()
    records = balances.history(session, merchant, first_day, today)
    assert records[0]["current_day"] == today.isoformat()
    assert records[0]["balance"] == [
        {"currency": currency, "amount": money.format_minor(ledger.balance(session, merchant, currency), currency)}
        for currency in sorted({currency for currency, _ in sums})
    ]
    # Every earlier day too: the end-of-day balance is the sum of the available entries up to that day.
    moves = [
        (clock.as_utc(at).date(), currency, amount)
        for at, currency, amount in session.execute(
            select(ledger.LedgerEntry.created_at, ledger.LedgerEntry.currency, ledger.LedgerEntry.amount_minor).where(
                ledger.LedgerEntry.merchant_id == merchant.id, ledger.LedgerEntry.account == ledger.AVAILABLE
            )
        )
    ]
    for record in records:
        day = date.fromisoformat(record["current_day"])
        totals: dict[str, int] = {}
        for moved_on, currency, amount in moves:
            if moved_on <= day:
                totals[currency] = totals.get(currency, 0) + amount
        assert record["balance"] == [
            {"currency": c, "amount": money.format_minor(totals[c], c)} for c in sorted(totals)
        ], record


def payout_request(
    index: int, route: Route, source: str, amount_minor: int, amount_type: str, fee_bear: str, rejected: bool
) -> PayoutRequest:
    # The amount always has two decimals as written; in CLP, those with cents are refused by pricing.
    amount = str(money.from_minor(amount_minor, "USD"))
    body = {
        "name": "Ana Souza",
        "custom_code": f"prop-{index}",
        "method": route.method,
        "country": route.country,
        "source_currency": source,
        "arrival_currency": route.arrival,
        "amount": amount,
        "amount_type": amount_type,
        "fee_bear": fee_bear,
        "notify_url": builders.NOTIFY,
        # The sandbox bank rejects payouts to this address (after accepting and debiting them).
        "email": REJECTED_IN_SANDBOX if rejected else "ana@example.com",
        **route.fields,
    }
    return PayoutRequest.model_validate(body)


def entry_count(session, merchant) -> int:
    return session.scalar(select(func.count()).where(ledger.LedgerEntry.merchant_id == merchant.id))


def run_payout(session, merchant, model: Model, config, index: int, op: tuple) -> None:
    _, route_name, source_index, amount_minor, amount_type, fee_bear, rejected = op
    route = ROUTES[route_name]
    source = route.sources[source_index % len(route.sources)]
    req = payout_request(index, route, source, amount_minor, amount_type, fee_bear, rejected)
    pricing = {"mid_rates": config["PAYOUT_MID_RATES"], "markup_bps": merchant.fx_markup_bps}
    try:
        figures = service.quote(req, **pricing)
    except InvalidField:
        figures = None
    available = model.books().get((source, ledger.AVAILABLE), 0)
    entries_before = entry_count(session, merchant)
    if figures is None or figures.minor("source_amount") > available:
        # Refused by pricing (cents in CLP, an amount that does not cover the fee), or for the balance.
        with pytest.raises(InvalidField if figures is None else Refused) as refused:
            service.submit(session, merchant, req, **pricing, bank=wiring.payout_bank())
        if figures is not None:
            assert refused.value.reason == "insufficient-balance"
        event(f"payout refused: {refused.type.__name__}")
        session.rollback()
        assert entry_count(session, merchant) == entries_before  # a refused payout writes nothing
        return
    payout, quoted = service.submit(session, merchant, req, **pricing, bank=wiring.payout_bank())
    session.commit()
    event("payout accepted")
    assert (payout.source_minor, payout.settlement_minor, payout.fee_minor, payout.tax_minor, payout.arrival_minor) == (
        quoted.minor("source_amount"),
        quoted.minor("settlement_amount"),
        quoted.minor("fee"),
        quoted.minor("tax"),
        quoted.minor("arrival_amount"),
    )
    model.payouts.append(
        Expected(
            transaction_id=payout.transaction_id,
            route=route,
            currency=source,
            rejected=rejected,
            source=payout.source_minor,
            settlement=payout.settlement_minor,
            fee=payout.fee_minor,
            tax=payout.tax_minor,
            arrival=payout.arrival_minor,
            due=model.elapsed + config["PAYOUT_PROCESSING_AFTER"],
        )
    )


def run_refund(session, merchant, model: Model, op: tuple) -> None:
    _, pick, percent, excessive = op
    expected = model.payouts[pick % len(model.payouts)]
    payout = service.find_or_none(session, merchant, expected.transaction_id)
    remaining = expected.arrival - expected.refunded
    part = remaining + 1 if excessive else remaining if percent is None else max(1, remaining * percent // 100)
    amount = None if percent is None and not excessive else money.from_minor(part, expected.route.arrival)
    refundable = expected.status in (lifecycle.PAID, lifecycle.PARTIAL_REFUNDED)
    partial = part < expected.arrival
    if not refundable or not 0 < part <= remaining or (partial and not expected.route.partial_refunds):
        entries_before = entry_count(session, merchant)
        with pytest.raises(IllegalState if not refundable or 0 < part <= remaining else InvalidField):
            lifecycle.refund(session, merchant, payout, amount, wiring.payout_bank())
        event("refund refused")
        session.rollback()
        assert entry_count(session, merchant) == entries_before
        return
    record = lifecycle.refund(session, merchant, payout, amount, wiring.payout_bank())
    session.commit()
    event(f"refund {'partial' if partial else 'full'} on {expected.route.method}")
    last = part == remaining
    # Back in proportion to the arrival amount refunded; the last part takes exactly what is left.
    credit = expected.settlement - expected.credited if last else expected.settlement * part // expected.arrival
    assert (record.arrival_minor, record.source_minor) == (part, credit)
    expected.refunded += part
    expected.credited += credit
    expected.status = lifecycle.REFUNDED if last else lifecycle.PARTIAL_REFUNDED
    assert payout.status == expected.status


@settings(PROPERTY, max_examples=30)  # every operation commits to the database
@given(opening_funds, operations)
# Every run walks each kind of operation at least once: partial then full PIX refunds, a rejection, a refund
# refused for its size, full-only refunds in MXN and in CLP (no minor unit), CLP cents and an overdraft
# refused, a top-up, two UTC days.
@example(
    {"USD": 1_000_00, "EUR": 1, "BRL": 1, "MXN": 500_00},
    [
        ("payout", "pix", 0, 100_00, "source", "merchant", False),
        ("payout", "pix", 0, 50_00, "source", "beneficiary", True),
        ("payout", "spei", 1, 200_00, "source", "merchant", False),
        ("step", 0),
        ("step", 1),
        ("clock", 360),
        ("refund", 0, 30, False),
        ("refund", 0, None, True),
        ("refund", 0, None, False),
        ("refund", 1, None, False),
        ("refund", 2, 50, False),
        ("refund", 2, None, False),
        ("fund", "EUR", 300_00),
        ("clock", 86400),
        ("payout", "chile", 1, 100_00, "arrival", "merchant", False),
        ("payout", "chile", 1, 100_50, "arrival", "merchant", False),
        ("step", 3),
        ("step", 3),
        ("refund", 3, None, False),
        ("payout", "pix", 0, 1_500_00, "source", "merchant", False),
    ],
)
def test_books_stay_exact_through_any_history(app, funds, ops):
    config = app.config
    decided_after = config["PAYOUT_DECIDED_AFTER"]
    with app.app_context():
        session = db.session
        # A merchant of its own per example: the _clean fixture empties the tables once per test, not per
        # example, and business time (shared by all merchants) only moves forward.
        merchant = merchants.create(session, name="Ledger Properties")
        session.commit()
        first_day = clock.as_utc(clock.now()).date()
        model = Model()
        for index, op in enumerate([("fund", currency, amount) for currency, amount in funds.items()] + ops):
            kind = op[0]
            if kind == "fund":
                ledger.fund(session, merchant, op[1], op[2])
                session.commit()
                model.funded[op[1]] += op[2]
            elif kind == "payout":
                run_payout(session, merchant, model, config, index, op)
            elif kind == "step" and model.payouts:
                expected = model.payouts[op[1] % len(model.payouts)]
                payout = service.find_or_none(session, merchant, expected.transaction_id)
                lifecycle.advance(session, payout, clock.now(), wiring.payout_bank())
                session.commit()
                model.step(expected, decided_after)
                assert payout.status == expected.status
            elif kind == "clock":
                session.commit()  # no transaction of ours open while the clock's own connection writes
                clock.advance(op[1])
                model.elapsed += op[1]
                lifecycle.advance_due(session, bank=wiring.payout_bank())
                session.commit()
                for expected in model.payouts:
                    while expected.due is not None and expected.due <= model.elapsed:
                        model.step(expected, decided_after)
            elif kind == "refund" and model.payouts:
                run_refund(session, merchant, model, op)
            check_books(session, merchant, model)
        statuses = {p.transaction_id: p.status for p in model.payouts}
        for status in sorted(set(statuses.values())):
            event(f"ends with a {status} payout")
        event(f"spans {(clock.as_utc(clock.now()).date() - first_day).days + 1} UTC days")
        assert {
            p.transaction_id: p.status for p in session.scalars(select(Payout).where(Payout.merchant_id == merchant.id))
        } == statuses
        check_transactions_and_history(session, merchant, first_day)
        session.rollback()
