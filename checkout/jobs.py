"""What a feature's scheduled work looks like to the worker: a job does what is due now and says how much,
on each merchant's own clock."""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from sqlalchemy import BigInteger, ColumnElement, all_, any_, cast, func, literal, select, true
from sqlalchemy.dialects import postgresql
from sqlalchemy.orm import Session

from . import clock

# A job takes the session and the app's configuration, does what is due now on the sandbox clock and
# answers how many steps it took (0: nothing was due). The worker commits after each job.
Job = Callable[[Session, Mapping[str, Any]], int]

# A scope of rows that share one clock: a condition on the rows' merchant column.
Scope = ColumnElement[bool]


@dataclass(frozen=True)
class Due:
    """What makes a job's rows due, for finding the merchants on clocks of their own that have any: the rows
    matching `where` whose `column` has reached `value()` on their merchant's clock (no column: every row
    matching `where` is due). The job's own query must find nothing more: what a Due misses is never done
    for those merchants (one that finds more only costs a query for a merchant with nothing due)."""

    where: tuple[ColumnElement[bool], ...]
    column: Any = None
    value: Callable[[], date] = clock.now


def clock_scopes(session: Session, merchant_column: Any, *due: Due) -> list[tuple[int | None, Scope]]:
    """The rows on the shared clock (merchant None), then those of each merchant that runs its own clock and
    has rows due (by any of `due`): work on a scope's rows inside `clock.merchant(merchant)`, so that its
    due condition and what its rows write follow its clock.

    A round costs the same however many merchants moved their clocks: one query per `due` finds those with
    work (none in an idle round), and only they get queries of their own."""
    offsets = clock.merchant_offsets()
    own = sorted(offsets)
    shared: Scope = _among(session, merchant_column, own, within=False) if own else true()
    scopes: list[tuple[int | None, Scope]] = [(None, shared)]
    if own:
        furthest = max(own, key=offsets.__getitem__)
        found = _with_work(session, merchant_column, _among(session, merchant_column, own), furthest, due)
        scopes += [(merchant_id, merchant_column == merchant_id) for merchant_id in found]
    return scopes


def _among(session: Session, column: Any, ids: list[int], *, within: bool = True) -> ColumnElement[bool]:
    """`column IN ids` (`NOT IN` when not `within`), the ids as one parameter (a PostgreSQL array, a JSON array
    in SQLite): the statement and the work of building, sending and planning it stay the same however many
    ids. The negation is written out (`!= ALL`), not `~`: SQLAlchemy before 2.0.25 negated `= ANY` into
    `!= ANY`, true for nearly every row."""
    listed = _listed(tuple(ids))
    if session.get_bind().dialect.name == "postgresql":
        array = cast(literal("{" + listed + "}"), postgresql.ARRAY(BigInteger))
        return column == any_(array) if within else column != all_(array)
    ids_table = select(func.json_each(literal("[" + listed + "]")).table_valued("value").c.value)
    return column.in_(ids_table) if within else column.not_in(ids_table)


@functools.lru_cache(maxsize=4)  # the same merchants, round after round, until a clock moves
def _listed(ids: tuple[int, ...]) -> str:
    return ",".join(str(int(i)) for i in ids)


def _with_work(session: Session, merchant_column: Any, own: Scope, furthest: int, due: tuple[Due, ...]) -> list[int]:
    """The merchants of `own` (each on a clock of its own; `furthest` the one furthest ahead) with a row
    due on its clock."""
    found: set[int] = set()
    for each in due:
        if each.column is None:
            found.update(session.scalars(select(merchant_column).where(own, *each.where).distinct()))
            continue
        with clock.merchant(furthest):
            bound = each.value()
        # Each merchant's earliest row up to the clock furthest ahead (a bound an index on the column serves);
        # whether that row is due is then judged on its own merchant's clock.
        earliest = select(merchant_column, func.min(each.column)).where(own, *each.where, each.column <= bound)
        for merchant_id, first in session.execute(earliest.group_by(merchant_column)):
            with clock.merchant(merchant_id):
                if _comparable(first) <= each.value():
                    found.add(merchant_id)
    return sorted(found)


def _comparable(value: date) -> date:
    """A moment read back from SQLite comes without its zone (stored as UTC); a day is a day."""
    return clock.as_utc(value) if isinstance(value, datetime) else value


def on_each_clock(session: Session, merchant_column: Any, body: Callable[[Scope], int], *due: Due) -> int:
    """Run `body` once per clock scope (see clock_scopes), on that scope's clock; answers the steps it took
    in all."""
    steps = 0
    for merchant_id, scope in clock_scopes(session, merchant_column, *due):
        with clock.merchant(merchant_id):
            steps += body(scope)
    return steps
