"""The ledger's per-day totals: kept with every posting, equal to the entries, rebuilt the same."""

from datetime import timedelta

from sqlalchemy import func, select

from checkout import clock
from checkout.db import db
from checkout.merchants.service import find_by_app_id
from checkout.payouts import ledger
from checkout.payouts.ledger import LedgerDay, LedgerEntry
from tests import builders


def day_rows(session) -> list[tuple]:
    return [
        tuple(row)
        for row in session.execute(
            select(
                LedgerDay.merchant_id, LedgerDay.currency, LedgerDay.account, LedgerDay.day, LedgerDay.net_minor
            ).order_by(LedgerDay.merchant_id, LedgerDay.currency, LedgerDay.account, LedgerDay.day)
        )
    ]


def test_days_follow_the_entries_and_rebuild_the_same(app, api, payout_api, merchant, fund):
    fund(merchant, "USD", "1000.00")
    tid = payout_api.post("/payout", builders.payout(), expect=200)["data"]["transaction_id"]
    api.post("/sandbox/clock", {"advance_seconds": 2 * 86400}, expect=200)  # PAID, two days later
    api.post(f"/sandbox/payouts/{tid}/refund", {"amount": "37.30"}, expect=200)
    fund(merchant, "EUR", "5.00")
    with app.app_context():
        session = db.session
        kept = day_rows(session)
        me = find_by_app_id(session, merchant["app_id"]).id
        with clock.merchant(me):  # the days are the merchant's, on its own clock
            today = clock.now().date()
        assert [(c, a, d, n) for m, c, a, d, n in kept if a == "available"] == [
            ("EUR", "available", today, 500),
            ("USD", "available", today - timedelta(days=2), 100000 - 10138),  # funded, then 101.38 sent
            ("USD", "available", today, 694),
        ]  # 37.30 BRL of 537.30 come back as 6.94 USD
        assert all(m == me for m, *_ in kept)
        for currency, account in {(c, a) for _, c, a, _, _ in kept}:
            entries = session.scalar(
                select(func.sum(LedgerEntry.amount_minor)).where(
                    LedgerEntry.currency == currency, LedgerEntry.account == account
                )
            )
            assert sum(n for _, c, a, _, n in kept if (c, a) == (currency, account)) == entries
        assert ledger.rebuild_daily(session) == len(kept)
        assert day_rows(session) == kept
