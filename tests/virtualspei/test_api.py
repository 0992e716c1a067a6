"""The virtual SPEI operations: create, query, cancel and usage, their refusals, and one merchant's accounts
kept from every other merchant."""

from __future__ import annotations

import re

import pytest

from checkout.db import db
from checkout.mexico import clabe
from checkout.virtualspei import service
from checkout.virtualspei.models import VirtualAccount
from tests.builders import NOTIFY

from .builders import CURP, RFC, account, open_account, transfer

CREATE, QUERY, CANCEL, USAGE = (f"/virtual-account/spei/{name}" for name in ("create", "query", "cancel", "usage"))
TIME = re.compile(r"^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}$")


def _refusal(code: str, sub_code: str, sub_msg: str) -> dict:
    msg = "Missing Required Arguments" if code == "40001" else "Business Failed"
    return {"code": code, "msg": msg, "sub_code": sub_code, "sub_msg": sub_msg}


def test_create_opens_a_standing_clabe_of_stp(api):
    body = open_account(api)
    assert list(body)[:9] == [
        "code",
        "msg",
        "account_id",
        "account_number",
        "buyer_id",
        "provider",
        "status",
        "beneficiary_name",
        "notify_url",
    ]
    assert {
        k: body[k] for k in ("code", "msg", "buyer_id", "provider", "status", "beneficiary_name", "notify_url")
    } == {
        "code": "10000",
        "msg": "Success",
        "buyer_id": "buyer-1",
        "provider": "STP",
        "status": "ACTIVE",
        "beneficiary_name": "CHECKOUT SANDBOX MEXICO SA DE CV",
        "notify_url": NOTIFY,
    }
    assert re.fullmatch(r"[A-Z0-9]{16}", body["account_id"])
    assert re.fullmatch(r"646180[0-9]{12}", body["account_number"])
    assert clabe.validate(body["account_number"]) == "STP"
    assert TIME.match(body["create_time"]) and body["update_time"] == body["create_time"]
    assert body["transfer_url"].startswith("http://checkout.test/pages/spei/transfer?token=")


def test_each_customer_gets_its_own_account_and_a_repeat_answers_the_same(api, row_counts):
    first, second = open_account(api, "buyer-1"), open_account(api, "buyer-2")
    assert first["account_id"] != second["account_id"]
    assert first["account_number"] != second["account_number"]
    before = row_counts()
    again = open_account(api, "buyer-1", customer={"identify": {"type": "rfc"}})  # the same request, retried
    assert (again["account_id"], again["account_number"], again["notify_url"]) == (
        first["account_id"],
        first["account_number"],
        NOTIFY,
    )
    assert row_counts() == before
    assert api.post(USAGE, {}, expect=200)["used"] == 2


@pytest.mark.parametrize(
    ("overrides", "fields"),
    [
        ({"notify_url": "https://shop.example/other"}, "notify_url"),
        ({"customer": {"name": "Juana Pérez"}}, "customer.name"),
        ({"customer": {"email": "juana@example.mx"}}, "customer.email"),
        (
            {"customer": {"identify": {"type": "CURP", "number": CURP}}},
            "customer.identify.type, customer.identify.number",
        ),
        ({"customer": {"identify": {"number": "MAMB780915970"}}}, "customer.identify.number"),
        (
            {"notify_url": "https://shop.example/other", "customer": {"name": "Juana Pérez"}},
            "notify_url, customer.name",
        ),
    ],
)
def test_a_repeat_with_other_details_is_refused_and_changes_nothing(api, row_counts, overrides, fields):
    """The pages have no operation that changes an account: a create naming other details for a customer with an
    ACTIVE account is refused (never answered as if they were taken), the account kept as it was opened."""
    first = open_account(api)
    before = row_counts()
    refused = api.post(CREATE, account(**overrides), expect=400)
    assert refused == _refusal(
        "40002",
        "duplicate-buyer_id",
        f"customer.buyer_id: already has ACTIVE account {first['account_id']}, opened with another {fields}; "
        "cancel it to open one with these details",
    )
    assert row_counts() == before
    kept = api.post(QUERY, {"account_id": first["account_id"]}, expect=200)
    assert {k: kept[k] for k in ("notify_url", "status", "update_time")} == {
        "notify_url": NOTIFY,
        "status": "ACTIVE",
        "update_time": first["update_time"],
    }
    # Cancelled, the customer's account gives way to one with the new details.
    api.post(CANCEL, {"account_id": first["account_id"]}, expect=200)
    reopened = api.post(CREATE, account(**overrides), expect=200)
    assert reopened["account_id"] != first["account_id"] and reopened["status"] == "ACTIVE"
    assert reopened["notify_url"] == overrides.get("notify_url", NOTIFY)


