"""The trade's read model: what /trade/query reads in one statement, frozen, and the answer built from it."""

import dataclasses

import pytest

from checkout.db import db
from checkout.errors import NotFound
from checkout.merchants.service import find_by_app_id
from checkout.payins import queries
from tests import builders


def test_a_trade_is_read_with_its_history_and_refunds_in_order_and_cannot_change(app, api):
    created = api.post("/trade/pay", builders.direct("PIX", order_amount="80.00"), expect=200)
    api.post(f"/sandbox/trades/{created['trade_no']}/pay", expect=200)
    api.post("/trade/refund", builders.refund(created["trade_no"], "20.00", out_request_no="r1"), expect=200)
    api.post("/trade/refund", builders.refund(created["trade_no"], "10.00", out_request_no="r2"), expect=200)
    with app.app_context():
        merchant = find_by_app_id(db.session, api.app_id)
        assert merchant is not None
        view = queries.read(db.session, merchant, out_trade_no="order-1")
    assert isinstance(view, queries.TradeView) and view.trade_no == created["trade_no"]
    assert [(e.from_status, e.to_status) for e in view.events] == [
        (None, "PROCESSING"),
        ("PROCESSING", "SUCCESS"),
        ("SUCCESS", "REFUNDED"),
        ("REFUNDED", "REFUNDED"),
    ]
    assert [(r.out_request_no, r.amount_minor) for r in view.refunds] == [("r1", 2000), ("r2", 1000)]
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.status = "CLOSED"  # type: ignore[misc]
    answer = api.post("/trade/query", {"out_trade_no": "order-1"}, expect=200)
    assert {"code": "10000", "msg": "Success", **queries.describe(view)} == answer


def test_another_merchants_trade_is_not_read(app, api, other_api):
    api.post("/trade/pay", builders.direct("PIX"), expect=200)
    with app.app_context():
        other = find_by_app_id(db.session, other_api.app_id)
        assert other is not None
        with pytest.raises(NotFound):
            queries.read(db.session, other, out_trade_no="order-1")


def test_the_read_on_the_driver_is_the_read_through_sqlalchemy(app, api, sql_statements):
    """What /trade/query reads on the driver (its one-statement unit of work's kept connection) is, field by
    field and type by type, what SQLAlchemy's execution of the same statement gives."""
    from datetime import date

    from sqlalchemy import update
    from sqlalchemy.orm import Session

    from checkout.payins.models import Trade

    created = api.post("/trade/pay", builders.direct("PIX", order_amount="80.00"), expect=200)
    api.post(f"/sandbox/trades/{created['trade_no']}/pay", expect=200)
    api.post("/trade/refund", builders.refund(created["trade_no"], "20.00", out_request_no="r1"), expect=200)
    with app.app_context():
        db.session.execute(update(Trade).values(scheduled_date=date(2026, 12, 24)))
        db.session.commit()
        merchant = find_by_app_id(db.session, api.app_id)
        assert merchant is not None
    sql_statements.clear()
    with app.app_context():
        db.read_only(one_statement=True)
        on_driver = queries.read(db.session, merchant, trade_no=created["trade_no"])
        assert sql_statements == []  # read on the driver, not through SQLAlchemy's execution
    # and so does the API's query, its key check included
    answer = api.post("/trade/query", {"trade_no": created["trade_no"]}, expect=200)
    assert sql_statements == [] and answer["scheduled_date"] == "2026-12-24"
    with app.app_context(), Session(bind=db.engine) as through_core:
        expected = queries.read(through_core, merchant, trade_no=created["trade_no"])
    assert on_driver == expected
    assert [type(getattr(on_driver, f)) for f in ("created_at", "expires_at", "scheduled_date", "details")] == [
        type(expected.created_at), type(expected.expires_at), date, dict,
    ]  # fmt: skip
    assert on_driver.details["customer"]["name"] == expected.details["customer"]["name"] != ""
    assert len(on_driver.events) == 3 and len(on_driver.refunds) == 1
