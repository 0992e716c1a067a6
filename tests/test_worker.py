from checkout import clock, worker
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
