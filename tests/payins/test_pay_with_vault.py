from datetime import timedelta

import pytest

from checkout import clock
from tests import builders


@pytest.fixture
def card_vault(api):
    token = api.post("/card/token", builders.card(), expect=200)["token"]
    vault = api.post("/vault/create", builders.card_vault(token), expect=200)["token"]
    api.post(f"/sandbox/vaults/{vault}/approve", expect=200)
    return vault


@pytest.fixture
def pix_vault(api):
    vault = api.post("/vault/create", builders.pix_vault(clock.brazil_today()), expect=200)["token"]
    api.post(f"/sandbox/vaults/{vault}/approve", expect=200)
    return vault


def test_pay_with_card_vault_is_processing(api, card_vault):
    body = api.post("/trade/pay", builders.vault_pay(card_vault), expect=200)
    assert set(body) == {"code", "msg", "prepay_id", "trade_no", "out_trade_no", "trade_status"}
    assert (body["trade_status"], body["out_trade_no"]) == ("PROCESSING", "vault-order-1")


@pytest.mark.parametrize("days", [2, 10])
def test_pix_automatic_two_to_ten_days_ahead(api, pix_vault, days):
    scheduled = clock.brazil_today() + timedelta(days=days)
    body = api.post(
        "/trade/pay", builders.vault_pay(pix_vault, "PIXAutomatic", scheduled_date=scheduled.isoformat()), expect=200
    )
    assert body["trade_status"] == "PROCESSING"
    query = api.post("/trade/query", {"trade_no": body["trade_no"]}, expect=200)
    assert query["scheduled_date"] == scheduled.isoformat()


@pytest.mark.parametrize("days", [1, 11])
def test_pix_automatic_outside_the_window(api, pix_vault, row_counts, days):
    # A first debit on the authorization day must be scheduled for the start date, nothing else.
    api.post(
        "/trade/pay",
        builders.vault_pay(
            pix_vault, "PIXAutomatic", out_trade_no="first", scheduled_date=clock.brazil_today().isoformat()
        ),
        expect=200,
    )
    before = row_counts()
    scheduled = clock.brazil_today() + timedelta(days=days)
    body = api.post(
        "/trade/pay", builders.vault_pay(pix_vault, "PIXAutomatic", scheduled_date=scheduled.isoformat()), expect=400
    )
    assert body["sub_msg"].startswith("scheduled_date: must be 2 to 10 days after today in Brazil time")
    assert row_counts() == before


def test_first_debit_on_the_authorization_day_is_the_start_date(api, pix_vault):
    today = clock.brazil_today().isoformat()
    first = api.post("/trade/pay", builders.vault_pay(pix_vault, "PIXAutomatic", scheduled_date=today), expect=200)
    assert first["trade_status"] == "PROCESSING"
    second = api.post(
        "/trade/pay",
        builders.vault_pay(pix_vault, "PIXAutomatic", out_trade_no="second", scheduled_date=today),
        expect=400,
    )
    assert second["sub_code"] == "invalid-parameter"


def test_start_date_debit_not_allowed_after_the_authorization_day(api, pix_vault):
    clock.advance(24 * 3600)
    start = (clock.brazil_today() - timedelta(days=1)).isoformat()
    body = api.post("/trade/pay", builders.vault_pay(pix_vault, "PIXAutomatic", scheduled_date=start), expect=400)
    assert body["sub_msg"].startswith("scheduled_date: must be 2 to 10 days after today")


def test_scheduled_date_beyond_the_plan_end(api):
    today = clock.brazil_today()
    vault = api.post("/vault/create", builders.pix_vault(today, end=today + timedelta(days=3)), expect=200)["token"]
    api.post(f"/sandbox/vaults/{vault}/approve", expect=200)
    scheduled = (today + timedelta(days=5)).isoformat()
    body = api.post("/trade/pay", builders.vault_pay(vault, "PIXAutomatic", scheduled_date=scheduled), expect=400)
    assert body["sub_msg"] == f"scheduled_date: must be within the plan, {today} to {today + timedelta(days=3)}"


