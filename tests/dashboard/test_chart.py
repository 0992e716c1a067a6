"""The overview's balance chart: the API's end-of-day figures drawn as SVG, and the same figures as a table."""

from __future__ import annotations

import re
from datetime import timedelta
from decimal import Decimal

from babel import numbers

from checkout import clock
from checkout.dashboard import chart
from checkout.db import db
from checkout.merchants.service import find_by_app_id
from tests import builders

from .helpers import add_user


def shown(figure: str) -> str:
    """A figure as the English dashboard writes it: Babel's en number, as many decimals as the API's."""
    places = len(figure.partition(".")[2])
    return numbers.format_decimal(Decimal(figure), format="#,##0." + "0" * places if places else "#,##0", locale="en")


def points(html: str, currency: str) -> list[tuple[int, int]]:
    found = re.search(rf'id="balance-line-{currency}" data-currency="{currency}" points="([^"]*)"', html)
    return [tuple(int(n) for n in pair.split(",")) for pair in found.group(1).split()]


def table(html: str) -> list[list[str]]:
    body = html.split('id="balance-table"')[1].split("</table>", maxsplit=1)[0]
    return [re.findall(r"<t[hd][^>]*>([^<]*)</t[hd]>", row) for row in re.findall(r"<tr>(.*?)</tr>", body)]


def test_a_fund_then_a_payout_drawn_day_by_day(app, api, payout_api, fund, make_browser):
    add_user(app, api.credentials, "a@shop.example")
    first = clock.as_utc(clock.now()).date()
    fund(api.credentials, "USD", "1000.00")  # day 1
    api.post("/sandbox/clock", {"advance_seconds": 2 * 86400}, expect=200)
    paid = payout_api.post("/payout", builders.payout(amount="100.10", amount_type="source_amount"), expect=200)
    assert paid["code"] == 200
    browser = make_browser()
    browser.log_in("a@shop.example")
    html = browser.get("/dashboard").get_data(as_text=True)

    # The table: 30 days, oldest first, ending on the merchant's business date, to the cent, as the API says.
    rows = table(html)
    assert rows[0] == ["Day (UTC)", "USD"]
    days = [row[0] for row in rows[1:]]
    today = first + timedelta(days=2)
    assert len(days) == 30 and days[-1] == today.isoformat() and days[0] == (today - timedelta(days=29)).isoformat()
    figures = dict(rows[1:])
    history = payout_api.post(
        "/balance/history",
        {"start_date": days[0], "end_date": days[-1], "timestamp": builders.now_unix()},
    )["data"]
    # The API's figures, written in the dashboard's language (en: "1,000.00"), to the cent.
    said = {r["current_day"]: (r["balance"][0]["amount"] if r["balance"] else "—") for r in history}
    assert {day: figure if figure == "—" else shown(figure) for day, figure in said.items()} == figures
    after = said[today.isoformat()]
    assert said[first.isoformat()] == "1000.00" and said[(first + timedelta(days=1)).isoformat()] == "1000.00"
    assert after != "1000.00" and len(after.split(".")[1]) == 2
    assert figures[(first - timedelta(days=1)).isoformat()] == "—"

    # The line starts on day 1 (nothing held before), is flat to day 2, and drops on day 3 (a larger y is lower).
    line = points(html, "USD")
    assert len(line) == 3
    (x1, y1), (x2, y2), (x3, y3) = line
    assert x1 < x2 < x3 and y1 == y2 < y3
    assert 'id="balance-chart"' in html and "<script" not in html.split('id="balance-chart"')[1].split("</svg>")[0]
    assert "style=" not in html


def test_one_line_per_currency_on_a_shared_axis(app, api, fund):
    fund(api.credentials, "USD", "200.00")
    fund(api.credentials, "BRL", "50.25")
    with app.app_context():
        drawn = chart.balance_chart(db.session, find_by_app_id(db.session, api.credentials["app_id"]))
    assert [s.currency for s in drawn.series] == ["BRL", "USD"]
    (brl,) = [s for s in drawn.series if s.currency == "BRL"]
    (usd,) = [s for s in drawn.series if s.currency == "USD"]
    assert brl.amounts[-1] == "50.25" and usd.amounts[-1] == "200.00" and brl.amounts[:-1] == [None] * 29
    assert usd.last[1] < brl.last[1]  # 200.00 is drawn above 50.25
    assert [label for _y, label in drawn.y_ticks] == ["0.00", "50.00", "100.00", "150.00", "200.00"]
    assert drawn.y_ticks[0][0] == drawn.bottom and drawn.y_ticks[-1][0] == drawn.top
    assert usd.last[1] == drawn.top and drawn.x_ticks[-1][0] == drawn.right


def test_no_balance_means_no_chart(app, api, make_browser):
    add_user(app, api.credentials, "a@shop.example")
    browser = make_browser()
    browser.log_in("a@shop.example")
    html = browser.get("/dashboard").get_data(as_text=True)
    assert 'id="balance-chart-empty"' in html and "No balance in the last 30 days." in html
    assert "<svg" not in html


def test_the_chart_follows_the_merchants_own_clock(app, api, other_api, fund):
    other_api.post("/sandbox/clock", {"advance_seconds": 5 * 86400}, expect=200)
    fund(other_api.credentials, "USD", "1.00")
    with app.app_context():
        drawn = chart.balance_chart(db.session, find_by_app_id(db.session, other_api.credentials["app_id"]))
        mine = chart.balance_chart(db.session, find_by_app_id(db.session, api.credentials["app_id"]))
    assert drawn.days[-1] == clock.as_utc(clock.real_now()).date() + timedelta(days=5)
    assert drawn.series[0].amounts[-1] == "1.00" and mine.empty
