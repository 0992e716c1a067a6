"""The payments list: one merchant's trades, newest first, by keyset pages, with filters and a search."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from html import unescape

import pytest
from babel import dates
from sqlalchemy import update

from checkout.db import db
from checkout.payins.models import Trade
from tests import builders


def rows(html: str) -> list[str]:
    """The out_trade_no of each listed trade, in the page's order."""
    return re.findall(r'<tr class="payment-row">.*?</td>\s*<td><code>([^<]*)</code>', html, re.S)


def older_link(html: str) -> str | None:
    found = re.search(r'id="page-older" rel="next" href="([^"]+)"', html)
    return unescape(found.group(1)) if found else None


def set_created(app, at: datetime, *out_trade_nos: str) -> None:
    with app.app_context():
        db.session.execute(update(Trade).where(Trade.out_trade_no.in_(out_trade_nos)).values(created_at=at))
        db.session.commit()


def pix(api, out_trade_no: str, **overrides) -> str:
    return api.post("/trade/pay", builders.direct("PIX", out_trade_no, **overrides), expect=200)["trade_no"]


def test_pages_of_50_newest_first_neither_repeat_nor_drop_trades_made_at_one_instant(app, api, other_api, alice):
    names = [f"o-{n:02d}" for n in range(53)]
    for name in names:
        pix(api, name)
    pix(other_api, "theirs")
    instant = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)
    # Every trade but the first at one instant: the page boundary falls among equal created_at values.
    set_created(app, instant, *names[1:])
    set_created(app, instant - timedelta(hours=1), names[0])

    first = alice.get("/dashboard/payments")
    html = first.get_data(as_text=True)
    assert first.status_code == 200
    assert rows(html) == list(reversed(names[1:]))[:50]
    assert "theirs" not in html and 'id="page-newest"' not in html
    # The moment in the user's language, on the UTC column's 24-hour clock ("Nov 20, 2026 12:00").
    assert f"{dates.format_skeleton('yMMMd', instant, locale='en')} 12:00</time>" in html and "R$100.50" in html
    link = older_link(html)
    assert link is not None and link.startswith("/dashboard/payments?after=")

    second = alice.get(link).get_data(as_text=True)
    assert rows(second) == ["o-02", "o-01", "o-00"]
    assert older_link(second) is None
    assert 'id="page-newest" href="/dashboard/payments"' in second


def test_exactly_one_page_offers_no_older_link(app, api, alice):
    for n in range(50):
        pix(api, f"o-{n:02d}")
    html = alice.get("/dashboard/payments").get_data(as_text=True)
    assert len(rows(html)) == 50 and older_link(html) is None


def test_paging_keeps_the_filters(app, api, alice):
    for n in range(52):
        pix(api, f"o-{n:02d}")
    api.post("/trade/pay", builders.direct("Boleto", "boleto-1"), expect=200)
    html = alice.get("/dashboard/payments?method=PIX&language=pt-BR").get_data(as_text=True)
    link = older_link(html)
    assert "method=PIX" in link and "language=pt-BR" in link
    assert rows(alice.get(link).get_data(as_text=True)) == ["o-01", "o-00"]


def test_filters_by_status_method_and_utc_days(app, api, alice):
    paid, waiting = pix(api, "paid"), pix(api, "waiting")
    api.post(f"/sandbox/trades/{paid}/pay", expect=200)
    api.post("/trade/pay", builders.direct("Boleto", "boleto-1"), expect=200)
    set_created(app, datetime(2026, 11, 1, 0, 0, tzinfo=UTC), "paid")
    set_created(app, datetime(2026, 11, 2, 23, 59, 59, tzinfo=UTC), "waiting")
    set_created(app, datetime(2026, 11, 3, 0, 0, tzinfo=UTC), "boleto-1")

    def listed(query: str) -> list[str]:
        answer = alice.get(f"/dashboard/payments?{query}")
        assert answer.status_code == 200, query
        return rows(answer.get_data(as_text=True))

    assert listed("") == ["boleto-1", "waiting", "paid"]
    assert listed("status=SUCCESS") == ["paid"]
    assert listed("status=PROCESSING") == ["boleto-1", "waiting"]
    assert listed("method=Boleto") == ["boleto-1"]
    assert listed("method=PIX&status=PROCESSING") == ["waiting"]
    # Both days included, in UTC.
    assert listed("date_from=2026-11-01&date_to=2026-11-02") == ["waiting", "paid"]
    assert listed("date_from=2026-11-02") == ["boleto-1", "waiting"]
    assert listed("date_to=2026-11-01") == ["paid"]
    assert listed("status=&method=&date_from=&date_to=&q=") == ["boleto-1", "waiting", "paid"]
    assert listed("date_from=0001-01-01&date_to=9999-12-31") == ["boleto-1", "waiting", "paid"]
    assert waiting