def test_pix_automatic_needs_scheduled_date_and_brl(api, pix_vault):
    missing = api.post("/trade/pay", builders.vault_pay(pix_vault, "PIXAutomatic"), expect=400)
    assert (missing["code"], missing["sub_msg"]) == ("40001", "missing required argument: scheduled_date")
    scheduled = (clock.brazil_today() + timedelta(days=3)).isoformat()
    usd = api.post(
        "/trade/pay",
        builders.vault_pay(pix_vault, "PIXAutomatic", scheduled_date=scheduled, order_currency="USD"),
        expect=400,
    )
    assert usd["sub_msg"] == "order_currency: must be BRL for PIXAutomatic"


def test_method_must_match_the_vault(api, card_vault, pix_vault):
    body = api.post("/trade/pay", builders.vault_pay(card_vault, "PIXAutomatic"), expect=400)
    assert body["sub_msg"] == "method: must be CreditCard for a Card vault"
    body = api.post("/trade/pay", builders.vault_pay(pix_vault, "CreditCard"), expect=400)
    assert body["sub_msg"] == "method: must be PIXAutomatic for a pix vault"


def test_pending_and_voided_vaults_cannot_be_paid_with(api, card_vault):
    token = api.post("/card/token", builders.card(), expect=200)["token"]
    pending = api.post("/vault/create", builders.card_vault(token), expect=200)["token"]
    body = api.post("/trade/pay", builders.vault_pay(pending), expect=400)
    assert (body["sub_code"], body["sub_msg"]) == (
        "vault-not-active",
        "vault is PENDING; only an ACTIVE vault can be paid with",
    )
    api.post("/vault/void", {"version": "2.0", "type": "Card", "vault_token": card_vault}, expect=200)
    body = api.post("/trade/pay", builders.vault_pay(card_vault), expect=400)
    assert (body["sub_code"], body["sub_msg"]) == (
        "vault-not-active",
        "vault is VOIDED; only an ACTIVE vault can be paid with",
    )


@pytest.mark.parametrize(
    "amount, sub_msg",
    [
        ("0.09", "order_amount: must be between 0.1 and 9999999"),
        ("10000000", "order_amount: must be between 0.1 and 9999999"),
        ("1.999", "order_amount: at most 2 decimal places for BRL"),
    ],
)
def test_vault_amount_range(api, card_vault, amount, sub_msg):
    body = api.post("/trade/pay", builders.vault_pay(card_vault, order_amount=amount), expect=400)
    assert body["sub_msg"] == sub_msg


def test_vault_amount_bounds_are_inclusive(api, card_vault):
    api.post("/trade/pay", builders.vault_pay(card_vault, order_amount="0.1", out_trade_no="a"), expect=200)
    api.post("/trade/pay", builders.vault_pay(card_vault, order_amount=9999999, out_trade_no="b"), expect=200)


def test_duplicate_out_trade_no(api, card_vault):
    api.post("/trade/pay", builders.vault_pay(card_vault), expect=200)
    body = api.post("/trade/pay", builders.vault_pay(card_vault), expect=400)
    assert body == {
        "code": "40002",
        "msg": "Business Failed",
        "sub_code": "duplicate-out_trade_no",
        "sub_msg": "out_trade_no is duplicate",
    }


def test_another_merchants_vault_does_not_exist(api, other_api, card_vault):
    body = other_api.post("/trade/pay", builders.vault_pay(card_vault), expect=400)
    assert body["sub_code"] == "vault-not-exist"


def test_a_pix_automatic_debit_is_refunded_like_pix(api, pix_vault, work):
    today = clock.brazil_today().isoformat()
    trade_no = api.post(
        "/trade/pay",
        builders.vault_pay(pix_vault, "PIXAutomatic", scheduled_date=today, order_amount="50.00"),
        expect=200,
    )["trade_no"]
    work()  # debited on its date
    assert api.post("/trade/query", {"trade_no": trade_no}, expect=200)["refundable_amount"] == "50.00"
    body = api.post("/trade/refund", builders.refund(trade_no, "20.00", out_request_no="r1"), expect=200)
    assert (body["refund_status"], body["refund_amount"]) == ("SUCCESS", "20.00")
