from datetime import timedelta

from sqlalchemy import event

from checkout import clock, worker
from checkout.api import jobs as api_jobs
from checkout.dashboard import jobs as dashboard_jobs
from checkout.db import db
from checkout.merchants import service as merchants
from tests import builders


def test_worker_round_moves_due_payouts_on_the_sandbox_clock(app, payout_api, merchant, fund, outbox):
    fund(merchant, "USD", "1000.00")
    tid = payout_api.post("/payout", builders.payout(), expect=200)["data"]["transaction_id"]
    assert worker.run_once(app) == 0
    clock.advance(60)
    assert worker.run_once(app) == 1
    detail = payout_api.post("/payout/detail", {"transaction_id": tid, "timestamp": builders.now_unix()}, expect=200)
    assert (detail["data"]["transaction_status"], detail["data"]["remark"]) == ("PROCESSING", "processing by the bank")
    clock.advance(250)  # the bank answers 300 s after PROCESSING; a margin for a slow machine
    assert worker.run_once(app) == 0
    clock.advance(50)
    assert worker.run_once(app) == 2  # the bank's answer, then the attempt to notify it
    assert payout_api.post("/payout/status", {"payout_id": tid}, expect=200)["data"]["status"] == "PAID"
    assert [p["status"] for _, _, p in outbox(tid)] == ["PAID"]


def _idle_round_statements(app) -> int:
    """SQL statements one worker round runs on the service's database when nothing is due."""
    statements = []

    def count(conn, cursor, statement, parameters, context, executemany) -> None:
        statements.append(statement)

    with app.app_context():
        event.listen(db.engine, "before_cursor_execute", count)
        try:
            assert worker.run_once(app) == 0
        finally:
            event.remove(db.engine, "before_cursor_execute", count)
    return len(statements)


def _merchants_on_clocks_of_their_own(app, how_many: int, first_offset: int) -> None:
    with app.app_context():
        ids = [merchants.create(db.session, name=f"Loja {n}").id for n in range(how_many)]
        db.session.commit()
    for n, merchant_id in enumerate(ids):
        clock.advance_merchant(merchant_id, first_offset + 60 * n)  # each a clock of its own, none alike


def test_an_idle_rounds_cost_does_not_grow_with_the_merchants_that_moved_their_clock(app, monkeypatch):
    # The housekeeping jobs run once a minute whatever the merchants: kept out of both rounds alike.
    monkeypatch.setattr(api_jobs, "_last", [float("inf")])
    monkeypatch.setattr(dashboard_jobs, "_last", [float("inf")])
    _merchants_on_clocks_of_their_own(app, 1, 3600)
    one = _idle_round_statements(app)
    _merchants_on_clocks_of_their_own(app, 299, 7200)
    assert len(clock.merchant_offsets()) == 300
    assert _idle_round_statements(app) == one


def _status(who, trade_no: str) -> str:
    return who.post("/trade/query", {"trade_no": trade_no}, expect=200)["trade_status"]


def test_merchants_on_clocks_of_their_own_each_expire_on_their_own(app, api, other_api, work):
    mine, theirs = (
        who.post("/trade/pay", builders.direct("PIX", timeout_express="5m"), expect=200) for who in (api, other_api)
    )
    api.post("/sandbox/clock", {"advance_seconds": 360}, expect=200)
    other_api.post("/sandbox/clock", {"advance_seconds": 120}, expect=200)
    work()
    assert (_status(api, mine["trade_no"]), _status(other_api, theirs["trade_no"])) == ("EXPIRED", "PROCESSING")
    other_api.post("/sandbox/clock", {"advance_seconds": 240}, expect=200)
    work()
    assert _status(other_api, theirs["trade_no"]) == "EXPIRED"


def test_a_pix_automatico_debit_runs_on_the_date_of_its_merchants_own_clock(app, api, other_api, work):
    def scheduled_debit(who) -> str:
        vault = who.post("/vault/create", builders.pix_vault(clock.brazil_today()), expect=200)["token"]
        who.post(f"/sandbox/vaults/{vault}/approve", expect=200)
        day = (clock.brazil_today() + timedelta(days=3)).isoformat()
        debit = builders.vault_pay(vault, "PIXAutomatic", scheduled_date=day, order_amount="150.00")
        return who.post("/trade/pay", debit, expect=200)["trade_no"]

    mine, theirs = scheduled_debit(api), scheduled_debit(other_api)
    api.post("/sandbox/clock", {"advance_seconds": 3 * 86400}, expect=200)
    other_api.post("/sandbox/clock", {"advance_seconds": 86400}, expect=200)  # a clock of its own, not there yet
    work()
    assert (_status(api, mine), _status(other_api, theirs)) == ("SUCCESS", "PROCESSING")
    other_api.post("/sandbox/clock", {"advance_seconds": 2 * 86400}, expect=200)
    work()
    assert _status(other_api, theirs) == "SUCCESS"
