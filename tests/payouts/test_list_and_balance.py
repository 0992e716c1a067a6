"""/api/payout/list and /api/balance: periods, pages, limits, and each merchant seeing only its own."""

from datetime import UTC, datetime, timedelta

import pytest

from checkout import clock
from tests import builders

FORMAT = "%Y-%m-%d %H:%M:%S"


def _utc(unix: int) -> str:
    return datetime.fromtimestamp(unix, UTC).strftime(FORMAT)


def _period(start_offset: int = -60, end_offset: int = 60, **overrides) -> dict:
    now = clock.now()
    return {
        "start_time": (now + timedelta(seconds=start_offset)).strftime(FORMAT),
        "end_time": (now + timedelta(seconds=end_offset)).strftime(FORMAT),
        "page_num": 1,
        "page_size": 10,
        "timestamp": builders.now_unix(),
        **overrides,
    }


@pytest.fixture
def three_payouts(payout_api, merchant, fund):
    fund(merchant, "USD", "1000.00")
    return [payout_api.post("/payout", builders.payout(f"po-{i}"), expect=200)["data"]["id"] for i in range(3)]


def test_the_list_pages_through_the_period_oldest_first(payout_api, three_payouts):
    pages = [
        [
            record["transaction_id"]
            for record in payout_api.post("/payout/list", _period(page_num=n, page_size=2))["data"]
        ]
        for n in (1, 2, 3)
    ]
    assert pages == [three_payouts[:2], three_payouts[2:], []]


def test_each_record_is_the_payouts_detail(payout_api, three_payouts):
    listed = payout_api.post("/payout/list", _period(), expect=200)["data"][0]
    detail = payout_api.post(
        "/payout/detail", {"transaction_id": three_payouts[0], "timestamp": builders.now_unix()}, expect=200
    )["data"]
    assert listed == detail


def test_the_period_bounds_the_list(payout_api, three_payouts):
    assert payout_api.post("/payout/list", _period(-7200, -3600), expect=200)["data"] == []
    times = [record["create_time"] for record in payout_api.post("/payout/list", _period(), expect=200)["data"]]

    def listed(start: int, end: int) -> int:
        bounds = {"start_time": _utc(start), "end_time": _utc(end)}
        return len(payout_api.post("/payout/list", _period(**bounds), expect=200)["data"])

    # Both ends are included, to the second.
    assert (listed(times[0], times[-1]), listed(times[-1] + 1, times[-1] + 60)) == (3, 0)


def test_a_merchant_lists_only_its_own_payouts(other_payout_api, three_payouts):
    assert other_payout_api.post("/payout/list", _period(), expect=200)["data"] == []


@pytest.mark.parametrize(
    "overrides, code, msg, err",
    [
        ({"page_num": 0}, 4001000, "invalid parameter", "page_num: Input should be greater than or equal to 1"),
        ({"page_size": 0}, 4001000, "invalid parameter", "page_size: Input should be greater than or equal to 1"),
        ({"page_size": 1001}, 4001000, "invalid parameter", "page_size: Input should be less than or equal to 1000"),
        ({"page_size": "5"}, 4001000, "invalid parameter", "page_size: Input should be a valid integer"),
        ({"start_time": "2021-07-01"}, 4001000, "invalid parameter", "start_time: must be yyyy-MM-dd HH:mm:ss (19 characters)"),
        ({"end_time": ...}, 4001000, "invalid parameter", "end_time: is required"),
        ({"start_time": "2021-08-01 00:00:01", "end_time": "2021-08-01 00:00:00"}, 4001008, "invalid start_time", "start_time: must not be after end_time"),
        ({"start_time": "2021-07-01 00:00:00", "end_time": "2021-08-01 00:00:01"}, 4001012, "time range must in 31 days", "end_time: the period must not exceed 31 days"),
    ],
)  # fmt: skip
def test_list_rules(payout_api, row_counts, overrides, code, msg, err):
    before = row_counts()
    body = payout_api.post("/payout/list", builders.merge(_period(), overrides), expect=400)
    assert (body["code"], body["msg"], body["data"]) == (code, msg, {"err": err})
    assert row_counts() == before


def test_a_period_of_exactly_31_days_is_listed(payout_api):
    body = _period(start_time="2021-07-01 00:00:00", end_time="2021-08-01 00:00:00")
    assert payout_api.post("/payout/list", body, expect=200)["data"] == []


def test_an_old_list_request_has_expired(payout_api):
    body = payout_api.post("/payout/list", _period(timestamp=builders.now_unix() - 301), expect=400)
    assert (body["code"], body["msg"], body["data"]) == (4001009, "request has expired", {})


def test_the_balance_lists_the_documented_currencies_then_others(payout_api, merchant, fund):
    fund(merchant, "BRL", "99002.23")
    fund(merchant, "USD", "551.38")
    fund(merchant, "CLP", "1000")
    data = payout_api.post("/balance", {"timestamp": builders.now_unix()}, expect=200)["data"]
    assert data == [
        {"currency": "USD", "amount": "551.38"},
        {"currency": "GBP", "amount": "0.00"},
        {"currency": "EUR", "amount": "0.00"},
        {"currency": "BRL", "amount": "99002.23"},
        {"currency": "MXN", "amount": "0.00"},
        {"currency": "CLP", "amount": "1000"},
    ]


def test_the_balance_follows_payouts_and_is_the_merchants_own(payout_api, other_payout_api, merchant, fund):
    fund(merchant, "USD", "1000.00")
    payout_api.post("/payout", builders.payout(), expect=200)  # 101.38 USD
    mine = payout_api.post("/balance", {"timestamp": builders.now_unix()}, expect=200)["data"]
    theirs = other_payout_api.post("/balance", {"timestamp": builders.now_unix()}, expect=200)["data"]
    assert mine[0] == {"currency": "USD", "amount": "898.62"}
    assert theirs[0] == {"currency": "USD", "amount": "0.00"}


@pytest.mark.parametrize(
    "body, err",
    [({}, "timestamp: is required"), ({"timestamp": "1642075807"}, "timestamp: Input should be a valid integer")],
)
def test_balance_rules(payout_api, body, err):
    answer = payout_api.post("/balance", body, expect=400)
    assert (answer["code"], answer["msg"], answer["data"]) == (4001000, "invalid parameter", {"err": err})
