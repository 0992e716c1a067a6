"""A process's PostgreSQL connection budget: how CHECKOUT_DATABASE_CONNECTIONS splits among its pools."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass

# The two side pools, one connection each: the request log's writer is one thread, and the sandbox clock's
# reads and moves take a moment each (a thread waits for another's rather than open a second connection).
REQUEST_LOG = 1
CLOCK = 1
# The connection that listens for changes to what the key check reads (changes.py), in a process with request
# threads on a database that is not behind PgBouncer's transaction pooling.
CHANGES = 1
# Request threads a WSGI server other than `checkout serve` is assumed to run, for the default split.
WSGI_THREADS = 8


class BudgetError(ValueError):
    """A budget too small for the process: it would refuse work rather than wait for a connection."""


@dataclass(frozen=True)
class Budget:
    """The most connections each part of one process opens; `total` is their sum, never exceeded.

    `readers`: connections request threads keep for reads outside any unit of work (the key check, one-statement
    reads; kept.py), one a thread at most. `pool`: the application engine's pool, every unit of work of
    every thread (requests, the worker). `request_log`, `clock`: the side pools; `changes`: the listening
    connection.
    """

    total: int
    threads: int
    worker: bool
    readers: int
    pool: int
    request_log: int
    clock: int
    changes: int = 0

    def describe(self) -> str:
        parts = [f"{self.threads} request threads: {self.readers} kept for reads + {self.pool} pooled"]
        if self.worker:
            parts[0] += " (the worker's included)"
        parts.append(f"{self.request_log} request log")
        if self.clock:
            parts.append(f"{self.clock} sandbox clock")
        if self.changes:
            parts.append(f"{self.changes} listening for key changes")
        return f"database connections: at most {self.total} ({', '.join(parts)})"


def least(threads: int, *, worker: bool, sandbox: bool, listen: bool = False) -> int:
    """The smallest budget that lets every thread have its unit of work at once: below it, threads queue."""
    return 2 * threads + int(worker) + REQUEST_LOG + (CLOCK if sandbox else 0) + (CHANGES if listen else 0)


def split(total: int | None, *, threads: int, worker: bool, sandbox: bool, listen: bool = False) -> Budget:
    """How `total` connections (None: the default, `least`) split; raises BudgetError when fewer than one
    connection would be left for the pool of a process with work to do. `listen`: the process would keep a
    connection listening for changes; a budget with no room for it goes without (the key check then reads)."""
    if listen and total is not None:
        with contextlib.suppress(BudgetError):
            return _parts(total, threads, worker=worker, sandbox=sandbox, listen=True)
        listen = False
    if total is None:
        total = least(threads, worker=worker, sandbox=sandbox, listen=listen)
    return _parts(total, threads, worker=worker, sandbox=sandbox, listen=listen)


def _parts(total: int, threads: int, *, worker: bool, sandbox: bool, listen: bool) -> Budget:
    clock = CLOCK if sandbox else 0
    changes = CHANGES if listen else 0
    side = REQUEST_LOG + clock + changes
    # Each request thread keeps a connection only while the pool keeps as many for units of work; a smaller
    # budget keeps fewer (the other threads read through the pool).
    readers = min(threads, max(0, (total - side - int(worker)) // 2))
    pool = total - side - readers
    smallest = side + 1 + int(worker and threads > 0)
    if pool < 1 + int(worker and threads > 0):
        raise BudgetError(
            f"CHECKOUT_DATABASE_CONNECTIONS={total} is too few: this process needs at least {smallest} "
            f"({side} for its side pools, and its pool one for requests{' and one for the worker' if worker and threads else ''})"
        )
    return Budget(total, threads, worker, readers, pool, REQUEST_LOG, clock, changes)


def parse(value: object) -> int | None:
    """CHECKOUT_DATABASE_CONNECTIONS as configured: unset or empty is the default (None)."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    try:
        number = int(str(value).strip())
    except ValueError:
        raise BudgetError(f"CHECKOUT_DATABASE_CONNECTIONS must be a whole number, not {value!r}") from None
    if number < 1:
        raise BudgetError(f"CHECKOUT_DATABASE_CONNECTIONS must be at least 1, not {number}")
    return number
