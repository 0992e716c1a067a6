"""Inputs that once slipped past the rules: each must be refused (or accepted) exactly as documented."""
import threading
from datetime import timedelta

import pytest

from checkout import clock

from . import builders
from .conftest import Api


def test_non_ascii_basic_credentials(client, merchant):
    response = client.post("/trade/query", json={}, headers={"Authorization": "Basic éé"})
    assert response.status_code == 400 and response.get_json()["sub_code"] == "invalid-signature"


@pytest.mark.parametrize("card, sub_msg", [
    ({"valid_thru_year": "203²"}, "card.valid_thru_year: must be 4 or 2 digits"),
    ({"valid_thru_month": "¹"}, "card.valid_thru_month: must be 1 or 2 digits"),
    ({"cvv": "١٢٣"}, "card.cvv: must be 3 digits for visa"),
    ({"card_no": "４１１１１１１１１１１１１１１１"}, "card.card_no: must be 12 to 19 digits"),
])
def test_digits_outside_ascii_are_refused(api, card, sub_msg):
    assert api.post("/card/token", builders.card(card=card), expect=400)["sub_msg"] == sub_msg


def test_sandbox_clock_stops_short_of_the_calendars_end(api):
    for _ in range(5):
        api.post("/sandbox/clock", {"advance_seconds": 316224000}, expect=200)
    body = api.post("/sandbox/clock", {"advance_seconds": 316224000}, expect=400)
    assert body["sub_msg"] == "advance_seconds: the sandbox clock cannot run more than 18300 days ahead"
    assert api.get("/sandbox/clock")["offset_seconds"] == 5 * 316224000


@pytest.mark.parametrize("amount", ["100.00999999999999999999999999999", "100.000000000000000000000000000001"])
def test_amounts_beyond_decimal_precision_are_refused_not_rounded(api, amount):
    body = api.post("/trade/pay", builders.direct("PIX", order_amount=amount), expect=400)
    assert body["sub_msg"] == "order_amount: at most 2 decimal places"


def test_trailing_zeros_are_not_decimal_places(api):
    assert api.post("/trade/pay", builders.direct("PIX", order_amount="10.5000"), expect=200)["code"] == "10000"


def test_refund_a_hair_above_the_paid_amount(api):
    trade_no = api.post("/trade/pay", builders.direct("PIX", order_amount="100.00"), expect=200)["trade_no"]
    api.post(f"/sandbox/trades/{trade_no}/pay", expect=200)
    body = api.post("/trade/refund", builders.refund(trade_no, "100.00000000000000000000000000001"), expect=400)
    assert body["sub_msg"] == "refund_amount: at most 2 decimal places"


@pytest.mark.parametrize("timestamp", ["2026-01- 1 10:00:00", "2026-01-01\t10:00:00", "2026-01-01  1:00:00"])
def test_timestamps_with_loose_fields(api, timestamp):
    body = api.post("/card/token", {**builders.card(), "timestamp": timestamp}, expect=400)
    assert body["sub_msg"] == "timestamp: must be yyyy-MM-dd HH:mm:ss"


def test_iso_week_dates_are_not_dates(api):
    vault = builders.pix_vault(clock.brazil_today(), pix={"plan": {"start_date": "2026-W47-6"}})
    body = api.post("/vault/create", vault, expect=400)
    assert body["sub_msg"] == "pix.plan.start_date: must be a date yyyy-MM-dd"


def test_country_codes_are_upper_case(api):
    token = api.post("/card/token", builders.card(), expect=200)["token"]
    body = api.post("/vault/create", builders.card_vault(token, card_token={"region": "bra"}), expect=400)
    assert body["sub_msg"] == "card_token.region: must be an ISO 3166-1 alpha-3 country code"


def test_channel_only_with_wallet(api):
    body = api.post("/trade/pay", builders.direct("PIX", channel="PicPay"), expect=400)
    assert body["sub_msg"] == "channel: only with method Wallet"


def test_boleto_stays_payable_until_the_end_of_its_due_date(api):
    created = api.post("/trade/pay", builders.direct("Boleto"), expect=200)
    due = clock.brazil_today() + timedelta(days=3)
    assert created["due_date"] == due.isoformat()
    query = api.post("/trade/query", {"trade_no": created["trade_no"]}, expect=200)
    # Midnight after the due date in Brazil (UTC-3) is 03:00 UTC.
    assert query["expire_time"] == f"{due + timedelta(days=1)} 03:00:00"
    clock.advance(91 * 60)
    assert api.post(f"/sandbox/trades/{created['trade_no']}/pay", expect=200)["trade_status"] == "SUCCESS"


def test_boleto_due_date_follows_timeout_express(api):
    created = api.post("/trade/pay", builders.direct("Boleto", timeout_express="10d"), expect=200)
    expected = (clock.now() + timedelta(days=10)).astimezone(clock.BRAZIL).date()
    assert created["due_date"] == expected.isoformat()


def test_empty_optional_email_counts_as_absent(api):
    trade_no = api.post("/trade/pay", builders.direct("PIX"), expect=200)["trade_no"]
    api.post(f"/sandbox/trades/{trade_no}/pay", expect=200)
    body = api.post("/trade/refund", builders.refund(trade_no, "100.50", user_info={"email": ""}), expect=200)
    assert body["refund_status"] == "SUCCESS"


def test_racing_approve_and_reject_decide_once(app, api, merchant):
    vault = api.post("/vault/create", builders.pix_vault(clock.brazil_today()), expect=200)["token"]
    barrier, answers = threading.Barrier(2), {}

    def decide(action):
        client = Api(app.test_client(), merchant)
        barrier.wait()
        answers[action] = client.post(f"/sandbox/vaults/{vault}/{action}")

    threads = [threading.Thread(target=decide, args=(a,)) for a in ("approve", "reject")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    codes = sorted(a["code"] for a in answers.values())
    assert codes == ["10000", "40002"]
    loser = next(a for a in answers.values() if a["code"] == "40002")
    assert loser["sub_code"] == "vault-not-pending"
