"""What a feature's scheduled work looks like to the worker: a job does what is due now and says how much,
on each merchant's own clock."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from sqlalchemy import ColumnElement, true
from sqlalchemy.orm import Session

from . import clock

# A job takes the session and the app's configuration, does what is due now on the sandbox clock and
# answers how many steps it took (0: nothing was due). The worker commits after each job.
Job = Callable[[Session, Mapping[str, Any]], int]

# A scope of rows that share one clock: a condition on the rows' merchant column.
Scope = ColumnElement[bool]


def clock_scopes(merchant_column: Any) -> list[tuple[int | None, Scope]]:
    """The rows on the shared clock (merchant None), then each merchant's that runs its own clock: work on
    a scope's rows inside `clock.merchant(merchant)`, so that its due condition and what its rows write
    follow its clock."""
    offsets = sorted(clock.merchant_offsets())
    shared: Scope = merchant_column.not_in(offsets) if offsets else true()
    return [(None, shared), *((merchant_id, merchant_column == merchant_id) for merchant_id in offsets)]


def on_each_clock(merchant_column: Any, body: Callable[[Scope], int]) -> int:
    """Run `body` once per clock scope, on that scope's clock; answers the steps it took in all."""
    steps = 0
    for merchant_id, scope in clock_scopes(merchant_column):
        with clock.merchant(merchant_id):
            steps += body(scope)
    return steps
