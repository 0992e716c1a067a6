"""Concurrent requests: one account per customer, never more accounts than the pool holds, and a transfer
racing a cancellation is either paid before it or refused after it."""

from sqlalchemy import func, select

from checkout.db import db
from checkout.payins.models import Trade
from checkout.virtualspei import service
from checkout.virtualspei.models import VirtualAccount, VirtualTransfer
from tests.payins.helpers import THREADS, race

from .builders import account, open_account

CREATE = "/virtual-account/spei/create"


def _count(app, model) -> int:
    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(model))


def test_racing_creates_for_one_customer_open_one_account(app, merchant):
    answers = race(app, merchant, CREATE, [account("buyer-1")] * THREADS)
    assert [a["code"] for a in answers] == ["10000"] * THREADS
    assert len({(a["account_id"], a["account_number"]) for a in answers}) == 1
    assert _count(app, VirtualAccount) == 1


def test_racing_creates_never_open_more_than_the_pool(app, merchant, monkeypatch):
    monkeypatch.setattr(service, "POOL_SIZE", 3)
    answers = race(app, merchant, CREATE, [account(f"buyer-{i}") for i in range(THREADS)])
    assert sorted(a.get("sub_code", a["code"]) for a in answers) == ["10000"] * 3 + ["account-pool-run-out"] * (
        THREADS - 3
    )
    assert _count(app, VirtualAccount) == 3


def test_a_transfer_racing_the_cancellation_is_paid_before_it_or_refused_after(app, api, merchant):
    opened = open_account(api)
    paths = ["/virtual-account/spei/cancel"] + [f"/sandbox/clabes/{opened['account_number']}/transfer"] * (THREADS - 1)
    bodies = [{"account_id": opened["account_id"]}] + [{"amount": "1.00"}] * (THREADS - 1)
    cancel, *transfers = race(app, merchant, paths, bodies)
    assert cancel["status"] == "CANCELED"
    paid = [t for t in transfers if t["code"] == "10000"]
    refused = [t for t in transfers if t["code"] != "10000"]
    assert {t["sub_code"] for t in refused} <= {"account-not-active"}
    assert _count(app, Trade) == _count(app, VirtualTransfer) == len(paid)
    usage = api.post("/virtual-account/spei/usage", {}, expect=200)
    assert sorted(t["trade_no"] for t in usage["transfers"]) == sorted(t["trade_no"] for t in paid)