def test_the_search_finds_a_trade_by_either_number_or_its_start(app, api, other_api, alice):
    mine = pix(api, "order-7")
    pix(api, "order-77")
    theirs = pix(other_api, "order-8")
    assert rows(alice.get(f"/dashboard/payments?q={mine}").get_data(as_text=True)) == ["order-7"]
    assert rows(alice.get("/dashboard/payments?q=order-7").get_data(as_text=True)) == ["order-77", "order-7"]
    assert rows(alice.get("/dashboard/payments?q=+order-77+").get_data(as_text=True)) == ["order-77"]
    for query in (theirs, "order-8", "ORDER", "rder", "order_", "order%"):
        html = alice.get(f"/dashboard/payments?q={query}").get_data(as_text=True)
        assert rows(html) == [] and "No payments match these filters." in html


@pytest.mark.parametrize(
    ("query", "field", "message"),
    [
        ("status=PAID", "filter-status", "Choose a status from the list."),
        ("method=Bitcoin", "filter-method", "Choose a method from the list."),
        ("date_from=2026-13-01", "filter-from", "Enter a date as YYYY-MM-DD."),
        ("date_to=yesterday", "filter-to", "Enter a date as YYYY-MM-DD."),
        ("date_from=2026-11-02&date_to=2026-11-01", "filter-to", "The end date must not be before the start date."),
        ("q=" + "x" * 65, "filter-q", "At most 64 characters."),
        ("q=a%00b", "filter-q", "This field must not contain NUL characters."),
    ],
)
def test_a_bad_filter_answers_the_page_with_the_error_at_its_field(api, alice, query, field, message):
    pix(api, "order-1")
    answer = alice.get(f"/dashboard/payments?{query}")
    html = answer.get_data(as_text=True)
    assert answer.status_code == 400
    assert f'<p class="error" id="{field}-error">{message}</p>' in html
    [control] = re.findall(rf'<(?:input|select)[^>]*\bid="{field}"[^>]*>', html)
    assert re.search(rf'aria-describedby="[^"]*\b{field}-error"', control) and 'aria-invalid="true"' in control
    assert rows(html) == []


@pytest.mark.parametrize(
    "after",
    [
        "garbage",
        "MjAyNi0xMS0yMFQxMjowMDowMHwtMQ",  # 2026-11-20T12:00:00|-1
        "%00",
        "MjAyNi0xMS0yMHwx",  # 2026-11-20|1 (no time zone)
        "MDAwMS0wMS0wMVQwMDowMDowMCswNTowMHwx",  # 0001-01-01T00:00:00+05:00|1 (before year 1 in UTC)
        "MjAyNi0xMS0yMFQxMjowMDowMCswMDowMHw5OTk5OTk5OTk5OTk5OTk5OTk5OQ",  # an id beyond any integer column
    ],
)
def test_a_page_link_it_did_not_make_answers_a_page(api, alice, after):
    pix(api, "order-1")
    answer = alice.get(f"/dashboard/payments?after={after}")
    assert answer.status_code == 400
    html = answer.get_data(as_text=True)
    assert 'id="page-error"' in html and "This page link is not valid." in html


def test_empty_states(app, api, alice):
    html = alice.get("/dashboard/payments").get_data(as_text=True)
    assert "No payments yet." in html and 'id="payments-table"' not in html
    pix(api, "order-1")
    assert "No payments match these filters." in alice.get("/dashboard/payments?status=REFUNDED").get_data(as_text=True)


def test_the_list_needs_a_login(client):
    answer = client.get("/dashboard/payments")
    assert answer.status_code == 302 and "/dashboard/login" in answer.headers["Location"]


def test_the_overview_links_recent_payments_to_their_pages(app, api, alice, payout_api):
    trade_no = pix(api, "order-1")
    html = alice.get("/dashboard").get_data(as_text=True)
    assert f'<a href="/dashboard/payments/{trade_no}"><code>{trade_no}</code></a>' in html


@pytest.mark.parametrize(
    ("language", "words"),
    [("pt-BR", ["Pagamentos", "Mostrar pagamentos"]), ("es-MX", ["Pagos", "Mostrar pagos"])],
)
def test_the_list_speaks_the_chosen_language(api, alice, language, words):
    pix(api, "order-1")
    html = alice.get(f"/dashboard/payments?language={language}").get_data(as_text=True)
    for word in words:
        assert word in html