def test_query_answers_the_account_and_cancel_closes_it_for_good(api, row_counts):
    opened = open_account(api)
    queried = api.post(QUERY, {"account_id": opened["account_id"]}, expect=200)
    # The page link is signed afresh on every answer (its token holds the time it was signed).
    assert queried.pop("transfer_url").startswith("http://checkout.test/pages/spei/transfer?token=")
    assert queried == {k: v for k, v in opened.items() if k != "transfer_url"}
    cancelled = api.post(CANCEL, {"account_id": opened["account_id"]}, expect=200)
    assert cancelled["status"] == "CANCELED"
    assert "transfer_url" not in cancelled  # a cancelled CLABE takes no transfer
    same = {k: v for k, v in opened.items() if k not in ("status", "update_time", "transfer_url")}
    assert {k: cancelled[k] for k in same} == same
    assert api.post(QUERY, {"account_id": opened["account_id"]}, expect=200) == cancelled
    before = row_counts()
    again = api.post(CANCEL, {"account_id": opened["account_id"]}, expect=400)
    assert again == _refusal("40002", "account-not-active", "account is CANCELED and cannot be cancelled")
    assert row_counts() == before


def test_a_customer_whose_account_was_cancelled_gets_a_new_clabe(api):
    first = open_account(api)
    api.post(CANCEL, {"account_id": first["account_id"]}, expect=200)
    second = open_account(api)
    assert second["status"] == "ACTIVE" and second["account_number"] != first["account_number"]
    assert api.post(USAGE, {}, expect=200)["used"] == 2  # a cancelled CLABE is never handed out again


def test_lower_case_document_types_are_kept_as_the_page_spells_them(app, api):
    body = open_account(api, customer={"identify": {"type": "curp", "number": CURP}})
    with app.app_context():
        stored = db.session.query(VirtualAccount).filter_by(account_id=body["account_id"]).one()
        assert (stored.identify_type, stored.identify_number) == ("CURP", CURP)


@pytest.mark.parametrize(
    ("overrides", "code", "sub_code", "sub_msg"),
    [
        ({"notify_url": ...}, "40001", "missing-arguments", "missing required argument: notify_url"),
        ({"customer": ...}, "40001", "missing-arguments", "missing required argument: customer"),
        (
            {"customer": {"identify": {"number": ...}}},
            "40001",
            "missing-arguments",
            "missing required argument: customer.identify.number",
        ),
        ({"customer": {"buyer_id": ...}}, "40001", "missing-arguments", "missing required argument: customer.buyer_id"),
        (
            {"customer": {"identify": {"type": ""}}},
            "40002",
            "invalid-parameter",
            "customer.identify.type: must be RFC or CURP",
        ),
        (
            {"customer": {"identify": {"type": "INE"}}},
            "40002",
            "invalid-parameter",
            "customer.identify.type: must be RFC or CURP",
        ),
        (
            {"customer": {"identify": {"number": RFC[:-1]}}},
            "40002",
            "invalid-parameter",
            "customer.identify.number: must be a valid RFC (13 letters and digits)",
        ),
        (
            {"customer": {"identify": {"type": "CURP", "number": RFC}}},
            "40002",
            "invalid-parameter",
            "customer.identify.number: must be a valid CURP (18 letters and digits)",
        ),
        (
            {"customer": {"email": "juan.example.mx"}},
            "40002",
            "invalid-parameter",
            "customer.email: must be an e-mail address",
        ),
        ({"notify_url": "ftp://shop"}, "40002", "invalid-parameter", "notify_url: must be an absolute http(s) URL"),
        (
            {"customer": {"buyer_id": "b" * 65}},
            "40002",
            "invalid-parameter",
            "customer.buyer_id: String should have at most 64 characters",
        ),
        (
            {"customer": {"name": ""}},
            "40002",
            "invalid-parameter",
            "customer.name: String should have at least 1 character",
        ),
    ],
)
def test_bad_create_requests_answer_their_exact_error_and_write_nothing(
    api, row_counts, overrides, code, sub_code, sub_msg
):
    before = row_counts()
    body = api.post(CREATE, account(**overrides), expect=400)
    assert body == _refusal(code, sub_code, sub_msg)
    assert row_counts() == before


@pytest.mark.parametrize("path", [QUERY, CANCEL])
def test_query_and_cancel_need_a_known_account_id(api, row_counts, path):
    open_account(api)
    before = row_counts()
    assert api.post(path, {}, expect=400) == _refusal(
        "40001", "missing-arguments", "missing required argument: account_id"
    )
    assert api.post(path, {"account_id": "NOSUCHACCOUNT000"}, expect=400) == _refusal(
        "40002", "account-not-exist", "account_id: no such account"
    )
    assert row_counts() == before


