"""The worker's payin rounds read only what is due, however many trades are pending."""

from __future__ import annotations

from sqlalchemy import event, text

from checkout import worker
from checkout.db import db
from tests import builders

# Each query of a payin round on the trades table, and the index that must answer it.
_INDEXES = ("ix_trades_status_method_kind_id", "ix_trades_status_expires_at")


def _round_queries(app) -> list[tuple[str, object]]:
    """The statements one worker round sends that read trades in id order (the payin jobs' `_due`)."""
    seen: list[tuple[str, object]] = []

    def keep(_conn, _cursor, statement, parameters, _context, _many):
        if "FROM trades" in statement and "ORDER BY trades.id" in statement:
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
        # A test's few rows are read faster whole: ask which index the planner would take for many.
        connection.exec_driver_sql("SET enable_seqscan = off")
        try:
            rows = connection.exec_driver_sql("EXPLAIN " + statement, parameters).all()
        finally:
            connection.exec_driver_sql("RESET enable_seqscan")
        return "\n".join(row[0] for row in rows)


def test_a_round_reads_the_due_trades_by_index_not_every_pending_one(app, api):
    for n in range(40):  # pending payments nobody has paid yet, none due for anything
        api.post("/trade/pay", builders.direct("PIX", out_trade_no=f"pending-{n}"), expect=200)
    with app.app_context():
        pending = db.session.scalar(text("SELECT count(*) FROM trades WHERE status = 'PROCESSING'"))
    assert pending == 40
    queries = _round_queries(app)
    # Cards to charge, card and PIX Automático vault debits, expiries of submitted and unsubmitted trades,
    # authorizations never captured.
    assert len(queries) == 6
    for statement, parameters in queries:
        plan = _plan(app, statement, parameters)
        assert any(index in plan for index in _INDEXES), (statement, plan)
        assert "SCAN trades" not in plan and "Seq Scan on trades" not in plan, (statement, plan)
