"""The overview's balance chart: the last 30 end-of-day balances per currency, as SVG coordinates and a table."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from decimal import ROUND_CEILING, ROUND_FLOOR, Decimal

from sqlalchemy.orm import Session

from .. import clock, money
from ..merchants.models import Merchant
from ..payouts import balances

DAYS = 30
# The drawing's own units (the viewBox): the SVG scales to its box; the plot leaves room for the labels.
WIDTH, HEIGHT = 640, 260
LEFT, RIGHT, TOP, BOTTOM = 72, 56, 16, 40
TICKS = 4


@dataclass(frozen=True)
class Series:
    currency: str
    amounts: list[str | None]  # per day, oldest first, to the cent as the API prints it (None: not held yet)
    points: str  # the polyline's "x,y x,y ..." over the days it was held
    last: tuple[int, int]  # where its label goes


@dataclass(frozen=True)
class Chart:
    days: list[date]  # oldest first
    series: list[Series]
    y_ticks: list[tuple[int, str]]  # (y, amount)
    x_ticks: list[tuple[int, str]]  # (x, date)
    width: int = WIDTH
    height: int = HEIGHT
    left: int = LEFT
    right: int = WIDTH - RIGHT
    top: int = TOP
    bottom: int = HEIGHT - BOTTOM

    @property
    def empty(self) -> bool:
        return not self.series


def _step(span: Decimal) -> Decimal:
    """A round tick step (1, 2 or 5 times a power of ten) giving about TICKS ticks over `span`."""
    raw = span / TICKS
    power = Decimal(1).scaleb(raw.adjusted())
    return next(m * power for m in (Decimal(1), Decimal(2), Decimal(5), Decimal(10)) if m * power >= raw)


def balance_chart(session: Session, merchant: Merchant, days: int = DAYS) -> Chart:
    """End-of-day available balances of the merchant's last `days` business dates (UTC days of its clock),
    read through the same function as POST /api/balance/history, so both show the same figures.

    Currencies share one axis in their major units (a balance is not converted: 10.00 USD and 10.00 BRL
    are drawn at one height), which keeps every figure on the axis exactly what the table says."""
    with clock.merchant(merchant.id):
        today = clock.as_utc(clock.now()).date()
    start = today - timedelta(days=days - 1)
    records = list(reversed(balances.history(session, merchant, start, today)))
    day_list = [date.fromisoformat(r["current_day"]) for r in records]
    held: dict[str, list[str | None]] = {}
    for index, record in enumerate(records):
        for line in record["balance"]:
            held.setdefault(line["currency"], [None] * len(records))[index] = line["amount"]
    values = [Decimal(a) for amounts in held.values() for a in amounts if a is not None]
    if not values:
        return Chart(days=day_list, series=[], y_ticks=[], x_ticks=[])
    low, high = min(Decimal(0), *values), max(Decimal(0), *values)
    step = _step(high - low) if high > low else Decimal(1)
    low = (low / step).to_integral_value(ROUND_FLOOR) * step
    high = max((high / step).to_integral_value(ROUND_CEILING) * step, low + step)
    plot_w, plot_h = WIDTH - RIGHT - LEFT, HEIGHT - BOTTOM - TOP

    def x(index: int) -> int:
        return LEFT + index * plot_w // max(1, len(records) - 1)

    def y(value: Decimal) -> int:
        return TOP + int(((high - value) * plot_h / (high - low)).to_integral_value())

    series = []
    for currency in sorted(held):
        amounts = held[currency]
        coords = [(x(i), y(Decimal(a))) for i, a in enumerate(amounts) if a is not None]
        series.append(Series(currency, amounts, " ".join(f"{px},{py}" for px, py in coords), coords[-1]))
    exponent = max(money.exponent(c) for c in held)
    ticks = []
    value = low
    while value <= high:
        ticks.append((y(value), f"{value:.{exponent}f}"))
        value += step
    marks = sorted({0, *range(7, len(records) - 3, 7), len(records) - 1})  # none crowding the last
    return Chart(
        days=day_list,
        series=series,
        y_ticks=ticks,
        x_ticks=[(x(i), day_list[i].strftime("%m-%d")) for i in marks],
    )