def test_an_empty_pool_answers_the_pages_error(api, row_counts, monkeypatch):
    monkeypatch.setattr(service, "POOL_SIZE", 2)
    kept = open_account(api, "buyer-1")
    open_account(api, "buyer-2")
    before = row_counts()
    assert api.post(CREATE, account("buyer-3"), expect=400) == {
        "code": "40002",
        "msg": "Business Failed",
        "sub_code": "account-pool-run-out",
        "sub_msg": "account pool run out",
    }
    assert row_counts() == before
    assert open_account(api, "buyer-1")["account_id"] == kept["account_id"]  # a repeat takes nothing from the pool
    usage = api.post(USAGE, {}, expect=200)
    assert (usage["used"], usage["unused"]) == (2, 0)


def test_usage_counts_the_pool_and_lists_the_transfers_newest_first(api):
    assert api.post(USAGE, {}, expect=200) == {
        "code": "10000",
        "msg": "Success",
        "used": 0,
        "unused": 10000,
        "transfers": [],
    }
    one, two = open_account(api, "buyer-1"), open_account(api, "buyer-2")
    first = transfer(api, one["account_number"], "10.00")
    second = transfer(api, two["account_number"], "2500.5")
    third = transfer(api, one["account_number"], "0.01")
    usage = api.post(USAGE, {}, expect=200)
    assert (usage["used"], usage["unused"]) == (2, 9998)
    assert [(t["trade_no"], t["account_id"], t["amount"]) for t in usage["transfers"]] == [
        (third["trade_no"], one["account_id"], "0.01"),
        (second["trade_no"], two["account_id"], "2500.50"),
        (first["trade_no"], one["account_id"], "10.00"),
    ]
    listed = usage["transfers"][0]
    assert {k: listed[k] for k in ("account_number", "out_trade_no", "trade_status", "currency")} == {
        "account_number": one["account_number"],
        "out_trade_no": third["out_trade_no"],
        "trade_status": "SUCCESS",
        "currency": "MXN",
    }
    assert isinstance(listed["transfer_timestamp"], int) and TIME.match(listed["transfer_time"])
    only = api.post(USAGE, {"account_id": one["account_id"]}, expect=200)["transfers"]
    assert [t["trade_no"] for t in only] == [third["trade_no"], first["trade_no"]]
    assert api.post(USAGE, {"account_id": "NOSUCHACCOUNT000"}, expect=400) == _refusal(
        "40002", "account-not-exist", "account_id: no such account"
    )


def test_one_merchant_never_sees_uses_or_cancels_anothers_account(api, other_api, row_counts):
    mine = open_account(api)
    transfer(api, mine["account_number"], "50.00")
    unknown = _refusal("40002", "account-not-exist", "account_id: no such account")
    before = row_counts()
    assert other_api.post(QUERY, {"account_id": mine["account_id"]}, expect=400) == unknown
    assert other_api.post(CANCEL, {"account_id": mine["account_id"]}, expect=400) == unknown
    assert other_api.post(USAGE, {"account_id": mine["account_id"]}, expect=400) == unknown
    assert transfer(other_api, mine["account_number"], expect=400) == _refusal(
        "40002", "account-not-exist", "clabe: no account of this merchant has this CLABE"
    )
    theirs = other_api.post(USAGE, {}, expect=200)
    assert (theirs["used"], theirs["transfers"]) == (0, [])
    assert row_counts() == before
    assert api.post(QUERY, {"account_id": mine["account_id"]}, expect=200)["status"] == "ACTIVE"
    # The same customer id at another merchant is another customer: its own account.
    other = open_account(other_api)
    assert other["account_id"] != mine["account_id"] and other["account_number"] != mine["account_number"]
    assert [t["account_id"] for t in api.post(USAGE, {}, expect=200)["transfers"]] == [mine["account_id"]]


def test_the_body_app_id_must_be_the_credentials(api, other_api):
    body = {**account(), "app_id": other_api.app_id}
    response = api.client.post(CREATE, json={"timestamp": "2026-11-21 10:00:00", **body}, headers=api.auth)
    assert response.status_code == 400 and response.get_json()["sub_code"] == "app-not-match"


def test_outside_the_sandbox_no_transfer_page_is_handed_out(app, api, monkeypatch):
    monkeypatch.setitem(app.config, "SANDBOX", False)
    opened = open_account(api)
    assert "transfer_url" not in opened
    assert "transfer_url" not in api.post(QUERY, {"account_id": opened["account_id"]}, expect=200)
