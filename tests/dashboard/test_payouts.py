"""The payouts pages: the list with filters and keyset paging, a payout's page and the bank's refund."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from sqlalchemy import select, update

from checkout.db import db
from checkout.payouts.models import Payout
from tests import builders
from tests.conftest import Api

from .helpers import Browser, add_user


def submit(payout_api, custom_code: str, **overrides) -> str:
    return payout_api.post("/payout", builders.payout(custom_code, **overrides), expect=200)["data"]["transaction_id"]


def paid(api, payout_api, fund, custom_code: str = "po-1", **overrides) -> str:
    fund(payout_api.credentials, "USD", "1000.00")
    tid = submit(payout_api, custom_code, **overrides)
    api.post("/sandbox/clock", {"advance_seconds": 360}, expect=200)
    return tid


def set_created(app, transaction_ids: list[str], at: datetime) -> None:
    with app.app_context():
        db.session.execute(update(Payout).where(Payout.transaction_id.in_(transaction_ids)).values(created_at=at))
        db.session.commit()


def listed(html: str) -> list[str]:
    return re.findall(r'<tr class="payout-row" id="payout-([^"]+)"', html)


def next_link(html: str) -> str | None:
    found = re.search(r'id="payouts-next" rel="next" href="([^"]+)"', html)
    return found.group(1).replace("&amp;", "&") if found else None


def payout_status(app, transaction_id: str) -> str:
    with app.app_context():
        return db.session.scalar(select(Payout.status).where(Payout.transaction_id == transaction_id))


def test_the_list_pages_newest_first_without_repeats_or_gaps(app, payout_api, fund, alice):
    fund(payout_api.credentials, "USD", "10000.00")
    tids = [submit(payout_api, f"po-{n}", amount="10.00") for n in range(63)]
    set_created(app, tids[:3], datetime(2026, 11, 19, 12, 0, tzinfo=UTC))
    set_created(app, tids[3:], datetime(2026, 11, 20, 12, 0, tzinfo=UTC))  # 60 at one instant, across the boundary
    first = alice.get("/dashboard/payouts").get_data(as_text=True)
    expected = list(reversed(tids[3:])) + list(reversed(tids[:3]))
    assert listed(first) == expected[:50]
    second = alice.get(next_link(first))
    assert second.status_code == 200
    html = second.get_data(as_text=True)
    assert listed(html) == expected[50:]
    assert next_link(html) is None
    # Filters are kept from one page to the next.
    filtered = alice.get("/dashboard/payouts?method=PIX&status=IN_PROCESSING").get_data(as_text=True)
    link = next_link(filtered)
    assert "method=PIX" in link and "status=IN_PROCESSING" in link
    assert listed(alice.get(link).get_data(as_text=True)) == expected[50:]


def test_columns_to_the_cent(payout_api, fund, alice):
    fund(payout_api.credentials, "USD", "1000.00")
    tid = submit(payout_api, "po-1")
    html = alice.get("/dashboard/payouts").get_data(as_text=True)
    row = re.search(rf'<tr class="payout-row" id="payout-{tid}">(.*?)</tr>', html, re.S).group(1)
    assert f'href="/dashboard/payouts/{tid}"' in row
    assert "<code>po-1</code>" in row and "<td>PIX</td>" in row
    assert '<span class="status status-IN_PROCESSING">Processing</span>' in row
    # What the merchant's balance sent (the fee borne by the merchant on top) and what arrives.
    assert '<td class="num">$101.38</td>' in row and '<td class="num">R$537.30</td>' in row


def test_filters_and_search(app, api, payout_api, other_payout_api, fund, alice):
    pix = paid(api, payout_api, fund, "po-pix")
    fund(payout_api.credentials, "USD", "1000.00")
    spei = payout_api.post("/payout", builders.spei_payout("po-mx"), expect=200)["data"]["transaction_id"]
    old = submit(payout_api, "po-old", amount="20.00")
    set_created(app, [old], datetime(2026, 10, 1, 23, 59, tzinfo=UTC))
    set_created(app, [pix], datetime(2026, 10, 2, 0, 0, tzinfo=UTC))
    set_created(app, [spei], datetime(2026, 10, 3, 12, 0, tzinfo=UTC))
    fund(other_payout_api.credentials, "USD", "1000.00")
    theirs = submit(other_payout_api, "po-theirs")

    def shown(query: str) -> list[str]:
        answer = alice.get(f"/dashboard/payouts{query}")
        assert answer.status_code == 200, answer.get_data(as_text=True)
        return listed(answer.get_data(as_text=True))

    assert shown("") == [spei, pix, old]
    assert shown("?status=PAID") == [pix]
    assert shown("?status=IN_PROCESSING") == [spei, old]
    assert shown("?method=SPEI") == [spei]
    assert shown("?first_day=2026-10-02") == [spei, pix]
    assert shown("?last_day=2026-10-01") == [old]
    assert shown("?first_day=2026-10-02&last_day=2026-10-02") == [pix]
    assert shown(f"?q={spei}") == [spei]
    assert shown("?q=po-old") == [old]
    assert shown(f"?q={theirs}") == [] and shown("?q=po-theirs") == []


@pytest.mark.parametrize(
    "query",
    [
        "?status=DONE",
        "?method=CARRIER_PIGEON",
        "?first_day=2026-13-01",
        "?last_day=yesterday",
        "?first_day=2026-10-03&last_day=2026-10-02",
        "?before=%00%01",
    ],
)
def test_bad_filters_answer_a_page(alice, query):
    answer = alice.get(f"/dashboard/payouts{query}")
    assert answer.status_code == 400
    assert 'class="error"' in answer.get_data(as_text=True)


def test_a_payouts_page_shows_the_apis_figures(api, payout_api, fund, alice):
    tid = paid(api, payout_api, fund)
    detail = payout_api.post("/payout/detail", {"transaction_id": tid, "timestamp": builders.now_unix()}, expect=200)[
        "data"
    ]
    html = alice.get(f"/dashboard/payouts/{tid}").get_data(as_text=True)
    assert 'id="payout-status">Paid</span> <span class="muted">(<code>PAID</code>)' in html
    assert f'id="payout-source-amount">{detail["source_amount"]} USD<' in html
    assert f'id="payout-arrival-amount">{detail["arrival_amount"]} BRL<' in html
    for key in ("fee", "tax", "settlement_amount", "exchange_rate", "bank_id"):
        assert detail[key] in html
    assert "CPF •••• 4705" in html and builders.CPF not in html  # the payee's key and document, masked
    assert "payout.notification" in html and 'id="payout-refund-form"' in html
    assert '<a href="/dashboard/payouts" aria-current="page">' in html  # the navigation's section


def test_the_bank_refunds_in_part_then_the_rest_to_the_cent(app, api, payout_api, fund, alice):
    tid = paid(api, payout_api, fund)  # 537.30 BRL arrived
    page = f"/dashboard/payouts/{tid}"
    answer = alice.submit(f"{page}/refund", {"amount": "100.01"}, form_at=page)
    assert answer.status_code == 302 and answer.headers["Location"] == page
    assert payout_status(app, tid) == "PARTIAL_REFUNDED"
    html = alice.get(page).get_data(as_text=True)
    assert re.search(
        r"The recipient&#39;s bank sent back R\$100\.01 \(D\w+\)\. Payout: Refunded in part by the bank\.<", html
    )
    assert "Refunded R$100.01 of R$537.30; R$437.29 left" in html
    assert alice.submit(f"{page}/refund", {"amount": ""}, form_at=page).status_code == 302
    assert payout_status(app, tid) == "REFUNDED"
    with app.app_context():
        payout = db.session.scalar(select(Payout).where(Payout.transaction_id == tid))
        assert [r.arrival_minor for r in payout.refunds] == [10001, 43729]
    statuses = [
        (d["payload"]["status"], d["payload"].get("refunded_amount"))
        for d in reversed(api.get("/sandbox/deliveries")["deliveries"])
        if d["subject"] == tid
    ]
    assert statuses == [
        ("PAID", None),
        ("PARTIAL_REFUNDED", "100.01"),
        ("PARTIAL_REFUNDED", "437.29"),
        ("REFUNDED", None),
    ]


def test_a_full_refund_at_once(app, api, payout_api, fund, alice):
    tid = paid(api, payout_api, fund)
    assert alice.submit(f"/dashboard/payouts/{tid}/refund", {}, form_at=f"/dashboard/payouts/{tid}").status_code == 302
    assert payout_status(app, tid) == "REFUNDED"
    html = alice.get(f"/dashboard/payouts/{tid}").get_data(as_text=True)
    assert "537.30 BRL" in html and 'id="payout-refund-form"' not in html


@pytest.mark.parametrize(("amount", "shown"), [("537.31", "invalid-parameter"), ("1.001", "at most 2 decimal places")])
def test_a_refund_the_service_refuses_is_answered_on_the_page(
    app, api, payout_api, fund, alice, row_counts, amount, shown
):
    tid = paid(api, payout_api, fund)
    before = row_counts()
    answer = alice.submit(f"/dashboard/payouts/{tid}/refund", {"amount": amount}, form_at=f"/dashboard/payouts/{tid}")
    assert answer.status_code == 400
    html = answer.get_data(as_text=True)
    assert 'id="payout-refused"' in html and shown in html
    assert row_counts() == before and payout_status(app, tid) == "PAID"


def test_a_malformed_amount_is_a_form_error(app, api, payout_api, fund, alice, row_counts):
    tid = paid(api, payout_api, fund)
    before = row_counts()
    answer = alice.submit(f"/dashboard/payouts/{tid}/refund", {"amount": "12,34"}, form_at=f"/dashboard/payouts/{tid}")
    assert answer.status_code == 400
    assert 'aria-describedby="payout-refund-amount-error payout-refund-help"' in answer.get_data(as_text=True)
    assert row_counts() == before


def test_an_unpaid_payout_is_refused_on_the_page(app, payout_api, fund, alice, row_counts):
    fund(payout_api.credentials, "USD", "1000.00")
    tid = submit(payout_api, "po-1")
    html = alice.get(f"/dashboard/payouts/{tid}").get_data(as_text=True)
    assert 'id="payout-refund-form"' not in html
    before = row_counts()
    answer = alice.submit(f"/dashboard/payouts/{tid}/refund", {}, form_at=f"/dashboard/payouts/{tid}")
    assert answer.status_code == 400 and "payout-status-invalid" in answer.get_data(as_text=True)
    assert row_counts() == before


def test_another_merchants_payout_is_not_found_and_nothing_is_written(
    app, client, other_payout_api, fund, alice, row_counts
):
    theirs = paid(Api(client, other_payout_api.credentials), other_payout_api, fund, "po-theirs")
    assert alice.get(f"/dashboard/payouts/{theirs}").status_code == 404
    assert alice.get("/dashboard/payouts/TS000").status_code == 404
    before = row_counts()
    for data in ({}, {"amount": "1.00"}, {"amount": "bad"}):
        answer = alice.submit(f"/dashboard/payouts/{theirs}/refund", data, form_at="/dashboard/payouts")
        assert answer.status_code == 404
    assert row_counts() == before and payout_status(app, theirs) == "PAID"


def test_the_refund_needs_the_csrf_token(app, api, payout_api, fund, alice, row_counts):
    tid = paid(api, payout_api, fund)
    before = row_counts()
    answer = alice.client.post(
        f"/dashboard/payouts/{tid}/refund", data={"amount": "1.00"}, environ_base={"REMOTE_ADDR": alice.address}
    )
    assert answer.status_code == 400
    assert row_counts() == before


def test_with_the_sandbox_off_there_is_no_refund(app, api, payout_api, fund, app_with, row_counts):
    tid = paid(api, payout_api, fund)
    add_user(app, api.credentials, "a@shop.example")
    browser = Browser(app_with(SANDBOX=False).test_client())
    browser.log_in("a@shop.example")
    page = browser.get(f"/dashboard/payouts/{tid}")
    assert page.status_code == 200 and 'id="payout-refund-form"' not in page.get_data(as_text=True)
    before = row_counts()
    answer = browser.submit(f"/dashboard/payouts/{tid}/refund", {}, form_at="/dashboard/payouts")
    assert answer.status_code == 404
    assert row_counts() == before


def test_the_overview_links_recent_payouts(payout_api, fund, alice):
    fund(payout_api.credentials, "USD", "1000.00")
    tid = submit(payout_api, "po-1")
    assert f'href="/dashboard/payouts/{tid}"' in alice.get("/dashboard").get_data(as_text=True)
