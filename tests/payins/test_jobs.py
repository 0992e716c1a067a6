"""The worker's payin rounds read only what is due, however many trades are pending."""

from __future__ import annotations

from sqlalchemy import event, text

from checkout import worker
from checkout.db import db
from checkout.payins.models import Trade
from tests import builders

# The indexes that must answer every query of a payin round on the trades table.
_INDEXES = ("ix_trades_status_method_kind_id", "ix_trades_status_expires_at_id")


def _round_queries(app) -> list[tuple[str, object]]:
    """The statements one worker round sends that read a batch of due trades (the payin jobs' `_due`)."""
    seen: list[tuple[str, object]] = []

    def keep(_conn, _cursor, statement, parameters, _context, _many):
        if "FROM trades" in statement and "ORDER BY trades." in statement and "LIMIT" in statement:
            seen.append((statement, parameters))

    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", keep)
    try:
        worker.run_once(app)
    finally:
        event.remove(engine, "before_cursor_execute", keep)
    return seen


def _plan(app, statement: str, parameters) -> str:
    with app.app_context(), db.engine.connect() as connection:
        if connection.dialect.name == "sqlite":
            rows = connection.exec_driver_sql("EXPLAIN QUERY PLAN " + statement, parameters).all()
            return "\n".join(str(row[-1]) for row in rows)
        # The plan made once for any values, as a prepared statement gets after its fifth run.
        connection.exec_driver_sql("SET plan_cache_mode = force_generic_plan")
        try:
            rows = connection.exec_driver_sql("EXPLAIN " + statement, parameters).all()
        finally:
            connection.exec_driver_sql("RESET plan_cache_mode")
        return "\n".join(row[0] for row in rows)


_PENDING = 5000


def _pending_copies(app) -> None:
    """Copies of the one payment made, as many pending PIX payments as a busy merchant has, none due."""
    with app.app_context(), db.engine.begin() as connection:
        numbers = (
            "generate_series(1, :count) AS n"
            if connection.dialect.name == "postgresql"
            else "(WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < :count) SELECT n FROM s)"
        )
        own = ("id", "trade_no", "out_trade_no", "prepay_id")  # each copy's own (trade_no and prepay_id are unique)
        columns = ", ".join(c.name for c in Trade.__table__.columns if c.name not in own)
        # The names are the table's own columns, the count a parameter.
        copies = (
            f"INSERT INTO trades (trade_no, out_trade_no, prepay_id, {columns})"
            f" SELECT 'copy-' || n, 'copy-' || n, 'pp_copy_' || n, {columns}"
        )
        connection.execute(text(f"{copies} FROM trades, {numbers}"), {"count": _PENDING})
        if connection.dialect.name == "postgresql":
            connection.exec_driver_sql("ANALYZE trades")


def test_a_round_reads_the_due_trades_by_index_not_every_pending_one(app, api):
    api.post("/trade/pay", builders.direct("PIX"), expect=200)
    _pending_copies(app)
    with app.app_context():
        pending = db.session.scalar(text("SELECT count(*) FROM trades WHERE status = 'PROCESSING'"))
    assert pending == _PENDING + 1
    queries = _round_queries(app)
    # Cards to charge, card and PIX Automático vault debits, expiries of submitted and unsubmitted trades,
    # authorizations never captured.
    assert len(queries) == 6
    for statement, parameters in queries:
        plan = _plan(app, statement, parameters)
        assert any(index in plan for index in _INDEXES), (statement, plan)
        assert "SCAN trades" not in plan and "Seq Scan on trades" not in plan, (statement, plan)
